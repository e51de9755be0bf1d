"""The outcome of ``transted eval`` as data (:class:`EvalRun`) and its JSON-safe summary.

Kept apart from :mod:`transted.studies.evaluation.run` (which computes it) and
:mod:`transted.studies.evaluation.reports` (which writes it) so that neither imports the other's caller.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from transted.reading.pairs import Pair
from transted.studies.evaluation.harness import EvalConfig, MetricEvaluation
from transted.studies.evaluation.labels import LabelledPairs

__all__ = ["EvalRun", "to_json_safe", "KAPPA_CURVE_CSV", "KAPPA_CURVE_PNG"]

KAPPA_CURVE_CSV = "kappa_curve.csv"
KAPPA_CURVE_PNG = "kappa_curve.png"


def to_json_safe(value: Any) -> Any:
    """NaN/inf → None and numpy scalars → Python, recursively."""
    if isinstance(value, dict):
        return {k: to_json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json_safe(v) for v in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value



@dataclass
class EvalRun:
    """The outcome of :func:`run_eval`: inputs, per-metric evaluations, written files."""

    data: LabelledPairs
    config: EvalConfig
    evaluations: list[MetricEvaluation]
    signature: str
    dev: LabelledPairs | None = None
    files: dict[str, Path] | None = None

    @property
    def pairs(self) -> list[Pair]:
        return self.data.pairs

    @property
    def labels(self) -> NDArray[np.bool_]:
        return self.data.labels

    def summary(self) -> dict[str, object]:
        """The content of ``summary.json``; an undefined value is None (JSON null)."""
        return to_json_safe({
            "metrics": {ev.name: ev.summary(self.config) for ev in self.evaluations},
            "eval": {
                "signature": self.signature,
                "data": {"path": self.data.name, "sha256": self.data.digest,
                         "n": len(self.data.pairs), "n_positive": self.data.n_positive},
                "dev": ({"path": self.dev.name, "sha256": self.dev.digest}
                        if self.dev is not None else None),
                "threshold_mode": self.config.threshold_mode,
                "n_problems": len(set(self.data.groups)),
                "oracle_rule": self.config.oracle_rule,
                "positive": list(self.config.positive),
                "n_boot": self.config.n_boot, "seed": self.config.seed,
                "confidence": self.config.confidence,
                "kappa_curve": KAPPA_CURVE_CSV, "plot": KAPPA_CURVE_PNG,
            },
        })
