"""Where the CLI writes: ``console`` (stdout, results) and ``err_console`` (stderr, progress and
notes), the ``--quiet`` switch and the values of ``--format``/``--signature``. The progress
bars of batch runs are :mod:`transted.cli.progress` (loaded by the commands that draw them,
not by ``--version``)."""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape

from transted.errors import escape_control

__all__ = ["FORMATS", "SIGNATURE_FORMS", "console", "err_console", "state", "note", "error_line", "warning_line", "print_json",
           "print_line", "stdin_text"]

FORMATS = ("text", "json", "jsonl")
"""The values of ``--format``."""
SIGNATURE_FORMS = ("short", "full")
"""The values of ``--signature``."""

console = Console()
err_console = Console(stderr=True)


class _State:
    quiet: bool = False
    format: str | None = None
    """``--format`` given before the subcommand (the subcommand's own wins)."""
    signature: str = "short"
    """``--signature short|full``: how commands print a signature (files keep the full one)."""
    interrupt_reported: bool = False
    command: Any = None
    """The command being run (its options name a library message's parameters)."""

    def reset(self) -> None:
        self.quiet, self.format, self.signature, self.interrupt_reported = \
            False, None, "short", False
        self.command = None


state = _State()


def note(text: str) -> None:
    """A line for the user on stderr (silenced by ``--quiet``); printed verbatim, with terminal
    control characters of echoed user text (keys, file names) escaped."""
    if not state.quiet:
        err_console.print(escape_control(text), markup=False, highlight=False, soft_wrap=True)


def error_line(text: str) -> None:
    """``error: text`` on stderr, whatever ``--quiet`` says (control characters escaped)."""
    err_console.print("[bold red]error:[/] " + escape(escape_control(text)), highlight=False,
                      soft_wrap=True)


def warning_line(text: str) -> None:
    """``text`` on stderr, whatever ``--quiet`` says: what the user must know (an interrupted
    run, where its results are)."""
    err_console.print(escape_control(text), markup=False, highlight=False, soft_wrap=True)


def print_json(payload: Any, *, indent: bool = True) -> None:
    """One JSON document on stdout; ``indent=False`` gives one line (``--format jsonl``)."""
    if indent:
        console.print_json(json.dumps(payload, ensure_ascii=False))
    else:
        print_line(json.dumps(payload, ensure_ascii=False))


def print_line(text: str) -> None:
    """``text`` verbatim on stdout (no markup, no wrapping)."""
    console.print(text, markup=False, highlight=False, soft_wrap=True)


def stdin_text() -> str:
    return sys.stdin.read()
