"""``transted eval`` as a library call: labelled pairs, several metrics, one output folder.

Writes ``OUT/scores/<metric>.jsonl`` (streamed, resumable; ``OUT/scores/dev/`` for the dev
pairs), ``OUT/summary.json``, ``OUT/summary.md``, ``OUT/pairs.csv``, ``OUT/disagreements.md``,
``OUT/kappa_curve.csv`` and ``OUT/kappa_curve.png``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from transted.metrics.base import Metric, MetricResult
from transted.running.executors import Executor
from transted.studies.evaluation.harness import (
    EvalConfig,
    claim_out_dir,
    collect,
    evaluate_metric,
    resolve_metric,
    score_metric,
    scores_path,
)
from transted.studies.evaluation.labels import LabelledPairs
from transted.studies.evaluation.outcome import EvalRun
from transted.studies.evaluation.reports.writer import write_reports

__all__ = ["run_eval"]

Progress = Callable[[str, str, int], Callable[[MetricResult, bool], None] | None]


def run_eval(data: LabelledPairs, metrics: Sequence[str | Metric], out: str | Path, *,
             config: EvalConfig | None = None, dev: LabelledPairs | None = None,
             resume: bool = True, progress: Progress | None = None,
             pair_timeout: float | None = None, executor: Executor | None = None) -> EvalRun:
    """Score ``data`` with every metric, measure agreement, write the report folder.

    Parameters
    ----------
    data : the pairs with their expert labels (:meth:`LabelledPairs.of`, labelled with
        ``config.positive``); reading them from a file is the caller's
        (:func:`transted.api.evaluate`)
    metrics : registry names (``ted``, ``bleu``, ``identity``, ``published:<key>`` ...) or
        Metric objects built with options
    out : output folder (created); re-running with it resumes the scoring
    config : :class:`EvalConfig`; default oracle thresholds
    dev : labelled dev pairs for ``threshold_mode="calibrated"`` (and only then)
    progress : ``progress(metric, split, n_pairs)`` may return an ``on_result`` callback
    pair_timeout : hard seconds per pair (:func:`~transted.running.batch.score_pairs`); a timed-out
        pair has no score and counts like an error
    executor : a :class:`~transted.running.executors.Executor` that scores the pairs (local pool, Ray)
    """
    config = config or EvalConfig()
    if (config.threshold_mode == "calibrated") != (dev is not None):
        raise ValueError("`dev` must be given exactly when `threshold_mode` is 'calibrated'")
    for split in (data, dev):
        if split is not None and split.positive != config.positive:
            raise ValueError(f"`{split.name}` was labelled with positive categories "
                             f"{split.positive}, `config` counts {config.positive}")
    out = Path(out)
    loaded = [resolve_metric(name) for name in metrics]  # fail fast, before any scoring
    claim_out_dir(out, data, dev, resume=resume)  # refuses a folder made from other inputs
    evaluations = []
    for metric in loaded:
        callback = progress(metric.name, "data", len(data.pairs)) if progress else None
        results = score_metric(data.pairs, metric, scores_path(out, metric.name),
                               resume=resume, on_result=callback, pair_timeout=pair_timeout,
                               executor=executor)
        rule = None if metric.binary else metric.decision_rule()
        convention = getattr(metric, "convention", None)
        ev = collect(metric.name, str(metric.signature), results, binary=metric.binary,
                     default_threshold=rule.threshold if rule is not None else None,
                     convention=convention)
        ev.default_in_sample = None if rule is None else data.digest in rule.data
        dev_scores = None
        if dev is not None and not ev.binary:
            callback = progress(metric.name, "dev", len(dev.pairs)) if progress else None
            dev_results = score_metric(dev.pairs, metric,
                                       scores_path(out, metric.name, split="dev"),
                                       resume=resume, on_result=callback,
                                       pair_timeout=pair_timeout, executor=executor)
            dev_ev = collect(metric.name, str(metric.signature), dev_results, binary=False,
                             convention=convention)
            dev_scores = (dev_ev, dev)
        evaluations.append(evaluate_metric(ev, data, config, dev=dev_scores))
    run = EvalRun(data, config, evaluations,
                  str(config.signature(data.digest, dev.digest if dev is not None else "")), dev)
    run.files = write_reports(run, out)
    return run
