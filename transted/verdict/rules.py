"""The verdict of a score: the one place that says when a pair counts as equivalent.

* **The rule**: a graded score is ``equivalent`` iff ``score >= threshold`` (:func:`passes`;
  :func:`predict` applies it to an array, a missing score being negative); a verdict metric's
  score is ``equivalent`` iff it is 1.0. Every verdict in the package comes from here: a result
  line's (:func:`make_verdict`), ``transted eval``'s predictions, the regression gate's.
  Threshold *sweeps* (:mod:`transted.evaluation.threshold`) count the same rule at many
  thresholds at once.
* **Evidence overrides the threshold**: ``details["evidence"] == "proved"`` gives
  ``equivalent`` and ``"refuted"`` gives ``not-equivalent``, with ``decided_by="evidence"``
  so reports count those apart (:func:`make_verdict`, :func:`apply_evidence`).
* **The shipped thresholds**: a user grading new translations has no labels to tune a
  threshold on, so each graded metric ships one: ``thresholds.yaml`` beside this module records,
  per metric, the threshold, its version, the signature of the metric computation it was
  derived for, the procedure and the digest of the data it was derived from. The procedure
  that derives it is :mod:`transted.calibration`; this module only reads the file. A rule
  applies to a metric only if the metric's signature (without the threshold field) is the one
  recorded: a metric run with other options, or changed since, has no default threshold
  (``threshold:none`` in its signature, verdict null) until the file is re-derived.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["DecisionRule", "THRESHOLDS_FILE", "load_rules", "rule_for", "make_verdict",
           "Verdict", "DecidedBy", "passes", "predict", "apply_evidence", "forced_by_evidence",
           "EVIDENCE_VERDICTS", "BINARY_THRESHOLD"]

THRESHOLDS_FILE = Path(__file__).with_name("thresholds.yaml")

Verdict = Literal["equivalent", "not-equivalent"]
DecidedBy = Literal["threshold", "binary", "evidence"]


@dataclass(frozen=True)
class DecisionRule:
    metric: str
    threshold: float
    version: str
    signature: str
    """Signature of the metric computation (without the threshold field) it was derived for."""

    def field(self) -> str:
        """The value of the ``threshold`` signature field, e.g. ``0.8125@1``."""
        return f"{self.threshold!r}@{self.version}"


@lru_cache(maxsize=4)
def load_rules(path: str | None = None) -> dict[str, DecisionRule]:
    """Metric name → rule, from ``thresholds.yaml`` (or ``path``); a missing file gives {}."""
    import yaml

    from transted.errors import InputError

    file = Path(path) if path else THRESHOLDS_FILE
    if not file.exists():
        return {}
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
        return {name: DecisionRule(name, float(entry["threshold"]), str(entry["version"]),
                                   str(entry["signature"]))
                for name, entry in (data.get("metrics") or {}).items()}
    except (yaml.YAMLError, KeyError, TypeError, ValueError) as e:
        raise InputError(f"{file}: not a thresholds file: {e}") from e


def rule_for(metric: str, base_signature: str) -> DecisionRule | None:
    """The shipped rule of ``metric`` if it was derived for exactly ``base_signature``."""
    rule = load_rules().get(metric)
    return rule if rule is not None and rule.signature == base_signature else None


def passes(score: Any, threshold: float) -> Any:
    """The rule: ``score >= threshold`` (equivalent). Elementwise on a numpy array."""
    return score >= threshold


BINARY_THRESHOLD = 1.0
"""A verdict metric's score is 1.0 (equivalent) or 0.0."""

EVIDENCE_VERDICTS: dict[str, bool] = {"proved": True, "refuted": False}
"""Definite evidence and the verdict it forces (True = equivalent)."""


def forced_by_evidence(evidence: object) -> bool | None:
    """The verdict definite evidence forces (True = equivalent), or None (no definite evidence)."""
    return EVIDENCE_VERDICTS.get(evidence) if isinstance(evidence, str) else None


def predict(scores: ArrayLike, threshold: float) -> NDArray[np.bool_]:
    """Verdicts of :func:`passes` for an array of scores; NaN scores (errors) are negative."""
    s = np.asarray(scores, dtype=float)
    with np.errstate(invalid="ignore"):
        return np.where(np.isnan(s), False, passes(s, threshold))


def apply_evidence(predictions: NDArray[np.bool_], evidence: Sequence[object]
                   ) -> tuple[NDArray[np.bool_], int]:
    """Definite evidence overrides a verdict: ``proved`` → True, ``refuted`` → False; returns
    the verdicts and how many evidence decided."""
    out = predictions.copy()
    n = 0
    for i, e in enumerate(evidence):
        forced = forced_by_evidence(e)
        if forced is not None:
            out[i] = forced
            n += 1
    return out, n


def make_verdict(score: float | None, *, binary: bool, threshold: float | None,
                 evidence: object = None) -> tuple[Verdict | None, DecidedBy | None]:
    """The verdict of one result and what decided it (see the module docstring)."""
    forced = forced_by_evidence(evidence)
    if forced is not None:
        return _word(forced), "evidence"
    if score is None or not np.isfinite(score):
        return None, None
    if binary:
        return _word(passes(score, BINARY_THRESHOLD)), "binary"
    if threshold is None:
        return None, None
    return _word(passes(score, threshold)), "threshold"


def _word(equivalent: bool) -> Verdict:
    return "equivalent" if equivalent else "not-equivalent"
