"""The verdict rule in its one home (transted.pipeline.verdict.rules): result lines, eval predictions
and the regression gate call the same pairs equivalent; evidence, then residual edits, then the
(fallback) threshold; shipped thresholds per convention."""

from __future__ import annotations

import numpy as np
import pytest

from transted.metrics.registry import get_metric
from transted.pipeline.verdict.rules import (
    decide,
    forced_decision,
    format_residual,
    load_decision_rules,
    make_verdict,
    passes,
    rule_for,
)
from transted.reading.pairs import read_pairs
from transted.studies.evaluation.threshold import apply_evidence, predict
from transted.studies.regression.compare import PairDelta, Regression
from transted.studies.regression.gate import check_regression

DEV = "tests/data/gted/proofnet.jsonl"


def _edit(role: str, discharged: str | None = None, cls: str = "relation") -> dict[str, object]:
    return {"op": "rename", "where": "conclusion", "class": cls, "reference": "· < ·",
            "candidate": "· ≤ ·", "role": role, "why": None, "discharged_by": discharged}


def test_verdicts_and_evidence_override():
    assert make_verdict(0.8, binary=False, threshold=0.7) == ("equivalent", "threshold")
    assert make_verdict(0.6, binary=False, threshold=0.7) == ("not-equivalent", "threshold")
    assert make_verdict(None, binary=False, threshold=0.7) == (None, None)
    assert make_verdict(0.9, binary=False, threshold=None) == (None, None)
    assert make_verdict(0.0, binary=True, threshold=None) == ("not-equivalent", "binary")
    assert make_verdict(0.1, binary=False, threshold=0.7, evidence="proved") == \
        ("equivalent", "evidence")
    assert make_verdict(0.99, binary=False, threshold=0.7, evidence="refuted") == \
        ("not-equivalent", "evidence")


def test_the_rule_in_order():
    meaning, untrusted = _edit("meaning"), _edit("untrusted", cls="constant")
    presentational = _edit("presentational", cls="universe")
    # 1. an invalid candidate is not equivalent, whatever its score or evidence
    d = decide(0.99, {"evidence": "proved"}, binary=False, threshold=0.5, status="invalid")
    assert (d.verdict, d.decided_by) == ("not-equivalent", "invalid")
    # 2. evidence beats the edits
    d = decide(0.1, {"evidence": "proved", "residual": [meaning]}, binary=False, threshold=0.5)
    assert (d.verdict, d.decided_by) == ("equivalent", "evidence")
    # 3. an undischarged meaning edit decides, whatever the score; even beside untrusted ones
    d = decide(0.99, {"residual": [untrusted, meaning]}, binary=False, threshold=0.5)
    assert (d.verdict, d.decided_by) == ("not-equivalent", "edits")
    assert "meaning edit (conclusion, relation: · < · → · ≤ ·)" in (d.reason or "")
    # a discharged meaning edit does not count; only presentational edits left → equivalent
    d = decide(0.2, {"residual": [_edit("meaning", "implied by …"), presentational]},
               binary=False, threshold=0.5)
    assert (d.verdict, d.decided_by) == ("equivalent", "edits")
    assert decide(0.2, {"residual": []}, binary=False, threshold=0.5).verdict == "equivalent"
    # 4. an untrusted edit falls back to the threshold, with the reason; no threshold → null
    d = decide(0.6, {"residual": [untrusted, presentational]}, binary=False, threshold=0.5)
    assert (d.verdict, d.decided_by) == ("equivalent", "threshold")
    assert d.reason is not None and d.reason.startswith("fallback to the threshold")
    d = decide(0.4, {"residual": [untrusted]}, binary=False, threshold=0.5)
    assert (d.verdict, d.decided_by) == ("not-equivalent", "threshold")
    assert decide(0.6, {"residual": [untrusted]}, binary=False, threshold=None).verdict is None
    # 5. a binary metric's score is its own verdict
    assert decide(1.0, {}, binary=True, threshold=None).decided_by == "binary"


def test_lenient_is_the_threshold_rule_plus_evidence():
    details = {"residual": [_edit("meaning")]}
    d = decide(0.9, details, binary=False, threshold=0.5, convention="lenient")
    assert (d.verdict, d.decided_by) == ("equivalent", "threshold")
    d = decide(0.9, {**details, "evidence": "refuted"}, binary=False, threshold=0.5,
               convention="lenient")
    assert (d.verdict, d.decided_by) == ("not-equivalent", "evidence")
    with pytest.raises(ValueError, match="convention"):
        decide(0.9, details, binary=False, threshold=0.5, convention="loose")
    assert forced_decision(details, convention="lenient").verdict is None


def test_signature_carries_convention_verdict_rule_and_threshold_fields():
    for name in ("ted", "bleu", "transted"):
        metric = get_metric(name)
        sig = str(metric.signature)
        assert "|convention:strict|verdict:" in sig
        rule = rule_for(name, str(metric.base_signature))
        assert f"|threshold:{rule.field()}" in sig if rule else "|threshold:none" in sig
        lenient = get_metric(name, convention="lenient")
        assert "|convention:lenient|" in str(lenient.signature)
        assert lenient.base_signature != metric.base_signature  # one threshold per convention
    assert "verdict:edits@8-residual-v1-" in str(get_metric("transted").signature)
    assert "verdict:threshold@8" in str(get_metric("bleu").signature)
    assert "threshold" not in str(get_metric("identity").signature)  # a verdict metric
    assert all(r.convention in ("strict", "lenient") for r in load_decision_rules())


