"""Threshold sweeps, the oracle rules and cross-validated verdicts."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score, confusion_matrix

from transted.studies.evaluation.threshold import (
    candidate_thresholds,
    cross_validated_predictions,
    predict,
    select_threshold,
    sweep,
)

scores_and_labels = st.integers(2, 30).flatmap(lambda n: st.tuples(
    st.lists(st.one_of(st.sampled_from([0.0, 0.25, 0.5, 1.0, float("nan")]),
                       st.floats(0, 1)), min_size=n, max_size=n),
    st.lists(st.booleans(), min_size=n, max_size=n)))


@settings(derandomize=True, max_examples=60, deadline=None)
@given(scores_and_labels, st.floats(-0.1, 1.1))
def test_sweep_counts_match_sklearn(data: tuple[list, list], t: float) -> None:
    s, y = np.array(data[0]), np.array(data[1])
    sw = sweep(s, y, [t])
    (tn, fp), (fn, tp) = confusion_matrix(y, predict(s, t), labels=[False, True])
    assert (sw.tp[0], sw.fp[0], sw.tn[0], sw.fn[0]) == (tp, fp, tn, fn)
    k = sw.kappa()[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # sklearn's notice on constant verdicts
        ref = cohen_kappa_score(y, predict(s, t), labels=[False, True])
    assert (np.isnan(k) and np.isnan(ref)) or k == pytest.approx(ref)


def test_candidates_are_midpoints_plus_ends() -> None:
    c = candidate_thresholds([0.2, 0.6, 0.6, 1.0, np.nan])
    assert c[:3].tolist() == pytest.approx([0.2, 0.4, 0.8])
    assert c[3] > 1.0 and c[3] == np.nextafter(1.0, 2)
    assert len(candidate_thresholds([0.1], rule="gted")) == 1001


def test_oracle_picks_best_accuracy() -> None:
    # Separable at any t in (0.4, 0.6]: the midpoint 0.5 is chosen.
    assert select_threshold([0.1, 0.3, 0.4, 0.6, 0.8], np.array([0, 0, 0, 1, 1], bool)) == 0.5


def test_oracle_accuracy_tie_goes_to_higher_kappa() -> None:
    # Scores 0.1..0.6 with labels T F T T T F. All positive (t=0.1): acc 4/6, kappa 0.
    # Positive from 0.3 up (t=0.25): tp 3, fp 1, tn 1, fn 1 -> acc 4/6,
    # p_e = (4*4 + 2*2)/36 = 20/36, kappa = (24/36 - 20/36) / (16/36) = 0.25 -> wins.
    s = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    y = np.array([True, False, True, True, True, False])
    assert select_threshold(s, y) == pytest.approx(0.25)


def test_oracle_full_tie_goes_to_smaller_threshold() -> None:
    # Labels F T F T on 0.1..0.4: t=0.15 (tp 2, fp 1, tn 1) and t=0.35 (tp 1, tn 2, fn 1)
    # both give accuracy 3/4 and kappa (3/4 - 1/2) / (1/2) = 0.5; the smaller one is kept.
    y = np.array([False, True, False, True])
    assert select_threshold([0.1, 0.2, 0.3, 0.4], y) == pytest.approx(0.15)


def test_oracle_never_prefers_an_undefined_kappa() -> None:
    # All labels negative: every verdict set has accuracy = share of negative verdicts; the
    # all-negative one (accuracy 1, kappa undefined) is still chosen, being the only best.
    y = np.zeros(3, bool)
    assert select_threshold([0.2, 0.5, 0.9], y) > 0.9


def test_gted_rule_uses_grid_and_kappa_first() -> None:
    y = np.array([True, True, False, False])
    t = select_threshold([0.3004, 0.8, 0.1, 0.3], y, rule="gted")
    # Smallest grid point separating 0.3 (neg) from 0.3004 (pos) is 0.301.
    assert t == pytest.approx(0.301)


def test_leave_one_out_uses_the_other_pairs_only() -> None:
    rng = np.random.default_rng(3)
    s, y = rng.random(25), rng.random(25) < 0.5
    preds, used = cross_validated_predictions(s, y)
    for i in range(25):
        keep = np.arange(25) != i
        assert used[i] == select_threshold(s[keep], y[keep])
        assert preds[i] == (s[i] >= used[i])


def test_k_fold_is_seeded() -> None:
    rng = np.random.default_rng(4)
    s, y = rng.random(40), rng.random(40) < 0.5
    a = cross_validated_predictions(s, y, folds=5, seed=1)
    b = cross_validated_predictions(s, y, folds=5, seed=1)
    assert (a[0] == b[0]).all() and (a[1] == b[1]).all()
    assert len(np.unique(a[1])) <= 5


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"folds": 1}, "folds"), ({"folds": 99}, "folds"), ({"rule": "best"}, "rule")])
def test_bad_arguments(kwargs: dict, match: str) -> None:
    s, y = [0.1, 0.2, 0.3], np.array([True, False, True])
    with pytest.raises(ValueError, match=match):
        if "folds" in kwargs:
            cross_validated_predictions(s, y, **kwargs)
        else:
            select_threshold(s, y, **kwargs)


@pytest.mark.parametrize(("scores", "labels", "error"), [
    ([], [], ValueError), ([0.1], [True, False], ValueError), ([0.1], [1], TypeError)])
def test_input_checks(scores: list, labels: list, error: type) -> None:
    with pytest.raises(error, match="`"):
        select_threshold(scores, np.array(labels))
