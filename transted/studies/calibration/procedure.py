"""The procedure that derives each graded metric's shipped threshold.

:func:`derive_threshold` is the procedure and ``benchmarks/derive_thresholds.py`` re-derives
``transted/pipeline/verdict/thresholds.yaml`` (read by :mod:`transted.pipeline.verdict.rules`) from the data
shipped in the repository; a test checks the file against the procedure.

**Procedure** (:data:`PROCEDURE`): the threshold maximises the balanced accuracy (mean of the
true-positive and true-negative rates, so the majority class does not decide alone; averaged
over the labelled files) on the expert-labelled pairs of the metric's label convention that the
verdict rule leaves to the threshold (the fallback pairs, :mod:`transted.studies.calibration.derive`);
candidates are the midpoints between distinct scores; among equally good candidates the median
one is taken. The Lean sensitivity suite is scored too and reported at the shipped rule (which
kinds it lets through), but it does not choose the threshold:
its one-edit meaning changes and lemma-closable rewrites lie in a score band (0.74–1.0) that
real translations do not occupy, and pooling it with the dev pairs put every metric's threshold
at 0.99 or above, where 47–53% of the dev pairs are judged correctly (docs/SENSITIVITY.md).
Definite evidence, not the threshold, is what catches such edits. No test set is consulted.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike

from transted.studies.evaluation.threshold import candidate_thresholds, sweep

__all__ = ["PROCEDURE", "derive_threshold", "source_balanced_accuracy", "data_digest"]

PROCEDURE = ("argmax over midpoints of balanced accuracy (averaged over the labelled files) on "
             "the expert-labelled pairs of the convention that the verdict rule leaves to the "
             "threshold (all pairs when none is); ties: median candidate; the sensitivity suite "
             "is reported at the shipped rule, not used to choose it")


def source_balanced_accuracy(scores: ArrayLike, labels: ArrayLike, sources: ArrayLike,
                             thresholds: ArrayLike) -> np.ndarray:
    """Mean over sources of the balanced accuracy of ``score >= t``, for each ``t``.

    A source lacking one class contributes the rate of the class it has. NaN scores (the
    metric failed) count as negative verdicts, as in :mod:`transted.studies.evaluation.threshold`.
    """
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
