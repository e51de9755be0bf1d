"""The Lean project on disk: is the toolchain there, is it built, and how to build it.

``transted setup`` runs :meth:`LeanProject.setup` (``lake exe cache get``, ``lake build``,
``lake build repl``) once; workers afterwards only read the built project (USER_NEEDS 6:
never rebuild per worker). ``transted doctor`` prints :meth:`LeanProject.checks`.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from transted.errors import LeanUnavailable
from transted.pipeline.lean.versions import find_project_dir, lean_interact_version

__all__ = ["Check", "SetupStep", "LeanProject", "SETUP_STEPS", "INSTALL_HINT"]

INSTALL_HINT = (
    "install elan (the Lean version manager) with\n"
    "  curl https://elan.lean-lang.org/elan-init.sh -sSf | sh\n"
    "then open a new shell so that `lake` is on PATH, and run `transted setup`"
)


@dataclass(frozen=True)
class Check:
    """One line of ``transted doctor``: what was checked, whether it passed, how to fix it."""

    name: str
    ok: bool
    detail: str
    fix: str = ""


@dataclass(frozen=True)
class SetupStep:
    """One command of ``transted setup``."""

    label: str
    args: tuple[str, ...]
    why: str
    required: bool = True
    """A failing optional step (the Mathlib cache download) only costs build time."""


SETUP_STEPS: tuple[SetupStep, ...] = (
    SetupStep("fetch Mathlib build cache", ("exe", "cache", "get"),
              "downloads prebuilt Mathlib .olean files (else `lake build` compiles Mathlib: hours)",
              required=False),
    SetupStep("build the project", ("build",), "builds lean/TranstedLean and the pinned Mathlib"),
    SetupStep("build the REPL", ("build", "repl"),
              "builds the pinned leanprover-community/repl executable that lean-interact drives"),
)


class LeanProject:
    """A transted Lean project directory (``lakefile.toml``, ``lean-toolchain``, manifest).

    Parameters
    ----------
    directory : the project root; default from :func:`transted.pipeline.lean.versions.find_project_dir`.
    lake : path of the ``lake`` executable; default ``shutil.which("lake")``.
    """

    def __init__(self, directory: str | Path | None = None, *, lake: str | None = None):
        self.directory = find_project_dir(directory).resolve()
        self.lake = lake or shutil.which("lake")
        self.elan = shutil.which("elan")

    @property
    def repl_dir(self) -> Path:
        """Checkout of the pinned REPL package (made by ``lake build``)."""
        return self.directory / ".lake" / "packages" / "REPL"

    @property
    def repl_binary(self) -> Path:
        return self.repl_dir / ".lake" / "build" / "bin" / "repl"

    @property
    def mathlib_dir(self) -> Path:
        return self.directory / ".lake" / "packages" / "mathlib"

    def checks(self) -> list[Check]:
        """Everything the Lean backend needs, in the order a user should fix it."""
        return [
            Check("elan", self.elan is not None, self.elan or "not on PATH", INSTALL_HINT),
            Check("lake", self.lake is not None, self.lake or "not on PATH", INSTALL_HINT),
            Check("project", True, str(self.directory)),
            Check("mathlib", self.mathlib_dir.is_dir(),
                  str(self.mathlib_dir) if self.mathlib_dir.is_dir() else "not fetched",
                  "run `transted setup`"),
            Check("repl", self.repl_binary.is_file(),
                  str(self.repl_binary) if self.repl_binary.is_file() else "not built",
                  "run `transted setup`"),
            _lean_interact_check(),
        ]

    def require_built(self) -> None:
        """Raise :class:`LeanUnavailable` naming every missing piece and its fix."""
        failed = [c for c in self.checks() if not c.ok]
        if failed:
            lines = [f"- {c.name}: {c.detail}" for c in failed]
            fixes = list(dict.fromkeys(c.fix for c in failed if c.fix))
            raise LeanUnavailable("Lean backend not ready:\n" + "\n".join(lines)
                                  + "\nto fix:\n" + "\n".join(fixes))

    def require_lake(self) -> str:
        """The ``lake`` executable, or :class:`LeanUnavailable` saying how to install it."""
        if self.lake is None:
            raise LeanUnavailable("`lake` is not on PATH, so the Lean project cannot be built.\n"
                                  + INSTALL_HINT)
        return self.lake

    def setup(
        self,
        *,
        on_line: Callable[[SetupStep, str], None] | None = None,
        on_step: Callable[[SetupStep, int], None] | None = None,
    ) -> None:
        """Run :data:`SETUP_STEPS` in the project directory.

        Parameters
        ----------
        on_line : called with each output line of the running step (progress display).
        on_step : called with ``(step, return_code)`` when a step ends.

        Raises
        ------
        LeanUnavailable
            If ``lake`` is missing, or a required step fails (the message ends with the last
            lines the step printed and what usually causes the failure).
        """
        lake = self.require_lake()
        for step in SETUP_STEPS:
            code, tail = self._run(lake, step, on_line)
            if on_step is not None:
                on_step(step, code)
            if code != 0 and step.required:
                raise LeanUnavailable(
                    f"`lake {' '.join(step.args)}` failed (exit {code}) in {self.directory}.\n"
                    f"last output:\n{tail}\n"
                    "usual causes: no network for the git dependencies, a toolchain that elan "
                    "could not install, or too little memory/disk; rerun `transted setup` after "
                    "fixing it (finished steps are not redone)")

    def _run(self, lake: str, step: SetupStep,
             on_line: Callable[[SetupStep, str], None] | None) -> tuple[int, str]:
        try:
            proc = subprocess.Popen([lake, *step.args], cwd=self.directory, text=True,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        except OSError as e:
            raise LeanUnavailable(f"cannot run `{lake}`: {e}\n{INSTALL_HINT}") from e
        tail: list[str] = []
        for line in proc.stdout or ():
            tail = (tail + [line.rstrip()])[-20:]
            if on_line is not None:
                on_line(step, line.rstrip())
        return proc.wait(), "\n".join(tail)


def _lean_interact_check() -> Check:
    try:
        import lean_interact  # noqa: F401
    except ImportError:
        return Check("lean-interact", False, "not installed", "pip install 'transted[lean]'")
    return Check("lean-interact", True, lean_interact_version())
