"""The issue's three pairs and the hand-written pairs of benchmarks/verdict_pairs.py: every pair
the evidence or the residual edits decide gets its true verdict (strict convention); the pair
whose difference is an opaque Mathlib name falls back to the threshold."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from verdict_pairs import CASES, HEADER  # noqa: E402

import transted  # noqa: E402


@pytest.fixture(scope="module")
def metric():
    return transted.load_metric("transted")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_verdict_of_each_pair(case, metric):
    r = transted.score(case.reference, case.candidate, metric, header=HEADER, id=case.name)
    assert r.status == "ok", r.error
    assert r.decided_by in ("evidence", "edits"), r.details.get("verdict_reason")
    assert r.verdict == ("equivalent" if case.equivalent else "not-equivalent"), \
        (case.why, r.details.get("verdict_reason"))
