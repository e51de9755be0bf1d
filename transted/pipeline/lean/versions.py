"""Where the Lean project lives and which versions it pins, read from the project files.

The pinned versions live in exactly one place, the Lean project at the repository root
(``lean-toolchain`` and ``lake-manifest.json``); this module reads them so that every score
made with Lean carries them in its signature (USER_NEEDS 5: toolchain/Mathlib/REPL
mismatches give wrong results, so the versions must travel with each result).

The project directory comes from an argument, else ``$TRANSTED_LEAN_PROJECT``, else the
repository checkout this package was imported from (STYLE rule 11: no path globals).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import transted
from transted.errors import InputError, LeanUnavailable

__all__ = ["LeanVersions", "find_project_dir", "read_versions", "lean_interact_version",
           "PROJECT_ENV"]

PROJECT_ENV = "TRANSTED_LEAN_PROJECT"
"""Environment variable naming the Lean project directory."""


@dataclass(frozen=True)
class LeanVersions:
    """The versions a Lean-backed score depends on."""

    toolchain: str
    """``lean-toolchain`` contents, e.g. ``leanprover/lean4:v4.32.0``."""
    mathlib: str
    """Mathlib ``inputRev@rev[:12]`` from the manifest."""
    repl: str
    """REPL ``inputRev@rev[:12]`` from the manifest."""
    lean_interact: str
    """Installed lean-interact version, or ``none``."""

    @property
    def lean(self) -> str:
        """The Lean version alone (``v4.32.0``)."""
        return self.toolchain.rsplit(":", 1)[-1]

    def signature_fields(self) -> dict[str, str]:
        """Fields for :class:`transted.signature.Signature` (stable order)."""
        return {"lean": self.lean, "mathlib": self.mathlib, "repl": self.repl,
                "lean-interact": self.lean_interact}


def find_project_dir(directory: str | Path | None = None) -> Path:
    """Return the Lean project directory (the one holding ``lakefile.toml``).

    Raises
    ------
    LeanUnavailable
        If no directory is given, ``$TRANSTED_LEAN_PROJECT`` is unset and this package is
        not imported from a checkout that holds the project.
    """
    if directory is None:
        directory = os.environ.get(PROJECT_ENV) or Path(transted.__file__).resolve().parents[1]
        explicit = PROJECT_ENV in os.environ
    else:
        explicit = True
    path = Path(directory)
    if (path / "lakefile.toml").is_file() or (path / "lakefile.lean").is_file():
        return path
    where = f"`{path}`" if explicit else "this installation"
    raise LeanUnavailable(
        f"no Lean project found in {where}: expected lakefile.toml there; pass --project "
        f"or set ${PROJECT_ENV} to a checkout of transted (see docs/LEAN.md)"
    )


def _pin(package: dict[str, object]) -> str:
    rev = str(package.get("rev", "?"))
    return f"{package.get('inputRev') or '?'}@{rev[:12]}"


def lean_interact_version() -> str:
    """Installed lean-interact version, or ``none``."""
    try:
        return metadata.version("lean-interact")
    except metadata.PackageNotFoundError:
        return "none"


def read_versions(directory: str | Path | None = None) -> LeanVersions:
    """Read the pinned versions of the Lean project in ``directory``.

    Raises
    ------
    LeanUnavailable
        If there is no project (see :func:`find_project_dir`).
    InputError
        If ``lean-toolchain`` or ``lake-manifest.json`` is missing or malformed, or the
        manifest lacks the ``mathlib`` or ``REPL`` package.
    """
    root = find_project_dir(directory)
    try:
        toolchain = (root / "lean-toolchain").read_text(encoding="utf-8").strip()
        manifest = json.loads((root / "lake-manifest.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise InputError(f"{root}: cannot read lean-toolchain / lake-manifest.json: {e}") from e
    packages = {str(p.get("name", "")).lower(): p for p in manifest.get("packages", [])}
    missing = [name for name in ("mathlib", "repl") if name not in packages]
    if missing:
        raise InputError(f"{root}/lake-manifest.json: no package named {', '.join(missing)}")
    return LeanVersions(toolchain=toolchain, mathlib=_pin(packages["mathlib"]),
                        repl=_pin(packages["repl"]), lean_interact=lean_interact_version())
