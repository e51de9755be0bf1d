"""``transted tree``: print the operator tree of a statement or of every pair in a file."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from transted.cli.console import console, error_line, note, state
from transted.cli.exits import ExitCode
from transted.errors import TranstedError
from transted.pipeline.opt import OptOptions, parse_statement
from transted.pipeline.opt.render import FORMATS, render
from transted.reading.outputs import check_output_file
from transted.reading.pairs import iter_jsonl, validate_pair

__all__ = ["register"]

_DEFAULTS = OptOptions()


def _options(proposition: bool, split: bool, canonical: bool) -> OptOptions:
    return OptOptions(proposition=proposition, split_binders=split, canonical_names=canonical)


def _statements_of(path: Path, field: str) -> list[tuple[str, str, str | None]]:
    """(name, text, header) for each side of each pair, or each row of a statements file."""
    rows = []
    for number, obj in iter_jsonl(path):
        if "formal_statement" in obj:
            rows.append((f"{path.name}:{number} {obj.get('name', '')}".strip(), obj["formal_statement"], obj.get("header")))
            continue
        pair = validate_pair(obj, path, number)
        for side in ("reference", "candidate"):
            st = getattr(pair, side)
            text = st.pretty if field == "pretty" else st.statement
            if text is not None:
                rows.append((f"{pair.id} {side}", text, st.header))
    return rows


def tree_command(
    statement: str | None = typer.Argument(None, help="A Lean 4 theorem statement."),
    file: Path | None = typer.Option(None, "--file", "-f", help="A pair file (or statements JSONL; - = stdin): one tree per statement, as JSON lines."),
    header: str | None = typer.Option(None, help="Header (imports, `open` lines) for STATEMENT."),
    fmt: str | None = typer.Option(None, "--format", show_default=False,
                                   help=f"One of {', '.join(FORMATS)} (default text)."),
    proposition: bool = typer.Option(_DEFAULTS.proposition, "--proposition/--statement-form", help="Theorem type `∀ binders, hyps → concl` or the statement form."),
    split: bool = typer.Option(_DEFAULTS.split_binders, "--split-binders/--grouped-binders"),
    canonical: bool = typer.Option(_DEFAULTS.canonical_names, "--canonical-names/--keep-names", help="Rename bound variables #1, #2, … ."),
    field: str = typer.Option("statement", help="With --file: `statement` (as written) or `pretty`."),
    out: Path | None = typer.Option(None, "--out", "-o", help="With --file: write JSON lines here instead of stdout."),
) -> int:
    """Print the operator tree (OPT) of a Lean 4 statement."""
    options = _options(proposition, split, canonical)

    fmt = fmt or state.format or "text"
    if fmt not in FORMATS:
        raise typer.BadParameter(f"must be one of {', '.join(FORMATS)}", param_hint="--format")
    if (statement is None) == (file is None):
        raise typer.BadParameter("give either STATEMENT or --file", param_hint="STATEMENT")
    if statement is not None:
        console.print(render(parse_statement(statement, header=header, options=options), fmt),
                      markup=False, highlight=False, soft_wrap=True)
        return 0
    if out is not None and str(out) != "-":
        check_output_file(out, inputs=[file] if file is not None else [], resume=False,
                          owned_keys=("name", "tree"))
    sink = out.open("w", encoding="utf-8") if out is not None and str(out) != "-" else None
    errors = total = 0
    try:
        for name, text, hdr in _statements_of(file, field) if file is not None else ():
            total += 1
            try:
                record = {"name": name, "tree": parse_statement(text, header=hdr, options=options).to_json(), "error": None}
            except TranstedError as e:
                errors += 1
                record = {"name": name, "tree": None, "error": str(e)}
            line = json.dumps(record, ensure_ascii=False)
            if sink:
                sink.write(line + "\n")
                sink.flush()
            else:
                console.print(line, markup=False, highlight=False, soft_wrap=True)
    finally:
        if sink:
            sink.close()
    note(f"{total} statements, {total - errors} parsed, {errors} errors")
    if errors == total:
        error_line(f"{file}: no statement parsed" if total else f"{file}: no statement")
        return ExitCode.TOO_LITTLE_SCORED
    return 0


def register(app: typer.Typer) -> None:
    app.command("tree")(tree_command)
