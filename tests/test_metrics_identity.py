"""IdentityMatch: ASSESS §4.2 identity baseline (whitespace removed, theorem names -> thm)."""

from __future__ import annotations

import pytest

from transted.metrics.identity import IdentityMatch, declared_name, rename_theorem
from transted.metrics.registry import get_metric
from transted.reading.pairs import Pair, Statement, read_pairs

DATA = "tests/data/gted/proofnet.jsonl"


def pair(ref: str, cand: str) -> Pair:
    return Pair(id="p", reference=Statement(statement=ref), candidate=Statement(statement=cand))


@pytest.mark.parametrize(("statement", "name"), [
    ("theorem foo (x : ℕ) : x = x := by sorry", "foo"),
    ("theorem foo: True := trivial", "foo"),
    ("lemma Nat.foo' {n : ℕ} : n = n := rfl", "Nat.foo'"),
    ("  @[simp] protected theorem a_b₁ (h : p) : p := h", "a_b₁"),
    ("theorem foo⦃x : ℕ⦄ : x = x := rfl", "foo"),
    ("example : 1 = 1 := rfl", None),
    ("", None),
])
def test_declared_name(statement: str, name: str | None) -> None:
    assert declared_name(statement) == name


def test_rename_touches_only_the_declaration() -> None:
    src = "theorem foo (foo_h : foo_bar) : foo_h = foo_h := by sorry"
    assert rename_theorem(src) == "theorem thm (foo_h : foo_bar) : foo_h = foo_h := by sorry"
    assert rename_theorem("example : True := trivial") == "example : True := trivial"


@pytest.mark.parametrize(("ref", "cand", "expected"), [
    ("theorem a (x : ℕ) : x = x := by sorry", "theorem b (x:ℕ) :x=x := by sorry", 1.0),
    ("theorem a (x : ℕ) : x = x := by sorry", "theorem a (y : ℕ) : y = y := by sorry", 0.0),
    ("theorem a : 1 + 1 = 2 := by sorry", "theorem a : 1 + 1 = 2 := by\n  sorry", 1.0),
])
def test_identity_cases(ref: str, cand: str, expected: float) -> None:
    result = IdentityMatch().score_pair(pair(ref, cand))
    assert result.score == expected
    assert result.signature == str(IdentityMatch().signature)


def test_keeping_names_distinguishes_them() -> None:
    p = pair("theorem a : True := trivial", "theorem b : True := trivial")
    assert IdentityMatch(rename="").score_pair(p).score == 0.0


def test_empty_candidate_is_an_invalid_answer_and_empty_reference_an_error() -> None:
    result = IdentityMatch().score_pair(pair("theorem a : True := trivial", "   "))
    assert result.score is None and result.status == "invalid"  # issue 34: an answer
    assert result.verdict == "not-equivalent" and "the output is empty" in (result.error or "")
    broken = IdentityMatch().score_pair(pair("   ", "theorem a : True := trivial"))
    assert broken.score is None and broken.status == "error"
    assert "reference" in (broken.error or "")


def test_agrees_with_published_identity_match_on_every_dev_pair() -> None:
    metric = get_metric("identity")
    assert metric.binary
    for p in read_pairs(DATA):
        assert metric.score_pair(p).score == float(p.meta["published_scores"]["identity_match"])


def test_bad_option_type() -> None:
    with pytest.raises(TypeError, match="rename"):
        IdentityMatch(rename=None)  # type: ignore[arg-type]
