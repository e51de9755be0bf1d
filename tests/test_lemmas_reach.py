"""Where the lemma moves rewrite: at a difference between the goal's sides or one level above it
(``providers/lemmas.py``, ``REACH``), a cast or an ascription not counting as a level; and the
rewrites the issue asked for still close their goals there."""

from __future__ import annotations

from functools import lru_cache

import pytest

import transted
from transted.budget import Budget
from transted.pipeline.opt import parse_statement_normalized, parse_term
from transted.pipeline.opt.mathlib import load_index
from transted.pipeline.opt.node import Node
from transted.pipeline.search.lemmas.instances import InstanceOracle
from transted.pipeline.search.lemmas.rewrite import (
    SideRewriter,
    _positions_in,
    difference_heights,
)
from transted.pipeline.search.lemmas.table import load_table
from transted.pipeline.search.pattern import positions, subtree_hashes
from transted.pipeline.search.providers.lemmas import REACH
from transted.reading.pairs import Pair, Statement


def _subterms(tree: Node) -> dict[int, list[Node]]:
    hashes = subtree_hashes(tree)
    out: dict[int, list[Node]] = {}
    for _, node in positions(tree):
        out.setdefault(hashes[id(node)], []).append(node)
    return out


def _heights(side: str, other: str) -> dict[str, int]:
    tree = parse_term(side)
    found = difference_heights(tree, subtree_hashes(tree), _subterms(parse_term(other)))
    assert found is not None
    return {str(node): found[id(node)] for _, node in positions(tree) if id(node) in found}


def test_a_difference_is_a_subterm_whose_children_the_other_side_has():
    heights = _heights("Real.exp (Real.log x) = 2", "x = 2")
    log, exp = str(parse_term("Real.log x")), str(parse_term("Real.exp (Real.log x)"))
    assert heights == {log: 0, exp: 1, str(parse_term("Real.exp (Real.log x) = 2")): 2}


def test_a_leaf_the_other_side_lacks_is_a_difference_and_shared_subterms_are_left_out():
    heights = _heights("f a b", "f c b")
    assert heights == {str(parse_term("a")): 0, str(parse_term("f a b")): 1}


def test_casts_and_ascriptions_are_not_a_level_and_a_type_is_not_a_child():
    # after `← Real.rpow_natCast` the side reads `2 ^ ((3 : ℕ) : ℝ)` against `2 ^ (3 : ℝ)`:
    # `Real.rpow_natCast` must still reach the `^` (the issue's own rpow example)
    heights = _heights("(2 : ℝ) ^ ((3 : ℕ) : ℝ)", "(2 : ℝ) ^ (3 : ℝ)")
    assert heights[str(parse_term("(3 : ℕ)"))] == 0
    assert heights[str(parse_term("((3 : ℕ) : ℝ)"))] == 0
    assert heights[str(parse_term("(2 : ℝ) ^ ((3 : ℕ) : ℝ)"))] == 1
    assert "ℕ" not in heights


@pytest.mark.parametrize(("side", "other"), [
    ("Real.exp (Real.log x) = 2", "x = 2"),
    ("(2 : ℝ) ^ ((3 : ℕ) : ℝ)", "(2 : ℝ) ^ (3 : ℝ)"),
    ("∀ n : ℕ, f (n + 1) = f n + (2 : ℤ)", "∀ n : ℕ, f n + 2 = f (n + 1)"),
    ("a * b + c = c + a * b", "a * b + c = c + a * b"),
    ("Nat.choose n 2 = 5", "n * (n - 1) / 2 = 5"),
])
def test_the_rewriter_walks_the_positions_near_a_difference_in_position_order(side, other):
    # the walk that does not go below a subterm of the other side gives the same positions, in
    # the same order, as every position filtered by its height (what the rewriter did before)
    tree = parse_term(side)
    hashes = subtree_hashes(tree)
    inside: set[int] = set()
    near = difference_heights(tree, hashes, _subterms(parse_term(other)), None, inside)
    assert near is not None
    for reach in (0, 1, 2):
        def wanted(node: Node, reach: int = reach) -> bool:
            return near.get(id(node), reach + 1) <= reach
        every = [(path, node) for path, node in positions(tree) if wanted(node)]
        walked = [(path, node) for path, node in _positions_in(tree, inside) if wanted(node)]
        assert [(p, id(n)) for p, n in walked] == [(p, id(n)) for p, n in every]


