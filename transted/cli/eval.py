"""CLI commands ``eval`` (agreement with experts, :mod:`transted.evaluation`) and ``regress``
(:mod:`transted.regression`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer

from transted.cli.console import err_console, print_json, print_line, state
from transted.cli.options import (
    ConventionOption,
    ExecutorOption,
    FormatOption,
    JobsOption,
    JsonAlias,
    MetricOption,
    PairTimeoutOption,
    RayAddressOption,
    batch_executor,
    load_metrics,
    output_format,
)
from transted.evaluation.harness import EvalConfig

__all__ = ["register", "EXIT_REGRESSION"]

EXIT_REGRESSION = 3
"""Exit code of ``regress --fail-on`` when the gate fails (1 = input error, 2 = usage error)."""

_D = EvalConfig()  # the dataclass defaults are the CLI defaults


@contextmanager
def _progress_bar() -> Iterator[Any]:
    """A rich progress bar on stderr; yields the ``progress`` hook of :func:`run_eval` (None
    with ``--quiet`` or when stderr is not a terminal)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    if state.quiet or not err_console.is_terminal:
        yield None
        return
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=err_console, transient=True) as bar:
        def hook(metric: str, split: str, total: int) -> Callable[[Any, bool], None]:
            task = bar.add_task(f"{metric} ({split})", total=total)
            return lambda result, cached: bar.advance(task)
        yield hook


def eval_command(
    data: str = typer.Argument(..., help="Labelled pair file (JSONL; - = stdin)."),
    out: Path | None = typer.Option(None, "--out", "-o",
                                    help="Report folder (re-run to resume); default: a temporary folder."),
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
    cv_folds: int = typer.Option(_D.cv_folds, "--cv-folds", help="0 = leave-one-out."),
    positive: str = typer.Option(",".join(_D.positive), "--positive",
                                 help="EPLA categories counted as equivalent."),
    n_boot: int = typer.Option(_D.n_boot, "--n-boot", help="Bootstrap resamples."),
    seed: int = typer.Option(_D.seed, "--seed", help="Seed of bootstrap and CV folds."),
    top: int = typer.Option(_D.top_disagreements, "--top", help="Disagreements listed per metric."),
    resume: bool = typer.Option(True, "--resume/--no-resume", help="Keep scores already in OUT."),
    convention: str | None = ConventionOption(),
    pair_timeout: float | None = PairTimeoutOption(),
    jobs: int | None = JobsOption(),
    executor: str = ExecutorOption(),
    ray_address: str | None = RayAddressOption(),
    fmt: str = FormatOption(),
    as_json: bool = JsonAlias(),
) -> None:
    """Agreement of metrics with expert labels (ASSESS Table 3), with reports in OUT."""
    from transted.api import evaluate
    from transted.evaluation.reports.markdown import summary_markdown

    fmt = output_format(fmt, as_json)
    names = load_metrics(metrics, distinct_names=True,  # -m ted:cost=semantic
                         convention=convention)
    if out is not None:
        from transted.outputs import check_output_dir

        check_output_dir(out)
    # A refused value raises ValueError naming the parameter; cli.main exits with 2 on it.
    with _progress_bar() as hook, \
            batch_executor(jobs, executor, ray_address, pair_timeout) as pool:
        run = evaluate(data, metrics=names, out=out, threshold_mode=threshold_mode,
                       threshold=threshold, dev=dev, resume=resume, progress=hook,
                       oracle_rule=oracle_rule, cv_folds=cv_folds, n_boot=n_boot, seed=seed,
                       positive=tuple(positive.split(",")), top_disagreements=top,
                       executor=pool)
    if fmt != "text":
        print_json(run.summary(), indent=fmt == "json")
    else:
        print_line(summary_markdown(run))
        folder = next(iter((run.files or {}).values())).parent if run.files else out
        print_line(f"wrote {', '.join(sorted(p.name for p in (run.files or {}).values()))} "
                   f"to {folder}")


