"""FOL-BLEU (transted.fol.bleu): hand-computed cases and nltk as an oracle on FOLIO."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import pytest
from nltk.translate.bleu_score import sentence_bleu

from transted.fol.bleu import bleu_from_tokens, fol_bleu
from transted.fol.tokens import fol_tokens
from transted.metrics.registry import get_metric
from transted.reading.pairs import Pair, Statement

FOLIO = Path(__file__).parent / "data" / "fol" / "folio" / "folio-validation.jsonl"


def test_paper_001_eel_sample_by_hand():
    # Figure 2 of paper 001: label ∀x (Eel(x) → Fish(x)), sample 1 ∀x (E(x) → F(x)).
    # 13 tokens each; clipped matches 11/13, 8/12, 5/11, 2/10 (counted by hand); BP = 1.
    result = fol_bleu("∀x (Eel(x) → Fish(x))", "∀x (E(x) → F(x))")
    assert result.precisions == pytest.approx((11 / 13, 8 / 12, 5 / 11, 2 / 10))
    assert result.score == pytest.approx((11 / 13 * 8 / 12 * 5 / 11 * 2 / 10) ** 0.25)
    assert fol_bleu("∀x (Eel(x) → Fish(x))", "∀x (Eel(x) → Fish(x))").score == 1.0


@pytest.mark.parametrize("ref, cand, expected, order", [
    ("¬P(a)", "P(a)", math.exp(1 - 5 / 4), 4),     # all n-grams match; BP for c=4 < r=5
    ("P(a)", "¬P(a)", (4 / 5 * 3 / 4 * 2 / 3 * 1 / 2) ** 0.25, 4),  # c > r: no BP; precisions 4/5..1/2
    ("P", "P", 1.0, 1),                             # order lowered to the shortest side
    ("P", "Q", 0.0, 1),
    ("P(a)", "Q(a)", 0.0, 4),                       # no smoothing: p4 = 0 gives 0
    ("", "P(a)", 0.0, 0),
])
def test_short_formulas(ref, cand, expected, order):
    result = fol_bleu(ref, cand)
    assert result.max_order == order
    assert result.score == pytest.approx(expected)


def test_max_order_checked():
    with pytest.raises(ValueError, match="`max_order`"):
        bleu_from_tokens(["a"], ["a"], max_order=0)


def test_matches_nltk_sentence_bleu_on_folio_premise_pairs():
    # Where the definitions coincide (one reference, weights 1/N with our N, no smoothing)
    # nltk's sentence_bleu is an independent implementation.
    stories = []
    with FOLIO.open(encoding="utf-8") as f:
        for line in f:
            stories.append(json.loads(line)["premises-FOL"])
    checked = 0
    for premises in stories[:40]:
        for ref in premises[:4]:
            for cand in premises[:4]:
                r, c = fol_tokens(ref), fol_tokens(cand)
                n = min(4, len(r), len(c))
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    expected = sentence_bleu([r], c, weights=(1 / n,) * n)
                assert fol_bleu(ref, cand).score == pytest.approx(expected, abs=1e-12), (ref, cand)
                checked += 1
    assert checked > 500


def test_metric_signature_and_details():
    metric = get_metric("fol-bleu")
    result = metric.score_pair(Pair(id="e", reference=Statement(statement="∀x (Eel(x) → Fish(x))"),
                                    candidate=Statement(statement="∀x (E(x) → F(x))")))
    assert result.score == pytest.approx((880 / 17160) ** 0.25)
    assert result.details["max_order"] == 4
    assert result.signature.startswith("metric:fol-bleu|transted:")
