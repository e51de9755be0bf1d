"""No import cycles between transted modules, deferred (function-level) imports included.

Command: ``python -m pytest -q tests/test_import_cycles.py`` (an ast walk + networkx).
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1] / "transted"


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> nx.DiGraph:
    graph = nx.DiGraph()
    modules = {_module(p): p for p in ROOT.rglob("*.py")}
    for name, path in modules.items():
        graph.add_node(name)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            for target in targets:
                if target in modules and target != name and not _type_checking_only(node):
                    graph.add_edge(name, target)
    return graph


def _type_checking_only(node: ast.AST) -> bool:
    return getattr(node, "_tc", False)


def _mark_type_checking(tree: ast.AST) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                for sub in ast.walk(inner):
                    sub._tc = True  # type: ignore[attr-defined]


_parse = ast.parse


def _parse_marking(source: str, *args: object, **kwargs: object) -> ast.AST:
    tree = _parse(source, *args, **kwargs)  # type: ignore[arg-type]
    _mark_type_checking(tree)
    return tree


def _cycles(packages: tuple[str, ...]) -> list[list[str]]:
    ast.parse = _parse_marking  # type: ignore[assignment]
    try:
        graph = import_graph()
    finally:
        ast.parse = _parse  # type: ignore[assignment]
    # a package's __init__ re-exporting its submodules is not a cycle of concepts
    graph.remove_nodes_from([n for n in list(graph) if (ROOT.parent / n.replace(".", "/")
                                                        / "__init__.py").exists()])
    sub = graph.subgraph([n for n in graph if n.startswith(packages)])
    return list(nx.simple_cycles(sub))


def test_no_import_cycles_in_opt_search_ted_evaluate():
    assert _cycles(("transted.opt", "transted.search", "transted.ted",
                    "transted.evaluation")) == []


def test_the_graph_sees_real_edges():
    ast.parse = _parse_marking  # type: ignore[assignment]
    try:
        graph = import_graph()
    finally:
        ast.parse = _parse  # type: ignore[assignment]
    assert graph.has_edge("transted.opt.parser", "transted.opt.binders")
    assert graph.has_edge("transted.evaluation.run", "transted.evaluation.reports.writer")
    assert not graph.has_edge("transted.opt.binders", "transted.opt.parser")  # TYPE_CHECKING
