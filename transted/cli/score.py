"""``transted score``: one pair from the command line (``score REF CAND``), or a whole pair file
streamed (``score DATA.jsonl``, ``-`` = stdin) to ``--out`` (default stdout; a real file resumes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from transted.cli.console import console, note, print_json, print_line
from transted.cli.exits import ExitCode, MaxErrorRateOption, too_little_scored
from transted.cli.options import (
    CandidateKeyOption,
    ConventionOption,
    FormatOption,
    JsonAlias,
    KeyOption,
    LineOrderOption,
    MetricOption,
    OptionOption,
    ReferenceKeyOption,
    SignatureOption,
    TextFieldOption,
    TheoremOption,
    is_stdout,
    load_metrics,
    metric_options,
    output_format,
    signature_form,
    with_run_options,
)
from transted.cli.runs import BatchRun, aggregate_line, out_path, print_result, run_batch
from transted.metrics.base import Explains
from transted.reading.inputs import join_files, read_pair_file
from transted.reading.pairs import Pair, Statement
from transted.running.executors import RunOptions, executor_of
from transted.running.health import ANSWERED

__all__ = ["register", "score_command", "aggregate_line", "joined_pairs"]


@with_run_options(out_help="Result JSONL (batch mode; default/`-` = stdout). A real file "
                           "resumes; sampled outputs also get <out stem>.problems.jsonl.")
def score_command(
    inputs: list[str] = typer.Argument(None, help="DATA (a pair file: JSONL, or a CSV/TSV table with id, reference, candidate columns; - = stdin), or REF CAND (two statements)."),
    references: str | None = typer.Option(None, "--references", "-r", help="References (JSONL, CSV or TSV: pair lines or {name|id, formal_statement, header?})."),
    candidates: str | None = typer.Option(None, "--candidates", "-c", help="Translator outputs (JSONL, CSV or TSV) joined to --references by key (whole Lean files allowed; several per key = samples <key>#0, #1, …; an empty one is an invalid answer)."),
    key: str | None = KeyOption(),
    reference_key: str | None = ReferenceKeyOption(),
    candidate_key: str | None = CandidateKeyOption(),
    text_field: str | None = TextFieldOption(),
    by_line_order: bool = LineOrderOption(),
    metric: list[str] = MetricOption(["ted"]),
    option: list[str] = OptionOption(),
    header: str | None = typer.Option(None, help="Header for both statements (pair mode)."),
    explain: bool = typer.Option(False, "--explain", help="Pair mode: show how the score was reached."),
    theorem: str | None = TheoremOption(),
    convention: str | None = ConventionOption(),
    max_error_rate: float | None = MaxErrorRateOption(),
    fmt: str | None = FormatOption(),
    as_json: bool = JsonAlias(),
    signature: str | None = SignatureOption(),
    *, run: RunOptions,
) -> int:
    """Score pairs: `score DATA.jsonl [--out OUT.jsonl]`, `score --references R --candidates C`,
    or `score REF CAND`; -m repeatable. A batch prints result lines (JSONL) to stdout without
    --out; --format text gives a line per result with what decided its verdict, json one
    document."""
    signature_form(signature)
    scorers = load_metrics(metric, metric_options(option), theorem=theorem,
                           convention=convention)
    inputs = inputs or []
    out = None if run.out is None else str(run.out)
    if (references is None) != (candidates is None):
        raise typer.BadParameter("give --references and --candidates together",
                                 param_hint="--references")
    join_given = key or reference_key or candidate_key or by_line_order or text_field
    if join_given and references is None:
        raise typer.BadParameter("joins --references and --candidates: give them too",
                                 param_hint="--key")
    if len(inputs) == 2 and references is None:
        return _pair_mode(inputs[0], inputs[1], header, scorers, output_format(fmt, as_json),
                          explain)
    fmt = output_format(fmt, as_json, default="jsonl" if is_stdout(out) else "text")
    if references is not None and candidates is not None:
        if inputs:
            raise typer.BadParameter("give either INPUTS or --references/--candidates",
                                     param_hint="INPUTS")
        pairs = joined_pairs(references, candidates, key=key, reference_key=reference_key,
                             candidate_key=candidate_key, line_order=by_line_order,
                             text_field=text_field)
        sources = [references, candidates]
    elif len(inputs) == 1:
        pairs = read_pair_file(inputs[0])
        sources = [inputs[0]]
    else:
        raise typer.BadParameter("give one pair file, two statements, or --references and "
                                 "--candidates", param_hint="INPUTS")
    if not is_stdout(out) and len(scorers) > 1 and len({s.name for s in scorers}) < len(scorers):
        raise typer.BadParameter("the same metric twice needs stdout (--out names one file "
                                 "per metric)", param_hint="--metric")
    too_little = False
    with executor_of(run) as pool:
        for scorer in scorers:
            batch = _score_one(scorer, scorers, pairs, out, run.resume, sources, fmt,
                               executor=pool)
            too_little |= too_little_scored(batch.results, max_error_rate, scorer.name)
    return ExitCode.TOO_LITTLE_SCORED if too_little else ExitCode.OK


def _score_one(scorer: Any, scorers: list[Any], pairs: list[Any], out: str | None, resume: bool,
               sources: list[str], fmt: str, *, executor: Any) -> BatchRun:
    """One metric's batch run: to stdout, to a stream (a pipe), or to a resumable file."""
    if is_stdout(out):
        return run_batch(pairs, scorer, None, resume, fmt, executor=executor)
    target = out_path(Path(str(out)), scorer.name, len(scorers))
    if target.exists() and not target.is_file() and not target.is_dir():
        # /dev/stdout, a pipe: stream, no resume (a directory is refused by score_pairs)
        with target.open("w", encoding="utf-8") as stream:
            return run_batch(pairs, scorer, None, resume, fmt, stream=stream,
                             executor=executor)
    return run_batch(pairs, scorer, target, resume, fmt, inputs=sources, executor=executor)


def joined_pairs(references: str, candidates: str, *, key: str | None = None,
                 reference_key: str | None = None, candidate_key: str | None = None,
                 line_order: bool = False, text_field: str | None = None) -> list[Any]:
    """The pairs of :func:`transted.reading.inputs.join_files`, with its warnings and unmatched keys
    reported on stderr."""
    joined = join_files(references, candidates, key=key, reference_key=reference_key,
                        candidate_key=candidate_key, line_order=line_order,
                        text_field=text_field)
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
    pair = Pair(id="cli", reference=Statement(statement=reference, header=header),
                candidate=Statement(statement=candidate, header=header))
    results = [scorer.score_pair(pair) for scorer in scorers]
    if fmt == "json":
        print_json(results[0].model_dump() if len(results) == 1
                   else [r.model_dump() for r in results])
    elif fmt == "jsonl":
        for r in results:
            print_json(r.model_dump(), indent=False)
    else:
        for r in results:
            print_result(r)
    if explain:
        for scorer, r in zip(scorers, results, strict=True):
            if r.status == "ok" and isinstance(scorer, Explains):
                shown = scorer.explain_pair(pair, r)
                if shown.renderable is not None:
                    console.print(shown.renderable)
                for line in shown.lines:
                    print_line(line)
    return ExitCode.OK if all(r.status in ANSWERED for r in results) \
        else ExitCode.TOO_LITTLE_SCORED


def register(app: typer.Typer) -> None:
    """Add ``score`` to the transted CLI."""
    app.command("score")(score_command)