def regress_command(
    old: Path = typer.Argument(..., help="Pair file of the old translator version (or its outputs, with --references)."),
    new: Path = typer.Argument(..., help="Pair file of the new version (same ids/references), or its outputs."),
    references: str | None = typer.Option(None, "--references", "-r", help="References; OLD and NEW are then outputs joined by --key."),
    key: str | None = typer.Option(None, "--key", help="Join field (default: id, then name, then line order)."),
    metric: list[str] = MetricOption(None, "Metric name (repeatable or comma list), e.g. ted."),
    out: Path | None = typer.Option(None, "--out", "-o",
                                    help="Folder for scores and report (resumable)."),
    top: int = typer.Option(20, "--top", help="Worsened pairs shown."),
    resume: bool = typer.Option(True, "--resume/--no-resume"),
    fail_on: str | None = typer.Option(
        None, "--fail-on", help="Gate: exit 3 when NEW is worse beyond --max-drop. worse = mean "
        "score drop (or a pair that broke); verdict-flip = share of pairs going equivalent → "
        "not-equivalent."),
    max_drop: float | None = typer.Option(
        None, "--max-drop", help="Allowed drop (mean score, or share of flipped pairs; "
        "default 0)."),
    threshold: float | None = typer.Option(
        None, "--threshold", help="Fallback threshold for verdict-flip: evidence and residual "
        "edits decide as in the metric's verdicts, this threshold the rest (default: the "
        "metric's own verdicts)."),
    alpha: float | None = typer.Option(None, "--alpha", help="Fail only if also significant "
                                       "at this level (Wilcoxon / sign test, one-sided)."),
    n_boot: int = typer.Option(10000, "--n-boot", help="Paired bootstrap resamples."),
    seed: int = typer.Option(0, "--seed", help="Seed of the paired bootstrap."),
    convention: str | None = ConventionOption(),
    jobs: int | None = JobsOption(),
    executor: str = ExecutorOption(),
    ray_address: str | None = RayAddressOption(),
    fmt: str = FormatOption(),
    as_json: bool = JsonAlias(),
) -> None:
    """Compare two translator versions pair by pair: deltas, what got worse, paired
    significance; with --fail-on, a gate that exits 3 when NEW is worse beyond the bound."""
    from transted.cli.score import joined_pairs
    from transted.regression.compare import compare_runs, regression_markdown, write_regression
    from transted.regression.gate import check_regression

    fmt = output_format(fmt, as_json)
    names = load_metrics(metric, distinct_names=True, convention=convention)
    if out is not None:
        from transted.outputs import check_output_dir

        check_output_dir(out)
    if fail_on is None and (max_drop, threshold, alpha) != (None, None, None):
        raise ValueError("--max-drop, --threshold and --alpha set the gate: give --fail-on "
                         "worse|verdict-flip too")
    old_in: Any = old
    new_in: Any = new
    if references is not None:
        old_in = joined_pairs(references, str(old), key)
        new_in = joined_pairs(references, str(new), key)
    failed = []
    with batch_executor(jobs, executor, ray_address, None) as pool:
        regressions = [(name, compare_runs(old_in, new_in, name, out=_folder(out, name, names),
                                           resume=resume, executor=pool)) for name in names]
    for name, reg in regressions:
        folder = _folder(out, name, names)
        reg.old_path, reg.new_path = str(old), str(new)  # joined pairs carry no file name
        gate = check_regression(reg, fail_on=fail_on or "worse", max_drop=max_drop or 0.0,
                                threshold=threshold, alpha=alpha, n_boot=n_boot, seed=seed)
        if folder is not None:
            write_regression(reg, folder, top=top)
            (folder / "gate.json").write_text(json.dumps(gate.summary(), indent=2,
                                                         ensure_ascii=False) + "\n",
                                              encoding="utf-8")
        if fmt != "text":
            print_json({**reg.summary(), "gate": gate.summary() if fail_on else None,
                        "significance": gate.summary()["significance"]},
                       indent=fmt == "json")
        else:
            print_line(regression_markdown(reg, top=top))
            print_line(gate.message(top=top) if fail_on else gate.significance_line())
        if fail_on and gate.failed:
            failed.append(name.name)
            err_console.print(f"regression gate failed for {name.name}: "
                              + "; ".join(gate.reasons), highlight=False, markup=False,
                              soft_wrap=True)
    if failed:
        raise typer.Exit(EXIT_REGRESSION)


def _folder(out: Path | None, metric: Any, metrics: list[Any]) -> Path | None:
    """Where one metric's regression files go: OUT itself, or OUT/<metric> for several."""
    if out is None or len(metrics) == 1:
        return out
    return out / metric.name.replace(":", "_")


def register(app: typer.Typer) -> None:
    """Add ``eval`` and ``regress`` to the transted CLI."""
    app.command("eval")(eval_command)
    app.command("regress")(regress_command)
