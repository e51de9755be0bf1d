"""The evaluation run: score pairs with each metric, turn scores into verdicts, measure agreement.

Flow of ``transted eval``: :func:`score_metric` streams each metric's results to
``OUT/scores/<metric>.jsonl`` through :func:`transted.batch.score_pairs` (a killed run resumes),
:func:`evaluate_metric` chooses a threshold (``oracle`` / ``calibrated`` / ``fixed`` / ``cv``,
see :mod:`transted.evaluate.threshold`) and computes agreement with the expert labels
(:mod:`transted.evaluate.agreement`), and :mod:`transted.evaluate.report` writes the files.

A pair whose score is missing (metric error) is counted in ``n_errors`` and predicted
*negative*: a metric that cannot judge a pair has not accepted it. A metric whose every result
is ``unavailable`` (e.g. a Lean metric without Lean) is reported as unavailable, with no
numbers. Binary metrics (verdicts) are never thresholded: their mode is ``binary`` and a pair
is positive iff its score is 1.0.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from transted.batch import score_pairs
from transted.errors import InputError
from transted.evaluate.agreement import Agreement, agreement_score, bootstrap_ci
from transted.evaluate.labels import DEFAULT_POSITIVE, parse_positive
from transted.evaluate.threshold import (
    ORACLE_RULES,
    cross_validated_predictions,
    predict,
    select_threshold,
)
from transted.executors import Executor
from transted.metrics.base import Metric, MetricResult
from transted.pairs import Pair
from transted.signature import Signature

__all__ = ["EvalConfig", "MetricEvaluation", "load_metric", "score_metric", "evaluate_metric",
           "scores_path", "file_digest"]


@dataclass(frozen=True)
class EvalConfig:
    """How verdicts and intervals are made; the defaults are the CLI's defaults.

    Parameters
    ----------
    threshold_mode : {"oracle", "calibrated", "fixed", "cv"}
        ``oracle``: best threshold on the evaluated labels themselves (optimistic, as the
        papers report); ``calibrated``: best threshold on a dev file, applied here; ``fixed``:
        ``threshold`` as given; ``cv``: each pair classified with a threshold chosen on the
        other pairs (leave-one-out, or ``cv_folds`` seeded folds).
    oracle_rule : {"accuracy", "gted"}
        How a best threshold is chosen (see :mod:`transted.evaluate.threshold`).
    n_boot, seed, confidence : bootstrap resamples, RNG seed, interval coverage.
    positive : EPLA categories counted as equivalent when a pair carries one.
    top_disagreements : pairs listed per metric in ``disagreements.md``.
    """

    MODES: ClassVar[tuple[str, ...]] = ("oracle", "calibrated", "fixed", "cv")

    threshold_mode: str = "oracle"
    threshold: float | None = None
    oracle_rule: str = "accuracy"
    cv_folds: int = 0
    n_boot: int = 1000
    seed: int = 0
    confidence: float = 0.95
    positive: tuple[str, ...] = DEFAULT_POSITIVE
    top_disagreements: int = 10

    def __post_init__(self) -> None:
        if self.threshold_mode not in self.MODES:
            raise ValueError(f"`threshold_mode` must be one of {self.MODES}, "
                             f"got {self.threshold_mode!r}")
        if (self.threshold_mode == "fixed") != (self.threshold is not None):
            raise ValueError("`threshold` must be given exactly when `threshold_mode` is 'fixed'")
        if self.oracle_rule not in ORACLE_RULES:
            raise ValueError(f"`oracle_rule` must be one of {ORACLE_RULES}, "
                             f"got {self.oracle_rule!r}")
        if self.top_disagreements < 0:
            raise ValueError(f"`top_disagreements` must be >= 0, got {self.top_disagreements}")
        object.__setattr__(self, "positive", parse_positive(self.positive))

    def signature(self, data_digest: str = "", dev_digest: str = "") -> Signature:
        """Reproducibility string of the agreement computation (not of the metrics)."""
        options: dict[str, object] = {"mode": self.threshold_mode}
        if self.threshold_mode == "fixed":
            options["t"] = self.threshold
        else:
            options["rule"] = self.oracle_rule
        if self.threshold_mode == "cv":
            options["folds"] = self.cv_folds or "loo"
        options.update({"positive": self.positive, "boot": self.n_boot, "seed": self.seed,
                        "ci": self.confidence, "errors": "negative", "data": data_digest or "none"})
        if dev_digest:
            options["dev"] = dev_digest
        return Signature.build("eval", options)


def file_digest(path: str | Path) -> str:
    """First 12 hex digits of the file's SHA-256 (names the data set in signatures)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def load_metric(name: str) -> Metric:
    """:func:`transted.metrics.registry.get_metric` (unknown names raise ``ValueError``), with a
    missing implementation reported as an :class:`InputError` naming the metric."""
    from transted.metrics.registry import get_metric

    try:
        return get_metric(name)
    except ModuleNotFoundError as e:
        raise InputError(f"metric {name!r} is not available in this installation "
                         f"(module {e.name} is missing)") from e



def scores_path(out_dir: str | Path, metric: str, *, split: str = "") -> Path:
    """``OUT/scores[/split]/<metric>.jsonl``, with ``:`` in a metric name made file-safe."""
    base = Path(out_dir) / "scores"
    if split:
        base = base / split
    return base / (metric.replace(":", "_").replace("/", "_") + ".jsonl")


