"""CLI: ``transted fol parse``, ``transted fol perturb`` and ``transted fol formulaicness``.

``fol parse FORMULA`` shows the tree as this parser reads it, the LogicLLaMA tokens and LE's
reading; ``fol parse --file F`` reports coverage (every rejected formula with its reason).
``fol perturb F`` builds the perturbations of Thatikonda et al. ("Assessing the Alignment of
FOL Closeness Metrics with Human Judgement", paper 001) of every formula in ``F`` and prints the
sensitivity tables (Table 1 percentages, Table 2 means, Tables 3/6–11 combinations).
Input files: FOLIO-style JSONL (``premises-FOL`` lists, ``conclusion-FOL`` with
``--conclusions``), a pair file (``reference.statement``), or plain text, one formula a line.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

import typer
from rich.table import Table

from transted.api import score_formulaicness
from transted.cli.console import console, note, print_json, print_line
from transted.cli.exits import ExitCode, MaxErrorRateOption, interruptible, too_little_scored
from transted.cli.group import TranstedGroup
from transted.cli.options import (
    FormatOption,
    JsonAlias,
    MetricOption,
    SignatureOption,
    choice,
    is_stdout,
    metric_list,
    output_format,
    signature_form,
    signature_text,
)
from transted.cli.progress import progress_bar
from transted.cli.runs import result_text
from transted.errors import ParseError, ResourceLimitError, escape_control
from transted.fol.formula_files import read_formulas
from transted.fol.formulaicness.naturalness import ALPHA, BETA
from transted.fol.le import parse_le
from transted.fol.syntax import atoms, format_formula, parse_formula
from transted.fol.tokens import fol_tokens
from transted.metrics.formulaicness import Formulaicness, read_texts
from transted.metrics.registry import get_metric
from transted.reading.outputs import check_output_file
from transted.reading.pairs import write_pairs
from transted.studies.sensitivity.fol import (
    PERTURBATIONS,
    perturbation_pairs,
    perturbation_scores,
    sensitivity_table,
)

__all__ = ["register", "fol_app"]

_KINDS_HELP = "Perturbations (repeatable): " + ", ".join(PERTURBATIONS)
fol_app = typer.Typer(cls=TranstedGroup, no_args_is_help=True,
                      help="First-order-logic formulas: parse, perturb, formulaicness.")


@fol_app.command("parse")
def parse_command(
    formula: str | None = typer.Argument(None, help="A formula, e.g. '∀x (P(x) → Q(x))'."),
    file: Path | None = typer.Option(None, "--file", "-f", help="Report coverage over a file."),
    conclusions: bool = typer.Option(False, help="With --file: include FOLIO conclusions."),
    fmt: str | None = FormatOption(),
    as_json: bool = JsonAlias(),
) -> int:
    """Parse one formula, or report parser coverage over a file."""
    fmt = output_format(fmt, as_json)

    if file is not None:
        texts = read_formulas(file, conclusions=conclusions)
        rejected = []
        for text in texts:
            try:
                parse_formula(text)
            except (ParseError, ResourceLimitError) as e:
                rejected.append({"formula": text, "reason": str(e).splitlines()[0]})
        payload = {"formulas": len(texts), "parsed": len(texts) - len(rejected),
                   "rejected": rejected}
        if fmt != "text":
            print_json(payload, indent=fmt == "json")
        else:
            console.print(f"{payload['parsed']} of {len(texts)} distinct formulas parse; "
                          f"{len(rejected)} rejected:", highlight=False)
            for item in rejected:
                console.print(f"  {escape_control(repr(item['formula']))}\n"
                              f"      {escape_control(item['reason'])}", markup=False,
                              highlight=False, soft_wrap=True)
        return 0
    if formula is None:
        raise typer.BadParameter("give a FORMULA or --file", param_hint="FORMULA")
    tree = parse_formula(formula)
    try:
        le_reading: str | None = format_formula(parse_le(formula), explicit=True)
    except ParseError as e:
        le_reading = f"(LE grammar rejects it: {e.reason})"
    payload = {"formula": format_formula(tree), "explicit": format_formula(tree, explicit=True),
               "atoms": [format_formula(a) for a in atoms(tree)], "tokens": fol_tokens(formula),
               "le_reading": le_reading, "tree": repr(tree)}
    if fmt != "text":
        print_json(payload, indent=fmt == "json")
    else:
        for key, value in payload.items():
            console.print(f"{key}: {escape_control(str(value))}", markup=False, highlight=False,
                          soft_wrap=True)
    return 0


@fol_app.command("perturb")
def perturb_command(
    file: Path = typer.Argument(..., help="Formulas (FOLIO JSONL, pair JSONL or text)."),
    metric: list[str] = MetricOption(["fol-bleu", "fol-le"],
                                     "Metric names (repeatable or comma list), e.g. fol-sim, fol-rougeL."),
    kind: list[str] = typer.Option(list(PERTURBATIONS), "--kind", "-k",
                                   help=_KINDS_HELP),
    limit: int | None = typer.Option(None, help="Use only the first N distinct formulas."),
    pairs_out: Path | None = typer.Option(None, help="Also write the (gold, perturbed) pairs."),
    max_error_rate: float | None = MaxErrorRateOption(),
    fmt: str | None = FormatOption(),
    as_json: bool = JsonAlias(),
    signature: str | None = SignatureOption(),
) -> int:
    """Score gold vs perturbed formulas (Thatikonda et al.'s FOL metric study, Tables 1-3, 6-11)."""
    fmt = output_format(fmt, as_json)
    signature_form(signature)

    if limit is not None and limit < 1:
        raise typer.BadParameter("must be positive", param_hint="--limit")
    for kind_name in kind:
        choice(kind_name, list(PERTURBATIONS), "--kind")
    texts = read_formulas(file)[:limit]
    skipped: list[tuple[str, str]] = []
    pairs = perturbation_pairs(texts, kinds=kind, skipped=skipped)
    metrics = [get_metric(name) for name in metric_list(metric)]
    if pairs_out is not None:
        check_output_file(pairs_out, inputs=[file], resume=False,
                          owned_keys=("id", "reference", "candidate"))
        write_pairs(pairs, pairs_out)
    results: dict[str, list[Any]] = {m.name: [] for m in metrics}
    scores = _score_with_progress(pairs, metrics, results)
    total = len(texts) - len(skipped)
    tables = {over: sensitivity_table(pairs, scores, total=total, over=over)
              for over in ("all", "applied")}
    signatures = {m.name: str(m.signature) for m in metrics}
    if fmt != "text":
        payload = {over: asdict(t) for over, t in tables.items()}
        payload["signatures"] = signatures  # type: ignore[assignment]
        payload["skipped"] = [list(s) for s in skipped]  # type: ignore[assignment]
        print_json(payload, indent=fmt == "json")
    else:
        console.print(f"{total} formulas parsed, {len(skipped)} skipped (unparseable)",
                      highlight=False)
        for over, table in tables.items():
            _print_table(console, table, over)
        for m in metrics:
            console.print(f"signature {m.name}: {signature_text(m)}", markup=False,
                          highlight=False, soft_wrap=True)
    too_little = False
    for name, done in results.items():  # e.g. fol-sim without the `embed` extra
        too_little |= too_little_scored(done, max_error_rate, name)
    return ExitCode.TOO_LITTLE_SCORED if too_little else ExitCode.OK


def _score_with_progress(pairs: list[Any], metrics: list[Any], results: dict[str, list[Any]]
                         ) -> dict[str, dict[str, float | None]]:
    """Every metric's scores; each result is also kept in ``results`` (by metric)."""
    with progress_bar("scoring", len(pairs) * len(metrics)) as progress:
        def on_result(result: Any) -> None:
            results[result.metric].append(result)
            progress.step()
        return perturbation_scores(pairs, metrics, on_result=on_result)


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def _print_table(console, table, over: str) -> None:
    title = ("mean over all formulas (unchanged ones score their self-match), as Thatikonda et al."
             if over == "all" else "mean over the formulas each perturbation changes")
    out = Table(title=f"Gold vs perturbed, normalised by self-match: {title}")
    out.add_column("perturbation")
    out.add_column("applies", justify="right")
    for name in table.metrics:
        out.add_column(name, justify="right")
    for row in table.rows:
        cells = [_fmt(table.normalized[row][m]) for m in table.metrics]
        errors = sum(table.errors[row].values())
        out.add_row(row + (f" ({errors} errors)" if errors else ""),
                    f"{100 * table.applied[row] / max(table.total, 1):.0f}%", *cells)
    console.print(out)
    if over != "all" or len(table.metrics) < 2:
        return
    for row in table.rows[2:]:
        grid = Table(title=f"{row}: metric combinations (diagonal = single metric)")
        grid.add_column(row)
        for name in table.metrics:
            grid.add_column(name, justify="right")
        for a in table.metrics:
            cells = []
            for b in table.metrics:
                key = f"{a}+{b}" if f"{a}+{b}" in table.combined[row] else f"{b}+{a}"
                cells.append(_fmt(table.combined[row][key]))
            grid.add_row(a, *cells)
        console.print(grid)


@fol_app.command("formulaicness")
def formulaicness_command(
    texts: str = typer.Argument(..., help="Text JSONL: `text`, optional `formula` and `id` (- = stdin)."),
    out: str | None = typer.Option(None, "--out", "-o", help="Result JSONL (default/`-` = stdout). A real file resumes."),
    resume: bool = typer.Option(True, "--resume/--no-resume", help="Keep results already in --out."),
    alpha: float | None = typer.Option(None, help="Weight of naturalness M in eq. 1 (default 0.594)."),
    beta: float | None = typer.Option(None, help="Weight of 1 - formulaicness in eq. 1 (default 0.406)."),
    max_error_rate: float | None = MaxErrorRateOption(),
    fmt: str | None = FormatOption(),
    signature: str | None = SignatureOption(),
) -> int:
    """Formulaicness F(t) of logic-to-text output, with naturalness and eq. 1 (Calò et al.).
    Without --out, result lines (JSONL) go to stdout; --format text gives a line per text."""
    fmt = output_format(fmt, default="jsonl" if is_stdout(out) else "text")
    signature_form(signature)
    items = read_texts(texts)

    alpha, beta = (ALPHA if alpha is None else alpha), (BETA if beta is None else beta)
    metric = Formulaicness(alpha=alpha, beta=beta)
    cached = [0]
    with interruptible(None if is_stdout(out) else Path(str(out))), \
            progress_bar("formulaicness", len(items)) as progress:
        def on_result(result: Any, was_cached: bool) -> None:
            cached[0] += was_cached
            if is_stdout(out) and fmt != "json":
                print_line(json.dumps(result.model_dump(), ensure_ascii=False)
                           if fmt == "jsonl" else result_text(result))
            progress(result, was_cached)

        results = score_formulaicness(items, out=None if is_stdout(out) else out, resume=resume,
                                      on_result=on_result, inputs=[texts], alpha=alpha,
                                      beta=beta)
    scores = [r.score for r in results if r.score is not None]
    mean = f"mean formulaicness {sum(scores) / len(scores):.4f}" if scores else "no score"
    summary = (f"{len(results)} texts: {mean}; {len(results) - len(scores)} errors; "
               f"{cached[0]} already done\nsignature: {signature_text(metric)}")
    if fmt == "json":
        print_json({"texts": len(results), "scored": len(scores),
                    "mean": sum(scores) / len(scores) if scores else None,
                    "already_done": cached[0], "signature": str(metric.signature),
                    "out": None if is_stdout(out) else str(out),
                    "results": [r.model_dump() for r in results] if is_stdout(out) else None})
    elif is_stdout(out) and fmt == "jsonl":
        note(summary)
    elif is_stdout(out):
        print_line(summary)
    else:
        print_line(f"formulaicness → {out}: {summary}")
    return ExitCode.TOO_LITTLE_SCORED if too_little_scored(results, max_error_rate,
                                                           "formulaicness") else ExitCode.OK


def register(app: typer.Typer) -> None:
    """Add ``transted fol ...`` (``transted lfi`` is :mod:`transted.cli.lfi`)."""
    app.add_typer(fol_app, name="fol")
