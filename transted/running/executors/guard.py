"""The guard around each pair: whatever happens while one pair is scored, the batch goes on.

Every path that scores pairs (:func:`~transted.running.executors.placement.score_stream`: this
process, a worker's :func:`~transted.running.executors.base.score_chunk`, the driver's first stretch)
scores a pair through :func:`score_guarded`. A metric already turns the failures it expects
(a :class:`~transted.errors.TranstedError`) into a result; the guard turns everything else
(a ``RecursionError`` deep in a stage, a ``MemoryError`` under a worker's address-space cap,
a bug) into that pair's error line, naming the pair, the exception type and the place in
transted where it was raised, so one pair never stops a batch. A result that cannot be
written as a JSON line is caught here too (in the worker, before it travels), and a pair
holding text that is not valid Unicode gets its error line before any stage sees it.
``KeyboardInterrupt`` and ``SystemExit`` are not caught: they stop the run, which resumes.

While a pair is scored the cyclic garbage collector is paused (:func:`~transted.loading.
collector_paused`; restored after, as it was). A search builds thousands of goals that live
for the whole pair and are freed by reference counting when it ends; with the collector
running they survive its young collections, are promoted to the oldest generation, and make
its full collections — each a walk over every kept table and answer of the process — fall due
pair after pair (a fifth of a 120-pair run's time for the default metric, more with the
rewrite lemmas: docs/LEMMAS.md). Paused, they are never scanned; what a pair leaves as cyclic
garbage is little (over 80 dev pairs with the lemmas: median 262 objects, at most 8,770) and is
collected between pairs on the collector's own schedule.
"""

from __future__ import annotations

import json
import traceback
from pathlib import Path

import transted
from transted.loading import collector_paused
from transted.metrics.base import Metric, MetricResult, pair_hash
from transted.reading.pairs import Pair, unencodable

__all__ = ["score_guarded", "error_result", "internal_error", "result_line"]

_PACKAGE = Path(transted.__file__).resolve().parent


def result_line(result: MetricResult) -> str:
    """The JSON line of ``result`` (UTF-8 text; an id or message holding a lone surrogate is
    written with ``\\ud800`` escapes, which is valid JSON)."""
    text = json.dumps(result.model_dump(), ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(result.model_dump(), ensure_ascii=True)
    return text + "\n"


def error_result(pair: Pair, metric: Metric, message: str) -> MetricResult:
    """``status="error"``, no score, ``message`` as the error: the line of a failed pair."""
    return MetricResult(id=pair.id, metric=metric.name, score=None,
                        signature=str(metric.signature), error=message, status="error",
                        input=pair_hash(pair))


def internal_error(pair: Pair, error: BaseException) -> str:
    """``internal error scoring pair 'x': RecursionError at transted/pipeline/opt/normalize.py:171
    (run): maximum recursion depth exceeded`` — the innermost frame inside transted."""
    where = ""
    for frame in reversed(traceback.extract_tb(error.__traceback__)):
        path = Path(frame.filename)
        if path.is_relative_to(_PACKAGE):
            where = f" at transted/{path.relative_to(_PACKAGE)}:{frame.lineno} ({frame.name})"
            break
    text = str(error).splitlines()[0] if str(error) else ""
    return (f"internal error scoring pair {pair.id!r}: {type(error).__name__}{where}"
            + (f": {text}" if text else ""))


def score_guarded(metric: Metric, pair: Pair) -> MetricResult:
    """``metric.score_pair(pair)``, or the pair's error line if anything in it raises."""
    try:
        problem = unencodable(pair)
        if problem is not None:
            return error_result(pair, metric, problem)
        with collector_paused():
            result = metric.score_pair(pair)
        result_line(result)  # a result that cannot be written fails here, as this pair's error
        return result
    except Exception as e:  # noqa: BLE001 - the guard's purpose: no pair stops the batch
        return error_result(pair, metric, internal_error(pair, e))
