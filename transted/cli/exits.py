"""The exit codes of every transted command (one table, README "Exit codes"), and the two
endings every batch command shares: too little scored, and Ctrl-C.

====  ===========================================================================
code  meaning
====  ===========================================================================
0     success
1     input error: a file, record or statement that cannot be used, an environment
      that is not ready (``doctor``, ``setup``)
2     usage error: an unknown option or metric, a refused option value, an unusable
      output path — always before anything is scored
3     ``regress --fail-on``: the gate failed (the new version is worse)
4     too little was scored to trust the run: no pair scored, more failed pairs than
      ``--max-error-rate``, or (``regress``) fewer than ``--min-matched`` pairs compared
130   interrupted (Ctrl-C); finished results are kept in ``--out``
====  ===========================================================================
"""

from __future__ import annotations

import _thread
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from enum import IntEnum
from pathlib import Path
from typing import Any

import typer

from transted.cli.console import error_line, state, warning_line
from transted.running.health import run_health

__all__ = ["ExitCode", "TABLE", "MaxErrorRateOption", "too_little_scored", "interruptible",
           "result_lines", "redeliver_interrupt"]


class ExitCode(IntEnum):
    OK = 0
    INPUT_ERROR = 1
    USAGE = 2
    GATE_FAILED = 3
    TOO_LITTLE_SCORED = 4
    INTERRUPTED = 130


TABLE: tuple[tuple[ExitCode, str], ...] = (
    (ExitCode.OK, "success"),
    (ExitCode.INPUT_ERROR, "input error (a file, record or statement that cannot be used; "
                           "Lean not ready for setup/doctor)"),
    (ExitCode.USAGE, "usage error (unknown option or metric, refused value, unusable output "
                     "path), before anything is scored"),
    (ExitCode.GATE_FAILED, "regress --fail-on: the gate failed"),
    (ExitCode.TOO_LITTLE_SCORED, "too little scored: no pair scored, an error rate above "
                                 "--max-error-rate, or fewer than --min-matched pairs compared"),
    (ExitCode.INTERRUPTED, "interrupted (Ctrl-C); finished results stay in --out"),
)
"""The table as ``transted --help`` and the README show it."""


def MaxErrorRateOption() -> Any:  # noqa: N802 - reads as a typer option
    return typer.Option(None, "--max-error-rate", min=0.0, max=1.0, metavar="R",
                        help="Exit 4 when more than this share of pairs is not scored (error, "
                             "unavailable, too_large, timeout; `invalid` candidates are "
                             "answers). A run where no pair is scored always exits 4.")


def too_little_scored(results: Iterable[Any], max_error_rate: float | None, what: str) -> bool:
    """Print why ``results`` measured too little (``error: <what>: ...`` on stderr) and
    return True, or return False (:mod:`transted.running.health`)."""
    problem = run_health(results).problem(max_error_rate)
    if problem is None:
        return False
    error_line(f"{what}: {problem}")
    return True


def result_lines(paths: Iterable[Path]) -> int:
    """Complete result lines in ``paths`` (files, or folders searched for ``*.jsonl``):
    every one is a finished pair that a re-run keeps."""
    count = 0
    for path in paths:
        files = sorted(path.rglob("*.jsonl")) if path.is_dir() else [path]
        for file in files:
            try:
                with file.open("rb") as f:
                    count += sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
            except OSError:
                continue
    return count


@contextmanager
def interruptible(kept: Path | None) -> Iterator[None]:
    """On Ctrl-C: ``interrupted: N results kept in OUT; run the same command to resume`` on
    stderr (``kept``: the result file or folder; None when results went to stdout), then
    exit 130."""
    previous = sys.unraisablehook
    sys.unraisablehook = redeliver_interrupt(previous)
    try:
        yield
    except KeyboardInterrupt:
        if kept is None:
            warning_line("interrupted: results went to stdout only (give --out FILE to keep "
                         "them and resume)")
        else:
            warning_line(f"interrupted: {result_lines([kept])} results kept in {kept}; run the "
                         "same command to resume")
        state.interrupt_reported = True
        raise typer.Exit(ExitCode.INTERRUPTED) from None
    finally:
        sys.unraisablehook = previous


def redeliver_interrupt(previous: Callable[[Any], object]) -> Callable[[Any], None]:
    """An unraisable hook for Ctrl-C landing inside a callback Python cannot raise from (an
    import lock's weakref callback, a finaliser): Python would print ``Exception ignored …
    Traceback`` and lose the interrupt. Signal handlers run in the main thread only, so the
    lost interrupt is the main thread's: deliver it there again, once, without a traceback —
    from another thread, so that it lands after the hook returns (raised inside the hook, it
    would be lost again)."""
    def hook(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            threading.Timer(0.05, _thread.interrupt_main).start()
            return
        previous(unraisable)
    return hook
