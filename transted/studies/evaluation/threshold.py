"""Turning graded scores into verdicts: threshold sweeps, oracle and cross-validated choice.

The verdict rule lives in :mod:`transted.pipeline.verdict.rules` (a pair is predicted equivalent iff
``score >= threshold``; a pair whose score is missing, a metric error, is predicted negative);
this module counts it at many thresholds at once (:func:`sweep`) and chooses among them.

Two oracle rules:

``accuracy`` (default)
    Candidates are the midpoints between consecutive distinct scores plus the two ends
    (the lowest score: all positive; the next float above the highest: all negative). Pick
    the highest accuracy; ties go to the higher Cohen's kappa, then to the smaller threshold.
``gted``
    GTED's published procedure (``src/evaluator.py``, read at 5ec8956): thresholds
    ``i * 0.001`` for ``i = 0..1000``; highest kappa, then accuracy, precision, recall, then
    the smaller threshold. It reproduces the published "t=0.251" (BLEU) and "t=0.501" (GTED).

An oracle threshold is chosen on the very labels it is scored on, as ASSESS §4.2 does; it is
optimistic. :func:`cross_validated_predictions` gives the honest counterpart: each pair is
classified with a threshold chosen (by the same rule) without it.

References
----------
ASSESS §4.2 "Implementation" (best result over all thresholds); Cohen 1960 (kappa).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from transted.pipeline.verdict.rules import forced_by_evidence, passes

__all__ = [
    "ORACLE_RULES",
    "predict",
    "apply_forced",
    "apply_evidence",
    "Sweep",
    "sweep",
    "candidate_thresholds",
    "select_threshold",
    "cross_validated_predictions",
    "grouped_folds",
]

ORACLE_RULES = ("accuracy", "gted")
# i * step, exactly as GTED computes its thresholds (not i / 1000, which rounds differently)
GTED_GRID: NDArray[np.float64] = np.arange(0, 1001, dtype=np.float64) * 0.001


def predict(scores: ArrayLike, threshold: float) -> NDArray[np.bool_]:
    """Verdicts of :func:`passes` for an array of scores; NaN scores (errors) are negative."""
    s = np.asarray(scores, dtype=float)
    with np.errstate(invalid="ignore"):
        return np.where(np.isnan(s), False, passes(s, threshold))


def apply_forced(predictions: NDArray[np.bool_], forced: Sequence[bool | None]
                 ) -> tuple[NDArray[np.bool_], int]:
    """Verdicts decided before the threshold override it; returns the verdicts and how many
    were forced."""
    out = predictions.copy()
    n = 0
    for i, f in enumerate(forced):
        if f is not None:
            out[i] = f
            n += 1
    return out, n


def apply_evidence(predictions: NDArray[np.bool_], evidence: Sequence[object]
                   ) -> tuple[NDArray[np.bool_], int]:
    """Definite evidence overrides a verdict: ``proved`` → True, ``refuted`` → False; returns
    the verdicts and how many evidence decided."""
    return apply_forced(predictions, [forced_by_evidence(e) for e in evidence])


def _check(scores: ArrayLike, labels: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    s = np.asarray(scores, dtype=float)
    y = np.asarray(labels)
    if s.ndim != 1 or y.ndim != 1:
        raise ValueError("`scores` and `labels` must be one-dimensional")
    if len(s) == 0:
        raise ValueError("`scores` is empty; need at least one scored pair")
    if len(s) != len(y):
        raise ValueError(f"`scores` has {len(s)} items but `labels` has {len(y)}")
    if y.dtype != bool:
        raise TypeError(f"`labels` must be bool, got dtype {y.dtype}")
    return s, y


@dataclass(frozen=True)
class Sweep:
    """Confusion counts of ``score >= t`` for each threshold ``t`` (arrays of equal length)."""

    thresholds: NDArray[np.float64]
    tp: NDArray[np.int64]
    fp: NDArray[np.int64]
    tn: NDArray[np.int64]
    fn: NDArray[np.int64]

    @property
    def n(self) -> int:
        return int(self.tp[0] + self.fp[0] + self.tn[0] + self.fn[0])

    def accuracy(self) -> NDArray[np.float64]:
        return (self.tp + self.tn) / self.n

    def kappa(self) -> NDArray[np.float64]:
        """Cohen's kappa per threshold; NaN where it is undefined (expected agreement 1)."""
        n = float(self.n)
        p_o = (self.tp + self.tn) / n
        p_e = ((self.tp + self.fn) * (self.tp + self.fp)
               + (self.tn + self.fp) * (self.tn + self.fn)) / n**2
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(np.isclose(p_e, 1.0), np.nan, (p_o - p_e) / (1.0 - p_e))

    def precision(self) -> NDArray[np.float64]:
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.tp / (self.tp + self.fp)

    def recall(self) -> NDArray[np.float64]:
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.tp / (self.tp + self.fn)


def sweep(scores: ArrayLike, labels: ArrayLike, thresholds: ArrayLike) -> Sweep:
    """Confusion counts at every threshold at once.

    Written by hand with a sort and ``searchsorted`` because calling scikit-learn per
    threshold (and per cross-validation fold) is thousands of times slower; the counts are
    checked against :func:`sklearn.metrics.confusion_matrix` in the tests.
    """
    s, y = _check(scores, labels)
    t = np.asarray(thresholds, dtype=float)
    valid = ~np.isnan(s)
    pos_scores = np.sort(s[valid & y])
    neg_scores = np.sort(s[valid & ~y])
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    tp = len(pos_scores) - np.searchsorted(pos_scores, t, side="left")
    fp = len(neg_scores) - np.searchsorted(neg_scores, t, side="left")
    return Sweep(t, tp.astype(np.int64), fp.astype(np.int64),
                 (n_neg - fp).astype(np.int64), (n_pos - tp).astype(np.int64))


