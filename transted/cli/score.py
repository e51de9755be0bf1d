"""``transted score``: one pair from the command line (``score REF CAND``), or a whole pair file
streamed (``score DATA.jsonl``, ``-`` = stdin) to ``--out`` (default stdout; a real file resumes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

import typer

from transted.cli.console import console, note, print_json, print_line, progress_bar
from transted.cli.options import (
    ConventionOption,
    ExecutorOption,
    FormatOption,
    JobsOption,
    JsonAlias,
    MetricOption,
    OptionOption,
    PairTimeoutOption,
    RayAddressOption,
    batch_executor,
    is_stdout,
    load_metrics,
    metric_options,
    output_format,
)

__all__ = ["register", "score_command", "aggregate_line"]


def score_command(
    inputs: list[str] = typer.Argument(None, help="DATA.jsonl (a pair file, - = stdin), or REF CAND (two statements)."),
    references: str | None = typer.Option(None, "--references", "-r", help="References (pair JSONL or {name|id, formal_statement, header?} JSONL)."),
    candidates: str | None = typer.Option(None, "--candidates", "-c", help="Translator outputs joined to --references by --key (whole Lean files allowed; several per key = samples)."),
    key: str | None = typer.Option(None, "--key", help="Join field (default: id, then name, then line order)."),
    metric: list[str] = MetricOption(["ted"]),
    option: list[str] = OptionOption(),
    out: str | None = typer.Option(None, "--out", "-o", help="Result JSONL (batch mode; default/`-` = stdout). A real file resumes."),
    resume: bool = typer.Option(True, "--resume/--no-resume", help="Keep results already in --out."),
    header: str | None = typer.Option(None, help="Header for both statements (pair mode)."),
    explain: bool = typer.Option(False, "--explain", help="Pair mode: show how the score was reached."),
    convention: str | None = ConventionOption(),
    pair_timeout: float | None = PairTimeoutOption(),
    jobs: int | None = JobsOption(),
    executor: str = ExecutorOption(),
    ray_address: str | None = RayAddressOption(),
    fmt: str = FormatOption(),
    as_json: bool = JsonAlias(),
) -> int:
    """Score pairs: `score DATA.jsonl [--out OUT.jsonl]`, `score --references R --candidates C`,
    or `score REF CAND`; -m repeatable."""
    fmt = output_format(fmt, as_json)
    scorers = load_metrics(metric, metric_options(option), convention=convention)
    inputs = inputs or []
    if (references is None) != (candidates is None):
        raise typer.BadParameter("give --references and --candidates together",
                                 param_hint="--references")
    if references is not None and candidates is not None:
        if inputs:
            raise typer.BadParameter("give either INPUTS or --references/--candidates",
                                     param_hint="INPUTS")
        pairs = joined_pairs(references, candidates, key)
        sources = [references, candidates]
    elif len(inputs) == 2:
        return _pair_mode(inputs[0], inputs[1], header, scorers, fmt, explain)
    elif len(inputs) == 1:
        from transted.api import as_pairs

        pairs = as_pairs(inputs[0])
        sources = [inputs[0]]
    else:
        raise typer.BadParameter("give one pair file, two statements, or --references and "
                                 "--candidates", param_hint="INPUTS")
    with batch_executor(jobs, executor, ray_address, pair_timeout) as pool:
        for scorer in scorers:
            _score_one(scorer, scorers, pairs, out, resume, sources, executor=pool)
    return 0


def _score_one(scorer: Any, scorers: list[Any], pairs: list[Any], out: str | None, resume: bool,
               sources: list[str], *, executor: Any) -> None:
    """One metric's batch run: to stdout, to a stream (a pipe), or to a resumable file."""
    if is_stdout(out):
        _run_batch(pairs, scorer, None, resume, executor=executor)
        return
    if len(scorers) > 1 and len({s.name for s in scorers}) < len(scorers):
        raise typer.BadParameter("the same metric twice needs stdout (--out names one file "
                                 "per metric)", param_hint="--metric")
    target = _out_path(Path(str(out)), scorer.name, len(scorers))
    if target.exists() and not target.is_file() and not target.is_dir():
        # /dev/stdout, a pipe: stream, no resume (a directory is refused by score_pairs)
        with target.open("w", encoding="utf-8") as stream:
            _run_batch(pairs, scorer, None, resume, stream=stream, executor=executor)
    else:
        _run_batch(pairs, scorer, target, resume, inputs=sources, executor=executor)


def joined_pairs(references: str, candidates: str, key: str | None) -> list[Any]:
    """The pairs of :func:`transted.inputs.join_files`, with its warnings and unmatched keys
    reported on stderr."""
    from transted.inputs import join_files

    joined = join_files(references, candidates, key=key)
    for warning in joined.warnings:
        note(f"warning: {warning}")
    for side, keys in (("references", joined.unmatched_references),
                       ("candidates", joined.unmatched_candidates)):
        if keys:
            shown = ", ".join(keys[:10]) + (", …" if len(keys) > 10 else "")
            note(f"{len(keys)} {side} without a match (by {joined.key}): {shown}")
    note(f"{len(joined.pairs)} pairs joined by {joined.key}")
    return joined.pairs


