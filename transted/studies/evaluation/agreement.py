"""Agreement of a metric's verdicts with expert labels (ASSESS Table 3, Appendix C.1).

Point estimates come from scikit-learn (confusion matrix, precision, recall, F1, accuracy,
Cohen's kappa). An undefined value is NaN, never 0.0: precision with no positive verdict,
recall with no positive label, and kappa when both raters are constant and agree (expected
agreement 1). No ``UndefinedMetricWarning`` is emitted (it leaked to the CLI's stderr): the
NaN in the result, shown as "undefined" in reports, is the one signal. Kappa is *defined*
and exactly 0.0 when only one rater is constant (observed = expected agreement); that is why
the published identity-match row reads 0.000 and we report it as such.

Confidence intervals: percentile bootstrap over pairs with the verdicts held fixed, so they
show the sampling variation of the pairs, not the optimism of choosing an oracle threshold.

References
----------
Cohen, J. 1960. A coefficient of agreement for nominal scales. Efron & Tibshirani 1993,
An Introduction to the Bootstrap (percentile intervals).
"""

from __future__ import annotations

import warnings
from dataclasses import asdict, dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["Agreement", "agreement_score", "bootstrap_ci"]


@dataclass(frozen=True)
class Agreement:
    """Confusion counts and the scores derived from them (NaN = undefined)."""

    tp: int
    tn: int
    fp: int
    fn: int
    precision: float
    recall: float
    f1: float
    accuracy: float
    kappa: float

    @property
    def n(self) -> int:
        return self.tp + self.tn + self.fp + self.fn

    def as_dict(self) -> dict[str, float | int]:
        return asdict(self)


def _check(y_true: ArrayLike, y_pred: ArrayLike) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    yt, yp = np.asarray(y_true), np.asarray(y_pred)
    if yt.size == 0:
        raise ValueError("`y_true` is empty")
    for name, arr in (("y_true", yt), ("y_pred", yp)):
        if arr.ndim != 1 or arr.dtype != bool:
            raise TypeError(f"`{name}` must be a one-dimensional bool array, got {arr.dtype} "
                            f"with shape {arr.shape}")
    if len(yt) != len(yp):
        raise ValueError(f"`y_true` has {len(yt)} items but `y_pred` has {len(yp)}")
    return yt, yp


def agreement_score(y_true: ArrayLike, y_pred: ArrayLike) -> Agreement:
    """Agreement of verdicts ``y_pred`` with labels ``y_true`` (both bool, True = equivalent).

    Examples
    --------
    >>> a = agreement_score([True, True, False, False], [True, False, False, False])
    >>> (a.tp, a.fn, a.tn, a.fp), a.accuracy, round(a.kappa, 3)
    ((1, 1, 2, 0), 0.75, 0.5)
    """
    from sklearn.metrics import (
        accuracy_score,
        cohen_kappa_score,
        confusion_matrix,
        f1_score,
        precision_score,
        recall_score,
    )

    yt, yp = _check(y_true, y_pred)
    (tn, fp), (fn, tp) = confusion_matrix(yt, yp, labels=[False, True])
    with warnings.catch_warnings():
        # sklearn's "single label" / UndefinedMetricWarning notices are expected on constant
        # verdicts; the undefined values are NaN in the result instead (never on stderr).
        warnings.simplefilter("ignore")
        return Agreement(
            tp=int(tp), tn=int(tn), fp=int(fp), fn=int(fn),
            precision=float(precision_score(yt, yp, zero_division=np.nan)),
            recall=float(recall_score(yt, yp, zero_division=np.nan)),
            f1=float(f1_score(yt, yp, zero_division=np.nan)),
            accuracy=float(accuracy_score(yt, yp)),
            kappa=float(cohen_kappa_score(yt, yp, labels=[False, True])),
        )


def bootstrap_ci(
    y_true: ArrayLike, y_pred: ArrayLike, *, n_boot: int = 1000, seed: int = 0,
    confidence: float = 0.95,
) -> dict[str, object]:
    """Percentile bootstrap intervals for accuracy and kappa.

    Resamples pairs with replacement ``n_boot`` times with a local
    ``np.random.default_rng(seed)``. Counts are vectorised by hand (one call to scikit-learn
    per resample would dominate the run time); the kappa formula is the one
    :func:`agreement_score` gets from scikit-learn, checked against it in the tests.

    Returns
    -------
    dict
        ``accuracy_ci`` and ``kappa_ci`` as ``[low, high]`` (NaN when undefined in every
        resample), ``kappa_undefined`` (resamples where kappa was undefined, left out),
        ``n_boot``, ``seed``, ``confidence``.
    """
    yt, yp = _check(y_true, y_pred)
    if not isinstance(n_boot, int) or n_boot < 1:
        raise ValueError(f"`n_boot` must be a positive int, got {n_boot!r}")
    if not 0 < confidence < 1:
        raise ValueError(f"`confidence` must be in (0, 1), got {confidence!r}")
    n = len(yt)
    idx = np.random.default_rng(seed).integers(0, n, size=(n_boot, n))
    t, p = yt[idx], yp[idx]
    tp = (t & p).sum(1)
    tn = (~t & ~p).sum(1)
    fp = (~t & p).sum(1)
    fn = (t & ~p).sum(1)
    p_o = (tp + tn) / n
    p_e = ((tp + fn) * (tp + fp) + (tn + fp) * (tn + fn)) / n**2
    undefined = np.isclose(p_e, 1.0)
    kappa = (p_o[~undefined] - p_e[~undefined]) / (1.0 - p_e[~undefined])
    q = [100 * (1 - confidence) / 2, 100 * (1 + confidence) / 2]
    kappa_ci = np.percentile(kappa, q).tolist() if len(kappa) else [np.nan, np.nan]
    return {"accuracy_ci": np.percentile(p_o, q).tolist(), "kappa_ci": kappa_ci,
            "kappa_undefined": int(undefined.sum()), "n_boot": n_boot, "seed": seed,
            "confidence": confidence}
