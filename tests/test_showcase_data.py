"""The showcase pair files of issues 32 and 33 (tests/data/showcase/) and the benchmark that
reports them (benchmarks/showcase.py): every group has its ten labelled pairs, and the report's
tallies are those of its rows."""

from __future__ import annotations

import importlib
import re
from collections import Counter
from pathlib import Path

import pytest

from transted.reading.pairs import read_pairs

ROOT = Path(__file__).resolve().parents[1]
SHOWCASE = ROOT / "tests" / "data" / "showcase"
GROUPS = {
    "index_mechanisms.jsonl": ("mechanism", {"typing", "trust", "hierarchy", "unfolding"}),
    "rewrite_families.jsonl": ("family", {"simp", "iff", "def", "mem", "coe", "conditional",
                                          "comm-assoc", "finset-card-sum", "real-functions",
                                          "subst"}),
}
ID = re.compile(r"^(?P<group>[a-z-]+)/\d{2}$")


@pytest.mark.parametrize("name", sorted(GROUPS))
def test_every_group_has_ten_labelled_pairs_with_a_reason(name):
    key, groups = GROUPS[name]
    pairs = read_pairs(SHOWCASE / name)  # duplicate ids and unknown fields are refused here
    assert Counter(p.meta.get(key) for p in pairs) == dict.fromkeys(groups, 10)
    for p in pairs:
        m = ID.match(p.id)
        assert m and m["group"] == p.meta[key], p.id
        assert isinstance(p.label, bool), p.id
        reason = p.meta.get("reason", "")
        assert reason.strip() and "\n" not in reason, p.id
        for side in (p.reference, p.candidate):
            assert side.header == "import Mathlib\n", p.id
            assert side.statement.startswith("theorem ") and side.statement.endswith(":= by sorry")
    labels = {(p.meta[key], p.label) for p in pairs}
    assert all({(g, True), (g, False)} <= labels for g in groups), name
    assert 0.35 <= sum(p.label for p in pairs) / len(pairs) <= 0.65


@pytest.fixture(scope="module")
def showcase():
    """benchmarks/showcase.py (it imports its siblings bench_pair and verdict_soundness)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(ROOT / "benchmarks"))
        yield importlib.import_module("showcase")


def test_the_report_adds_up(showcase):
    pairs = [p for p in read_pairs(SHOWCASE / "index_mechanisms.jsonl")
             if p.id in ("typing/01", "typing/03", "trust/01", "trust/06")]
    report = showcase.measure(pairs, "ted")
    rows = report["pairs"]
    assert [r["id"] for r in rows] == [p.id for p in pairs]
    assert set(report["groups"]) == {"typing", "trust"}
    assert sum(g["pairs"] for g in report["groups"].values()) == len(pairs)
    assert report["right"] == sum(r["right"] for r in rows) == \
        sum(g["right"] for g in report["groups"].values())
    text = showcase.render(report)
    assert "### typing" in text and "### trust" in text
    assert all(f"| {p.id} |" in text for p in pairs)


def test_a_pair_without_a_group_is_refused(showcase):
    pair = read_pairs(SHOWCASE / "index_mechanisms.jsonl")[0]
    bare = pair.model_copy(update={"meta": {"reason": "x"}})
    with pytest.raises(ValueError, match="no meta.mechanism or meta.family"):
        showcase.group_of(bare)
