"""Where the CLI writes: ``console`` (stdout, results) and ``err_console`` (stderr, progress and
notes), the ``--quiet`` switch, and the rich progress bar of batch runs."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from transted.errors import escape_control

__all__ = ["FORMATS", "SIGNATURE_FORMS", "console", "err_console", "state", "note", "error_line", "warning_line", "print_json",
           "print_line", "progress_bar", "PairProgress", "StagedProgress", "staged_progress"]

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


class PairProgress:
    """Counts each pair once, at its first report: a worker saying it finished the pair (out
    of input order, :attr:`~transted.executors.base.Executor.on_pair_done`) or its result
    coming back in order (cached ones included). Call it as a result hook:
    ``progress(result, was_cached)``."""

    def __init__(self, advance: Callable[[], None]):
        self._advance = advance
        self._seen: set[str] = set()

    def pair(self, pair_id: str) -> None:
        if pair_id not in self._seen:
            self._seen.add(pair_id)
            self._advance()

    def step(self, *_: Any) -> None:
        """One step, no questions asked (a bar over several metrics' pairs)."""
        self._advance()

    def __call__(self, result: Any = None, was_cached: bool = False) -> None:
        if result is not None:
            self.pair(result.id)


@contextmanager
def progress_bar(description: str, total: int | None, executor: Any = None
                 ) -> Iterator[PairProgress]:
    """A rich bar on stderr, one step per pair, with the count and the time left; yields a
    :class:`PairProgress`. With ``executor`` (the command's worker pool) the workers' reports
    advance it as each pair ends, so a slow pair holding back the in-order results does not
    freeze it. Off with ``--quiet`` or when stderr is not a terminal."""
    if state.quiet or not err_console.is_terminal:
        yield PairProgress(lambda: None)
        return
    with Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), TextColumn("ETA"),
                  TimeRemainingColumn(), console=err_console, transient=True) as bar:
        task = bar.add_task(description, total=total)
        tracker = PairProgress(lambda: bar.advance(task))
        previous = getattr(executor, "on_pair_done", None)
        if executor is not None:
            executor.on_pair_done = tracker.pair
        try:
            yield tracker
        finally:
            if executor is not None:
                executor.on_pair_done = previous


class StagedProgress:
    """Progress of a command that scores in stages (a metric after another, old then new):
    ``stage(label, total)`` closes the previous bar, opens one for this stage (rich shows one
    live display at a time) and returns its result hook, which also keeps every result of
    the stage in :attr:`results` (the too-little-scored check reads them)."""

    def __init__(self, executor: Any = None):
        self.executor = executor
        self.results: dict[str, list[Any]] = {}
        self._bar = ExitStack()

    def stage(self, label: str, total: int) -> Callable[[Any, bool], None]:
        self._bar.close()
        self._bar = ExitStack()
        bar = self._bar.enter_context(progress_bar(label, total, self.executor))
        kept = self.results.setdefault(label, [])

        def on_result(result: Any, was_cached: bool = False) -> None:
            kept.append(result)
            bar(result, was_cached)
        return on_result

    def close(self) -> None:
        self._bar.close()


@contextmanager
def staged_progress(executor: Any = None) -> Iterator[StagedProgress]:
    """A :class:`StagedProgress`, its last bar closed on leaving."""
    progress = StagedProgress(executor)
    try:
        yield progress
    finally:
        progress.close()


def stdin_text() -> str:
    return sys.stdin.read()
