"""The `decide` move provider: closing moves by decision procedures, vacuity guard at search level."""

from transted.metrics.transted import TransTEDSimilarity
from transted.pipeline.opt import parse_statement
from transted.pipeline.search.providers.procedures import DecisionProvider
from transted.pipeline.search.providers.registry import make_provider
from transted.pipeline.search.state import State
from transted.reading.pairs import Pair


def _pair(ref: str, cand: str) -> Pair:
    return Pair(id="p", reference={"statement": ref}, candidate={"statement": cand})


def test_registry_builds_decide():
    assert isinstance(make_provider("decide"), DecisionProvider)


def test_two_true_numeric_facts_are_not_closed():
    m = TransTEDSimilarity(providers="offline,decide", evidence=False)
    res = m.score_pair(_pair("theorem a : 2 + 2 = 4", "theorem b : 3 * 3 = 9"))
    assert res.details["status"] != "found"
    assert res.score < 1.0


def test_even_vs_mod_closes_via_omega():
    m = TransTEDSimilarity(providers="congruence,decide", evidence=False)
    res = m.score_pair(_pair("theorem a (n : ℕ) (h : Even n) : P n",
                             "theorem b (n : ℕ) (h : n % 2 = 0) : P n"))
    assert res.details["status"] == "found" and res.score == 1.0
    closing = res.details["script"][-1]
    assert "omega" in closing and closing.startswith("exact propext (by ")
    assert res.details["script"][-1] != "rfl"  # the closing tactic ends the script


def test_without_decide_the_same_pair_is_not_closed():
    m = TransTEDSimilarity(providers="congruence", evidence=False)
    res = m.score_pair(_pair("theorem a (n : ℕ) (h : Even n) : P n",
                             "theorem b (n : ℕ) (h : n % 2 = 0) : P n"))
    assert res.details["status"] != "found"


def test_closed_whole_statements_yield_no_move():
    from transted.budget import Budget
    p = DecisionProvider()
    lhs, rhs = parse_statement("theorem a : 2 + 2 = 4"), parse_statement("theorem b : 3 * 3 = 9")
    assert list(p.moves(State(lhs, rhs), Budget())) == []


def test_spent_budget_yields_nothing():
    from transted.budget import Budget
    p = DecisionProvider()
    lhs = parse_statement("theorem a (x : ℝ) : 3 * x = 6")
    rhs = parse_statement("theorem a (x : ℝ) : x + x + x = 6")
    budget = Budget(max_work=0)
    assert list(p.moves(State(lhs, rhs), budget)) == []


# -- the metric: evidence fields and score rule ------------------------------------------
def test_refuted_pair_scores_zero_and_keeps_the_graded_score():
    m = TransTEDSimilarity()
    res = m.score_pair(_pair("theorem a (n : ℕ) (h : 2 ≤ n) : n ^ 2 ≥ 4",
                             "theorem b (n : ℕ) (h : 2 ≤ n) : n ^ 2 ≥ 5"))
    assert res.details["evidence"] == "refuted"
    detail = res.details["evidence_detail"]
    assert detail["failing_side"] == "candidate" and detail["witness"] == {"n": "2"}
    assert res.score == 0.0 and 0.5 < res.details["graded_score"] < 1.0
    assert "ms" not in detail  # timings would make result lines differ between runs
    assert res.verdict == "not-equivalent" or res.verdict is None


def test_evidence_off_keeps_the_graded_score():
    m = TransTEDSimilarity(evidence=False)
    res = m.score_pair(_pair("theorem a (n : ℕ) (h : 2 ≤ n) : n ^ 2 ≥ 4",
                             "theorem b (n : ℕ) (h : 2 ≤ n) : n ^ 2 ≥ 5"))
    assert res.details["evidence"] == "none"
    assert res.score == res.details["graded_score"] > 0.5
    assert "|evidence:off" in str(m.signature)


def test_signature_names_the_rule_and_the_engines():
    sig = str(TransTEDSimilarity().signature)
    assert "metric:transted" in sig and "|v:3|" in sig
    assert "refuted-cap:0" in sig and "rlimit:200000" in sig and "ref:assume" in sig
    assert "decide@1" in sig
    assert "ref:prove" in str(TransTEDSimilarity(assume_reference=False).signature)


