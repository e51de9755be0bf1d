"""The evaluation run: score pairs with each metric, turn scores into verdicts, measure agreement.

Flow of ``transted eval``: :func:`score_metric` streams each metric's results to
``OUT/scores/<metric>.jsonl`` through :func:`transted.running.batch.score_pairs` (a killed run resumes),
:func:`evaluate_metric` chooses a threshold (``oracle`` / ``calibrated`` / ``fixed`` / ``cv``,
see :mod:`transted.studies.evaluation.threshold`) and computes agreement with the expert labels of the
:class:`~transted.studies.evaluation.labels.LabelledPairs` (:mod:`transted.studies.evaluation.agreement`), and
:mod:`transted.studies.evaluation.reports` writes the files.

A pair whose score is missing (metric error) is counted in ``n_errors`` and predicted
*negative*: a metric that cannot judge a pair has not accepted it. The same pairs are also
reported as *abstained*: ``coverage`` (share scored) and agreement on the scored pairs only.
An ``invalid`` result (a candidate that is confidently not Lean 4) is an answer, not an error:
predicted *negative* at every threshold, counted as answered in ``coverage``, and reported on
its own (``n_invalid``, and how many of those the experts call equivalent).
The verdict rule (:mod:`transted.pipeline.verdict.rules`, under the metric's convention) decides a pair
by evidence, invalidity or its residual edits before any threshold; the threshold — whatever
the mode chooses — decides only the rest (the *fallback* pairs, on which it is chosen and
cross-validated: :mod:`transted.studies.evaluation.decided`). Agreement is also reported per
``decided_by`` group; ``n_evidence`` counts the evidence's verdicts. Whatever the mode, every
metric also gets the ``oracle``, grouped ``cv`` and ``default`` (shipped threshold) figures side
by side, so no report shows an oracle figure alone. A metric whose every result
is ``unavailable`` (e.g. a Lean metric without Lean) is reported as unavailable, with no
numbers. Binary metrics (verdicts) are never thresholded: their mode is ``binary`` and a pair
is positive iff its score is 1.0.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import numpy as np
from numpy.typing import NDArray

from transted.errors import InputError
from transted.metrics.base import Metric, MetricResult
from transted.metrics.registry import get_metric
from transted.pipeline.evidence.api import evidence_summary
from transted.pipeline.verdict.rules import forced_by_evidence
from transted.reading.outputs import check_output_dir
from transted.reading.pairs import Pair
from transted.running.batch import score_pairs
from transted.running.executors import Executor
from transted.signature import Signature
from transted.studies.evaluation.agreement import Agreement, agreement_score, bootstrap_ci
from transted.studies.evaluation.decided import (
    agreement_by_group,
    decided_groups,
    fallback_cv,
    fallback_threshold,
    forced_of,
    mode_figures,
    predictions_with,
)
from transted.studies.evaluation.labels import DEFAULT_POSITIVE, LabelledPairs, parse_positive
from transted.studies.evaluation.threshold import ORACLE_RULES, predict

__all__ = ["EvalConfig", "MetricEvaluation", "default_threshold_mode", "resolve_metric",
           "score_metric", "evaluate_metric", "scores_path", "claim_out_dir", "OUT_DIR_MARKER"]


@dataclass(frozen=True)
class EvalConfig:
    """How verdicts and intervals are made; the defaults are the CLI's defaults.

    Parameters
    ----------
    threshold_mode : {"oracle", "calibrated", "fixed", "cv", "default"}
        ``oracle``: best threshold on the evaluated labels themselves (optimistic, as the
        papers report); ``calibrated``: best threshold on a dev file, applied here; ``fixed``:
        ``threshold`` as given; ``cv``: each pair classified with a threshold chosen on the
        other problems (pairs sharing a reference statement share a fold; leave-one-problem-
        out, or ``cv_folds`` seeded grouped folds); ``default``: the metric's shipped
        threshold (:mod:`transted.pipeline.verdict.rules`).
    oracle_rule : {"accuracy", "gted"}
        How a best threshold is chosen (see :mod:`transted.studies.evaluation.threshold`).
    n_boot, seed, confidence : bootstrap resamples, RNG seed, interval coverage.
    positive : EPLA categories counted as equivalent when a pair carries one.
    top_disagreements : pairs listed per metric in ``disagreements.md``.
    """

    MODES: ClassVar[tuple[str, ...]] = ("oracle", "calibrated", "fixed", "cv", "default")

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
            options["folds"] = self.cv_folds or "lopo"
            options["groups"] = "problem"
        options.update({"positive": self.positive, "boot": self.n_boot, "seed": self.seed,
                        "ci": self.confidence, "errors": "negative", "data": data_digest or "none"})
        if dev_digest:
            options["dev"] = dev_digest
        return Signature.build("eval", options)


def default_threshold_mode(*, dev: object = None, threshold: float | None = None) -> str:
    """The mode used when the caller names none (API and CLI alike): ``calibrated`` with a dev
    file, ``fixed`` with a threshold, else :class:`EvalConfig`'s default."""
    if dev is not None:
        return "calibrated"
    return "fixed" if threshold is not None else EvalConfig.threshold_mode


