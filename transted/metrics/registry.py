"""Metric registry: name → ``"module:Class"``, imported lazily (sacrebleu's ``METRICS``).

Lazy import keeps a TED computation free of matplotlib, torch or lean-interact.
``published:<key>`` is a family: it re-scores ``meta.published_scores[<key>]``.
"""

from __future__ import annotations

import difflib
from typing import Any

from transted.loading import load_reference
from transted.metrics.base import Metric
from transted.metrics.options import check_options
from transted.metrics.published import PublishedScore

__all__ = ["METRICS", "get_metric", "metric_class", "metric_names"]

METRICS: dict[str, str] = {
    "identity": "transted.metrics.identity:IdentityMatch",
    "bleu": "transted.metrics.bleu:ProofNetBLEU",
    "ted": "transted.metrics.ted:TEDSimilarity",
    "transted": "transted.metrics.transted:TransTEDSimilarity",
    "typecheck": "transted.metrics.lean_baselines:Typecheck",
    "defeq": "transted.metrics.lean_baselines:DefEq",
    "beq": "transted.metrics.lean_baselines:BEqCheck",
    "fol-sim": "transted.metrics.fol_sim:FOLSim",
    "fol-le": "transted.metrics.fol_logicllama:FOLLogicalEquivalence",
    "fol-bleu": "transted.metrics.fol_logicllama:FOLBLEU",
    "fol-rougeL": "transted.metrics.fol_text:FOLRougeL",
    "fol-bertscore": "transted.metrics.fol_text:FOLBERTScore",
    "formulaicness": "transted.metrics.formulaicness:Formulaicness",
}
PUBLISHED_PREFIX = "published:"


def metric_names() -> list[str]:
    return sorted(METRICS) + [PUBLISHED_PREFIX + "<key>"]


def metric_class(name: str) -> type[Metric]:
    """The class behind ``name`` (imported on demand); unknown names raise ``ValueError``."""
    if name.startswith(PUBLISHED_PREFIX):

        return PublishedScore
    if name not in METRICS:

        folded = {m.lower(): m for m in METRICS}  # `-m TED`: the same name, another case
        near = [folded[name.lower()]] if name.lower() in folded else \
            difflib.get_close_matches(name, list(METRICS), n=1, cutoff=0.6)
        hint = f"; did you mean {near[0]}?" if near else ";"
        raise ValueError(f"unknown metric {name!r}{hint} known: {', '.join(metric_names())}")
    cls: type[Metric] = load_reference(METRICS[name])
    return cls


def get_metric(name: str, **options: Any) -> Metric:
    """Instantiate metric ``name`` with ``options``; an unknown name or an option the metric
    does not declare raises ``ValueError`` (see :mod:`transted.metrics.options`)."""

    cls = metric_class(name)
    check_options(name, cls, options)
    if name.startswith(PUBLISHED_PREFIX):
        metric: Metric = cls(key=name[len(PUBLISHED_PREFIX):], **options)  # type: ignore[call-arg]
    else:
        metric = cls(**options)
    metric.construction = (name, dict(options))  # a worker process rebuilds it from this
    return metric
