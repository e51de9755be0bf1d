"""The recycling backend's policy (command count, memory) on recorded REPL transcripts, and
its use by a batch worker. No Lean answer is invented: every answer is a recorded one."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from transted.pipeline.lean.backend import ReplayBackend, UnrecordedRequest
from transted.pipeline.lean.recycling import RecyclingBackend, process_rss_mb
from transted.running.executors import LeanWorkerPolicy, MetricSpec
from transted.running.executors.base import score_chunk

TRANSCRIPT = (Path(__file__).parent / "data" / "repl" / "transcripts" / "upstream_repl_test"
              / "proof_transitivity.in")
FIRST = {"cmd": "example (x y z : Nat) (h1 : x = y) (h2 : y = z) : x = z := by sorry"}
SECOND = {"tactic": "exact Eq.trans h1 h2", "proofState": 0}


def _factory():
    return partial(ReplayBackend.from_transcript, TRANSCRIPT)


def test_recycles_after_max_commands_only_between_pairs():
    backend = RecyclingBackend(_factory(), max_commands=2)
    assert backend.send(FIRST).env == 0
    assert backend.between_pairs() is None and backend.generation == 0
    first_inner = backend.inner
    backend.send(SECOND)  # the limit is reached here, but the pair may still hold ids
    assert backend.inner is first_inner and backend.generation == 0
    assert backend.between_pairs() == "commands"
    # a fresh REPL: ids of the old one are of an older generation, the count restarts
    assert backend.generation == 1 and backend.commands == 0 and backend.recycled == ["commands"]
    assert backend.send(FIRST).env == 0  # the new replay answers the first request again
    assert backend.inner is not first_inner


def test_without_recycling_a_replay_is_not_asked_twice():
    backend = RecyclingBackend(_factory(), max_commands=None)
    backend.send(FIRST)
    assert backend.between_pairs() is None
    with pytest.raises(UnrecordedRequest):
        backend.send(FIRST)  # the recording has one answer: it is never made up


def test_recycles_when_memory_passes_the_limit():
    readings = iter([50.0, 120.0])
    backend = RecyclingBackend(_factory(), max_commands=None, max_rss_mb=100,
                               rss_probe=lambda _backend: next(readings))
    backend.send(FIRST)
    assert backend.between_pairs() is None  # 50 MiB
    backend.send(SECOND)
    assert backend.between_pairs() == "rss"  # 120 MiB
    assert backend.recycled == ["rss"] and backend.generation == 1


def test_policy_arguments_and_rss_of_this_process():
    with pytest.raises(ValueError, match="`max_commands`"):
        RecyclingBackend(_factory(), max_commands=0)
    with pytest.raises(ValueError, match="`max_rss_mb`"):
        RecyclingBackend(_factory(), max_rss_mb=-1)
    import os

    rss = process_rss_mb(os.getpid())
    assert rss is not None and 1 < rss < 100_000


def test_a_worker_builds_one_recycling_backend_and_recycles_between_pairs(dev_pairs):
    spec = MetricSpec("transted", {"provider": "lean", "max_time": None},
                      backend_factory=_factory(), lean_policy=LeanWorkerPolicy(max_commands=1))
    driver_metric = spec.build()
    signature = str(driver_metric.signature)
    assert "replay:proof_transitivity" in signature  # the backend is in the signature
    rows = score_chunk(spec, signature, ((0, dev_pairs[0]), (1, dev_pairs[1])))
    from transted.running.executors import base

    assert base._worker_metric is not None
    backend = base._worker_metric[2]
    assert isinstance(backend, RecyclingBackend)
    # the recording does not hold these pairs' requests: each pair is `unavailable`, not
    # scored with an invented answer; the REPL was replaced between the two pairs
    assert [r["status"] for _, r in rows] == ["unavailable", "unavailable"]
    assert backend.recycled == ["commands"]
    with pytest.raises(RuntimeError, match="same install"):
        score_chunk(spec, "another signature", ((0, dev_pairs[0]),))
