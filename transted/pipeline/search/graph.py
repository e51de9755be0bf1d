"""Export the explored search graph through networkx's writers, the format chosen by suffix.

``.graphml`` (networkx), ``.gexf`` (networkx), ``.dot``/``.gv`` (pydot, which quotes and escapes
labels), and images ``.png``/``.svg``/``.pdf`` rendered by Graphviz's ``dot`` program when it is
installed. Any other suffix is refused before the search output is written anywhere.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from transted.errors import InputError
from transted.pipeline.search.engine import fill_tactics

__all__ = ["GRAPH_SUFFIXES", "check_graph_path", "write_graph"]

_DATA = (".graphml", ".gexf", ".dot", ".gv")
_IMAGES = (".png", ".svg", ".pdf")
GRAPH_SUFFIXES: tuple[str, ...] = _DATA + _IMAGES


def check_graph_path(path: str | Path) -> Path:
    """``path`` if its suffix names a format this module writes, else :class:`InputError`."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in GRAPH_SUFFIXES:
        raise InputError(f"{path}: unknown graph format {suffix or '(no suffix)'!r}; "
                         f"use one of {', '.join(GRAPH_SUFFIXES)}")
    if suffix in _IMAGES and shutil.which("dot") is None:
        raise InputError(f"{path}: writing {suffix} needs Graphviz's `dot` program on PATH; "
                         "write .dot or .graphml instead")
    return path


def _labelled(result: Any) -> Any:
    """A copy of the explored graph with string labels (distance on nodes, tactic on edges)."""
    import networkx as nx


    graph = fill_tactics(result)
    out = nx.DiGraph()
    for node, data in graph.nodes(data=True):
        attrs = {k: str(v) for k, v in data.items() if v is not None}
        out.add_node(node, **attrs, label=f"{node}: d={data.get('distance')}")
    for a, b, data in graph.edges(data=True):
        attrs = {k: str(v) for k, v in data.items() if v is not None}
        out.add_edge(a, b, **attrs, label=str(data.get("tactic", data.get("name", ""))))
    return out


def write_graph(result: Any, path: str | Path) -> Path:
    """Write ``result``'s explored graph to ``path`` in the format its suffix names."""
    import networkx as nx

    path = check_graph_path(path)
    suffix = path.suffix.lower()
    graph = _labelled(result)
    if suffix == ".graphml":
        nx.write_graphml(graph, path)
    elif suffix == ".gexf":
        nx.write_gexf(graph, path)
    else:
        dot = nx.nx_pydot.to_pydot(graph)
        dot.set_name("transted")
        dot.set_strict(False)  # a DiGraph has no parallel edges; plain `digraph` as before
        if suffix in (".dot", ".gv"):
            path.write_text(dot.to_string(), encoding="utf-8")
        else:
            path.write_bytes(dot.create(format=suffix[1:]))
    return path