def test_result_lines_carry_residual_and_a_verdict_from_the_rule():
    pair = read_pairs(DEV)[0]
    metric = get_metric("ted")
    result = metric.score_pair(pair)
    rule = metric.decision_rule()
    residual = result.details["residual"]
    assert isinstance(residual, list) and residual
    assert {"op", "where", "class", "reference", "candidate", "role", "why",
            "discharged_by"} == set(residual[0])
    want = decide(result.score, result.details, binary=False,
                  threshold=rule.threshold if rule else None)
    assert (result.verdict, result.decided_by) == (want.verdict, want.decided_by)
    assert format_residual(residual)


def test_predict_convention_and_errors() -> None:
    assert predict([0.2, 0.5, 0.7, np.nan], 0.5).tolist() == [False, True, True, False]


def test_every_verdict_path_applies_the_same_rule_at_the_boundary():
    scores = [0.69, 0.7, 0.71, None]
    threshold = 0.7
    # by the rule score >= threshold: below, equal, above, missing
    want = [False, True, True, False]
    lines = [make_verdict(s, binary=False, threshold=threshold)[0] == "equivalent" for s in scores]
    evals = predict([np.nan if s is None else s for s in scores], threshold).tolist()
    reg = Regression("m", "metric:m", "old", "new",
                     [PairDelta(str(i), 1.0, s, "same") for i, s in enumerate(scores)], [], [], [])
    gate = check_regression(reg, fail_on="verdict-flip", threshold=threshold, n_boot=10)
    flipped = {int(i) for i in gate.flipped_down}  # old 1.0 is equivalent: a flip = new is not
    assert lines == evals == [i not in flipped for i in range(4)] == want
    assert passes(0.7, 0.7) and not passes(0.6999, 0.7)


def test_gate_threshold_is_a_fallback_the_rule_decides_first():
    """A pair the edits decide keeps that verdict whatever --threshold says."""
    deltas = [PairDelta("a", 0.9, 0.95, "improved", new_forced=False),  # edits: not equivalent
              PairDelta("b", 0.9, 0.2, "worse", old_forced=True, new_forced=True),
              PairDelta("c", 0.9, 0.2, "worse")]                       # threshold decides
    reg = Regression("m", "metric:m", "old", "new", deltas, [], [], [])
    gate = check_regression(reg, fail_on="verdict-flip", threshold=0.5, n_boot=10)
    assert gate.flipped_down == ["a", "c"] and "fallback threshold 0.5" in str(gate.verdict_source)


def test_evidence_overrides_predictions_and_is_counted():
    verdicts, n = apply_evidence(np.array([False, True, True, False]),
                                 ["proved", "refuted", None, {"not": "a kind"}])
    assert verdicts.tolist() == [True, False, True, False] and n == 2


def test_a_candidate_lean_certainly_rejects_is_not_equivalent():
    # issue 31 cause 4: `n * 0.25` with n : ℕ needs OfScientific ℕ, which does not exist
    from transted.metrics.registry import get_metric
    from transted.reading.pairs import Pair, Statement

    def pair(ref: str, cand: str) -> Pair:
        return Pair(id="p", reference=Statement(statement=f"theorem t (n : ℕ) (h : n = 4) : {ref}"),
                    candidate=Statement(statement=f"theorem t (n : ℕ) (h : n = 4) : {cand}"))

    for metric in ("ted", "transted"):
        result = get_metric(metric).score_pair(pair("(n : ℝ) * 0.25 = 1", "n * 0.25 = 1"))
        assert (result.verdict, result.decided_by) == ("not-equivalent", "invalid")
        assert result.details["rejected"]["kind"] == "missing-instance"
        assert forced_decision(result.details).verdict == "not-equivalent"  # read back
    # a short name the header may resolve elsewhere (`abs` on ℂ) is not certain: no rejection
    ok = get_metric("ted").score_pair(Pair(
        id="q", reference=Statement(statement="theorem t (z : ℂ) : abs z = abs z"),
        candidate=Statement(statement="theorem t (z : ℂ) : abs z = abs z")))
    assert "rejected" not in ok.details
    # nor is an operator whose operands' type comes from such a name: under `open Complex`,
    # `abs z ≤ ‖z‖` is Lean's `Complex.abs z ≤ ‖z‖` (the reading that elaborates), not a
    # missing `LE ℂ` (pnv/335/proofnet_sharp of the strict dev set, labelled equivalent)
    header = "import Mathlib\nopen Complex"
    via_open = get_metric("ted").score_pair(Pair(
        id="r", reference=Statement(statement="theorem t (z : ℂ) : ‖z‖ ≤ ‖z‖", header=header),
        candidate=Statement(statement="theorem t (z : ℂ) : abs z ≤ ‖z‖", header=header)))
    assert "rejected" not in via_open.details and via_open.decided_by != "invalid"
    # notation is no name: `|n - 5|` over ℕ is still certainly rejected (no `AddGroup ℕ`)
    notation = get_metric("ted").score_pair(Pair(
        id="s", reference=Statement(statement="theorem t (n : ℕ) : |(n : ℤ) - 5| = 2"),
        candidate=Statement(statement="theorem t (n : ℕ) : |n - 5| = 2")))
    assert notation.decided_by == "invalid"
