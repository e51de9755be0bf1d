"""Speed of the agreement harness against scikit-learn called per threshold, same run.

On the 93 GTED ProofNet dev pairs (``published:gted`` scores):

* oracle threshold: :func:`select_threshold` (one sorted sweep) vs a loop calling
  ``accuracy_score`` and ``cohen_kappa_score`` at each candidate threshold;
* leave-one-out CV: :func:`cross_validated_predictions` vs the same sklearn loop per fold
  (on a subset of folds, scaled up);
* bootstrap: :func:`bootstrap_ci` (vectorised counts) vs sklearn per resample.

Each line prints both times and the ratio; the results must agree (checked here).
Usage: ``.venv/bin/python benchmarks/bench_evaluate.py``
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from sklearn.metrics import accuracy_score, cohen_kappa_score

from transted.reading.pairs import read_pairs
from transted.studies.evaluation.agreement import bootstrap_ci
from transted.studies.evaluation.threshold import (
    candidate_thresholds,
    cross_validated_predictions,
    select_threshold,
)

DATA = "tests/data/gted/proofnet.jsonl"


def sklearn_oracle(s: np.ndarray, y: np.ndarray) -> float:
    best: tuple[float, float, float] | None = None
    for t in candidate_thresholds(s):
        p = s >= t
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            k = cohen_kappa_score(y, p, labels=[False, True])
        key = (accuracy_score(y, p), -np.inf if np.isnan(k) else k, -t)
        if best is None or key > best:
            best = key
    assert best is not None
    return -best[2]


def timed(fn, *args, repeat: int = 3):  # noqa: ANN001, ANN202
    best, out = np.inf, None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn(*args)
        best = min(best, time.perf_counter() - start)
    return best, out


def main() -> None:
    pairs = read_pairs(DATA)
    s = np.array([p.meta["published_scores"]["gted"] for p in pairs])
    y = np.array([bool(p.label) for p in pairs])

    ours, t1 = timed(select_threshold, s, y)
    base, t2 = timed(sklearn_oracle, s, y)
    assert t1 == t2, (t1, t2)
    print(f"oracle threshold   ours {ours * 1e3:8.2f} ms  sklearn loop {base * 1e3:8.1f} ms  "
          f"x{base / ours:6.0f}")

    ours, (preds, used) = timed(cross_validated_predictions, s, y)
    folds = 10
    def sklearn_loo() -> list[float]:  # noqa: E306
        return [sklearn_oracle(s[np.arange(len(s)) != i], y[np.arange(len(s)) != i])
                for i in range(folds)]
    base, thresholds = timed(sklearn_loo, repeat=1)
    assert np.allclose(thresholds, used[:folds])
    base *= len(s) / folds
    print(f"leave-one-out CV   ours {ours * 1e3:8.2f} ms  sklearn loop {base * 1e3:8.1f} ms  "
          f"x{base / ours:6.0f} (sklearn time scaled from {folds} folds)")

    p = s >= t1
    ours, ci = timed(bootstrap_ci, y, p)
    idx = np.random.default_rng(0).integers(0, len(y), size=(1000, len(y)))
    def sklearn_boot() -> list[float]:  # noqa: E306
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return [cohen_kappa_score(y[i], p[i], labels=[False, True]) for i in idx]
    base, ks = timed(sklearn_boot, repeat=1)
    assert np.allclose(np.percentile(ks, [2.5, 97.5]), ci["kappa_ci"])
    print(f"bootstrap (1000)   ours {ours * 1e3:8.2f} ms  sklearn loop {base * 1e3:8.1f} ms  "
          f"x{base / ours:6.0f}")


if __name__ == "__main__":
    main()
