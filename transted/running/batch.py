"""Batch scoring that never loses or duplicates finished work.

Each result is appended to the output JSONL and flushed as soon as it is computed, under an
exclusive lock on the output (:class:`~transted.reading.outputs.OutputLock`: a second writer is
refused, naming the holder). Re-running with the same output file skips the ids already
scored with the same signature. On resume every line is validated (JSON, result schema,
unique id); a half-written last line (a killed run) is dropped and recomputed, and any other
bad line (corruption, a duplicate id) makes the file be backed up to ``<out>.corrupt-<time>``
and rewritten with only its valid lines, with a :class:`RepairedOutputWarning` saying which
lines were dropped. An output file made with a different signature, or from other statements
under the same id, is refused rather than mixed. An output path that is one of the inputs is
refused before anything is written. Where the pairs are scored (this process, a local pool,
Ray, a per-pair timeout) is :func:`transted.running.executors.score_stream`'s decision.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path

from transted.errors import InputError
from transted.metrics.base import Metric, MetricResult, pair_hash
from transted.reading.outputs import OutputLock, RepairedOutputWarning, check_output_file
from transted.reading.pairs import Pair, check_unique_ids, unencodable
from transted.running.executors import Executor, MetricSpec, check_placement, score_stream
from transted.running.executors.guard import error_result, internal_error, result_line

__all__ = ["load_results", "score_pairs", "RepairedOutputWarning", "unencodable", "result_line",
           "check_unique_ids"]


def load_results(path: str | Path, *, repair: bool = False) -> list[MetricResult]:
    """Read a result file, validating every line.

    Without ``repair`` any bad line raises :class:`InputError` naming file and line (a
    truncated last line, from a killed run, is skipped). With ``repair`` the truncated last
    line is cut off, and other bad lines (not JSON, not a result, a repeated id) are dropped:
    the original is kept as ``<path>.corrupt-<UTC time>`` and a
    :class:`RepairedOutputWarning` lists the dropped lines.
    """
    path = Path(path)
    if not path.exists():
        return []
    raw = path.read_bytes()
    results: list[MetricResult] = []
    kept: list[bytes] = []
    problems: list[str] = []
    seen: dict[str, int] = {}
    lines = raw.splitlines(keepends=True)
    for number, line in enumerate(lines, start=1):
        if not line.endswith(b"\n") and number == len(lines):
            break  # a killed run's half-written last line: recomputed, not a corruption
        try:
            result = MetricResult.model_validate(json.loads(line.decode("utf-8")))
            if not result.id:
                raise ValueError("empty id")
        except (UnicodeDecodeError, json.JSONDecodeError, ValueError) as e:
            problem = f"{path}:{number}: not a transted result line: {_one_line(e)}"
        else:
            if result.id not in seen:
                seen[result.id] = number
                results.append(result)
                kept.append(line)
                continue
            problem = f"{path}:{number}: repeats id {result.id!r} (first on line {seen[result.id]})"
        if not repair:
            raise InputError(problem)
        problems.append(problem)
    if repair and sum(map(len, kept)) != len(raw):
        _rewrite(path, raw, b"".join(kept), problems)
    return results


def _one_line(e: Exception) -> str:
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def _rewrite(path: Path, raw: bytes, good: bytes, problems: list[str]) -> None:
    if not problems:  # only a truncated last line: the ordinary resume of a killed run
        with path.open("r+b") as f:
            f.truncate(len(good))
        return
    backup = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}")
    backup.write_bytes(raw)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as f:
        f.write(good)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5 else "")
    kept = good.count(b"\n")
    warnings.warn(RepairedOutputWarning(
        f"{path}: dropped {len(problems)} bad line(s), kept {kept}; the original is "
        f"saved as {backup}: {shown}"), stacklevel=3)


def _written(pair: Pair, metric: Metric, result: MetricResult) -> tuple[MetricResult, str]:
    """``result`` and its line; a result that cannot be written becomes the pair's error line
    (the guard checks this in the worker already: this is the driver's last line of defence)."""
    try:
        return result, result_line(result)
    except Exception as e:  # noqa: BLE001 - one pair never stops the batch
        failed = error_result(pair, metric, internal_error(pair, e))
        return failed, result_line(failed)


def score_pairs(
    pairs: Iterable[Pair],
    metric: Metric,
    out: str | Path,
    *,
    resume: bool = True,
    on_result: Callable[[MetricResult, bool], None] | None = None,
    inputs: Iterable[str | Path] = (),
    jobs: int | None = None,
    executor: Executor | None = None,
    spec: MetricSpec | None = None,
    pair_timeout: float | None = None,
) -> list[MetricResult]:
    """Score ``pairs`` with ``metric``, streaming one line per pair to ``out``.

    Parameters
    ----------
    resume : keep results already in ``out`` (same signature) and score only the rest;
        when False, ``out`` is overwritten.
    on_result : called with ``(result, was_cached)`` after each pair (progress display).
    inputs : the files ``pairs`` were read from; ``out`` naming one of them is refused.
    jobs, executor, spec : where the pairs are scored (this process for ``jobs`` None or 1, a
        local pool of ``jobs`` processes, or ``executor``, which the caller owns); see
        :func:`~transted.running.executors.score_stream`. Only this process writes the file.
    pair_timeout : hard wall-clock seconds per pair (None = none): pairs run on a local pool
        (one worker when ``jobs`` is None or 1) whose worker is killed when a pair passes it;
        such a pair is re-run alone and, past it again, gets ``status="timeout"``
        (:class:`~transted.running.executors.LocalExecutor`). Give it to the executor instead when
        passing ``executor``.

    Raises
    ------
    OutputPathError
        ``out`` is unusable (see :func:`~transted.reading.outputs.check_output_file`).
    OutputLocked
        Another process is writing ``out``.

    Returns
    -------
    The results for all ``pairs``, in input order.
    """
    check_placement(jobs, executor, pair_timeout)  # before any work
    out = check_output_file(out, inputs=inputs, resume=resume)
    signature = str(metric.signature)
    with OutputLock(out):
        done: dict[str, MetricResult] = {}
        if resume:
            for r in load_results(out, repair=True):
                if r.signature != signature or r.metric != metric.name:
                    raise InputError(
                        f"{out}: holds results made with `{r.signature}`, not `{signature}`; "
                        "use another --out or --no-resume to overwrite"
                    )
                done[r.id] = r
        pairs = list(pairs)
        check_unique_ids(pairs)
        for pair in pairs:
            if pair.id in done and done[pair.id].input not in (None, pair_hash(pair)):
                raise InputError(f"{out}: the result for id {pair.id!r} was made from other "
                                 "statements; use another --out or --no-resume")
        todo = [p for p in pairs if p.id not in done]
        fresh = score_stream(todo, metric, jobs=jobs, executor=executor, spec=spec,
                             pair_timeout=pair_timeout)
        results: list[MetricResult] = []
        with out.open("a" if resume else "w", encoding="utf-8") as sink, \
                contextlib.closing(fresh):
            for pair in pairs:
                cached = pair.id in done
                if cached:
                    result = done[pair.id]
                else:
                    result, line = _written(pair, metric, next(fresh))
                    sink.write(line)
                    sink.flush()
                results.append(result)
                if on_result is not None:
                    on_result(result, cached)
    return results
