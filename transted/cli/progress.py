"""The rich progress bars of batch runs on stderr: one per pair (:func:`progress_bar`), or one per
stage of a command that scores in stages (:func:`staged_progress`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from transted.cli.console import err_console, state

__all__ = ["progress_bar", "PairProgress", "StagedProgress", "staged_progress"]


class PairProgress:
    """Counts each pair once, at its first report: a worker saying it finished the pair (out
    of input order, :attr:`~transted.running.executors.base.Executor.on_pair_done`) or its result
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
