"""CLI command ``regress``: two translator versions compared pair by pair
(:mod:`transted.studies.regression`), with a gate for CI (``--fail-on``).

Every option is checked before anything is scored, and so is the matching: fewer than
``--min-matched`` matched pairs (or ``--min-matched-share`` of the ids) exits 4 at once,
listing the unmatched ids. After scoring, exit 4 also when too few pairs were compared
(both versions failed on them) or a version's error rate is above ``--max-error-rate``; exit
3 when the gate failed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer

from transted.cli.console import err_console, print_json, print_line
from transted.cli.exits import ExitCode, MaxErrorRateOption, interruptible, too_little_scored
from transted.cli.options import (
    CandidateKeyOption,
    ConventionOption,
    FormatOption,
    JsonAlias,
    KeyOption,
    LineOrderOption,
    MetricOption,
    ReferenceKeyOption,
    SignatureOption,
    TextFieldOption,
    TheoremOption,
    load_metrics,
    output_format,
    signature_form,
    signature_text,
    with_run_options,
)
from transted.cli.progress import staged_progress
from transted.cli.score import joined_pairs
from transted.reading.outputs import check_output_dir
from transted.running.executors import RunOptions, executor_of
from transted.studies.regression.compare import (
    compare_matched,
    match_runs,
    regression_markdown,
    write_regression,
)
from transted.studies.regression.gate import check_gate_options, check_regression

__all__ = ["register", "regress_command", "EXIT_REGRESSION"]

EXIT_REGRESSION = ExitCode.GATE_FAILED
"""Exit code of ``regress --fail-on`` when the gate fails."""


@with_run_options(out_help="Folder for scores and report (resumable).")
def regress_command(
    old: Path = typer.Argument(..., help="Pair file of the old translator version (or its outputs, with --references)."),
    new: Path = typer.Argument(..., help="Pair file of the new version (same ids/references), or its outputs."),
    references: str | None = typer.Option(None, "--references", "-r", help="References; OLD and NEW are then outputs (JSONL, CSV or TSV) joined by key."),
    key: str | None = KeyOption(),
    reference_key: str | None = ReferenceKeyOption(),
    candidate_key: str | None = CandidateKeyOption(),
    text_field: str | None = TextFieldOption(),
    by_line_order: bool = LineOrderOption(),
    metric: list[str] = MetricOption(None, "Metric name (repeatable or comma list), e.g. ted."),
    top: int = typer.Option(20, "--top", min=0, help="Worsened pairs shown."),
    fail_on: str | None = typer.Option(
        None, "--fail-on", metavar="worse|mean|verdict-flip|equivalent@K",
        help="Gate: exit 3 when NEW is worse. worse = any pair whose score dropped by more "
             "than --max-pair-drop, or that NEW fails to score (a timeout counts as a "
             "failure); mean = the mean score dropped by more than --max-drop (or a pair "
             "broke); verdict-flip = share of pairs going equivalent → not-equivalent; "
             "equivalent@K = drop in the share of problems with an equivalent sample among "
             "their first K (sampled outputs)."),
    max_pair_drop: float | None = typer.Option(
        None, "--max-pair-drop", min=0.0, metavar="D",
        help="--fail-on worse: each pair's allowed score drop (default 0: any drop fails)."),
    max_drop: float | None = typer.Option(
        None, "--max-drop", min=0.0, metavar="D", help="Allowed drop of the mean score "
        "(--fail-on mean), or of the share of flipped pairs or of equivalent@K (default 0)."),
    threshold: float | None = typer.Option(
        None, "--threshold", help="Fallback threshold for verdict-flip and equivalent@K: "
        "evidence and residual edits decide as in the metric's verdicts, this threshold the "
        "rest (default: the metric's own verdicts)."),
    alpha: float | None = typer.Option(None, "--alpha", help="Fail only if also significant "
                                       "at this level, in (0, 1) (Wilcoxon / sign test, "
                                       "one-sided; not for --fail-on worse)."),
    min_matched: int = typer.Option(1, "--min-matched", min=0, metavar="N",
                                    help="Exit 4 when fewer than N pairs are compared "
                                         "(matched in both versions and scored in one)."),
    min_matched_share: float = typer.Option(
        0.0, "--min-matched-share", min=0.0, max=1.0, metavar="F",
        help="Exit 4 when the compared pairs are less than this share of the ids of either "
             "version."),
    n_boot: int = typer.Option(10000, "--n-boot", min=1, help="Paired bootstrap resamples."),
    seed: int = typer.Option(0, "--seed", help="Seed of the paired bootstrap."),
    theorem: str | None = TheoremOption(),
    convention: str | None = ConventionOption(),
    max_error_rate: float | None = MaxErrorRateOption(),
    fmt: str | None = FormatOption(),
    as_json: bool = JsonAlias(),
    signature: str | None = SignatureOption(),
    *, run: RunOptions,
) -> int:
    """Compare two translator versions pair by pair: deltas, what got worse, paired
    significance, per-problem equivalent@k of sampled outputs; with --fail-on, a gate that
    exits 3 when NEW is worse beyond the bound (4 when too little was compared to judge)."""
    fmt = output_format(fmt, as_json)
    signature_form(signature)
    names = load_metrics(metric, distinct_names=True, theorem=theorem,
                         convention=convention)
    if fail_on is None and (max_drop, max_pair_drop, threshold, alpha) != (None,) * 4:
        raise typer.BadParameter("--max-pair-drop, --max-drop, --threshold and --alpha set "
                                 "the gate: give --fail-on worse|mean|verdict-flip|"
                                 "equivalent@K too", param_hint="--fail-on")
    gate = _Gate(fail_on=fail_on or "worse", max_drop=max_drop or 0.0,
                 max_pair_drop=max_pair_drop, threshold=threshold, alpha=alpha, n_boot=n_boot,
                 seed=seed, min_matched=min_matched, min_matched_share=min_matched_share)
    # a refused value is a ValueError naming the option (exit 2), before anything is read
    check_gate_options(fail_on=gate.fail_on, max_drop=gate.max_drop, alpha=alpha,
                       n_boot=n_boot, min_matched=min_matched,
                       min_matched_share=min_matched_share, max_pair_drop=max_pair_drop)
    out = None if run.out is None else Path(run.out)
    if out is not None:
        check_output_dir(out)
    matching = match_runs(*_versions(old, new, references, key=key, reference_key=reference_key,
                                     candidate_key=candidate_key, line_order=by_line_order,
                                     text_field=text_field))
    matching.old_name, matching.new_name = str(old), str(new)
    n_union = matching.n_union
    share = len(matching.common) / n_union if n_union else 0.0
    if len(matching.common) < min_matched or share < min_matched_share:
        err_console.print(
            f"error: {len(matching.common)} pair(s) matched between {old} and {new} "
            f"(of {n_union} ids) < --min-matched {min_matched}"
            + (f" or {100 * share:.1f}% < --min-matched-share {100 * min_matched_share:g}%"
               if min_matched_share else "")
            + f"; nothing scored. {matching.unmatched_text()}", highlight=False, markup=False,
            soft_wrap=True)
        return ExitCode.TOO_LITTLE_SCORED
    codes = [_regress_metric(m, matching, names, run=run, out=out, top=top,
                             gate=gate if fail_on else None, gate_options=gate,
                             max_error_rate=max_error_rate, fmt=fmt)
             for m in names]
    if ExitCode.TOO_LITTLE_SCORED in codes:
        return ExitCode.TOO_LITTLE_SCORED
    return ExitCode.GATE_FAILED if ExitCode.GATE_FAILED in codes else ExitCode.OK


@dataclass(frozen=True)
class _Gate:
    """The gate's options as given (:func:`transted.studies.regression.gate.check_regression`)."""

    fail_on: str
    max_drop: float
    max_pair_drop: float | None
    threshold: float | None
    alpha: float | None
    n_boot: int
    seed: int
    min_matched: int
    min_matched_share: float


