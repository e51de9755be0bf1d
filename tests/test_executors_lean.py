"""The worker pool: one backend per spawned process, input order, per-item errors."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from transted.lean.backend import ReplayBackend
from transted.lean.pool import LeanWorkerPool, run_request

pytest.importorskip("lean_interact", reason="lean-interact (extra `lean`) is not installed")

TRANSCRIPT = (Path(__file__).parent / "data" / "repl" / "transcripts" / "upstream_repl_test"
              / "proof_transitivity.in")


def test_pool_runs_items_in_order_and_records_errors():
    pool = LeanWorkerPool(partial(ReplayBackend.from_transcript, TRANSCRIPT), workers=2,
                          max_tasks_per_worker=2)
    items = [
        {"cmd": "example (x y z : Nat) (h1 : x = y) (h2 : y = z) : x = z := by sorry"},
        {"cmd": "example (f : Nat → Nat) (n : Nat) (h : n = 3) : f n = f 3 := by sorry"},
        {"cmd": "example : True := trivial"},  # never recorded
    ]
    results = list(pool.map(run_request, items))
    assert [r.value.env if r.value else None for r in results] == [0, 1, None]
    assert results[0].value.sorries[0].goal.endswith("⊢ x = z")
    assert results[2].error.startswith("UnrecordedRequest")


def test_pool_arguments():
    with pytest.raises(ValueError, match="`workers`"):
        LeanWorkerPool(ReplayBackend, workers=0)
    assert list(LeanWorkerPool(ReplayBackend).map(run_request, [])) == []
