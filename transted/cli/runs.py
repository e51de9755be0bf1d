"""One metric's batch run as ``score`` shows it: results streamed to ``--out`` (resumable) or
stdout in the chosen format, a progress bar per pair, the summary (counts, per-problem figures
of sampled outputs, the signature), the per-problem JSONL beside ``--out``, and Ctrl-C."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, get_args

from transted.cli.console import console, note, print_json, print_line
from transted.cli.exits import interruptible
from transted.cli.options import signature_text
from transted.cli.progress import progress_bar
from transted.errors import escape_control
from transted.metrics.base import Status
from transted.pipeline.verdict.rules import DecidedBy
from transted.reading.outputs import check_output_file
from transted.running.batch import score_pairs
from transted.running.executors.guard import result_line
from transted.running.executors.placement import score_stream
from transted.running.health import run_health
from transted.running.reasons import count_vacuous, verdict_text
from transted.running.samples import problem_of, problems_path, sample_figures

__all__ = ["BatchRun", "run_batch", "aggregate_line", "decided_by_counts", "result_text", "print_result", "out_path"]


def aggregate_line(results: list[Any], cached: int = 0) -> str:
    """``n pairs: mean 0.8123 over 90 scored; 88 ok, 2 errors, 0 unavailable, 0 too_large;
    verdicts: 40 equivalent, 48 not-equivalent, 2 none; decided by 10 evidence, 60 edits,
    18 bare threshold; 5 already done`` — every status of :data:`transted.metrics.base.Status`,
    and any other a result carries; equivalent verdicts that hold only vacuously
    (:func:`transted.running.reasons.is_vacuous`) are counted in brackets. The bare threshold's
    count is always shown: those verdicts are the score's guess where nothing else could tell."""
    scores = [r.score for r in results if r.score is not None]
    statuses = list(get_args(Status))
    statuses += sorted({r.status for r in results} - set(statuses))
    counts = ", ".join(f"{sum(r.status == s for r in results)} {'errors' if s == 'error' else s}"
                       for s in statuses)
    verdicts = ", ".join(f"{sum(r.verdict == v for r in results)} {v or 'none'}"
                         for v in ("equivalent", "not-equivalent", None))
    vacuous = count_vacuous(results)
    if vacuous:
        verdicts += f" ({vacuous} equivalent only vacuously: contradictory hypotheses)"
    mean = f"mean {sum(scores) / len(scores):.4f} over {len(scores)} scored" if scores else \
        "no score"
    return (f"{len(results)} pairs: {mean}; {counts}; verdicts: {verdicts}; "
            f"decided by {decided_by_counts(results)}; {cached} already done")


def decided_by_counts(results: list[Any]) -> str:
    """``2 evidence, 30 edits, 8 bare threshold``: the routes that gave the verdicts, in
    :data:`~transted.pipeline.verdict.rules.DecidedBy`'s order; routes no verdict took are left
    out except the bare threshold."""
    routes = Counter(getattr(r, "decided_by", None) for r in results if r.verdict is not None)
    shown = [f"{routes[route]} {'bare threshold' if route == 'threshold' else route}"
             for route in get_args(DecidedBy)
             if routes[route] or route == "threshold"]
    return ", ".join(shown)


def result_text(result: Any) -> str:
    """One result as a line for people: ``id  score  status  verdict, decided by …: why``
    (:func:`transted.running.reasons.verdict_text`), then the error of a failed pair."""
    score = "null" if result.score is None else f"{result.score:.4f}"
    parts = [result.id, score, result.status, verdict_text(result)]
    if result.error and result.status != "invalid":
        parts.append(str(result.error).splitlines()[0])
    elif result.status == "invalid" and result.error:
        parts[-1] += f": {str(result.error).splitlines()[0]}"
    return escape_control("  ".join(parts), keep_newlines=False)


def print_result(result: Any) -> None:
    """One pair's result as ``score REF CAND`` prints it: score, verdict and why, the plain
    details, any error, the signature."""
    score = "null" if result.score is None else f"{result.score:.6f}"
    console.print(f"[bold]{result.metric}[/]: {score}", highlight=False)
    print_line(f"  verdict: {verdict_text(result)}")
    for key, value in result.details.items():
        if key != "verdict_reason" and not isinstance(value, (dict, list)):
            print_line(f"  {key}: {escape_control(str(value))}")
    if result.error:
        console.print(f"[red]{result.status}:[/] ", end="")
        print_line(escape_control(result.error))
    print_line(f"signature: {signature_text(result)}")