def test_a_subterm_object_under_a_shared_one_and_elsewhere_is_still_walked():
    # one object at two positions (a rewrite's instantiation shares its values): below a
    # subterm the other side has, and again where the sides differ
    x = parse_term("x + 1")
    tree = Node("∧", (Node("f", (x,)), Node("g", (x,))))
    other = Node("∧", (Node("f", (parse_term("x + 1"),)), Node("h", ())))
    hashes = subtree_hashes(tree)
    inside: set[int] = set()
    near = difference_heights(tree, hashes, _subterms(other), None, inside)
    assert near is not None
    every = [(p, id(n)) for p, n in positions(tree) if id(n) in near]
    walked = [(p, id(n)) for p, n in _positions_in(tree, inside) if id(n) in near]
    assert walked == every
    assert walked  # `g (x + 1)` and its parent differ from the other side


@lru_cache(maxsize=1)
def _rewriter() -> SideRewriter:
    return SideRewriter(load_table(), InstanceOracle(load_index()))


def _names(side: str, other: str, reach: int | None) -> set[tuple[str, tuple[int, ...]]]:
    tree = parse_statement_normalized(side).tree
    shared = _subterms(parse_statement_normalized(other).tree)
    found = _rewriter().rewrites(tree, {}, Budget(), shared=shared, reach=reach) or []
    return {(r.lemma.name, r.path) for r in found}


def test_the_skeleton_above_the_difference_is_not_rewritten():
    side = "theorem t : ∀ n : ℕ, 0 < n → (Finset.range n).card = n := sorry"
    other = "theorem t : ∀ n : ℕ, 0 < n → n = n := sorry"
    everywhere = _names(side, other, None)
    near = _names(side, other, REACH)
    assert any(name == "imp_iff_not_or" for name, _ in everywhere)  # at the `→`
    assert not any(name == "imp_iff_not_or" for name, _ in near)
    assert any(name == "Finset.card_range" for name, _ in near)
    assert near < everywhere


_H = "import Mathlib\n"
ISSUE_EXAMPLES = [
    ("Nat.choose_two_right", "(n : ℕ) : Nat.choose n 2 = 10", "(n : ℕ) : n * (n - 1) / 2 = 10"),
    ("Finset.card_range", "(n : ℕ) : (Finset.range n).card = 5", "(n : ℕ) : n = 5"),
    ("Real.rpow_ofNat", "(y : ℝ) (h : y = (2 : ℝ) ^ (3 : ℝ)) : y = 8",
     "(y : ℝ) (h : y = (2 : ℝ) ^ 3) : y = 8"),
    ("Nat.gcd_comm", "(a : ℕ) (h : Nat.gcd a 12 = 4) : a % 4 = 0",
     "(a : ℕ) (h : Nat.gcd 12 a = 4) : a % 4 = 0"),
    ("Real.log_mul", "(x y : ℝ) (hx : 0 < x) (hy : 0 < y) : Real.log (x * y) = 1",
     "(x y : ℝ) (hx : 0 < x) (hy : 0 < y) : Real.log x + Real.log y = 1"),
    ("Real.exp_log", "(x : ℝ) (hx : 0 < x) : Real.exp (Real.log x) = 2",
     "(x : ℝ) (hx : 0 < x) : x = 2"),
]


@lru_cache(maxsize=1)
def _metric():  # noqa: ANN202
    return transted.load_metric("transted", providers="offline,lemmas,decide")


@pytest.mark.parametrize(("lemma", "reference", "candidate"), ISSUE_EXAMPLES,
                         ids=[e[0] for e in ISSUE_EXAMPLES])
def test_the_issues_examples_are_closed_by_their_lemma(lemma, reference, candidate):
    pair = Pair(id=lemma, reference=Statement(statement=f"theorem t {reference} := sorry",
                                              header=_H),
                candidate=Statement(statement=f"theorem t {candidate} := sorry", header=_H))
    result = _metric().score_pair(pair)
    details = result.details or {}
    assert details.get("status") == "found", details.get("script")
    assert result.score == 1.0
    assert any(lemma in step for step in details.get("script", [])), details.get("script")


