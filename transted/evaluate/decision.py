"""The shipped decision rule: a default threshold per graded metric, and verdicts.

A user grading new translations has no labels to tune a threshold on, so each graded metric
ships one: ``thresholds.yaml`` beside this module records, per metric, the threshold, its
version, the signature of the metric computation it was derived for, the procedure and the
digest of the data it was derived from. :func:`derive_threshold` is the procedure and
``benchmarks/derive_thresholds.py`` re-derives the file from the data shipped in the
repository (the expert-labelled dev pairs and the Lean sensitivity suite); a test checks the
file against the procedure.

**Procedure** (:data:`PROCEDURE`): pool the labelled sources (dev pairs; suite pairs except
the ``identical`` control row); the threshold maximises the *mean over sources of the
balanced accuracy* (mean of the true-positive and true-negative rates), so neither the larger
source nor the majority class decides alone; candidates are the midpoints between distinct
scores; among equally good candidates the median one is taken. No test set is consulted.

A rule applies to a metric only if the metric's signature (without the threshold field) is
the one recorded: a metric run with other options, or changed since, has no default threshold
(``threshold:none`` in its signature, verdict null) until the file is re-derived.

**Verdicts**: ``equivalent`` iff ``score >= threshold`` (a verdict metric: iff score is 1.0);
null when the score is null or there is no rule. Definite evidence overrides the threshold:
``details["evidence"] == "proved"`` gives ``equivalent`` and ``"refuted"`` gives
``not-equivalent``, with ``decided_by="evidence"`` so reports count those apart.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["DecisionRule", "THRESHOLDS_FILE", "PROCEDURE", "load_rules", "rule_for",
           "make_verdict", "derive_threshold", "source_balanced_accuracy", "Verdict",
           "DecidedBy", "data_digest"]

THRESHOLDS_FILE = Path(__file__).with_name("thresholds.yaml")
PROCEDURE = ("argmax over midpoints of the mean over sources (dev, sensitivity suite) of "
             "balanced accuracy; ties: median candidate")

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


def make_verdict(score: float | None, *, binary: bool, threshold: float | None,
                 evidence: object = None) -> tuple[Verdict | None, DecidedBy | None]:
    """The verdict of one result and what decided it (see the module docstring)."""
    if evidence == "proved":
        return "equivalent", "evidence"
    if evidence == "refuted":
        return "not-equivalent", "evidence"
    if score is None or not np.isfinite(score):
        return None, None
    if binary:
        return ("equivalent" if score >= 1.0 else "not-equivalent"), "binary"
    if threshold is None:
        return None, None
    return ("equivalent" if score >= threshold else "not-equivalent"), "threshold"


def source_balanced_accuracy(scores: ArrayLike, labels: ArrayLike, sources: ArrayLike,
                             thresholds: ArrayLike) -> np.ndarray:
    """Mean over sources of the balanced accuracy of ``score >= t``, for each ``t``.

    A source lacking one class contributes the rate of the class it has. NaN scores (the
    metric failed) count as negative verdicts, as in :mod:`transted.evaluate.threshold`.
    """
    from transted.evaluate.threshold import sweep

    s = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=bool)
    src = np.asarray(sources)
    t = np.asarray(thresholds, dtype=float)
    if not (len(s) == len(y) == len(src)):
        raise ValueError("`scores`, `labels` and `sources` must have the same length")
    per_source = []
    for name in np.unique(src):
        mask = src == name
        sw = sweep(s[mask], y[mask], t)
        rates = []
        if (sw.tp[0] + sw.fn[0]) > 0:
            rates.append(sw.tp / (sw.tp + sw.fn))
        if (sw.tn[0] + sw.fp[0]) > 0:
            rates.append(sw.tn / (sw.tn + sw.fp))
        per_source.append(np.mean(rates, axis=0))
    return np.mean(per_source, axis=0)


def derive_threshold(scores: ArrayLike, labels: ArrayLike, sources: ArrayLike) -> float:
    """The shipped-threshold procedure (:data:`PROCEDURE`) on pooled labelled scores.

    Examples
    --------
    >>> derive_threshold([0.2, 0.4, 0.6, 0.9], [False, False, True, True], ["a"] * 4)
    0.5
    """
    from transted.evaluate.threshold import candidate_thresholds

    s = np.asarray(scores, dtype=float)
    if not np.isfinite(s).any():
        raise ValueError("`scores` has no finite score to derive a threshold from")
    candidates = candidate_thresholds(s)
    value = source_balanced_accuracy(s, labels, sources, candidates)
    best = np.flatnonzero(np.isclose(value, value.max(), rtol=0, atol=1e-12))
    return float(candidates[best[(len(best) - 1) // 2]])


def data_digest(paths: Sequence[str | Path], *extra: str) -> str:
    """12 hex digits of SHA-256 over the files' bytes and ``extra`` strings, in order."""
    h = hashlib.sha256()
    for p in paths:
        h.update(Path(p).read_bytes())
    for e in extra:
        h.update(e.encode("utf-8"))
    return h.hexdigest()[:12]