OUT_DIR_MARKER = "inputs.json"


def claim_out_dir(out: str | Path, data: LabelledPairs, dev: LabelledPairs | None = None, *,
                  resume: bool = True) -> None:
    """Create ``out`` (checked: :func:`~transted.reading.outputs.check_output_dir`) and record which
    inputs it holds results for, in ``OUT/inputs.json`` (data names and digests).

    Re-running into a folder made from other data would mix two data sets' results under
    overlapping ids, so with ``resume`` a folder recorded for other inputs raises
    :class:`InputError`; without ``resume`` the record is replaced.
    """
    out = check_output_dir(out)
    record = {"data": data.digest, "dev": dev.digest if dev is not None else None}
    marker = Path(out) / OUT_DIR_MARKER
    if resume and marker.exists():
        try:
            held = json.loads(marker.read_text(encoding="utf-8"))
            held = {"data": held["data"]["sha256"], "dev": (held.get("dev") or {}).get("sha256")}
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise InputError(f"{marker}: not a transted eval record ({e}); use --no-resume "
                             "to overwrite the folder's record") from e
        if held != record:
            raise InputError(f"{out}: holds results for other inputs (data {held['data']}, dev "
                             f"{held['dev']}; now {record['data']}, {record['dev']}); use another "
                             "--out, or --no-resume to overwrite")
    Path(out).mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps({
        "data": {"path": data.name, "sha256": record["data"]},
        "dev": {"path": dev.name, "sha256": record["dev"]} if dev is not None else None,
    }, indent=1) + "\n", encoding="utf-8")


def resolve_metric(name: str | Metric) -> Metric:
    """:func:`transted.metrics.registry.get_metric` (unknown names raise ``ValueError``), with a
    missing implementation reported as an :class:`InputError` naming the metric; a ready
    Metric object (built with options) is used as it is."""

    if isinstance(name, Metric):
        return name
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
                 jobs: int | None = None, executor: Executor | None = None,
                 pair_timeout: float | None = None) -> list[MetricResult]:
    """Stream ``metric``'s results for ``pairs`` to ``path`` (resumable); ``jobs`` /
    ``executor`` / ``pair_timeout`` as for :func:`transted.running.batch.score_pairs` (a timed-out
    pair has no score: evaluation counts it like an error)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return score_pairs(pairs, metric, path, resume=resume, on_result=on_result, jobs=jobs,
                       executor=executor, pair_timeout=pair_timeout)


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
    default_threshold: float | None = None
    """The shipped threshold of this exact metric computation, if any."""
    evidence: list[object] = field(default_factory=list)
    """Per pair: ``details["evidence"]`` of its result (``proved``/``refuted``/None)."""
    n_evidence: int = 0
    evidence_detail: list[object] = field(default_factory=list)
    """Per pair: ``details["evidence_detail"]`` (witness, failing side, script, reason) or None."""
    evidence_stats: dict[str, dict] = field(default_factory=dict)
    """``evidence_counts`` and ``evidence_precision`` (:func:`transted.pipeline.evidence.evidence_summary`)."""
    modes: dict[str, dict[str, object]] = field(default_factory=dict)
    """Mode → {threshold, accuracy, kappa} for oracle, cv and default (the side-by-side table)."""
    abstain: dict[str, object] = field(default_factory=dict)
    """Coverage and agreement on the scored pairs only (errors abstained, not negative)."""
    invalid: dict[str, str] = field(default_factory=dict)
    """Pair id → the positioned error, for every ``invalid`` result (an answer: negative)."""
    invalid_equivalent: list[str] = field(default_factory=list)
    """The invalid pairs the experts label equivalent (a question about the data set)."""

    def invalid_mask(self, ids: Sequence[str]) -> NDArray[np.bool_]:
        return np.array([i in self.invalid for i in ids], dtype=bool)
    convention: str | None = None
    """The label convention the metric's verdicts follow (None: a metric without one)."""
    forced: list[bool | None] = field(default_factory=list)
    """Per pair: the verdict decided before the threshold (evidence, invalid, edits), or None."""
    forced_by: list[str | None] = field(default_factory=list)
    verdict_reasons: list[str | None] = field(default_factory=list)
    """Per pair: why the rule decided as it did (the deciding edit, or the fallback's reason)."""
    residual: list[object] = field(default_factory=list)
    """Per pair: ``details["residual"]`` of its result (None for a metric without one)."""
    decided: list[str] = field(default_factory=list)
    """Per pair: the ``decided_by`` group of its verdict (:data:`~transted.studies.evaluation.decided.GROUPS`)."""
    by_decided: dict[str, dict[str, object]] = field(default_factory=dict)
    """Agreement per ``decided_by`` group."""
    default_in_sample: bool | None = None
    """Whether the shipped threshold was derived on these very pairs (same data digest)."""

    def __post_init__(self) -> None:
        if len(self.forced) != len(self.scores):  # built by hand: evidence alone decides
            evidence = self.evidence or [None] * len(self.scores)
            self.forced = [forced_by_evidence(e) for e in evidence]
            self.forced_by = ["evidence" if f is not None else None for f in self.forced]

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
            "n_invalid": len(self.invalid), "invalid_labelled_equivalent": self.invalid_equivalent,
            "n_unavailable": self.n_unavailable, "status": self.status, "binary": self.binary,
            "errors_predicted": "negative",
            "n_evidence": self.n_evidence, "default_threshold": self.default_threshold,
            "modes": self.modes, "abstain": self.abstain,
            "evidence_counts": self.evidence_stats.get("evidence_counts"),
            "evidence_precision": self.evidence_stats.get("evidence_precision"),
            "convention": self.convention, "decided_by": self.by_decided,
            "default_in_sample": self.default_in_sample,
        }
        if self.threshold_mode in ("oracle", "calibrated", "cv"):
            entry["oracle_rule"] = config.oracle_rule
        if self.fold_thresholds is not None:
            entry["cv_folds"] = config.cv_folds or "leave-one-problem-out"
            entry["threshold_range"] = [float(self.fold_thresholds.min()),
                                        float(self.fold_thresholds.max())]
        if self.intervals:
            entry["kappa_undefined_resamples"] = self.intervals.get("kappa_undefined")
        return entry