def test_a_cast_around_a_shared_term_is_a_difference_its_parent_does_not_count():
    # `Real.log_rpow` at `Real.log (x ^ (3 : ℝ))` against `3 * Real.log x` (corpus
    # rw-conditional/14): the pow is the difference, the log one level above
    heights = _heights("Real.log (x ^ (3 : ℝ))", "3 * Real.log x")
    assert heights[str(parse_term("(3 : ℝ)"))] == 0
    assert heights[str(parse_term("x ^ (3 : ℝ)"))] == 0
    assert heights[str(parse_term("Real.log (x ^ (3 : ℝ))"))] == 1


def test_the_heights_stop_when_the_pairs_budget_is_spent():
    tree = parse_term("Real.exp (Real.log x) = 2")
    assert difference_heights(tree, subtree_hashes(tree), _subterms(parse_term("x = 2")),
                              Budget(0, None)) is None


def test_the_rank_gain_is_the_change_in_labels_shared_with_the_other_side():
    # the rank reads only the labels a rewrite changes; the gain must be the difference of
    # the shared-label counts of the new and the old subterm, read in full
    from collections import Counter

    from transted.pipeline.search.providers.lemmas import LemmaProvider, _rank
    side = "theorem t (n : ℕ) (x : ℝ) : Nat.choose n 2 + (Finset.range n).card = n ∧ x * 1 ≤ x := sorry"
    other = "theorem t (n : ℕ) (x : ℝ) : n * (n - 1) / 2 + n = n ∧ x ≤ x := sorry"
    tree = parse_statement_normalized(side).tree
    wanted = Counter(parse_statement_normalized(other).tree.labels())
    found = _rewriter().rewrites(tree, {}, Budget(), shared=_subterms(
        parse_statement_normalized(other).tree), reach=REACH) or []
    assert len(found) > 10
    provider = LemmaProvider()

    def shared(labels: Counter[str]) -> int:
        return sum(min(n, wanted[label]) for label, n in labels.items())

    for order, rewrite in enumerate(found):
        gain = shared(Counter(rewrite.new.labels())) - shared(Counter(rewrite.old.labels()))
        key = _rank(rewrite, provider._change(rewrite.old, rewrite.new), wanted, "lhs", order)
        assert key[0] == -gain
        assert key[1] == rewrite.new.size() - rewrite.old.size()


def _provider_goals(provider, pair_text: tuple[str, str]) -> int:  # noqa: ANN001
    """How many of a search's expanded goals ``provider`` yields moves at (the search runs the
    provider alone, as the metric runs it after the offline moves)."""
    from transted.pipeline.search.engine import SearchConfig, search

    asked = []
    moves = provider.moves

    def counting(state, budget):  # noqa: ANN001, ANN202
        found = list(moves(state, budget))
        asked.append(len(found))
        yield from found

    provider.moves = counting
    lhs, rhs = (parse_statement_normalized(t).tree for t in pair_text)
    search(lhs, rhs, [provider], config=SearchConfig(max_expansions=8))
    return sum(1 for n in asked if n)


def test_lemma_moves_come_at_the_first_goals_a_search_expands_only():
    from transted.pipeline.search.providers.lemmas import EXPANSIONS, LemmaProvider
    texts = ("theorem t (x : ℝ) (h : 0 < x) : Real.exp (Real.log (x * 1)) = 2 ∧ x * 1 = x := sorry",
             "theorem t (x : ℝ) (h : 0 < x) : x + 0 = 2 ∧ 1 * x = x + 0 := sorry")
    assert _provider_goals(LemmaProvider(expansions=8), texts) > 2
    for k in (0, 1, 2):
        assert _provider_goals(LemmaProvider(expansions=k), texts) == k
    # a second search with the same provider counts afresh (its own budget)
    provider = LemmaProvider(expansions=2)
    assert _provider_goals(provider, texts) == 2
    assert _provider_goals(provider, texts) == 2
    assert "expansions:4" in LemmaProvider().options()["lemmas"] and EXPANSIONS == 4
    with pytest.raises(ValueError, match="lemmas.expansions"):
        LemmaProvider(expansions=-1)


@pytest.mark.parametrize("value", [2.5, "two", True, -1])
def test_a_bad_lemma_option_is_refused_by_name(value):
    from transted.pipeline.search.providers.base import ProviderContext
    from transted.pipeline.search.providers.lemmas import LemmaProvider
    with pytest.raises(ValueError, match="lemmas.expansions"):
        LemmaProvider.from_context(ProviderContext(extra={"lemmas.expansions": value}))
    assert LemmaProvider.from_context(ProviderContext(extra={"lemmas.expansions": "3"})
                                      ).expansions == 3
