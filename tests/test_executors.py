"""Parallel batch scoring: input order, same bytes as one process, crashes and kill -9."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from transted.metrics.base import MetricResult
from transted.metrics.registry import get_metric
from transted.reading.pairs import Pair
from transted.running.batch import load_results, score_pairs
from transted.running.executors import LocalExecutor, MetricSpec, default_jobs, in_order

ROOT = Path(__file__).resolve().parent.parent
HELPERS = "scale_helpers"


def _result(i: int) -> MetricResult:
    return MetricResult(id=f"p{i}", metric="m", score=float(i), signature="s")


def test_reorder_buffer_yields_input_order_and_drops_repeats():
    arrivals = [(2, _result(2)), (0, _result(0)), (2, _result(99)), (1, _result(1)),
                (0, _result(98)), (3, _result(3))]
    out = list(in_order(iter(arrivals)))
    # 2 waits for 0 and 1; the repeated answers for 2 and 0 (a retried call) are dropped
    assert [r.score for r in out] == [0.0, 1.0, 2.0, 3.0]


def _replicated(pairs: list[Pair], times: int) -> list[Pair]:
    return [p.model_copy(update={"id": f"{p.id}#{k}"}) for k in range(times) for p in pairs]


@pytest.mark.slow
def test_two_jobs_write_the_same_bytes_as_one(dev_pairs, tmp_path):
    # transted without the wall-clock cap: its budget is then the expansion count alone
    for name, options, pairs in [("ted", {}, dev_pairs),
                                 ("transted", {"max_time": None}, dev_pairs[:24])]:
        one, two = tmp_path / f"{name}-1.jsonl", tmp_path / f"{name}-2.jsonl"
        serial = score_pairs(pairs, get_metric(name, **options), one)
        with LocalExecutor(2, chunk_size=3) as executor:
            parallel = score_pairs(pairs, get_metric(name, **options), two, executor=executor)
        assert one.read_bytes() == two.read_bytes()
        assert [r.id for r in parallel] == [p.id for p in pairs]
        assert parallel == serial


@pytest.mark.slow
def test_the_pool_starts_only_once_the_batch_is_worth_it(dev_pairs, tmp_path):
    spec = MetricSpec(f"{HELPERS}:SlowTED", {"delay": 0.05})
    pairs = dev_pairs[:30]
    one = tmp_path / "one.jsonl"
    score_pairs(pairs, spec.build(), one)
    # 30 pairs of >= 0.05 s: the rest is never projected past 60 s, so no worker is spawned
    short = LocalExecutor(2, min_parallel_seconds=60)
    with short:
        score_pairs(pairs, spec.build(), tmp_path / "short.jsonl", executor=short, spec=spec)
        assert short.scored_in_driver == 30 and short.restarts == 0
        assert short._pool is None
    # past a 0.5 s bar after the first pair (29 x 0.05 s left): the pool scores the rest,
    # the driver helping only while the workers start
    eager = LocalExecutor(2, chunk_size=2, min_parallel_seconds=0.5)
    with eager:
        score_pairs(pairs, spec.build(), tmp_path / "eager.jsonl", executor=eager, spec=spec)
        assert 1 <= eager.scored_in_driver < 30 and eager._pool is not None
        # a pool already running takes the next batch whole
        before = eager.scored_in_driver
        score_pairs(pairs[:3], spec.build(), tmp_path / "next.jsonl", executor=eager, spec=spec)
        assert eager.scored_in_driver == before
    for out in ("short", "eager"):
        assert (tmp_path / f"{out}.jsonl").read_bytes() == one.read_bytes()
    with pytest.raises(ValueError, match="min_parallel_seconds"):
        LocalExecutor(2, min_parallel_seconds=-1)


@pytest.mark.slow
def test_the_driver_scores_while_the_workers_start(dev_pairs, tmp_path):
    spec = MetricSpec(f"{HELPERS}:SlowTED", {"delay": 0.02})
    pairs = _replicated(dev_pairs[:20], 4)
    one = tmp_path / "one.jsonl"
    score_pairs(pairs, spec.build(), one)
    # spawning a worker and building its metric takes about a second here: the driver
    # scores the pairs after the first chunks sent meanwhile, then leaves the rest
    helped = LocalExecutor(2, chunk_size=2)
    with helped:
        score_pairs(pairs, spec.build(), tmp_path / "helped.jsonl", executor=helped, spec=spec)
    assert 0 < helped.scored_in_driver <= len(pairs) - 8  # 2 workers x 2 chunks x 2 pairs
    assert (tmp_path / "helped.jsonl").read_bytes() == one.read_bytes()
    # with a pair timeout only a worker may score (only a worker can be killed)
    timed = LocalExecutor(2, chunk_size=2, pair_timeout=30)
    with timed:
        score_pairs(pairs, spec.build(), tmp_path / "timed.jsonl", executor=timed, spec=spec)
    assert timed.scored_in_driver == 0
    assert (tmp_path / "timed.jsonl").read_bytes() == one.read_bytes()


@pytest.mark.slow
def test_a_lean_metric_never_scores_in_the_driver(dev_pairs, tmp_path):
    assert get_metric("transted", provider="lean", backend=object()).runs_lean
    assert get_metric("typecheck").runs_lean
    assert not get_metric("transted").runs_lean and not get_metric("ted").runs_lean
    spec = MetricSpec(f"{HELPERS}:LeanLikeTED", {"delay": 0.01})
    executor = LocalExecutor(2, chunk_size=2, min_parallel_seconds=60)
    with executor:
        score_pairs(dev_pairs[:6], spec.build(), tmp_path / "o.jsonl", executor=executor,
                    spec=spec)
        assert executor.scored_in_driver == 0 and executor._pool is not None


@pytest.mark.slow
def test_in_flight_work_is_bounded(dev_pairs, tmp_path):
    class Counting(LocalExecutor):
        out = peak = 0

        def submit(self, chunk):
            self.out += 1
            self.peak = max(self.peak, self.out)
            return super().submit(chunk)

        def wait(self, handles):
            ended = super().wait(handles)
            self.out -= len(ended)
            return ended

    executor = Counting(2, chunk_size=2, in_flight_per_worker=2)
    with executor:
        score_pairs(dev_pairs, get_metric("ted"), tmp_path / "o.jsonl", executor=executor)
    assert executor.peak == 4  # 2 workers x 2 chunks, never all 47 chunks at once


@pytest.mark.slow
def test_a_worker_crash_is_that_pairs_error_and_the_rest_are_scored(dev_pairs, tmp_path):
    pairs = dev_pairs[:12]
    victim = pairs[0].id  # in the first chunk: no worker had answered yet
    spec = MetricSpec(f"{HELPERS}:CrashingTED",
                      {"crash_id": victim, "driver_pid": os.getpid()})
    out = tmp_path / "crash.jsonl"
    executor = LocalExecutor(2, chunk_size=2)
    with executor:
        results = score_pairs(pairs, spec.build(), out, executor=executor, spec=spec)
    assert executor.restarts >= 1
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in rows] == [p.id for p in pairs]  # one line each, input order
    crashed = [r for r in results if r.error and "worker process died" in r.error]
    assert [r.id for r in crashed] == [victim]
    assert crashed[0].score is None and crashed[0].status == "error"
    # every other pair got the score one process gives it
    plain = get_metric("ted")
    for pair, result in zip(pairs, results, strict=True):
        if pair.id != victim:
            assert result.score == plain.score_pair(pair).score


@pytest.mark.slow
def test_workers_that_cannot_start_abort_the_batch(dev_pairs, tmp_path):
    spec = MetricSpec(f"{HELPERS}:DiesOnStart", {"driver_pid": os.getpid()})
    with pytest.raises(RuntimeError, match="before any answered"):
        score_pairs(dev_pairs[:8], spec.build(), tmp_path / "o.jsonl", jobs=2, spec=spec)


def test_workers_need_a_rebuildable_metric(dev_pairs, tmp_path):
    from transted.metrics.ted import TEDSimilarity

    with pytest.raises(ValueError, match="not made by get_metric"):
        score_pairs(dev_pairs[:8], TEDSimilarity(), tmp_path / "o.jsonl", jobs=2)
    # a handful of pairs is scored in this process: no pool, no spec needed
    assert len(score_pairs(dev_pairs[:3], TEDSimilarity(), tmp_path / "p.jsonl", jobs=2)) == 3
    with pytest.raises(ValueError, match="live Lean backend"):
        MetricSpec.of(get_metric("transted", provider="lean", backend=object()))
    with pytest.raises(ValueError, match="`jobs`"):
        LocalExecutor(0)


_DRIVER = """
import sys
from transted.running.batch import score_pairs
from transted.running.executors import MetricSpec
from transted.reading.pairs import read_pairs
if __name__ == "__main__":
    sys.path.insert(0, {tests!r})
    pairs = read_pairs({pairs!r})
    spec = MetricSpec("scale_helpers:SlowTED", {{"delay": 0.02}})
    score_pairs(pairs, spec.build(), {out!r}, jobs={jobs}, spec=spec)
