"""``transted search REF CAND``: the TransTED search of the ``transted`` metric on two statements.

Both sides are declarations (``theorem``/``lemma``/``example``) or both are terms; the search
runs through :class:`~transted.metrics.transted.TransTEDSimilarity`, so ``--format json``
carries the same signature as ``transted score -m transted``. ``--graph`` writes the explored
graph in the format its suffix names (:mod:`transted.pipeline.search.graph`).
"""

from __future__ import annotations

from pathlib import Path

import typer

from transted.cli.console import console, print_json, print_line
from transted.cli.options import (
    FormatOption,
    JsonAlias,
    SignatureOption,
    output_format,
    signature_form,
    signature_text,
)
from transted.metrics.registry import get_metric
from transted.pipeline.search.engine import SearchConfig
from transted.pipeline.search.explain import explain as build_explanation
from transted.pipeline.search.graph import check_graph_path, write_graph
from transted.reading.pairs import Pair, Statement

__all__ = ["register", "search_command"]

_D = SearchConfig()
_DECL = ("theorem", "lemma", "example")


def _field(reference: str, candidate: str) -> str:
    kinds = {text.lstrip().startswith(_DECL) for text in (reference, candidate)}
    if len(kinds) == 2:
        raise typer.BadParameter("REF and CAND must both be declarations or both be terms",
                                 param_hint="CAND")
    return "statement" if kinds == {True} else "term"


def search_command(
    reference: str = typer.Argument(..., help="Reference: a theorem declaration or a proposition."),
    candidate: str = typer.Argument(..., help="Candidate, same form."),
    header: str | None = typer.Option(None, "--header", help="Header (open lines) for both."),
    explain: bool = typer.Option(False, "--explain", help="Print the tree diff of the best goal."),
    graph: Path | None = typer.Option(None, "--graph", help="Write the explored graph: .graphml, .gexf, .dot/.gv, or .png/.svg/.pdf (needs Graphviz)."),
    max_expansions: int = typer.Option(_D.max_expansions, help="Goals expanded at most."),
    max_work: int = typer.Option(_D.max_work or 0, "--max-work",
                                 help="Moves generated at most: a deterministic budget, the same "
                                      "on every machine (0 = no limit)."),
    max_time: float = typer.Option(_D.max_time or 0.0, help="Wall-clock seconds (0 = no limit)."),
    rules: Path | None = typer.Option(None, "--rules", help="Rule file (default: packaged offline.yaml)."),
    fmt: str | None = FormatOption(),
    as_json: bool = JsonAlias(),
    signature: str | None = SignatureOption(),
) -> int:
    """Best-first transformation search (ASSESS Algorithm 1) from REF = CAND, offline rules."""
    fmt = output_format(fmt, as_json)
    signature_form(signature)
    if graph is not None:
        check_graph_path(graph)  # refuse an unknown suffix before searching
    if max_work < 0:
        raise typer.BadParameter("must be >= 0", param_hint="--max-work")
    metric = get_metric("transted", max_expansions=max_expansions, max_time=max_time or None,
                         max_work=max_work or None,
                         rules=str(rules) if rules else None, field=_field(reference, candidate))
    pair = Pair(id="cli", reference=Statement(statement=reference, header=header),
                candidate=Statement(statement=candidate, header=header))
    result, size = metric.search(pair, sources=("REF", "CAND"))  # type: ignore[attr-defined]
    explanation = build_explanation(result, size)
    if graph is not None:
        write_graph(result, graph)
    if fmt != "text":
        print_json({**result.to_dict(), "similarity": explanation.similarity, "size": size,
                    "signature": str(metric.signature)}, indent=fmt == "json")
    elif explain:
        console.print(explanation.renderable())
        print_line(f"signature: {signature_text(metric)}")
    else:
        print_line(explanation.summary())
        print_line(f"signature: {signature_text(metric)}")
    return 0


def register(app: typer.Typer) -> None:
    """Add ``search`` to the transted CLI."""
    app.command("search")(search_command)
