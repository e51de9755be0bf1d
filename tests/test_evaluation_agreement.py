"""Agreement scores (scikit-learn) and bootstrap intervals."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.metrics import cohen_kappa_score

from transted.studies.evaluation.agreement import agreement_score, bootstrap_ci


def table(tp: int, fn: int, fp: int, tn: int) -> tuple[np.ndarray, np.ndarray]:
    y_true = np.array([True] * (tp + fn) + [False] * (fp + tn))
    y_pred = np.array([True] * tp + [False] * fn + [True] * fp + [False] * tn)
    return y_true, y_pred


def test_hand_computed_table() -> None:
    # tp 20, fn 5, fp 10, tn 15: p_o = 35/50 = 0.7, p_e = (25*30 + 25*20)/50^2 = 0.5,
    # kappa = (0.7 - 0.5)/(1 - 0.5) = 0.4; precision 20/30, recall 20/25, F1 = 16/22.
    a = agreement_score(*table(20, 5, 10, 15))
    assert (a.tp, a.fn, a.fp, a.tn, a.n) == (20, 5, 10, 15, 50)
    assert a.accuracy == pytest.approx(0.7)
    assert a.kappa == pytest.approx(0.4)
    assert a.precision == pytest.approx(2 / 3)
    assert a.recall == pytest.approx(0.8)
    assert a.f1 == pytest.approx(16 / 22)


def test_kappa_is_symmetric() -> None:
    yt, yp = table(7, 3, 4, 9)
    assert agreement_score(yt, yp).kappa == pytest.approx(agreement_score(yp, yt).kappa)


def test_one_constant_rater_gives_kappa_zero_without_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", UndefinedMetricWarning)
        a = agreement_score(*table(0, 49, 0, 44))  # the identity-match row
    assert a.kappa == 0.0 and a.accuracy == pytest.approx(44 / 93)
    assert np.isnan(a.precision) and a.recall == 0.0


def test_undefined_kappa_is_nan_without_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing may reach stderr
        a = agreement_score(*table(5, 0, 0, 0))
    assert np.isnan(a.kappa) and a.accuracy == 1.0 and a.f1 == 1.0


@pytest.mark.parametrize(("y_true", "y_pred", "error", "match"), [
    ([], [], ValueError, "`y_true` is empty"),
    ([True], [True, False], ValueError, "`y_pred` has 2"),
    ([1, 0], [True, False], TypeError, "`y_true`"),
])
def test_argument_checks(y_true: list, y_pred: list, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        agreement_score(np.array(y_true), np.array(y_pred))


def test_bootstrap_is_seeded_and_brackets_the_estimate() -> None:
    yt, yp = table(30, 10, 12, 41)
    a = bootstrap_ci(yt, yp, n_boot=400, seed=7)
    b = bootstrap_ci(yt, yp, n_boot=400, seed=7)
    assert a == b and a["seed"] == 7 and a["n_boot"] == 400
    point = agreement_score(yt, yp)
    assert a["kappa_ci"][0] < point.kappa < a["kappa_ci"][1]
    assert a["accuracy_ci"][0] < point.accuracy < a["accuracy_ci"][1]
    assert bootstrap_ci(yt, yp, n_boot=400, seed=8) != a


def test_bootstrap_kappa_matches_sklearn_on_the_same_resamples() -> None:
    # Re-draw the resamples with the same generator and recompute kappa with scikit-learn.
    yt, yp = table(12, 6, 5, 20)
    ci = bootstrap_ci(yt, yp, n_boot=200, seed=3)
    idx = np.random.default_rng(3).integers(0, len(yt), size=(200, len(yt)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ks = [cohen_kappa_score(yt[i], yp[i], labels=[False, True]) for i in idx]
    ks = np.array(ks)
    assert ci["kappa_ci"] == pytest.approx(np.percentile(ks[~np.isnan(ks)], [2.5, 97.5]).tolist())
    assert ci["kappa_undefined"] == int(np.isnan(ks).sum())


def test_bootstrap_argument_checks() -> None:
    yt, yp = table(1, 1, 1, 1)
    with pytest.raises(ValueError, match="`n_boot`"):
        bootstrap_ci(yt, yp, n_boot=0)
    with pytest.raises(ValueError, match="`confidence`"):
        bootstrap_ci(yt, yp, confidence=1.5)
