"""CLI command ``eval``: agreement of metrics with expert labels (:mod:`transted.studies.evaluation`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from transted.api import evaluate
from transted.cli.console import print_json, print_line
from transted.cli.exits import ExitCode, MaxErrorRateOption, interruptible, too_little_scored
from transted.cli.options import (
    ConventionOption,
    FormatOption,
    JsonAlias,
    MetricOption,
    TheoremOption,
    choice,
    load_metrics,
    output_format,
    with_run_options,
)
from transted.cli.progress import staged_progress
from transted.reading.outputs import check_output_dir
from transted.running.executors import RunOptions, executor_of
from transted.studies.evaluation.harness import EvalConfig, default_threshold_mode
from transted.studies.evaluation.reports.markdown import summary_markdown
from transted.studies.evaluation.threshold import ORACLE_RULES

__all__ = ["register", "eval_command"]

_D = EvalConfig()  # the dataclass defaults are the CLI defaults


class _NothingToScore(Exception):
    """The labelled data holds no pair (raised from the progress hook, before any scoring)."""


@with_run_options(out_help="Report folder (re-run to resume); default: a temporary folder.")
def eval_command(
    data: str = typer.Argument(..., help="Labelled pair file (JSONL; - = stdin)."),
    metrics: list[str] = MetricOption(["ted,bleu,identity"],
                                      "Metric names (repeatable or comma list), e.g. -m ted -m published:gted."),
    dev: Path | None = typer.Option(None, "--dev", help="Labelled dev file for 'calibrated'."),
    threshold_mode: str | None = typer.Option(
        None, "--threshold-mode", help=f"{' | '.join(EvalConfig.MODES)}; `default` applies each "
        "metric's shipped threshold (derived once, not on DATA's labels) "
        "(unset: calibrated with --dev, fixed with --threshold, else the library's default)."),
    threshold: float | None = typer.Option(None, "--threshold", help="Threshold for 'fixed'."),
    oracle_rule: str = typer.Option(_D.oracle_rule, "--oracle-rule",
                                    help="accuracy (midpoints) | gted (0.001 grid, kappa first)."),
    cv_folds: int = typer.Option(_D.cv_folds, "--cv-folds", min=0, help="0 = leave-one-out."),
    positive: str = typer.Option(",".join(_D.positive), "--positive",
                                 help="EPLA categories counted as equivalent."),
    n_boot: int = typer.Option(_D.n_boot, "--n-boot", min=1, help="Bootstrap resamples."),
    seed: int = typer.Option(_D.seed, "--seed", help="Seed of bootstrap and CV folds."),
    top: int = typer.Option(_D.top_disagreements, "--top", min=0,
                            help="Disagreements listed per metric."),
    theorem: str | None = TheoremOption(),
    convention: str | None = ConventionOption(),
    max_error_rate: float | None = MaxErrorRateOption(),
    fmt: str | None = FormatOption(),
    as_json: bool = JsonAlias(),
    *, run: RunOptions,
) -> int:
    """Agreement of metrics with expert labels (ASSESS Table 3), with reports in OUT."""
    out = None if run.out is None else Path(run.out)
    fmt = output_format(fmt, as_json)
    names = load_metrics(metrics, distinct_names=True, theorem=theorem,  # -m ted:cost=semantic
                         convention=convention)
    # every option value checked before any scoring, in the options' own terms
    choice(threshold_mode, EvalConfig.MODES, "--threshold-mode")
    choice(oracle_rule, ORACLE_RULES, "--oracle-rule")
    mode = threshold_mode or default_threshold_mode(dev=dev, threshold=threshold)
    EvalConfig(threshold_mode=mode, threshold=threshold, oracle_rule=oracle_rule,
               cv_folds=cv_folds, n_boot=n_boot, seed=seed,
               positive=tuple(positive.split(",")), top_disagreements=top)
    if out is not None:
        check_output_dir(out)
    with executor_of(run) as pool, \
            staged_progress(pool) as progress, \
            interruptible(None if out is None else out / "scores"):
        def hook(metric: str, split: str, total: int) -> Any:
            if split == "data" and total == 0:
                raise _NothingToScore
            return progress.stage(f"{metric} ({split})", total)

        try:
            outcome = evaluate(data, metrics=names, threshold_mode=mode, threshold=threshold,
                               dev=dev, progress=hook, oracle_rule=oracle_rule,
                               cv_folds=cv_folds, n_boot=n_boot, seed=seed,
                               positive=tuple(positive.split(",")), top_disagreements=top,
                               run=run.placed(pool))
        except _NothingToScore:
            too_little_scored([], None, data)
            return ExitCode.TOO_LITTLE_SCORED
    if fmt != "text":
        print_json(outcome.summary(), indent=fmt == "json")
    else:
        print_line(summary_markdown(outcome))
        folder = next(iter((outcome.files or {}).values())).parent if outcome.files else out
        print_line(f"wrote {', '.join(sorted(p.name for p in (outcome.files or {}).values()))} "
                   f"to {folder}")
    too_little = False
    for label, results in progress.results.items():
        too_little |= too_little_scored(results, max_error_rate, label)
    return ExitCode.TOO_LITTLE_SCORED if too_little else ExitCode.OK


def register(app: typer.Typer) -> None:
    """Add ``eval`` to the transted CLI."""
    app.command("eval")(eval_command)
