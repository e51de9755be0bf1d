"""ProofNetBLEU against the published per-pair BLEU of the GTED ProofNet dev set."""

from __future__ import annotations

import pytest

from transted.metrics.bleu import ProofNetBLEU
from transted.metrics.registry import get_metric
from transted.reading.pairs import Pair, Statement, read_pairs

DATA = "tests/data/gted/proofnet.jsonl"


@pytest.fixture(scope="module")
def pairs() -> list[Pair]:
    return read_pairs(DATA)


def matches(metric: ProofNetBLEU, pairs: list[Pair]) -> int:
    return sum(abs(metric.score_pair(p).score - p.meta["published_scores"]["bleu"]) <= 1e-6
               for p in pairs)


def test_reproduces_all_93_published_scores(pairs: list[Pair]) -> None:
    assert len(pairs) == 93
    assert matches(get_metric("bleu"), pairs) == 93


@pytest.mark.parametrize("options", [{"rename": ""}, {"source": "pretty"}, {"smoothing": 2}])
def test_other_settings_do_not_reproduce_them(pairs: list[Pair], options: dict) -> None:
    # The published setting is pinned down: changing any of its parts loses most matches.
    assert matches(ProofNetBLEU(**options), pairs) < 20


def test_smoothing_matters_exactly_where_unsmoothed_bleu_is_zero(pairs: list[Pair]) -> None:
    # Without smoothing, BLEU is 0 as soon as one n-gram order has no match (NLTK returns a
    # value near 1e-78 there); method4 only changes those pairs, so those (and only those)
    # miss the published value.
    plain = ProofNetBLEU(smoothing=0)
    zero = {p.id for p in pairs if plain.score_pair(p).score < 1e-50}
    wrong = {p.id for p in pairs
             if abs(plain.score_pair(p).score - p.meta["published_scores"]["bleu"]) > 1e-6}
    assert zero and wrong == zero


def test_identical_statements_score_one_and_names_do_not_count() -> None:
    p = Pair(id="x", reference=Statement(statement="theorem a (x y : ℕ) : x + y = y + x := by sorry"),
             candidate=Statement(statement="theorem b (x y : ℕ) : x + y = y + x := by sorry"))
    assert ProofNetBLEU().score_pair(p).score == pytest.approx(1.0)
    assert ProofNetBLEU(rename="").score_pair(p).score < 1.0


def test_short_candidate_is_scored_not_an_error() -> None:
    p = Pair(id="x", reference=Statement(statement="theorem a : 1 + 1 = 2 := by sorry"),
             candidate=Statement(statement="theorem b : True"))
    result = ProofNetBLEU().score_pair(p)
    assert result.status == "ok" and 0.0 <= result.score < 0.5


def test_missing_pretty_is_a_pair_error() -> None:
    p = Pair(id="x", reference=Statement(statement="theorem a : True"),
             candidate=Statement(statement="theorem b : True"))
    result = ProofNetBLEU(source="pretty").score_pair(p)
    assert result.score is None and "pretty" in (result.error or "")


def test_signature_names_the_setting() -> None:
    sig = str(ProofNetBLEU().signature)
    assert "smooth:method4" in sig and "tok:whitespace" in sig and "nltk:" in sig


@pytest.mark.parametrize("options", [{"source": "header"}, {"smoothing": 9}])
def test_bad_options(options: dict) -> None:
    with pytest.raises(ValueError, match="ProofNetBLEU"):
        ProofNetBLEU(**options)
