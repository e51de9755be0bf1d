"""Public top-level classes and functions defined in more than one module of ``transted``.

One concept, one home: a public name (no leading ``_``) defined by ``class``/``def`` at the top
of two modules is two concepts under one name, unless one module only re-exports the other's
(an import is not a definition, so a re-export never shows here). Prints one line per
duplicated name, ``name: module, module…``; ``--only PREFIX`` keeps the names one of whose
modules starts with PREFIX (``transted.opt``). Exit status 1 when any is printed.

    python scripts/duplicate_names.py [--only transted.opt] [ROOT]
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from pathlib import Path


def public_definitions(root: Path) -> dict[str, list[str]]:
    """Public top-level class/function name → the modules under ``root`` that define it."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        module = ".".join(path.relative_to(root.parent).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in tree.body:
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) \
                    and not node.name.startswith("_"):
                found[node.name].append(module)
    return found


def duplicates(root: Path, only: str | None = None) -> dict[str, list[str]]:
    return {name: modules for name, modules in sorted(public_definitions(root).items())
            if len(modules) > 1
            and (only is None or any(m.startswith(only) for m in modules))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("root", nargs="?", default="transted", type=Path)
    parser.add_argument("--only", help="keep names defined in a module under this prefix")
    args = parser.parse_args(argv)
    found = duplicates(args.root, args.only)
    for name, modules in found.items():
        sys.stdout.write(f"{name}: {', '.join(modules)}\n")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