def out_path(out: Path, metric: str, n_metrics: int) -> Path:
    """``out`` itself for one metric; ``<stem>.<metric><suffix>`` for each of several."""
    if n_metrics == 1:
        return out
    safe = metric.replace(":", "_").replace("/", "_")
    return out.with_name(f"{out.stem}.{safe}{out.suffix or '.jsonl'}")


@dataclass
class BatchRun:
    """What a batch run of one metric produced and where."""

    metric: Any
    results: list[Any]
    cached: int
    out: Path | None
    problems_file: Path | None = None
    figures: Any = None
    summary: dict[str, Any] = field(default_factory=dict)


def _summary(run: BatchRun) -> dict[str, Any]:
    scores = [r.score for r in run.results if r.score is not None]
    health = run_health(run.results)
    return {"metric": run.metric.name, "out": None if run.out is None else str(run.out),
            "pairs": len(run.results), "scored": len(scores),
            "mean": sum(scores) / len(scores) if scores else None,
            "statuses": dict(Counter(r.status for r in run.results)),
            "verdicts": dict(Counter(r.verdict or "none" for r in run.results)),
            "vacuous": count_vacuous(run.results),
            "error_rate": health.error_rate, "already_done": run.cached,
            "problems": None if run.figures is None else run.figures.overall(),
            "problems_file": None if run.problems_file is None else str(run.problems_file),
            "signature": str(run.metric.signature)}


def run_batch(pairs: list[Any], scorer: Any, out: Path | None, resume: bool, fmt: str, *,
              stream: IO[str] | None = None, inputs: list[str] | None = None,
              executor: Any = None) -> BatchRun:
    """Score ``pairs`` into ``out`` (resumable) or, without it, to ``stream``/stdout in
    ``fmt`` (``jsonl``: result lines; ``text``: a line per result; ``json``: the whole run
    as one document, printed at the end); then the summary (:func:`show_summary`)."""
    problems = None
    if out is not None and any(problem_of(p.id) is not None for p in pairs):
        problems = check_output_file(problems_path(out), inputs=inputs or [], resume=False,
                                     owned_keys=("problem", "metric", "signature"))
    cached = [0]
    with interruptible(out), \
            progress_bar(f"scoring with {scorer.name}", len(pairs), executor) as progress:
        def on_result(result: Any, was_cached: bool) -> None:
            cached[0] += was_cached
            if out is None and fmt != "json":
                line = (result_line(result).rstrip("\n") if fmt == "jsonl"  # a lone surrogate: escaped
                        else result_text(result))
                if stream is None:
                    print_line(line)
                else:
                    stream.write(line + "\n")
                    stream.flush()
            progress(result, was_cached)

        if out is not None:
            results = score_pairs(pairs, scorer, out, resume=resume, on_result=on_result,
                                  inputs=[i for i in inputs or [] if i != "-"],
                                  executor=executor)
        else:  # the results go out as they come (on_result): nothing to keep or resume
            results = []
            for result in score_stream(pairs, scorer, executor=executor):
                on_result(result, False)
                results.append(result)
    run = BatchRun(scorer, results, cached[0], out, figures=sample_figures(results))
    if run.figures is not None and problems is not None:
        run.problems_file = run.figures.write_jsonl(problems, metric=scorer.name,
                                                    signature=str(scorer.signature))
    run.summary = _summary(run)
    show_summary(run, fmt)
    return run


def show_summary(run: BatchRun, fmt: str) -> None:
    """The run's summary: on stdout when results went to a file (or, in ``json``, as part of
    the one document), else on stderr as notes (stdout carries the results)."""
    if fmt == "json":
        payload = {**run.summary, "results": None if run.out is not None
                   else [r.model_dump() for r in run.results]}
        print_json(payload)
        return
    if fmt == "jsonl" and run.out is not None:
        print_json(run.summary, indent=False)
        return
    lines = [aggregate_line(run.results, run.cached)]
    if run.figures is not None:
        lines.append(run.figures.summary_line()
                     + (f" → {run.problems_file}" if run.problems_file else ""))
    lines.append(f"signature: {signature_text(run.metric)}")
    if run.out is None and fmt == "jsonl":
        for line in lines:
            note(line)
    elif run.out is None:
        for line in lines:
            print_line(line)
    else:
        print_line(f"{run.metric.name} → {run.out}: " + "\n".join(lines))
