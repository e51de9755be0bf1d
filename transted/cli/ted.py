"""``transted ted REF CAND``: TED similarity of two statements, computed by the ``ted`` metric.

The command builds the metric with the given tree options and scores the pair, so its signature
is the metric's (the same as ``transted score -m ted``); ``--term`` reads both sides as terms
(``field=term``). Output: a table, or with ``--format json`` one object with ``distance``,
``size1``, ``size2``, ``similarity``, ``backend``, ``signature`` and the two trees.
"""

from __future__ import annotations

from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from transted.cli.console import console, print_json
from transted.cli.options import (
    FormatOption,
    JsonAlias,
    SignatureOption,
    output_format,
    signature_form,
    signature_text,
)
from transted.metrics.registry import get_metric
from transted.pipeline.ted.backends import BACKENDS, DEFAULT_BACKEND
from transted.reading.pairs import Pair, Statement

__all__ = ["register", "ted_command"]


def ted_command(
    reference: str = typer.Argument(..., metavar="REF", help="Reference statement (Lean 4)."),
    candidate: str = typer.Argument(..., metavar="CAND", help="Candidate statement (Lean 4)."),
    fmt: str | None = FormatOption(),
    as_json: bool = JsonAlias(),
    backend: str = typer.Option(DEFAULT_BACKEND, "--backend", "-b",
                                help=f"TED backend: {' | '.join(BACKENDS)}."),
    header: str | None = typer.Option(None, "--header", "-H",
                                      help="Header of both statements (imports, `open` lines)."),
    term: bool = typer.Option(False, "--term", help="REF and CAND are terms, not declarations."),
    proposition: bool | None = typer.Option(
        None, "--proposition/--statement-form",
        help="Tree of the theorem's type (∀ binders, hyps → conclusion) or of the statement "
             "as written (parser default: proposition)."),
    split_binders: bool | None = typer.Option(
        None, "--split-binders/--group-binders", help="One binder per node (parser default)."),
    canonical_names: bool | None = typer.Option(
        None, "--canonical-names/--keep-names", help="Rename bound variables canonically."),
    signature: str | None = SignatureOption(),
) -> int:
    """TED similarity 1 - TED/max(|T1|, |T2|) of two statements' operator trees."""
    fmt = output_format(fmt, as_json)
    signature_form(signature)
    if backend not in BACKENDS:
        raise typer.BadParameter(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}",
                                 param_hint="--backend")
    given = {"proposition": proposition, "split_binders": split_binders,
             "canonical_names": canonical_names}
    metric = get_metric("ted", backend=backend, field="term" if term else "statement",
                         **{k: v for k, v in given.items() if v is not None})
    pair = Pair(id="cli", reference=Statement(statement=reference, header=header),
                candidate=Statement(statement=candidate, header=header))
    ref, cand = metric.trees(pair, sources=("REF", "CAND"))  # type: ignore[attr-defined]
    result = metric.pipeline.distance.ted.similarity(ref, cand)  # type: ignore[attr-defined]
    payload: dict[str, Any] = {**result.as_dict(), "signature": str(metric.signature),
                               "reference_tree": str(ref), "candidate_tree": str(cand)}
    if fmt == "text":
        console.print(_table({**payload, "signature": signature_text(metric)}))
    else:
        print_json(payload, indent=fmt == "json")
    return 0


def _table(payload: dict[str, Any]) -> Any:
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column(overflow="fold")
    rows = [("TED", f"{payload['distance']:g}"), ("|REF|", str(payload["size1"])),
            ("|CAND|", str(payload["size2"])), ("similarity", f"{payload['similarity']:.4f}"),
            ("backend", payload["backend"]), ("signature", payload["signature"]),
            ("REF tree", payload["reference_tree"]), ("CAND tree", payload["candidate_tree"])]
    for key, value in rows:
        # labels contain '[' (instance binders, `ℤ[X]`): escape so rich prints them verbatim
        table.add_row(escape(key), escape(value))
    return table


def register(app: typer.Typer) -> None:
    """Add ``ted`` to the transted CLI."""
    app.command("ted")(ted_command)
