"""``transted eval`` as a library call: one data file, several metrics, one output folder.

Writes ``OUT/scores/<metric>.jsonl`` (streamed, resumable; ``OUT/scores/dev/`` for a dev
file), ``OUT/summary.json``, ``OUT/summary.md``, ``OUT/pairs.csv``, ``OUT/disagreements.md``,
``OUT/kappa_curve.csv`` and ``OUT/kappa_curve.png``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from transted.evaluate.harness import (
    EvalConfig,
    claim_out_dir,
    collect,
    evaluate_metric,
    file_digest,
    load_metric,
    score_metric,
    scores_path,
)
from transted.evaluate.labels import gold_labels, problem_group
from transted.evaluate.outcome import EvalRun
from transted.evaluate.report import write_reports
from transted.executors import Executor
from transted.metrics.base import Metric, MetricResult
from transted.pairs import read_pairs

__all__ = ["run_eval", "parse_metric_list"]

Progress = Callable[[str, str, int], Callable[[MetricResult, bool], None] | None]


def parse_metric_list(spec: str) -> list[str]:
    """``"ted, bleu,identity"`` → ``["ted", "bleu", "identity"]``; empty or repeated names
    raise ``ValueError``."""
    names = [s.strip() for s in spec.split(",") if s.strip()]
    if not names:
        raise ValueError("`metrics` is empty; give a comma-separated list such as 'ted,bleu'")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"`metrics` names {', '.join(repeated)} more than once")
    return names


def run_eval(data: str | Path, metrics: Sequence[str | Metric], out: str | Path, *,
             config: EvalConfig | None = None, dev: str | Path | None = None,
             resume: bool = True, progress: Progress | None = None,
             pair_timeout: float | None = None, executor: Executor | None = None) -> EvalRun:
    """Score ``data`` with every metric, measure agreement, write the report folder.

    Parameters
    ----------
    data : pair file with expert labels (``label`` or ``meta.epla_category``)
    metrics : registry names (``ted``, ``bleu``, ``identity``, ``published:<key>`` ...) or
        Metric objects built with options
    out : output folder (created); re-running with it resumes the scoring
    config : :class:`EvalConfig`; default oracle thresholds
    dev : labelled pair file for ``threshold_mode="calibrated"`` (and only then)
    progress : ``progress(metric, split, n_pairs)`` may return an ``on_result`` callback
    pair_timeout : hard seconds per pair (:func:`~transted.batch.score_pairs`); a timed-out
        pair has no score and counts like an error
    executor : a :class:`~transted.executors.Executor` that scores the pairs (local pool, Ray)
    """
    config = config or EvalConfig()
    if (config.threshold_mode == "calibrated") != (dev is not None):
        raise ValueError("`dev` must be given exactly when `threshold_mode` is 'calibrated'")
    data, out = Path(data), Path(out)
    pairs = read_pairs(data)
    labels = gold_labels(pairs, positive=config.positive, source=str(data))
    dev_pairs = read_pairs(dev) if dev is not None else None
    dev_labels = (gold_labels(dev_pairs, positive=config.positive, source=str(dev))
                  if dev_pairs is not None else None)
    groups = [problem_group(p) for p in pairs]
    loaded = [load_metric(name) for name in metrics]  # fail fast, before any scoring
    claim_out_dir(out, data, dev, resume=resume)  # refuses a folder made from other inputs
    evaluations = []
    for metric in loaded:
        callback = progress(metric.name, "data", len(pairs)) if progress else None
        results = score_metric(pairs, metric, scores_path(out, metric.name),
                               resume=resume, on_result=callback, pair_timeout=pair_timeout, executor=executor)
        rule = None if metric.binary else metric.decision_rule()
        ev = collect(metric.name, str(metric.signature), results, binary=metric.binary,
                     default_threshold=rule.threshold if rule is not None else None)
        dev_scores = None
        if dev_pairs is not None and dev_labels is not None and not ev.binary:
            callback = progress(metric.name, "dev", len(dev_pairs)) if progress else None
            dev_results = score_metric(dev_pairs, metric,
                                       scores_path(out, metric.name, split="dev"),
                                       resume=resume, on_result=callback,
                                       pair_timeout=pair_timeout, executor=executor)
            dev_ev = collect(metric.name, str(metric.signature), dev_results, binary=False)
            dev_scores = (dev_ev.scores, dev_labels)
        evaluations.append(evaluate_metric(ev, labels, config, dev=dev_scores, groups=groups))
    data_digest = file_digest(data)
    dev_digest = file_digest(dev) if dev is not None else ""
    run = EvalRun(data, pairs, labels, config, evaluations,
                  str(config.signature(data_digest, dev_digest)), data_digest,
                  Path(dev) if dev is not None else None, dev_digest)
    run.files = write_reports(run, out)
    return run