def score_metric(pairs: Sequence[Pair], metric: Metric, path: Path, *, resume: bool = True,
                 on_result: Callable[[MetricResult, bool], None] | None = None,
                 jobs: int | None = None, executor: Executor | None = None
                 ) -> list[MetricResult]:
    """Stream ``metric``'s results for ``pairs`` to ``path`` (resumable); ``jobs`` /
    ``executor`` as for :func:`transted.batch.score_pairs`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return score_pairs(pairs, metric, path, resume=resume, on_result=on_result, jobs=jobs,
                       executor=executor)


@dataclass
class MetricEvaluation:
    """Everything ``transted eval`` knows about one metric on one data set."""

    name: str
    signature: str
    binary: bool
    scores: NDArray[np.float64]
    """One per pair; NaN where the metric gave no score."""
    errors: dict[str, str]
    """Pair id → error message, for every pair without a score."""
    n_unavailable: int = 0
    status: str = "ok"
    predictions: NDArray[np.bool_] | None = None
    threshold: float | None = None
    threshold_mode: str = ""
    fold_thresholds: NDArray[np.float64] | None = None
    agreement: Agreement | None = None
    intervals: dict[str, object] = field(default_factory=dict)

    def summary(self, config: EvalConfig) -> dict[str, object]:
        """The ``summary.json`` entry: the keys other tools read, then extras."""
        a = self.agreement
        entry: dict[str, object] = {
            "threshold": self.threshold, "threshold_mode": self.threshold_mode,
            "tp": a.tp if a else None, "tn": a.tn if a else None,
            "fp": a.fp if a else None, "fn": a.fn if a else None,
            "precision": a.precision if a else None, "recall": a.recall if a else None,
            "accuracy": a.accuracy if a else None, "kappa": a.kappa if a else None,
            "kappa_ci": self.intervals.get("kappa_ci"),
            "accuracy_ci": self.intervals.get("accuracy_ci"),
            "signature": self.signature,
            "f1": a.f1 if a else None, "n": len(self.scores), "n_errors": len(self.errors),
            "n_unavailable": self.n_unavailable, "status": self.status, "binary": self.binary,
            "errors_predicted": "negative",
        }
        if self.threshold_mode in ("oracle", "calibrated", "cv"):
            entry["oracle_rule"] = config.oracle_rule
        if self.fold_thresholds is not None:
            entry["cv_folds"] = config.cv_folds or "loo"
            entry["threshold_range"] = [float(self.fold_thresholds.min()),
                                        float(self.fold_thresholds.max())]
        if self.intervals:
            entry["kappa_undefined_resamples"] = self.intervals.get("kappa_undefined")
        return entry


def collect(name: str, signature: str, results: Sequence[MetricResult],
            *, binary: bool) -> MetricEvaluation:
    """Gather a metric's results (in pair order) into a :class:`MetricEvaluation`."""
    scores = np.array([np.nan if r.score is None else r.score for r in results], dtype=float)
    errors = {r.id: r.error or r.status for r in results if r.score is None}
    unavailable = sum(r.status == "unavailable" for r in results)
    ok = [r for r in results if r.score is not None]
    binary = binary or bool(ok) and all(r.details.get("binary") for r in ok)
    status = "unavailable" if results and unavailable == len(results) else "ok"
    return MetricEvaluation(name, signature, binary, scores, errors, unavailable, status)


def evaluate_metric(ev: MetricEvaluation, labels: NDArray[np.bool_], config: EvalConfig, *,
                    dev: tuple[NDArray[np.float64], NDArray[np.bool_]] | None = None
                    ) -> MetricEvaluation:
    """Choose the threshold, predict, and fill in agreement and intervals (in place)."""
    if ev.status == "unavailable":
        ev.threshold_mode = "unavailable"
        return ev
    if ev.binary:
        ev.threshold, ev.threshold_mode = 0.5, "binary"
        ev.predictions = predict(ev.scores, 0.5)
    elif config.threshold_mode == "cv":
        ev.predictions, ev.fold_thresholds = cross_validated_predictions(
            ev.scores, labels, rule=config.oracle_rule, folds=config.cv_folds, seed=config.seed)
        ev.threshold, ev.threshold_mode = float(np.median(ev.fold_thresholds)), "cv"
    else:
        ev.threshold = _threshold(ev, labels, config, dev)
        ev.threshold_mode = config.threshold_mode
        ev.predictions = predict(ev.scores, ev.threshold)
    ev.agreement = agreement_score(labels, ev.predictions)
    ev.intervals = bootstrap_ci(labels, ev.predictions, n_boot=config.n_boot, seed=config.seed,
                                confidence=config.confidence)
    return ev


def _threshold(ev: MetricEvaluation, labels: NDArray[np.bool_], config: EvalConfig,
               dev: tuple[NDArray[np.float64], NDArray[np.bool_]] | None) -> float:
    if config.threshold_mode == "fixed":
        return float(config.threshold)  # type: ignore[arg-type]  # checked in EvalConfig
    if config.threshold_mode == "calibrated":
        if dev is None:
            raise ValueError(f"metric {ev.name!r}: threshold_mode 'calibrated' needs dev scores")
        return select_threshold(dev[0], dev[1], rule=config.oracle_rule)
    return select_threshold(ev.scores, labels, rule=config.oracle_rule)
