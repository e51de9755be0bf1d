"""CLI command ``transted lfi GOLD SYSTEM``: LFi precision/recall of paper 003.

Registered by :mod:`transted.cli.fol`, which calls :func:`register` here. Both files
hold one logic form per line (see :func:`transted.fol.lfi.read_logic_forms`); the output is a
table or, with ``--json``, one object with the eight scores, the counts and the signature.
"""

from __future__ import annotations

import math
from pathlib import Path

import typer
from rich.table import Table

from transted.cli.console import console, print_json
from transted.cli.options import FormatOption, JsonAlias, output_format
from transted.fol.lfi import lfi_signature, read_logic_forms, score_lfi

__all__ = ["register", "lfi_command"]


def lfi_command(
    gold: Path = typer.Argument(..., metavar="GOLD", help="Gold logic forms, one per line."),
    system: Path = typer.Argument(..., metavar="SYSTEM", help="System logic forms."),
    keep_pos: bool = typer.Option(False, "--keep-pos",
                                  help="Compare ':n'/':v' suffixes too (the LFi gold-standard evaluation ignored them)."),
    fmt: str | None = FormatOption(),
    as_json: bool = JsonAlias(),
) -> None:
    """Argument/predicate precision and recall, Sent-A, Sent-P, Sent-AP, Sent-APSent."""
    fmt = output_format(fmt, as_json)
    report = score_lfi(read_logic_forms(gold), read_logic_forms(system), keep_pos=keep_pos)
    signature = lfi_signature(keep_pos=keep_pos)
    scores = {k: (None if math.isnan(v) else v) for k, v in report.scores().items()}
    if fmt != "text":
        payload = {"scores": scores, "counts": report.counts, "n_gold": report.n_gold,
                   "n_attempted": report.n_attempted, "signature": signature}
        print_json(payload, indent=fmt == "json")
        return
    table = Table(title=f"LFi: {report.n_attempted} of {report.n_gold} sentences attempted")
    table.add_column("measure")
    table.add_column("value", justify="right")
    for name, value in scores.items():
        table.add_row(name, "undefined" if value is None else f"{value:.3f}")
    console.print(table)
    console.print(f"signature: {signature}", highlight=False)


def register(app: typer.Typer) -> None:
    """Add ``lfi`` to the transted CLI."""
    app.command("lfi")(lfi_command)
