"""Where the CLI writes: ``console`` (stdout, results) and ``err_console`` (stderr, progress and
notes), the ``--quiet`` switch, and the rich progress bar of batch runs."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console

__all__ = ["console", "err_console", "state", "note", "print_json", "print_line", "progress_bar"]

console = Console()
err_console = Console(stderr=True)


class _State:
    quiet: bool = False


state = _State()


def note(text: str) -> None:
    """A line for the user on stderr (silenced by ``--quiet``); printed verbatim, with terminal
    control characters of echoed user text (keys, file names) escaped."""
    from transted.errors import escape_control

    if not state.quiet:
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


@contextmanager
def progress_bar(description: str, total: int | None) -> Iterator[Callable[..., None]]:
    """A rich bar with ETA on stderr; yields ``advance(*_)``. Off with ``--quiet`` or when stderr
    is not a terminal (then ``advance`` does nothing)."""
    if state.quiet or not err_console.is_terminal:
        yield lambda *_: None
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), console=err_console,
                  transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda *_: bar.advance(task)


def stdin_text() -> str:
    return sys.stdin.read()