def _versions(old: Path, new: Path, references: str | None, **join: Any) -> tuple[Any, Any]:
    """The two versions' pairs: pair files as given, or outputs joined to ``references``."""
    if references is None:
        if any(join.values()):
            raise typer.BadParameter("joins --references to the outputs: give --references "
                                     "too", param_hint="--key")
        return old, new
    return (joined_pairs(references, str(old), **join),
            joined_pairs(references, str(new), **join))


def _regress_metric(metric: Any, matching: Any, names: list[Any], *, run: RunOptions,
                    out: Path | None, top: int, gate: _Gate | None, gate_options: _Gate,
                    max_error_rate: float | None, fmt: str) -> ExitCode:
    """Score, compare, gate and report one metric; its exit code. ``gate`` is None without
    ``--fail-on`` (the report and the significance figures are still printed)."""
    folder = _folder(out, metric, names)
    with executor_of(run) as pool, \
            staged_progress(pool) as progress, \
            interruptible(None if folder is None else folder / "scores"):
        reg = compare_matched(matching, metric, out=folder, resume=run.resume, executor=pool,
                              progress=lambda split, n: progress.stage(
                                  f"{metric.name} ({split})", n))
    g = gate_options
    report = check_regression(reg, fail_on=g.fail_on, max_drop=g.max_drop,
                              max_pair_drop=g.max_pair_drop, threshold=g.threshold,
                              alpha=g.alpha, n_boot=g.n_boot, seed=g.seed,
                              min_matched=g.min_matched, min_matched_share=g.min_matched_share)
    figures = reg.sample_figures(g.threshold)
    if folder is not None:
        write_regression(reg, folder, top=top, threshold=g.threshold)
        (folder / "gate.json").write_text(json.dumps(report.summary(), indent=2,
                                                     ensure_ascii=False) + "\n",
                                          encoding="utf-8")
    if fmt != "text":
        print_json({**reg.summary(), "gate": report.summary() if gate else None,
                    "significance": report.summary()["significance"],
                    "problems": None if figures is None else
                    {"old": figures[0].overall(), "new": figures[1].overall()}},
                   indent=fmt == "json")
    else:
        print_line(regression_markdown(reg, top=top, threshold=g.threshold,
                                       signature=signature_text(metric)))
        print_line(report.message(top=top) if gate or report.insufficient
                   else report.significance_line())
    if report.insufficient:
        err_console.print(f"error: {metric.name}: too few pairs compared to judge: "
                          + "; ".join(report.reasons), highlight=False, markup=False,
                          soft_wrap=True)
        return ExitCode.TOO_LITTLE_SCORED
    if gate and report.failed:
        err_console.print(f"regression gate failed for {metric.name}: "
                          + "; ".join(report.reasons), highlight=False, markup=False,
                          soft_wrap=True)
        return ExitCode.GATE_FAILED
    too_little = False
    for version, results in (("old", reg.results_old), ("new", reg.results_new)):
        too_little |= too_little_scored(results, max_error_rate, f"{metric.name} ({version})")
    return ExitCode.TOO_LITTLE_SCORED if too_little else ExitCode.OK


def _folder(out: Path | None, metric: Any, metrics: list[Any]) -> Path | None:
    """Where one metric's regression files go: OUT itself, or OUT/<metric> for several."""
    if out is None or len(metrics) == 1:
        return out
    return out / metric.name.replace(":", "_")


def register(app: typer.Typer) -> None:
    """Add ``regress`` to the transted CLI."""
    app.command("regress")(regress_command)
