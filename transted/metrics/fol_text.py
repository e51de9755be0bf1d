"""Text metrics on FOL strings: ``fol-rougeL`` and ``fol-bertscore``
(:mod:`transted.fol.text_metrics`; importing this module imports rouge-score).
"""

from __future__ import annotations

import importlib.metadata
from typing import Literal

from transted.fol.embeddings import MODEL_NAME
from transted.fol.text_metrics import (
    ROUGE_MEASURES,
    bert_score,
    check_rouge_options,
    rouge_scorer_for,
)
from transted.metrics.base import Metric, PairScore
from transted.reading.pairs import Pair

__all__ = ["FOLRougeL", "FOLBERTScore"]


class FOLRougeL(Metric):
    """``fol-rougeL``: ROUGE-L between the reference and candidate FOL strings.

    Parameters
    ----------
    tokenizer : {"fol", "rouge-score"}, default="fol"
        FOL-BLEU's tokens, or rouge-score's default (drops every logical symbol).
    measure : {"f", "p", "r"}, default="f"
        F-measure, precision or recall of the longest common subsequence.
    """

    name = "fol-rougeL"
    version = "1"

    def __init__(self, *, tokenizer: Literal["fol", "rouge-score"] = "fol",
                 measure: Literal["f", "p", "r"] = "f"):
        check_rouge_options(tokenizer, measure)
        self.tokenizer = tokenizer
        self.measure = measure
        self._rouge = rouge_scorer_for(tokenizer)

    def options(self) -> dict[str, object]:

        return {"tok": self.tokenizer, "measure": self.measure,
                "rouge-score": importlib.metadata.version("rouge-score")}

    def _score(self, pair: Pair) -> PairScore:
        score = self._rouge.score(pair.reference.statement, pair.candidate.statement)["rougeL"]
        return PairScore(float(getattr(score, ROUGE_MEASURES[self.measure])),
                         {"precision": score.precision, "recall": score.recall})


class FOLBERTScore(Metric):
    """``fol-bertscore``: BERTScore F1 (or P/R) between FOL strings with all-MiniLM-L6-v2
    (:func:`~transted.fol.text_metrics.bert_score`)."""

    name = "fol-bertscore"
    version = "1"

    def __init__(self, *, measure: Literal["f", "p", "r"] = "f", device: str = "cpu"):
        check_rouge_options("fol", measure)
        self.measure = measure
        self.device = device

    def options(self) -> dict[str, object]:

        return {"model": MODEL_NAME, "layer": "last", "idf": False, "rescale": False,
                "measure": self.measure}

    def _score(self, pair: Pair) -> PairScore:
        s = bert_score(pair.reference.statement, pair.candidate.statement, device=self.device)
        key = {"f": "f1", "p": "precision", "r": "recall"}[self.measure]
        return PairScore(s[key], s)
