"""No import cycles in transted: between its packages, and between the modules of each package.

Every ``.py`` file under ``transted/`` is a node, ``__init__`` modules included. An edge is any
import the module can execute, wherever it is written (module level or inside a function):
``import``/``from`` statements (relative ones resolved), and the loader strings that import a
module by name (``"transted.fol.le:FOLLogicalEquivalence"`` registry entries,
``importlib.import_module("transted.x")``, ``resources.files("transted.x")``). Importing
``transted.a.b`` runs ``transted/a/__init__.py`` first, so that edge is counted too (except for
the packages the importer itself lives in: they are already running). Imports under
``if TYPE_CHECKING:`` never run and are not counted.

The package graph joins each first-level part of transted (``transted.pipeline.search``,
``transted.api``, the root ``transted`` package itself, ...) into one node; a cycle between
modules of two packages is a cycle between the packages, so the two tests together see every
cycle. A failure names the shortest cycle through each module caught in one, with the
``file:line`` of the imports that form it.

Command: ``python -m pytest -q tests/test_import_cycles.py`` (ast walk + networkx).
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import networkx as nx
import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "transted"

# "module" or "module:attribute" naming a transted module: what the lazy loaders import
_LOADER_STRING = re.compile(r"(?P<module>transted(?:\.\w+)+)(?::[\w.]+)?")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _enclosing_packages(module: str) -> set[str]:
    parts = module.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def _type_checking_only(tree: ast.AST) -> set[int]:
    """ids of the nodes under ``if TYPE_CHECKING:`` (the body only, not an ``else``)."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            hidden |= {id(sub) for stmt in node.body for sub in ast.walk(stmt)}
    return hidden


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _not_imports(tree: ast.AST) -> set[int]:
    """ids of string constants that are docstrings or logger names (they import nothing)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                and body and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)):
            skip.add(id(body[0].value))
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("getLogger"):
            skip |= {id(arg) for arg in node.args}
    return skip


class ImportGraph:
    """Modules and the imports between them; each edge keeps the ``file:line`` of its imports."""

    def __init__(self, root: Path = PACKAGE) -> None:
        self.root = root
        self.paths = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
        self.packages = {m for m, p in self.paths.items() if p.name == "__init__.py"}
        self.graph = nx.DiGraph()
        self.graph.add_nodes_from(self.paths)
        for module, path in self.paths.items():
            for target, line, explicit in self._imports(module, path):
                self._add(module, target, self._where(path, line), explicit)

    def _where(self, path: Path, line: int) -> str:
        return f"{path.relative_to(self.root.parent)}:{line}"

    def _add(self, module: str, target: str, where: str, explicit: bool) -> None:
        running = _enclosing_packages(module) | ({module} if module in self.packages else set())
        implied = _enclosing_packages(target) - running
        for name in sorted(implied) + ([target] if explicit or target not in running else []):
            if name == module or name not in self.paths:
                continue
            if not self.graph.has_edge(module, name):
                self.graph.add_edge(module, name, where=[])
            if where not in self.graph[module][name]["where"]:
                self.graph[module][name]["where"].append(where)

    def _imports(self, module: str, path: Path) -> Iterator[tuple[str, int, bool]]:
        """(target module, line, reads the target's namespace even if it is already running)."""
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        hidden, not_imports = _type_checking_only(tree), _not_imports(tree)
        for node in ast.walk(tree):
            if id(node) in hidden:
                continue
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield alias.name, node.lineno, False
            elif isinstance(node, ast.ImportFrom):
                base = self._absolute(module, node.module, node.level)
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    # `from pkg import submodule` needs the submodule, `from pkg import name`
                    # needs pkg's namespace, even from inside pkg
                    yield (sub, node.lineno, False) if sub in self.paths else (base, node.lineno, True)
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and id(node) not in not_imports):
                match = _LOADER_STRING.fullmatch(node.value)
                if match and match["module"] in self.paths:
                    yield match["module"], node.lineno, False

    def _absolute(self, module: str, name: str | None, level: int) -> str:
        if level == 0:
            return name or ""
        package = module if module in self.packages else module.rsplit(".", 1)[0]
        for _ in range(level - 1):
            package = package.rsplit(".", 1)[0]
        return f"{package}.{name}" if name else package

    def unit(self, module: str) -> str:
        """The first-level part of the package a module belongs to (the root is its own)."""
        return ".".join(module.split(".")[:2])

    def package_graph(self) -> nx.DiGraph:
        joined = nx.DiGraph()
        joined.add_nodes_from({self.unit(m) for m in self.graph})
        for a, b, data in self.graph.edges(data=True):
            ua, ub = self.unit(a), self.unit(b)
            if ua != ub:
                if not joined.has_edge(ua, ub):
                    joined.add_edge(ua, ub, where=[])
                joined[ua][ub]["where"] += [w for w in data["where"]
                                            if w not in joined[ua][ub]["where"]]
        return joined

    def module_graph_within_packages(self) -> nx.DiGraph:
        return self.graph.edge_subgraph(
            [(a, b) for a, b in self.graph.edges if self.unit(a) == self.unit(b)])


