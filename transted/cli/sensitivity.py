"""``transted sensitivity STATEMENTS.jsonl...``: build the Lean perturbation suite from statement
files and score it with each metric (:func:`transted.studies.sensitivity.suite.sensitivity`); prints
``DIR/sensitivity.md`` (mean score and share on the correct side per kind of rewrite)."""

from __future__ import annotations

from pathlib import Path

import typer

from transted.cli.console import print_json, print_line
from transted.cli.exits import ExitCode, MaxErrorRateOption, interruptible, too_little_scored
from transted.cli.options import (
    FormatOption,
    JsonAlias,
    MetricOption,
    load_metrics,
    output_format,
    with_run_options,
)
from transted.cli.progress import staged_progress
from transted.reading.outputs import check_output_dir, check_output_file
from transted.running.executors import RunOptions, executor_of
from transted.studies.sensitivity.suite import sensitivity

__all__ = ["register", "sensitivity_command"]


@with_run_options(out_help="Report folder (sensitivity.csv/.md/.png, scores; re-run resumes).",
                  out_required=True)
def sensitivity_command(
    statements: list[Path] = typer.Argument(..., help="Statement files (JSONL: formal_statement, header?)."),
    metrics: list[str] = MetricOption(["transted,ted,bleu"],
                                      "Metric (repeatable or comma list; options as "
                                      "-m ted:cost=semantic)."),
    pairs_out: Path | None = typer.Option(None, "--pairs-out", help="Also write the generated pairs here (JSONL)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the generator and of --per-kind sampling."),
    per_kind: int | None = typer.Option(None, "--per-kind", min=1, help="Score at most K pairs per kind (seeded sample)."),
    max_error_rate: float | None = MaxErrorRateOption(),
    fmt: str | None = FormatOption(),
    as_json: bool = JsonAlias(),
    *, run: RunOptions,
) -> int:
    """How each metric scores faithful rewrites vs one-symbol meaning changes of real statements."""
    out = Path(str(run.out))
    fmt = output_format(fmt, as_json)
    loaded = load_metrics(metrics, distinct_names=True)
    check_output_dir(out)
    if pairs_out is not None:
        check_output_file(pairs_out, inputs=statements, resume=False,
                          owned_keys=("id", "reference", "candidate"))
    with executor_of(run) as pool, \
            staged_progress(pool) as progress, interruptible(out / "scores"):
        report = sensitivity(statements, loaded, out, pairs_out=pairs_out, seed=seed,
                             per_kind=per_kind, resume=run.resume, executor=pool,
                             progress=lambda metric, n: progress.stage(
                                 f"{metric} (sensitivity)", n))
    if fmt != "text":
        print_json({"metrics": report.metrics, "kinds": report.kinds,
                    "signatures": report.signatures,
                    "rows": [vars(r) for r in report.rows],
                    "files": {k: str(v) for k, v in (report.files or {}).items()}},
                   indent=fmt == "json")
    else:
        print_line((out / "sensitivity.md").read_text(encoding="utf-8").rstrip("\n"))
    too_little = False
    for label, results in progress.results.items():
        too_little |= too_little_scored(results, max_error_rate, label)
    return ExitCode.TOO_LITTLE_SCORED if too_little else ExitCode.OK


def register(app: typer.Typer) -> None:
    """Add ``sensitivity`` to the transted CLI."""
    app.command("sensitivity")(sensitivity_command)