def collect(name: str, signature: str, results: Sequence[MetricResult],
            *, binary: bool, default_threshold: float | None = None,
            convention: str | None = None) -> MetricEvaluation:
    """Gather a metric's results (in pair order) into a :class:`MetricEvaluation`; the verdict
    rule's forced decisions follow ``convention`` (None: ``strict``)."""
    scores = np.array([np.nan if r.score is None else r.score for r in results], dtype=float)
    errors = {r.id: r.error or r.status for r in results
              if r.score is None and r.status != "invalid"}
    invalid = {r.id: r.error or r.status for r in results if r.status == "invalid"}
    unavailable = sum(r.status == "unavailable" for r in results)
    ok = [r for r in results if r.score is not None]
    binary = binary or bool(ok) and all(r.details.get("binary") for r in ok)
    status = "unavailable" if results and unavailable == len(results) else "ok"
    forced, forced_by, reasons = forced_of(results, convention or "strict")
    if binary:
        forced, forced_by = [None] * len(results), [None] * len(results)
    return MetricEvaluation(name, signature, binary, scores, errors, unavailable, status,
                            default_threshold=default_threshold,
                            evidence=[r.details.get("evidence") for r in results],
                            evidence_detail=[r.details.get("evidence_detail") for r in results],
                            invalid=invalid,
                            convention=convention, forced=forced, forced_by=forced_by,
                            verdict_reasons=reasons,
                            residual=[r.details.get("residual") for r in results])