def test_proved_pair_scores_one():
    m = TransTEDSimilarity(providers="congruence")
    res = m.score_pair(_pair("theorem a (x : ℝ) : 3 * x = 6 ↔ x = 2",
                             "theorem b (x : ℝ) : x + x + x = 6 ↔ x = 2"))
    assert res.details["evidence"] == "proved" and res.score == 1.0
    assert "ring_nf" in res.details["evidence_detail"]["tactics"]


def test_provider_findings_are_merged_into_the_evidence_fields():
    from transted.pipeline.evidence import Evidence
    from transted.pipeline.search.providers.base import Provider

    class Refuter(Provider):
        name, version = "fake-lean", "1"

        def moves(self, state, budget):
            return iter(())

        def evidence(self):
            return [Evidence(kind="refuted", engine=self.name, witness={"x": "3"},
                             script=["plausible"], reason="3 ≠ 4")]

    m = TransTEDSimilarity(providers="congruence", evidence=False)
    m.providers.append(Refuter())
    res = m.score_pair(_pair("theorem a (x : ℕ) : x + 1 = 1 + x",
                             "theorem b (x : ℕ) : x + 1 = 2 + x"))
    assert res.details["evidence"] == "refuted" and res.score == 0.0
    d = res.details["evidence_detail"]
    assert (d["engine"], d["witness"], d["script"], d["reason"]) == (
        "fake-lean", {"x": "3"}, ["plausible"], "3 ≠ 4")


def test_conflicting_findings_give_none():
    from transted.pipeline.evidence import Evidence
    from transted.pipeline.search.providers.base import Provider

    class Liar(Provider):
        name, version = "liar", "1"

        def moves(self, state, budget):
            return iter(())

        def evidence(self):
            return [Evidence(kind="proved", engine=self.name, reason="says so")]

    m = TransTEDSimilarity(providers="congruence")
    m.providers.append(Liar())
    res = m.score_pair(_pair("theorem a (n : ℕ) (h : 2 ≤ n) : n ^ 2 ≥ 4",
                             "theorem b (n : ℕ) (h : 2 ≤ n) : n ^ 2 ≥ 5"))
    assert res.details["evidence"] == "none"
    assert "conflicting evidence" in res.details["evidence_detail"]["reason"]
    assert res.score == res.details["graded_score"]


def test_evidence_respects_the_pairs_deadline():
    # a deadline spent before the engines run: the pair ends as a timeout, with no score (a
    # graded score without its evidence would be another answer than on an idle machine)
    m = TransTEDSimilarity(max_time=1e-6)
    res = m.score_pair(_pair("theorem a (n : ℕ) (h : 2 ≤ n) : n ^ 2 ≥ 4",
                             "theorem b (n : ℕ) (h : 2 ≤ n) : n ^ 2 ≥ 5"))
    assert (res.status, res.score, res.verdict) == ("timeout", None, None)
    assert res.error == "timeout: the pair passed max_time (1e-06 s)"


def test_a_kept_side_elaboration_lowers_to_the_terms_a_fresh_translation_gives():
    # the decide provider lowers the search's kept side elaborations (elaborated_side) instead
    # of elaborating each side again: the same locals must give the same term, or none
    from functools import partial

    from transted.pipeline.evidence.decide import decide_trees
    from transted.pipeline.evidence.terms import Unsupported
    from transted.pipeline.evidence.translate import lower_prop, translate_prop
    from transted.pipeline.opt import parse_term
    from transted.pipeline.opt.elaborate.types import Ty
    from transted.pipeline.opt.node import Node
    from transted.pipeline.search.elaborated import elaborated_side

    outer = {"n": Node("ℕ"), "x": Node("ℝ"), "s": Node("Finset ℕ", (Node("ℕ"),)), "q": None}
    env = {"n": Ty("ℕ"), "x": Ty("ℝ")}
    sides = ["n % 2 = 0", "x ^ 2 + 1 > 0", "(n : ℝ) ≤ x", "n ∈ s", "Real.log x = 0",
             "∀ k : ℕ, k < n → k ≤ n", "q"]
    terms = []
    for text in sides:
        side = parse_term(text)
        try:
            fresh = translate_prop(side, env)
        except Unsupported:
            fresh = None
        try:
            kept = lower_prop(elaborated_side(side, outer))
        except Unsupported:
            kept = None
        assert kept == fresh, text
        terms.append((side, fresh))
    assert [t is not None for _, t in terms] == [True, True, True, False, False, True, False]
    a, b = terms[0][0], parse_term("Even n")
    assert decide_trees(a, b, outer, elaborated=partial(elaborated_side, outer=outer)) == \
        decide_trees(a, b, outer) is not None
