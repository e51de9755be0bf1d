"""The Ray executor in Ray's local mode: same bytes as one process, a killed actor's pairs
re-run, nothing written twice. Skipped when Ray (extra `ray`) is not installed."""

from __future__ import annotations

import os
import signal

import pytest

from transted.batch import load_results, score_pairs
from transted.metrics.registry import get_metric

pytest.importorskip("ray", reason="Ray (extra `ray`) is not installed")

pytestmark = pytest.mark.slow  # starting Ray takes seconds


@pytest.fixture(scope="module")
def ray_executor():
    from transted.executors import RayExecutor

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