def candidate_thresholds(scores: ArrayLike, *, rule: str = "accuracy") -> NDArray[np.float64]:
    """The thresholds an oracle rule considers, ascending (see the module docstring)."""
    if rule == "gted":
        return GTED_GRID.copy()
    if rule != "accuracy":
        raise ValueError(f"`rule` must be one of {ORACLE_RULES}, got {rule!r}")
    s = np.asarray(scores, dtype=float)
    distinct = np.unique(s[~np.isnan(s)])
    if len(distinct) == 0:
        return np.array([0.5])
    mids = (distinct[:-1] + distinct[1:]) / 2
    return np.concatenate([[distinct[0]], mids, [np.nextafter(distinct[-1], np.inf)]])


def _best_index(sw: Sweep, rule: str) -> int:
    correct = sw.tp + sw.tn
    if rule == "accuracy":
        kappa = np.nan_to_num(sw.kappa(), nan=-np.inf)  # an undefined kappa never wins a tie
        keys: tuple[NDArray, ...] = (sw.thresholds, -kappa, -correct)
    else:
        # GTED scores an undefined kappa / precision / recall as 0.0; keep that to match it.
        kappa, precision, recall = (np.nan_to_num(a, nan=0.0)
                                    for a in (sw.kappa(), sw.precision(), sw.recall()))
        keys = (sw.thresholds, -recall, -precision, -correct, -kappa)
    return int(np.lexsort(keys)[0])  # lexsort: the last key is the primary one


def select_threshold(scores: ArrayLike, labels: ArrayLike, *, rule: str = "accuracy") -> float:
    """The oracle threshold for ``scores`` against ``labels`` (True = equivalent).

    Parameters
    ----------
    scores : array of float, NaN for a pair the metric failed on
    labels : array of bool
    rule : {"accuracy", "gted"}, default="accuracy"

    Returns
    -------
    float
        The chosen threshold; predict positive iff ``score >= threshold``.
    """
    s, y = _check(scores, labels)
    sw = sweep(s, y, candidate_thresholds(s, rule=rule))
    return float(sw.thresholds[_best_index(sw, rule)])


def grouped_folds(labels: ArrayLike, groups: ArrayLike, *, folds: int = 5, seed: int = 0
                  ) -> NDArray[np.int64]:
    """Fold number of each pair such that all pairs of a group share a fold.

    ``folds=0``: one fold per group (leave-one-group-out); ``folds=k``: scikit-learn's
    ``StratifiedGroupKFold(k, shuffle=True, random_state=seed)`` (classes balanced across
    folds as far as the groups allow), or ``GroupKFold(k)`` when a class has fewer groups than
    folds. Raises ``ValueError`` when there are fewer groups than folds.
    """
    from sklearn.model_selection import GroupKFold, StratifiedGroupKFold

    y = np.asarray(labels, dtype=bool)
    _, g = np.unique(np.asarray(groups, dtype=str), return_inverse=True)
    if len(y) != len(g):
        raise ValueError(f"`labels` has {len(y)} items but `groups` has {len(g)}")
    n_groups = int(g.max()) + 1 if len(g) else 0
    if folds == 0:
        return g.astype(np.int64)
    if not isinstance(folds, int) or folds < 2 or folds > n_groups:
        raise ValueError(f"`folds` must be 0 (leave-one-group-out) or in [2, {n_groups}] "
                         f"(the number of groups), got {folds!r}")
    fold_of = np.empty(len(y), dtype=np.int64)
    smallest_class_groups = min(len(np.unique(g[y])), len(np.unique(g[~y])))
    splitter = (StratifiedGroupKFold(n_splits=folds, shuffle=True, random_state=seed)
                if smallest_class_groups >= folds else GroupKFold(n_splits=folds))
    x = np.zeros((len(y), 1))
    for k, (_, test) in enumerate(splitter.split(x, y, g)):
        fold_of[test] = k
    return fold_of


def cross_validated_predictions(
    scores: ArrayLike, labels: ArrayLike, *, rule: str = "accuracy", folds: int = 0, seed: int = 0,
    groups: ArrayLike | None = None,
) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
    """Predict every pair with a threshold chosen on the other pairs only.

    Parameters
    ----------
    folds : int, default=0
        0 = leave-one-out; k >= 2 = k folds from a permutation drawn with
        ``np.random.default_rng(seed)``.
    seed : int, default=0
    groups : array of str, optional
        The problem of each pair: pairs of one problem always share a fold
        (:func:`grouped_folds`; ``folds=0`` is then leave-one-group-out).

    Returns
    -------
    (predictions, thresholds)
        The verdict of each pair and the threshold it was classified with.
    """
    s, y = _check(scores, labels)
    n = len(s)
    if not isinstance(folds, int) or folds < 0 or folds == 1 or folds > n:
        raise ValueError(f"`folds` must be 0 (leave-one-out) or in [2, {n}], got {folds!r}")
    if n < 2:
        raise ValueError("cross-validation needs at least two pairs")
    if groups is not None:
        fold_of = grouped_folds(y, groups, folds=folds, seed=seed)
    elif folds == 0:
        fold_of = np.arange(n)
    else:
        fold_of = np.empty(n, dtype=int)
        fold_of[np.random.default_rng(seed).permutation(n)] = np.arange(n) % folds
    preds = np.zeros(n, dtype=bool)
    used = np.zeros(n, dtype=float)
    for fold in np.unique(fold_of):
        held = fold_of == fold
        t = select_threshold(s[~held], y[~held], rule=rule)
        preds[held] = predict(s[held], t)
        used[held] = t
    return preds, used