"""


def _driver(tmp_path: Path, pairs_path: Path, out: Path, jobs: int) -> list[str]:
    script = tmp_path / f"driver{jobs}.py"
    script.write_text(_DRIVER.format(tests=str(ROOT / "tests"), pairs=str(pairs_path),
                                     out=str(out), jobs=jobs))
    return [sys.executable, str(script)]


def _children(pid: int) -> list[int]:
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
        except OSError:
            continue
        ppid = next((line.split()[1] for line in text.splitlines() if line.startswith("PPid:")),
                    None)
        if ppid == str(pid):
            found.append(int(status.parent.name))
    return found


@pytest.mark.slow
def test_kill_9_mid_run_then_resume_gives_the_one_job_file(dev_pairs, tmp_path):
    from transted.reading.pairs import write_pairs

    pairs = _replicated(dev_pairs, 3)  # 279 pairs, >= 20 ms each
    pairs_path = tmp_path / "pairs.jsonl"
    write_pairs(pairs, pairs_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    reference, out = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    subprocess.run(_driver(tmp_path, pairs_path, reference, 1), check=True, env=env, cwd=ROOT)

    driver = subprocess.Popen(_driver(tmp_path, pairs_path, out, 2), env=env, cwd=ROOT)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out.exists()
                                           or out.read_bytes().count(b"\n") < 40):
        time.sleep(0.05)
    workers = _children(driver.pid)
    os.kill(driver.pid, signal.SIGKILL)
    driver.wait()
    written = out.read_bytes().count(b"\n")
    assert 40 <= written < len(pairs), "the kill must land mid-run"
    # nothing orphaned: the workers notice the driver is gone and exit by themselves
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{w}").exists() for w in workers):
        time.sleep(0.1)
    assert not [w for w in workers if Path(f"/proc/{w}/status").exists()
                and "zombie" not in Path(f"/proc/{w}/status").read_text()]

    subprocess.run(_driver(tmp_path, pairs_path, out, 2), check=True, env=env, cwd=ROOT)
    assert out.read_bytes() == reference.read_bytes()  # one line per pair, same scores
    assert len(load_results(out)) == len(pairs)


@pytest.mark.slow
@pytest.mark.skipif(default_jobs() < 2, reason="the default --jobs pools only with 2+ cores")
def test_ctrl_c_stops_a_default_jobs_run_and_its_workers(dev_pairs, tmp_path):
    from transted.reading.pairs import write_pairs

    pairs = _replicated(dev_pairs, 4)  # 372 transted pairs: tens of seconds, so a pool starts
    pairs_path, out = tmp_path / "pairs.jsonl", tmp_path / "out.jsonl"
    write_pairs(pairs, pairs_path)
    driver = subprocess.Popen(
        [sys.executable, "-m", "transted", "--quiet", "score", str(pairs_path), "-m",
         "transted", "--out", str(out)],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=tmp_path, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    workers: list[int] = []
    while (time.monotonic() < deadline and driver.poll() is None
           and len(workers) < min(2, default_jobs())):
        workers = [w for w in _children(driver.pid)
                   if "spawn_main" in Path(f"/proc/{w}/cmdline").read_bytes().decode(errors="replace")]
        time.sleep(0.2)
    assert len(workers) == min(2, default_jobs()) > 1, (
        "the default --jobs starts a pool of every core",
                               driver.poll(), driver.stderr.read() if driver.poll() else "")
    time.sleep(1)
    os.killpg(driver.pid, signal.SIGINT)  # what Ctrl-C in a terminal sends
    _, err = driver.communicate(timeout=30)
    assert driver.returncode == 130
    assert b"Traceback" not in err
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{w}").exists() for w in workers):
        time.sleep(0.1)
    assert not [w for w in workers if Path(f"/proc/{w}/status").exists()
                and "zombie" not in Path(f"/proc/{w}/status").read_text()]
    kept = load_results(out)  # every complete line is a result, ready for resume
    assert 0 < len(kept) < len(pairs)


def test_placement_is_decided_in_one_place(dev_pairs, monkeypatch):
    import transted.running.executors.placement as placement
    from transted.api import score_many
    from transted.running.executors import executor_for, score_stream

    monkeypatch.setattr(placement, "default_jobs", lambda: 2)
    assert executor_for(1) is None  # this process
    lone = executor_for(1, pair_timeout=5)  # only a worker can be killed: a one-worker pool
    assert isinstance(lone, LocalExecutor) and (lone.workers, lone.pair_timeout) == (1, 5.0)
    default = executor_for(None)
    assert default.workers == 2 and default.min_parallel_seconds is not None
    with pytest.raises(ValueError, match="ray executor"):
        executor_for(None, "local", ray_address="auto")
    # refused at the call, before any pair is scored
    with pytest.raises(ValueError, match="`pair_timeout` with `executor`"):
        score_stream(dev_pairs, get_metric("ted"), executor=lone, pair_timeout=1)
    with pytest.raises(ValueError, match="`pair_timeout` with `executor`"):
        score_many(dev_pairs[:2], "ted", executor=lone, pair_timeout=1)
    with pytest.raises(ValueError, match="`jobs`"):
        score_stream(dev_pairs, get_metric("ted"), jobs=0)
    # a handful of pairs with jobs > 1 and no executor: scored here, in input order
    results = list(score_stream(dev_pairs[:3], get_metric("ted"), jobs=2))
    assert [r.id for r in results] == [p.id for p in dev_pairs[:3]]
    assert not lone.running and not default.running  # no worker was ever started


@pytest.mark.parametrize("options, message", [({"workers": 0}, "`workers`"),
                                              ({"chunk_size": 0}, "`chunk_size`")])
def test_ray_executor_arguments_are_checked_before_ray_is_imported(options, message):
    from transted.running.executors import RayExecutor

    with pytest.raises(ValueError, match=message):
        RayExecutor(**options)
