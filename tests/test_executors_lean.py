"""Lean batches on the executors: one recycling REPL per worker process, results in input
order, an unanswerable pair recorded as that pair's outcome while the batch goes on. Every
answer comes from a recorded REPL transcript (no Lean is needed or invented)."""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path

import pytest

from transted.pipeline.lean.backend import ReplayBackend
from transted.reading.pairs import Pair, Statement
from transted.running.executors import LeanWorkerPolicy, LocalExecutor, MetricSpec, score_stream

TRANSCRIPT = (Path(__file__).parent / "data" / "repl" / "transcripts" / "upstream_repl_test"
              / "proof_transitivity.in")
SPEC = MetricSpec("scale_helpers:ReplCommand",
                  backend_factory=partial(ReplayBackend.from_transcript, TRANSCRIPT),
                  lean_policy=LeanWorkerPolicy(max_commands=2))
COMMANDS = [
    "example (x y z : Nat) (h1 : x = y) (h2 : y = z) : x = z := by sorry",
    "example (f : Nat → Nat) (n : Nat) (h : n = 3) : f n = f 3 := by sorry",
    "example : True := trivial",  # never recorded
]


def _pairs() -> list[Pair]:
    return [Pair(id=f"c{i}", reference=Statement(statement="-"), candidate=Statement(statement=c))
            for i, c in enumerate(COMMANDS)]


def test_workers_answer_in_input_order_and_record_an_unanswerable_pair():
    metric = SPEC.build()
    assert "replay:proof_transitivity" in str(metric.signature)
    with LocalExecutor(2, chunk_size=1) as executor:
        results = list(score_stream(_pairs(), metric, executor=executor, spec=SPEC))
        assert executor.scored_in_driver == 0  # a Lean metric never scores in the driver
    assert [r.id for r in results] == ["c0", "c1", "c2"]
    assert [r.details.get("env") for r in results] == [0, 1, None]
    assert results[0].details["goals"][0].endswith("⊢ x = z")
    assert results[2].status == "unavailable" and "no recorded answer" in results[2].error
    assert all(r.details.get("pid") != os.getpid() for r in results[:2])  # scored by workers


def test_arguments_and_an_empty_batch():
    with pytest.raises(ValueError, match="`jobs`"):
        LocalExecutor(0)
    with LocalExecutor(2) as executor:
        assert list(score_stream([], SPEC.build(), executor=executor, spec=SPEC)) == []
        assert not executor.running  # nothing to score: no worker was started
