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


def test_a_meaning_edit_the_moves_made_yields_to_the_goal_as_read():
    # verdict rule 8: with the lemmas, `← and_imp` and `← lt_min_iff` carry the best goal to
    # `0 < min x y`, a changed hypothesis; as read, the added `0 < y` is implied (entailment)
    case = next(c for c in CASES if c.name == "implied-added")
    metric = transted.load_metric("transted", providers="offline,lemmas,decide")
    r = transted.score(case.reference, case.candidate, metric, header=HEADER, id=case.name)
    assert any("lt_min_iff" in step for step in r.details["script"])  # the best goal moved
    assert (r.verdict, r.decided_by) == ("equivalent", "edits")
    assert [e["discharged_by"] is not None for e in r.details["residual"]
            if e["role"] == "meaning"] == [True]  # the residual reported is the one as read