def shortest_cycles(graph: nx.DiGraph) -> list[list[str]]:
    """The shortest cycle through each node that lies on one (deduplicated, rotated so the
    smallest name comes first); an empty list means the graph has no cycle."""
    found: set[tuple[str, ...]] = set()
    for component in nx.strongly_connected_components(graph):
        if len(component) < 2:
            continue
        inside = graph.subgraph(component)
        for node in sorted(component):
            back = min((nx.shortest_path(inside, succ, node) for succ in inside.successors(node)),
                       key=len)
            cycle = [node] + back[:-1]
            start = cycle.index(min(cycle))
            found.add(tuple(cycle[start:] + cycle[:start]))
    return [list(c) for c in sorted(found, key=lambda c: (len(c), c))]


def describe(graph: nx.DiGraph, cycles: list[list[str]]) -> str:
    lines = []
    for cycle in cycles:
        lines.append(" -> ".join([*cycle, cycle[0]]))
        for a, b in zip(cycle, cycle[1:] + cycle[:1], strict=True):
            lines.append(f"    {a} -> {b}: {_compact(graph[a][b]['where'])}")
    return "\n".join(lines)


def _compact(where: list[str]) -> str:
    """``a.py:1, a.py:7, b.py:3`` → ``a.py:1,7 b.py:3``."""
    by_file: dict[str, list[str]] = defaultdict(list)
    for item in where:
        file, line = item.rsplit(":", 1)
        by_file[file].append(line)
    return " ".join(f"{f}:{','.join(sorted(set(ls), key=int))}" for f, ls in sorted(by_file.items()))


@pytest.fixture(scope="module")
def transted_graph() -> ImportGraph:
    return ImportGraph()


def test_no_import_cycles_between_packages(transted_graph):
    graph = transted_graph.package_graph()
    cycles = shortest_cycles(graph)
    assert not cycles, "import cycles between packages:\n" + describe(graph, cycles)


def test_no_import_cycles_between_modules_of_a_package(transted_graph):
    graph = transted_graph.module_graph_within_packages()
    cycles = shortest_cycles(graph)
    assert not cycles, "import cycles between modules:\n" + describe(graph, cycles)


def test_every_transted_module_is_in_the_graph(transted_graph):
    graph = transted_graph.graph
    files = list(PACKAGE.rglob("*.py"))
    assert len(graph) == len(files) > 100
    assert {"transted", "transted.pipeline.opt", "transted.pipeline.opt.parser", "transted.cli"} <= set(graph)
    assert graph.has_edge("transted.pipeline.opt.parser", "transted.pipeline.opt.lexer")


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "transted" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "transted"


def test_the_graph_counts_deferred_loader_and_init_imports_but_not_type_checking(tmp_path):
    root = _write(tmp_path, {
        "__init__.py": "",
        "a.py": ("import logging\nfrom typing import TYPE_CHECKING\n"
                 "if TYPE_CHECKING:\n    from transted.d import D\n"
                 "log = logging.getLogger('transted.d')\n"
                 "LOADERS = {'x': 'transted.b:Thing'}\n"
                 "def f():\n    from transted.sub.c import VALUE\n"),
        "b.py": '"""Docstring naming transted.a."""\nfrom .sub import c\n',
        "d.py": "D = 1\n",
        "sub/__init__.py": "from transted.sub import c\nhelper = 1\n",
        "sub/c.py": "VALUE = 2\n\ndef g():\n    from transted.sub import helper\n",
    })
    graph = ImportGraph(root)
    assert sorted(graph.graph.edges) == [
        ("transted.a", "transted.b"),          # loader string
        ("transted.a", "transted.sub"),        # importing transted.sub.c runs sub/__init__
        ("transted.a", "transted.sub.c"),      # function-level import
        ("transted.b", "transted.sub"),
        ("transted.b", "transted.sub.c"),      # relative import
        ("transted.sub", "transted.sub.c"),    # __init__ importing its submodule
        ("transted.sub.c", "transted.sub"),    # reads a name from its package's __init__
    ]
    assert graph.graph["transted.a"]["transted.sub.c"]["where"] == ["transted/a.py:8"]
    assert shortest_cycles(graph.package_graph()) == []
    inner = graph.module_graph_within_packages()
    assert shortest_cycles(inner) == [["transted.sub", "transted.sub.c"]]
    assert describe(inner, shortest_cycles(inner)) == (
        "transted.sub -> transted.sub.c -> transted.sub\n"
        "    transted.sub -> transted.sub.c: transted/sub/__init__.py:1\n"
        "    transted.sub.c -> transted.sub: transted/sub/c.py:4")
