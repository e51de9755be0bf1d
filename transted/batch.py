"""Batch scoring that never loses finished work.

Each result is appended to the output JSONL and flushed as soon as it is computed. Re-running
with the same output file skips the ids already scored with the same signature; a half-written
last line (a killed run) is dropped and recomputed. An output file made with a different
signature, or from other statements under the same id, is refused rather than mixed.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Generator, Iterable
from pathlib import Path

from transted.errors import InputError
from transted.executors import Executor, LocalExecutor, MetricSpec, serial_scores
from transted.metrics.base import Metric, MetricResult, pair_hash
from transted.pairs import Pair

__all__ = ["load_results", "score_pairs"]


def load_results(path: str | Path, *, repair: bool = False) -> list[MetricResult]:
    """Read a result file. With ``repair``, a truncated last line is cut off the file."""
    path = Path(path)
    if not path.exists():
        return []
    raw = path.read_bytes()
    results: list[MetricResult] = []
    good_end = 0
    for number, line in enumerate(raw.splitlines(keepends=True), start=1):
        complete = line.endswith(b"\n")
        try:
            obj = json.loads(line)
            results.append(MetricResult.model_validate(obj))
        except (json.JSONDecodeError, ValueError) as e:
            if not complete:
                break
            raise InputError(f"{path}:{number}: not a transted result line: {e}") from e
        if not complete:
            break
        good_end += len(line)
    if repair and good_end != len(raw):
        with path.open("r+b") as f:
            f.truncate(good_end)
        results = results[: raw[:good_end].count(b"\n")]
    return results


def score_pairs(
    pairs: Iterable[Pair],
    metric: Metric,
    out: str | Path,
    *,
    resume: bool = True,
    on_result: Callable[[MetricResult, bool], None] | None = None,
    jobs: int | None = None,
    executor: Executor | None = None,
    spec: MetricSpec | None = None,
) -> list[MetricResult]:
    """Score ``pairs`` with ``metric``, streaming one line per pair to ``out``.

    Parameters
    ----------
    resume : keep results already in ``out`` (same signature) and score only the rest;
        when False, ``out`` is overwritten.
    on_result : called with ``(result, was_cached)`` after each pair (progress display).
    jobs, executor, spec : where the pairs are scored, see :func:`_fresh_scores`.

    Returns
    -------
    The results for all ``pairs``, in input order.
    """
    if jobs is not None and (not isinstance(jobs, int) or jobs < 1):
        raise ValueError(f"`jobs` must be a positive int or None, got {jobs!r}")
    out = Path(out)
    signature = str(metric.signature)
    done: dict[str, MetricResult] = {}
    if resume:
        for r in load_results(out, repair=True):
            if r.signature != signature or r.metric != metric.name:
                raise InputError(
                    f"{out}: holds results made with `{r.signature}`, not `{signature}`; "
                    "use another --out or --no-resume to overwrite"
                )
            done[r.id] = r
    else:
        out.write_text("", encoding="utf-8")
    out.parent.mkdir(parents=True, exist_ok=True)
    pairs = list(pairs)
    fresh = _fresh_scores([p for p in pairs if p.id not in done], metric,
                          jobs=jobs, executor=executor, spec=spec)
    results: list[MetricResult] = []
    with out.open("a", encoding="utf-8") as sink, contextlib.closing(fresh):
        for pair in pairs:
            cached = pair.id in done
            if cached and done[pair.id].input not in (None, pair_hash(pair)):
                raise InputError(f"{out}: the result for id {pair.id!r} was made from other "
                                 "statements; use another --out or --no-resume")
            result = done[pair.id] if cached else next(fresh)
            if not cached:
                sink.write(json.dumps(result.model_dump(), ensure_ascii=False) + "\n")
                sink.flush()
            results.append(result)
            if on_result is not None:
                on_result(result, cached)
    return results


# -- parallel hook (transted.executors) -------------------------------------------------
_SERIAL_UP_TO = 4  # so few pairs to score: no local pool


def _fresh_scores(pairs: list[Pair], metric: Metric, *, jobs: int | None,
                  executor: Executor | None, spec: MetricSpec | None
                  ) -> Generator[MetricResult, None, None]:
    """Results for ``pairs`` in their order: in this process (``jobs`` None or 1, no
    ``executor``), on a local pool of ``jobs`` processes, or on ``executor`` (which the
    caller owns). Workers rebuild the metric from ``spec`` (default: how the registry made
    ``metric``); only this process writes the file."""
    if executor is None and (jobs is None or jobs == 1 or len(pairs) <= _SERIAL_UP_TO):
        yield from serial_scores(pairs, metric)  # a pool's start-up would cost more
        return
    spec = spec if spec is not None else MetricSpec.of(metric)
    if executor is not None:
        yield from executor.scores(pairs, metric, spec)
        return
    with LocalExecutor(jobs) as local:
        yield from local.scores(pairs, metric, spec)
