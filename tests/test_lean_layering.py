"""The ``lean`` package sits below ``metrics`` and ``search``: it never imports them (the
arrow goes one way: metrics and the search's Lean provider use lean's API)."""

from __future__ import annotations

import ast
from pathlib import Path

LEAN = Path(__file__).resolve().parents[1] / "transted" / "lean"


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_lean_never_imports_metrics_or_search():
    offenders = {f"{path.name}: {name}" for path in sorted(LEAN.glob("*.py"))
                 for name in _imports(path)
                 if name.startswith(("transted.metrics", "transted.pipeline.search"))}
    assert offenders == set()


def test_lean_metric_names_still_resolve():
    from transted.metrics.lean_baselines import BEqCheck, DefEq, Typecheck
    from transted.metrics.registry import get_metric

    for name, cls in (("typecheck", Typecheck), ("defeq", DefEq), ("beq", BEqCheck)):
        assert type(get_metric(name)) is cls