def _pair_mode(reference: str, candidate: str, header: str | None, scorers: list[Any], fmt: str,
               explain: bool) -> int:
    from transted.api import score
    from transted.pairs import Pair, Statement

    results = [score(reference, candidate, scorer, header=header, id="cli") for scorer in scorers]
    if fmt == "json":
        print_json(results[0].model_dump() if len(results) == 1
                   else [r.model_dump() for r in results])
    elif fmt == "jsonl":
        for r in results:
            print_json(r.model_dump(), indent=False)
    else:
        for r in results:
            _print_result(r)
    if explain:
        pair = Pair(id="cli", reference=Statement(statement=reference, header=header),
                    candidate=Statement(statement=candidate, header=header))
        for scorer, r in zip(scorers, results, strict=True):
            if r.status == "ok" and hasattr(scorer, "explain"):
                console.print(scorer.explain(pair))
            if r.status == "ok":
                for line in explain_edits(scorer, pair, r):
                    print_line(line)
    return 0 if all(r.status == "ok" for r in results) else 1


def _out_path(out: Path, metric: str, n_metrics: int) -> Path:
    """``out`` itself for one metric; ``<stem>.<metric><suffix>`` for each of several."""
    if n_metrics == 1:
        return out
    safe = metric.replace(":", "_").replace("/", "_")
    return out.with_name(f"{out.stem}.{safe}{out.suffix or '.jsonl'}")


def explain_edits(scorer: Any, pair: Any, result: Any) -> list[str]:
    """``--explain`` lines of a tree metric (``ted``, ``transted``): the costed edits between
    the two trees (which relation, numeral, type or hypothesis differs, at what cost) and the
    implicit names Lean would auto-bind; empty for other metrics."""
    from transted.errors import escape_control
    from transted.ted.edits import format_edits

    ted = scorer if hasattr(scorer, "costed_edits") else getattr(scorer, "ted", None)
    if not hasattr(ted, "costed_edits"):
        return []
    edits = ted.costed_edits(pair)  # type: ignore[union-attr]
    lines = [f"{result.metric}: costed edits (tree of `ted`, "
             f"{sum(e.cost for e in edits):g} in all):"]
    lines += [f"  {escape_control(line)}" for line in format_edits(edits)] or ["  none"]
    residual = result.details.get("residual")
    if residual is not None:
        from transted.verdict.rules import format_residual

        what = "best goal after search and evidence" if result.metric == "transted" else "trees"
        lines.append(f"{result.metric}: residual edits ({what}; the verdict's input, "
                     "docs/VERDICTS.md):")
        lines += [f"  {escape_control(line)}" for line in format_residual(residual, 40)] or \
            ["  none"]
    auto = result.details.get("auto_bound") or ted.trees_with_auto_bound(pair)[2]  # type: ignore[union-attr]
    for side, names in auto.items():
        lines.append(f"  auto-bound in the {side}: {escape_control(', '.join(names))}")
    return lines


def _print_result(result: Any) -> None:
    from transted.errors import escape_control

    score = "null" if result.score is None else f"{result.score:.6f}"
    console.print(f"[bold]{result.metric}[/]: {score}", highlight=False)
    verdict = result.verdict or "none (no shipped threshold)"
    by = f" (decided by {result.decided_by})" if result.decided_by else ""
    print_line(f"  verdict: {verdict}{by}")
    reason = result.details.get("verdict_reason")
    if reason:
        print_line(f"    {escape_control(str(reason))}")
    for key, value in result.details.items():
        if key != "verdict_reason" and not isinstance(value, (dict, list)):
            print_line(f"  {key}: {escape_control(str(value))}")
    if result.error:
        console.print(f"[red]{result.status}:[/] ", end="")
        print_line(escape_control(result.error))
    print_line(f"signature: {result.signature}")


def aggregate_line(results: list[Any], cached: int = 0) -> str:
    """``n pairs: mean 0.8123 over 90 scored; 88 ok, 2 errors, 0 unavailable, 0 too_large;
    verdicts: 40 equivalent, 48 not-equivalent, 2 none; 5 already done`` — every status of
    :data:`transted.metrics.base.Status`, and any other a result carries."""
    from typing import get_args

    from transted.metrics.base import Status

    scores = [r.score for r in results if r.score is not None]
    statuses = list(get_args(Status))
    statuses += sorted({r.status for r in results} - set(statuses))
    counts = ", ".join(f"{sum(r.status == s for r in results)} {'errors' if s == 'error' else s}"
                       for s in statuses)
    verdicts = ", ".join(f"{sum(r.verdict == v for r in results)} {v or 'none'}"
                         for v in ("equivalent", "not-equivalent", None))
    mean = f"mean {sum(scores) / len(scores):.4f} over {len(scores)} scored" if scores else \
        "no score"
    return f"{len(results)} pairs: {mean}; {counts}; verdicts: {verdicts}; {cached} already done"


def _run_batch(pairs: list[Any], scorer: Any, out: Path | None, resume: bool, *,
               stream: IO[str] | None = None, inputs: list[str] | None = None,
               executor: Any = None) -> None:
    """Score ``pairs`` into ``out`` (resumable), else line by line to ``stream`` or stdout."""
    from transted.api import score_many

    cached = [0]

    with progress_bar(f"scoring with {scorer.name}", len(pairs)) as advance:
        def on_result(result: Any, was_cached: bool) -> None:
            cached[0] += was_cached
            if out is None:
                line = json.dumps(result.model_dump(), ensure_ascii=False)
                if stream is None:
                    print_line(line)
                else:
                    stream.write(line + "\n")
                    stream.flush()
            advance()

        results = score_many(pairs, scorer, out=out, resume=resume, on_result=on_result,
                             inputs=[i for i in inputs or [] if i != "-"], executor=executor)
    summary = f"{aggregate_line(results, cached[0])}\nsignature: {scorer.signature}"
    if out is None:
        note(summary)  # stdout carries the result lines
    else:
        print_line(f"{scorer.name} → {out}: {summary}")


def register(app: typer.Typer) -> None:
    """Add ``score`` to the transted CLI."""
    app.command("score")(score_command)