def evaluate_metric(ev: MetricEvaluation, data: LabelledPairs, config: EvalConfig, *,
                    dev: tuple[MetricEvaluation, LabelledPairs] | None = None
                    ) -> MetricEvaluation:
    """Choose the threshold, predict, and fill in agreement and intervals (in place).

    ``ev`` holds a metric's results on ``data``'s pairs; ``dev`` the same metric's on the dev
    pairs (``calibrated`` mode). ``cv`` folds keep each problem of ``data.groups`` together.
    """
    if ev.status == "unavailable":
        ev.threshold_mode = "unavailable"
        return ev
    labels = data.labels
    if ev.binary:
        ev.threshold, ev.threshold_mode = 0.5, "binary"
        ev.predictions = predict(ev.scores, 0.5)
    elif config.threshold_mode == "cv":
        ev.predictions, ev.fold_thresholds = fallback_cv(
            ev.scores, labels, ev.forced, data.groups, rule=config.oracle_rule,
            folds=config.cv_folds, seed=config.seed)
        ev.threshold, ev.threshold_mode = float(np.median(ev.fold_thresholds)), "cv"
    elif config.threshold_mode == "default" and ev.default_threshold is None:
        ev.threshold_mode = "no default"
        ev.status = "no default threshold"
        return ev
    else:
        ev.threshold = _threshold(ev, data, config, dev)
        ev.threshold_mode = config.threshold_mode
        ev.predictions = predictions_with(ev.scores, ev.forced, ev.threshold)[0]
    ev.n_evidence = sum(by == "evidence" for by in ev.forced_by)
    ev.decided = decided_groups(ev.forced_by, ev.scores, binary=ev.binary)
    ev.by_decided = agreement_by_group(labels, ev.predictions, ev.decided)
    ids = [pair.id for pair in data.pairs]
    invalid = ev.invalid_mask(ids)
    ev.predictions = ev.predictions & ~invalid  # also for a binary metric: an answer, negative
    ev.invalid_equivalent = [pid for pid, bad, y in zip(ids, invalid, labels, strict=True)
                             if bad and y]
    ev.evidence_stats = evidence_summary(evidence_kinds(ev) or ["none"] * len(labels),
                                         [bool(x) for x in labels])
    ev.agreement = agreement_score(labels, ev.predictions)
    ev.intervals = bootstrap_ci(labels, ev.predictions, n_boot=config.n_boot, seed=config.seed,
                                confidence=config.confidence)
    ev.abstain = abstention(ev, data)
    if not ev.binary:
        ev.modes = mode_comparison(ev, data, config)
    return ev


def evidence_kinds(ev: MetricEvaluation) -> list[str]:
    """Per pair ``proved``/``refuted``/``none`` (a metric without evidence: all ``none``)."""
    return [str(e) if forced_by_evidence(e) is not None else "none" for e in ev.evidence]


def abstention(ev: MetricEvaluation, data: LabelledPairs) -> dict[str, object]:
    """Coverage and agreement on the scored pairs only (a failed pair abstains)."""
    labels = data.labels
    scored = ~np.isnan(ev.scores) | ev.invalid_mask([p.id for p in data.pairs])  # answered
    out: dict[str, object] = {"coverage": float(scored.mean()) if len(scored) else None,
                              "n_abstained": int((~scored).sum())}
    if scored.any() and ev.predictions is not None:
        a = agreement_score(labels[scored], ev.predictions[scored])
        out.update({"accuracy": a.accuracy, "kappa": a.kappa})
    return out


def mode_comparison(ev: MetricEvaluation, data: LabelledPairs, config: EvalConfig
                    ) -> dict[str, dict[str, object]]:
    """Oracle, grouped-cv and default figures of one graded metric, whatever the mode."""
    return mode_figures(ev.scores, data.labels, ev.forced, data.groups,
                        rule=config.oracle_rule, folds=config.cv_folds, seed=config.seed,
                        default=ev.default_threshold, default_in_sample=ev.default_in_sample)


def _threshold(ev: MetricEvaluation, data: LabelledPairs, config: EvalConfig,
               dev: tuple[MetricEvaluation, LabelledPairs] | None) -> float:
    if config.threshold_mode == "default":
        return float(ev.default_threshold)  # type: ignore[arg-type]  # checked by the caller
    if config.threshold_mode == "fixed":
        return float(config.threshold)  # type: ignore[arg-type]  # checked in EvalConfig
    if config.threshold_mode == "calibrated":
        if dev is None:
            raise ValueError(f"metric {ev.name!r}: threshold_mode 'calibrated' needs dev scores")
        dev_ev, dev_labels = dev[0], dev[1].labels
        if dev_labels.all() or not dev_labels.any():
            # refused, not warned: a threshold tuned on one class puts every pair on one side
            # (the lowest or above the highest dev score), whatever the metric.
            kind = "positive" if not dev_labels.any() else "negative"
            raise InputError(f"the dev set has no {kind} labels (positive = "
                             f"{', '.join(config.positive)}); a threshold cannot be calibrated on "
                             "it — give a dev set with both kinds of pairs")
        return fallback_threshold(dev_ev.scores, dev_labels, dev_ev.forced,
                                  rule=config.oracle_rule)
    return fallback_threshold(ev.scores, data.labels, ev.forced, rule=config.oracle_rule)
