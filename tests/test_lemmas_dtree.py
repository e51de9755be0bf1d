"""The discrimination tree of the lemma table: keys, retrieval, time independent of size."""

from __future__ import annotations

import itertools
import random
import time

from transted.pipeline.opt import parse_term
from transted.pipeline.opt.node import Node
from transted.pipeline.search.lemmas.dtree import STAR, DiscriminationTree, pattern_keys
from transted.pipeline.search.lemmas.unify import match_lemma


def _keys(text: str, variables: str = "") -> tuple[str, ...]:
    return pattern_keys(parse_term(text), set(variables.split()).__contains__)


def test_keys_are_the_preorder_with_stars_for_variables():
    assert _keys("a + 0", "a") == ("<SLOT> + <SLOT>", STAR, "0")
    assert _keys("Nat.choose n 2", "n") == ("Nat.choose <SLOT> <SLOT>", STAR, "2")
    # an applied variable is one star (higher-order: left to unification)
    assert _keys("f x + 1", "f x") == ("<SLOT> + <SLOT>", STAR, "1")


def test_bound_names_and_binders_are_stars():
    keys = _keys("∑ i ∈ Finset.range n, i ^ 2", "n")
    assert keys == ("∑ <SLOT> ∈ <SLOT>, <SLOT>", STAR, "Finset.range <SLOT>", STAR,
                    "<SLOT> ^ <SLOT>", STAR, "2")


def _brute_force(patterns: list[tuple[Node, frozenset[str]]], term: Node) -> set[int]:
    """Indices of the patterns whose keys are compatible with the term, by walking both."""
    out = set()
    for i, (p, variables) in enumerate(patterns):
        keys = list(pattern_keys(p, variables.__contains__))
        if _compatible(keys, [term]):
            out.add(i)
    return out


def _compatible(keys: list[str], todo: list[Node]) -> bool:
    if not keys:
        return not todo
    if not todo:
        return False
    head, rest = keys[0], keys[1:]
    term, others = todo[0], todo[1:]
    if head == STAR:
        return _compatible(rest, others)
    return head == term.label and _compatible(rest, list(term.children) + others)


_PATTERNS = ["a + 0", "0 + a", "a + b", "a * 1", "a * (b + c)", "Nat.choose n 2",
             "Nat.choose n 1", "Real.log (x * y)", "Real.exp (Real.log x)", "a - a",
             "a ^ 2", "Real.sqrt (x ^ 2)", "(a + b) * c", "a + b + c"]
_VARS = "a b c n x y"


def test_retrieval_is_exactly_the_compatible_keys():
    patterns = [(parse_term(t), frozenset(_VARS.split())) for t in _PATTERNS]
    tree: DiscriminationTree[int] = DiscriminationTree()
    for i, (p, variables) in enumerate(patterns):
        tree.insert(pattern_keys(p, variables.__contains__), i)
    terms = ["x + 0", "(u + v) * w", "Nat.choose k 2", "Real.log (2 * z)", "q ^ 2",
             "Real.exp (Real.log 3)", "m - m", "m - k", "1 + 2 + 3", "Real.sqrt (t ^ 2)"]
    for text in terms:
        term = parse_term(text)
        got = sorted(tree.retrieve(term))
        assert got == sorted(_brute_force(patterns, term)), text
        # every pattern that unifies is among those retrieved (retrieval loses none)
        for i, (p, variables) in enumerate(patterns):
            if match_lemma(p, term, variables) is not None:
                assert i in got, (text, _PATTERNS[i])
    assert sorted(tree.retrieve(parse_term("x + 0"))) == [0, 2]


def test_retrieval_time_does_not_grow_with_the_number_of_keys():
    """A term's lookup walks the branches its own symbols take: 100x more stored lemmas
    under unrelated heads leave its time unchanged (within noise)."""
    rng = random.Random(0)
    heads = [f"F{i} <SLOT> <SLOT>" for i in range(20_000)]

    def build(n: int) -> DiscriminationTree[int]:
        tree: DiscriminationTree[int] = DiscriminationTree()
        tree.insert(("<SLOT> + <SLOT>", STAR, "0"), -1)
        for i in range(n):
            tree.insert((rng.choice(heads), STAR, str(i % 7)), i)
        return tree

    term = parse_term("x + 0")

    def timed(tree: DiscriminationTree[int]) -> float:
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(2000):
                tree.retrieve(term)
            best = min(best, time.perf_counter() - start)
        return best

    small, large = build(1_000), build(100_000)
    assert large.retrieve(term) == [-1] == small.retrieve(term)
    assert timed(large) < 3 * timed(small)


def test_insertion_order_is_kept_for_equal_keys():
    tree: DiscriminationTree[str] = DiscriminationTree()
    for name in ("b", "a", "c"):
        tree.insert(("<SLOT> + <SLOT>", STAR, STAR), name)
    assert tree.retrieve(parse_term("x + y")) == ["b", "a", "c"]
    assert list(itertools.chain(tree.retrieve(parse_term("x * y")))) == []
