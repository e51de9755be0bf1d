"""The Python API: score a pair, score many, load a metric, evaluate against expert labels.

These are the functions the CLI calls; each returns values (pydantic results, an
:class:`~transted.studies.evaluation.outcome.EvalRun`) and never prints. Reading pair files happens
here and in the CLI, never in the evaluation (which takes pairs).

>>> import transted
>>> r = transted.score("theorem a (x : ℕ) : x = x := sorry",
...                    "theorem b (y : ℕ) : y = y := sorry", metric="ted", canonical_names=True)
>>> r.score, r.signature.startswith("metric:ted|")
(1.0, True)
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from transted.metrics.base import Metric, MetricResult
from transted.metrics.formulaicness import Formulaicness, read_texts, text_pairs
from transted.metrics.options import declared_options
from transted.metrics.registry import get_metric, metric_class
from transted.reading.inputs import TABLE_SUFFIXES, read_pair_table
from transted.reading.pairs import Pair, Statement, check_unique_ids, read_pairs
from transted.running.batch import score_pairs
from transted.running.executors.base import Executor
from transted.running.executors.placement import executor_of, score_stream
from transted.running.executors.run_options import RunOptions
from transted.running.samples import sample_figures
from transted.studies.evaluation.harness import EvalConfig, default_threshold_mode
from transted.studies.evaluation.labels import LabelledPairs
from transted.studies.evaluation.run import run_eval

if TYPE_CHECKING:
    from transted.studies.evaluation.outcome import EvalRun

__all__ = ["Result", "RunOptions", "load_metric", "score", "score_many", "evaluate", "as_pairs",
           "labelled_pairs", "score_formulaicness", "sample_figures", "API_RUN"]

Result = MetricResult
"""One scored pair: ``id``, ``metric``, ``score`` (None on error), ``signature``, ``status``,
``error``, ``details``."""

PairLike = Pair | dict[str, Any] | tuple[Any, Any]

API_RUN = RunOptions(jobs=1)
"""What :func:`score_many` and :func:`evaluate` run with when given no ``run``: in this
process, as they always have (a caller's ``executor``/``pair_timeout`` still apply);
``run=RunOptions()`` is the CLI's default placement (every core once the batch is worth it)."""


def _run_options(run: RunOptions | None, **given: Any) -> RunOptions:
    """``run`` (default :data:`API_RUN`) with the keyword arguments given the old way
    (``out``, ``resume``, ``pair_timeout``, ``executor``); one given both ways must agree."""
    if run is not None and not isinstance(run, RunOptions):
        raise TypeError(f"`run` must be a RunOptions, got {type(run).__name__}")
    return RunOptions.merged(run if run is not None else API_RUN, **given)


def load_metric(name: str, **options: Any) -> Metric:
    """Metric ``name`` with ``options``; an unknown name or option raises ``ValueError`` with the
    declared options listed (``transted.metrics.options``)."""

    return get_metric(name, **options)


def _metric(metric: str | Metric, options: dict[str, Any]) -> Metric:
    if isinstance(metric, Metric):
        if options:
            raise ValueError("`options` cannot be given with a ready Metric object")
        return metric
    return load_metric(metric, **options)


def _statement(side: str, value: str | Statement | dict[str, Any], header: str | None) -> Statement:
    if isinstance(value, Statement):
        return value
    if isinstance(value, str):
        return Statement(statement=value, header=header)
    if isinstance(value, dict):
        return Statement.model_validate(value)
    raise TypeError(f"`{side}` must be a str, Statement or dict, got {type(value).__name__}")


def as_pairs(pairs: str | Path | Iterable[PairLike], *, header: str | None = None) -> list[Pair]:
    """Pairs from a pair file path (``-`` = stdin; JSONL, or a CSV/TSV pair table:
    :func:`transted.reading.inputs.read_pair_table`), :class:`Pair` objects, pair dicts or
    ``(reference, candidate)`` tuples (numbered ids ``"1"``, ``"2"``, …)."""
    if isinstance(pairs, (str, Path)):

        if Path(pairs).suffix.lower() in TABLE_SUFFIXES and str(pairs) != "-":
            return read_pair_table(pairs)
        return read_pairs(pairs)
    out: list[Pair] = []
    for i, item in enumerate(pairs, start=1):
        if isinstance(item, Pair):
            out.append(item)
        elif isinstance(item, dict):
            out.append(Pair.model_validate(item))
        elif isinstance(item, tuple) and len(item) == 2:
            out.append(Pair(id=str(i), reference=_statement("reference", item[0], header),
                            candidate=_statement("candidate", item[1], header)))
        else:
            raise TypeError(f"`pairs`[{i - 1}] must be a Pair, a dict or a (reference, "
                            f"candidate) tuple, got {type(item).__name__}")
    check_unique_ids(out)
    return out


def score(reference: str | Statement | dict[str, Any], candidate: str | Statement | dict[str, Any],
          metric: str | Metric = "transted", *, header: str | None = None, id: str = "pair",
          **options: Any) -> Result:
    """Score one pair with ``metric`` (a registry name plus ``options``, or a Metric object).

    ``header`` (imports, ``open`` lines) applies to both sides given as text. A statement the
    metric cannot handle gives a result with ``status="error"`` and ``score=None``.
    """
    pair = Pair(id=id, reference=_statement("reference", reference, header),
                candidate=_statement("candidate", candidate, header))
    return _metric(metric, options).score_pair(pair)


def score_many(pairs: str | Path | Iterable[PairLike], metric: str | Metric = "transted", *,
               out: str | Path | None = None, resume: bool | None = None,
               on_result: Callable[[Result, bool], None] | None = None,
               inputs: Iterable[str | Path] = (), pair_timeout: float | None = None,
               executor: Executor | None = None, run: RunOptions | None = None,
               **options: Any) -> list[Result]:
    """Score every pair; with an output file the results stream to that JSONL file and a
    re-run resumes (:func:`transted.running.batch.score_pairs`). ``on_result(result, was_cached)``
    follows progress. ``inputs``: the files the pairs came from (``pairs`` itself when a
    path), which the output may not be. Results come back in input order
    (:func:`transted.running.executors.score_stream` decides where they are scored).

    ``run`` (:class:`~transted.running.executors.RunOptions`) says how: ``out``, ``resume``,
    ``jobs``, ``executor`` (``"local"``, ``"ray"`` or a ready
    :class:`~transted.running.executors.Executor` the caller owns), ``ray_address``,
    ``pair_timeout`` (hard seconds per pair: the pairs run in a worker process killed past
    it, ``status="timeout"``). Without it the pairs are scored in this process
    (:data:`API_RUN`). The keyword arguments ``out``, ``resume``, ``pair_timeout`` and
    ``executor`` are the same fields given the old way."""
    placement = _run_options(run, out=out, resume=resume, pair_timeout=pair_timeout,
                             executor=executor)
    scorer = _metric(metric, options)
    items = as_pairs(pairs)
    with executor_of(placement) as pool:
        if placement.out is not None:
            sources = list(inputs)
            if isinstance(pairs, (str, Path)) and str(pairs) != "-":
                sources.append(pairs)
            return score_pairs(items, scorer, placement.out, resume=placement.resume,
                               on_result=on_result, inputs=sources, executor=pool)
        results = []
        for result in score_stream(items, scorer, executor=pool):
            if on_result is not None:
                on_result(result, False)
            results.append(result)
        return results


def labelled_pairs(pairs: str | Path | Iterable[PairLike], labels: Sequence[bool] | None = None,
                   *, positive: Sequence[str] | None = None) -> LabelledPairs:
    """The expert-labelled pairs of an evaluation (:class:`~transted.studies.evaluation.labels.
    LabelledPairs`) from a labelled pair file or pairs in memory (as :func:`as_pairs`).

    A file is named by its path and digested from its bytes; pairs in memory (or from stdin)
    are named ``(in memory)`` (``(stdin)``) and digested from their pair-file form.
    ``labels`` (one bool per pair) overrides the pairs' own ``label`` (then the data is the
    relabelled pairs: digested from their pair-file form). ``positive``: the EPLA categories
    counted as equivalent (:meth:`~transted.studies.evaluation.labels.LabelledPairs.of`).
    """

    items = as_pairs(pairs)
    file = Path(pairs) if isinstance(pairs, (str, Path)) and str(pairs) != "-" else None
    name = str(file) if file is not None else "(stdin)" if isinstance(pairs, (str, Path)) \
        else "(in memory)"
    if labels is not None:
        if len(labels) != len(items):
            raise ValueError(f"`labels` has {len(labels)} values for {len(items)} pairs")
        items = [p.model_copy(update={"label": bool(y)}) for p, y in zip(items, labels, strict=True)]
    elif file is not None:
        digest = hashlib.sha256(file.read_bytes()).hexdigest()[:12]
        return LabelledPairs.of(items, positive=positive, name=name, digest=digest)
    return LabelledPairs.of(items, positive=positive, name=name)


def _with_convention(metrics: Sequence[str | Metric], convention: str | None
                     ) -> list[str | Metric]:
    """Metric names loaded with ``convention`` where the metric declares one; Metric objects
    (built with their own options) and other names as given."""
    if convention is None:
        return list(metrics)

    return [load_metric(m, convention=convention)
            if isinstance(m, str) and "convention" in declared_options(metric_class(m)) else m
            for m in metrics]


def evaluate(pairs: str | Path | Iterable[PairLike], labels: Sequence[bool] | None = None, *,
             metrics: Sequence[str | Metric] = ("ted",), out: str | Path | None = None,
             threshold_mode: str | None = None, threshold: float | None = None,
             dev: str | Path | Iterable[PairLike] | None = None, resume: bool | None = None,
             progress: Any = None, pair_timeout: float | None = None,
             executor: Executor | None = None, convention: str | None = None,
             run: RunOptions | None = None, **config: Any) -> EvalRun:
    """Agreement of ``metrics`` with expert labels (ASSESS Table 3); returns the
    :class:`~transted.studies.evaluation.outcome.EvalRun` (``.summary()`` is ``summary.json``).

    ``pairs`` is a labelled pair file or pairs in memory; ``labels`` (one bool per pair)
    overrides the pairs' own (:func:`labelled_pairs`). Reports go to the run's ``out`` (a
    temporary folder when None). ``dev``: labelled dev pairs (file or memory) for
    ``calibrated``. ``threshold_mode`` None picks
    :func:`~transted.studies.evaluation.harness.default_threshold_mode`; other ``config`` keys are
    :class:`~transted.studies.evaluation.harness.EvalConfig` fields. ``run`` and the keyword
    arguments ``out``, ``resume``, ``pair_timeout``, ``executor`` as for :func:`score_many`
    (a timed-out pair counts like an error: no score). ``convention``
    (``strict``/``lenient``, docs/VERDICTS.md) loads every named metric that has one with it
    (agreement is then measured under that convention's verdicts).
    """
    placement = _run_options(run, out=out, resume=resume, pair_timeout=pair_timeout,
                             executor=executor)
    mode = threshold_mode or default_threshold_mode(dev=dev, threshold=threshold)
    eval_config = EvalConfig(threshold_mode=mode, threshold=threshold, **config)
    data = labelled_pairs(pairs, labels, positive=eval_config.positive)
    dev_data = (labelled_pairs(dev, positive=eval_config.positive) if dev is not None
                else None)
    folder = Path(placement.out) if placement.out is not None else \
        Path(tempfile.mkdtemp(prefix="transted-eval-"))
    with executor_of(placement) as pool:
        return run_eval(data, _with_convention(metrics, convention), folder,
                        config=eval_config, dev=dev_data, resume=placement.resume,
                        progress=progress, executor=pool)


def score_formulaicness(texts: str | Path | Iterable[Any], *, out: str | Path | None = None,
                        resume: bool = True, alpha: float | None = None,
                        beta: float | None = None,
                        on_result: Callable[[Result, bool], None] | None = None,
                        inputs: Iterable[str | Path] = ()) -> list[Result]:
    """Formulaicness (paper 004) of every text: a text JSONL path (lines with ``text``, optional
    ``formula`` and ``id``; :func:`transted.metrics.formulaicness.read_texts`), or strings,
    dicts or :class:`~transted.metrics.formulaicness.TextItem` objects. ``alpha``/``beta``:
    eq. 1's weights (default: the paper's FRE row). With ``out`` the results stream to that
    JSONL file and a re-run resumes, as :func:`score_many`; results come in input order."""

    default = Formulaicness.DEFAULT_WEIGHTS
    metric = Formulaicness(default[0] if alpha is None else alpha,
                           default[1] if beta is None else beta)
    sources: list[str | Path] = list(inputs)
    if isinstance(texts, (str, Path)):
        pairs = text_pairs(read_texts(texts))
        sources += [texts] if str(texts) != "-" else []
    else:
        pairs = text_pairs(texts)
    return score_many(pairs, metric, out=out, resume=resume, on_result=on_result,
                      inputs=sources)
