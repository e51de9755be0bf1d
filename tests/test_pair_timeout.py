"""``pair_timeout``: a worker stuck in C on one pair is killed; that pair alone times out."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from transted.metrics.base import MetricResult
from transted.metrics.registry import get_metric
from transted.running.batch import load_results, score_pairs
from transted.running.executors import LocalExecutor, MetricSpec

HELPERS = "scale_helpers"


def _alive(pid: int) -> bool:
    status = Path(f"/proc/{pid}/status")
    try:
        return "zombie" not in status.read_text()
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_pair_stuck_in_c_times_out_and_the_batch_goes_on(dev_pairs, tmp_path, jobs):
    pairs = dev_pairs[:10]
    stuck = pairs[3].id  # mid-chunk: the chunk's other pairs must still be scored
    spec = MetricSpec(f"{HELPERS}:StuckTED", {"stuck_id": stuck, "driver_pid": os.getpid()})
    out = tmp_path / "out.jsonl"
    executor = LocalExecutor(jobs, chunk_size=4, pair_timeout=1)
    started = time.monotonic()
    with executor:
        results = score_pairs(pairs, spec.build(), out, executor=executor, spec=spec)
        workers = list((getattr(executor._pool, "_processes", None) or {}).keys())
    elapsed = time.monotonic() - started
    # the stuck pair never returns: finishing at all shows it did not hold the batch; the bound
    # is loose because a loaded machine starts workers slowly (two kills, two starts)
    assert elapsed < 45, f"took {elapsed:.1f} s"
    assert len(executor.killed) == 2  # the chunk's run, then the pair's lone re-run
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in rows] == [p.id for p in pairs]  # one line each, input order
    by_id = {r.id: r for r in results}
    assert by_id[stuck].status == "timeout" and by_id[stuck].score is None
    assert by_id[stuck].error == "timeout: pair exceeded --pair-timeout 1 (worker killed)"
    plain = get_metric("ted")
    for pair in pairs:  # every other pair as one process scores it (one is a parse error)
        if pair.id != stuck:
            expected = plain.score_pair(pair)
            assert (by_id[pair.id].status, by_id[pair.id].score) == (expected.status,
                                                                      expected.score)
    assert not [pid for pid in workers + executor.killed if _alive(pid)]
    assert MetricResult.model_validate(rows[3]).status == "timeout"


@pytest.mark.slow
def test_score_pairs_jobs_1_uses_one_killable_worker(dev_pairs, tmp_path):
    pairs = dev_pairs[:3]
    spec = MetricSpec(f"{HELPERS}:StuckTED", {"stuck_id": pairs[1].id,
                                              "driver_pid": os.getpid()})
    results = score_pairs(pairs, spec.build(), tmp_path / "o.jsonl", jobs=1, spec=spec,
                          pair_timeout=0.5)
    assert [r.status for r in results] == ["ok", "timeout", "ok"]
    assert [r.score is None for r in results] == [False, True, False]


def test_a_generous_pair_timeout_changes_no_byte(dev_pairs, tmp_path):
    pairs = dev_pairs[:20]
    plain, timed = tmp_path / "plain.jsonl", tmp_path / "timed.jsonl"
    score_pairs(pairs, get_metric("ted"), plain)
    score_pairs(pairs, get_metric("ted"), timed, jobs=2, pair_timeout=60)
    assert plain.read_bytes() == timed.read_bytes()


def test_pair_timeout_is_checked(dev_pairs, tmp_path):
    for bad in (0, -1, "1", True):
        with pytest.raises(ValueError, match="pair_timeout"):
            LocalExecutor(1, pair_timeout=bad)
    with pytest.raises(ValueError, match="give it to the executor"):
        score_pairs(dev_pairs[:2], get_metric("ted"), tmp_path / "o.jsonl",
                    executor=LocalExecutor(1), pair_timeout=5)


@pytest.mark.slow
def test_cli_pair_timeout_flag_on_score_and_eval(dev_pairs, tmp_path):
    from typer.testing import CliRunner

    from transted.cli import get_app
    from transted.reading.pairs import write_pairs

    data = tmp_path / "pairs.jsonl"
    write_pairs(dev_pairs[:6], data)
    runner = CliRunner()
    plain, timed = tmp_path / "plain.jsonl", tmp_path / "timed.jsonl"
    for out, extra in ((plain, []), (timed, ["--pair-timeout", "60"])):
        result = runner.invoke(get_app(), ["score", str(data), "-m", "ted", "-o", str(out),
                                           *extra])
        assert result.exit_code == 0, result.output
    assert plain.read_bytes() == timed.read_bytes()
    assert "0 timeout;" in result.output
    refused = runner.invoke(get_app(), ["score", str(data), "-m", "ted", "--pair-timeout", "0"])
    assert refused.exit_code == 2
    report = tmp_path / "eval"
    result = runner.invoke(get_app(), ["eval", str(data), "-m", "ted", "-o", str(report),
                                       "--pair-timeout", "60", "--n-boot", "10"])
    assert result.exit_code == 0, result.output
    assert (report / "scores" / "ted.jsonl").read_text().count("\n") == 6


@pytest.mark.slow
def test_many_fast_pairs_with_a_pair_timeout_end_without_hanging(dev_pairs, tmp_path):
    # every pair posts a start report; unread, they filled the queue and shutdown hung
    pairs = [p.model_copy(update={"id": f"{p.id}#{k}"}) for k in range(50) for p in dev_pairs]
    with LocalExecutor(2, pair_timeout=30) as executor:
        results = score_pairs(pairs, get_metric("identity"), tmp_path / "o.jsonl",
                              executor=executor)
    assert len(results) == len(pairs) == len(load_results(tmp_path / "o.jsonl"))


class _Recording(LocalExecutor):
    """A local executor that records the pair indices of every call it submits."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.chunks: list[tuple[int, ...]] = []

    def submit(self, chunk):
        self.chunks.append(tuple(index for index, _ in chunk))
        return super().submit(chunk)


@pytest.mark.slow
def test_after_a_kill_only_the_pair_that_timed_out_runs_alone(dev_pairs, tmp_path):
    pairs = dev_pairs[:16]
    stuck = 5  # the second pair of the second chunk
    spec = MetricSpec(f"{HELPERS}:StuckTED", {"stuck_id": pairs[stuck].id,
                                              "driver_pid": os.getpid(), "delay": 0.2})
    executor = _Recording(2, chunk_size=4, pair_timeout=1)
    with executor:
        results = score_pairs(pairs, spec.build(), tmp_path / "o.jsonl", executor=executor,
                              spec=spec)
    assert [r.status == "timeout" for r in results] == [i == stuck for i in range(16)]
    assert len(executor.killed) == 2  # the chunk's run, then the pair's lone re-run
    alone = [chunk for chunk in executor.chunks if len(chunk) == 1]
    assert alone == [(stuck,)]  # before: every pair of every broken chunk, one at a time
    assert sum(stuck in chunk for chunk in executor.chunks) == 2
    # every other pair went out once, or again in an ordinary chunk after the kill broke its call
    assert sorted({i for chunk in executor.chunks for i in chunk}) == list(range(16))
