"""The Ray executor in Ray's local mode: same bytes as one process, a killed actor's pairs
re-run, nothing written twice. Skipped when Ray (extra `ray`) is not installed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from transted.metrics.registry import get_metric
from transted.running.batch import load_results, score_pairs

pytest.importorskip("ray", reason="Ray (extra `ray`) is not installed")

pytestmark = pytest.mark.slow  # starting Ray takes seconds

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def ray_executor():
    from transted.running.executors import RayExecutor

    executor = RayExecutor(workers=2, chunk_size=2)
    executor.connect()
    yield executor
    executor.close()
    assert not executor.ray.is_initialized()


def test_ray_writes_the_same_bytes_as_one_process(ray_executor, dev_pairs, tmp_path):
    one, ray_out = tmp_path / "one.jsonl", tmp_path / "ray.jsonl"
    score_pairs(dev_pairs, get_metric("ted"), one)
    results = score_pairs(dev_pairs, get_metric("ted"), ray_out, executor=ray_executor)
    assert ray_out.read_bytes() == one.read_bytes()
    assert [r.id for r in results] == [p.id for p in dev_pairs]


def test_a_killed_actor_is_replaced_and_its_pairs_rescored_once(ray_executor, dev_pairs,
                                                                 tmp_path):
    pairs = dev_pairs[:30]
    metric = {"max_time": None, "max_expansions": 40}
    one, ray_out = tmp_path / "one.jsonl", tmp_path / "ray.jsonl"
    score_pairs(pairs, get_metric("transted", **metric), one)
    killed: list[int] = []

    def kill_one_actor(result, cached):
        if not killed:
            pid = ray_executor.actor_pids()[0]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    restarts = ray_executor.restarts
    score_pairs(pairs, get_metric("transted", **metric), ray_out, executor=ray_executor,
                on_result=kill_one_actor)
    assert killed and ray_executor.restarts > restarts
    assert killed[0] not in ray_executor.actor_pids()
    assert ray_out.read_bytes() == one.read_bytes()  # one line per pair, same scores
    assert len(load_results(ray_out)) == len(pairs)


_DRIVER = """
import sys
from transted.running.batch import score_pairs
from transted.running.executors import MetricSpec, RayExecutor
from transted.reading.pairs import read_pairs
if __name__ == "__main__":
    pairs = read_pairs({pairs!r})
    spec = MetricSpec("scale_helpers:SlowTED", {{"delay": 0.02}})
    if {ray}:
        with RayExecutor(workers=2, chunk_size=2) as executor:
            score_pairs(pairs, spec.build(), {out!r}, executor=executor, spec=spec)
    else:
        score_pairs(pairs, spec.build(), {out!r}, spec=spec)
"""


def _run_driver(tmp_path: Path, pairs: Path, out: Path, ray: bool) -> subprocess.Popen:
    script = tmp_path / f"driver-{ray}.py"
    script.write_text(_DRIVER.format(pairs=str(pairs), out=str(out), ray=ray))
    # the tests folder on the path of the driver and (through RayExecutor) of every actor
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    return subprocess.Popen([sys.executable, str(script)], env=env, cwd=tmp_path)


def _descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (Ray's GCS, raylet, agents and actors of a driver)."""
    children: dict[int, list[int]] = {}
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            ppid = next(int(line.split()[1]) for line in status.read_text().splitlines()
                        if line.startswith("PPid:"))
        except (OSError, StopIteration):
            continue
        children.setdefault(ppid, []).append(int(status.parent.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def test_kill_9_of_a_ray_driver_then_resume_gives_the_one_process_file(dev_pairs, tmp_path):
    from transted.reading.pairs import write_pairs

    # long enough (558 pairs x >= 0.02 s) that the run is still going when the first 40 lines
    # are out: the driver scores pairs itself while the actors start, and Ray takes seconds
    pairs = [p.model_copy(update={"id": f"{p.id}#{k}"}) for k in range(6) for p in dev_pairs]
    pairs_path = tmp_path / "pairs.jsonl"
    write_pairs(pairs, pairs_path)
    reference, out = tmp_path / "one.jsonl", tmp_path / "ray.jsonl"
    assert _run_driver(tmp_path, pairs_path, reference, ray=False).wait() == 0

    driver = _run_driver(tmp_path, pairs_path, out, ray=True)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and driver.poll() is None and (
            not out.exists() or out.read_bytes().count(b"\n") < 40):
        time.sleep(0.05)
    ray_processes = _descendants(driver.pid)  # the local Ray instance this driver started
    os.kill(driver.pid, signal.SIGKILL)
    driver.wait()
    written = out.read_bytes().count(b"\n")
    assert 40 <= written < len(pairs), "the kill must land mid-run"
    assert len(ray_processes) >= 4  # GCS, raylet, agents, two actors

    assert _run_driver(tmp_path, pairs_path, out, ray=True).wait() == 0
    assert out.read_bytes() == reference.read_bytes()  # one line per pair, same scores
    assert len(load_results(out)) == len(pairs)
    # nothing of the killed driver's Ray outlives it for long (Ray's dashboard and runtime-env
    # agents notice their raylet is gone about a minute later, the rest at once)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and any(map(_alive, ray_processes)):
        time.sleep(1)
    assert not [pid for pid in ray_processes if _alive(pid)]
