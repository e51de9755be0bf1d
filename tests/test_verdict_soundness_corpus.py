"""The issue-31 verdict soundness corpus (tests/data/verdict_soundness/pairs.jsonl): the file
itself, and the verdict rule's routes on it.

The file tests check what every pair must carry (truth label, cause, one-line reason, a witness
or an expected abstention on every false pair) and that issue 31's causes are covered. The
behavioural test is issue 31's soundness bar for the routes that must never be wrong: no pair
labelled not-equivalent is called equivalent by the evidence or by the residual edits.
"""

from __future__ import annotations

import importlib
import re
from collections import Counter
from pathlib import Path

import pytest

from transted.reading.pairs import read_pairs

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "verdict_soundness" / "pairs.jsonl"

ISSUE_CAUSES = {"binder-type", "discharge-type", "ascription-scope", "rejected-side",
                "context-commands", "vacuous", "binder-match", "search-untrusted", "gaps"}
"""Issue 31's nine causes, in its order; each needs at least ten pairs and both labels."""
EXTRA_CAUSES = {"strictness", "nat-truncation", "opaque-cluster", "coercion-placement",
                "hypothesis-drop", "quantifier", "noncomm", "junk-values", "binder-info",
                "finset-bounds", "set-builder", "imp-iff", "numeral-default", "set-order",
                "opaque-drop", "opaque-zone", "type-synonym", "norm-notation", "set-notation",
                "card", "fact", "infer-binder", "modeq-notation", "nonempty", "eta",
                "exists-unique", "setlike-coe", "bundled-map", "overload", "empty-type",
                "field-def", "fun-wrap", "coe-sort", "nhds-within",
                "var-constant"}
INDEX_REWRITE_CAUSES = {"index-typing", "index-trust", "index-hierarchy", "index-unfold",
                        "rw-lemma", "rw-conditional", "rw-subst"}
"""Issues 32 (the Mathlib declaration index) and 33 (rewrite lemmas as search moves): each new
mechanism's adversarial pairs, at least ten per cause with both labels."""
NORMALISATION_CAUSES = {"let-zeta"}
"""Normalisation steps' adversarial pairs (a step that could make two statements equal): the
zeta reduction of `let`/`have` (transted.pipeline.opt.zeta)."""
RAW_OUTPUT_CAUSES = {"context-commands"}
"""Causes whose candidates are whole translator outputs (several commands, fences, prose)."""
ID = re.compile(r"^(?P<cause>[a-z-]+)/\d{2,}$")


@pytest.fixture(scope="module")
def pairs():
    return read_pairs(CORPUS)  # schema, unknown keys and duplicate ids are refused here


def test_corpus_is_large_with_unique_ids(pairs):
    assert len(pairs) >= 150
    assert len({p.id for p in pairs}) == len(pairs)


def test_a_good_share_is_true(pairs):
    """A rule that says "not equivalent" everywhere must be visibly wrong."""
    share = Counter(p.label for p in pairs)[True] / len(pairs)
    assert 0.3 <= share <= 0.5, share


def test_every_pair_has_truth_cause_and_reason(pairs):
    for p in pairs:
        assert isinstance(p.label, bool), p.id
        assert p.meta.get("cause") in (ISSUE_CAUSES | EXTRA_CAUSES | INDEX_REWRITE_CAUSES
                                       | NORMALISATION_CAUSES), p.id
        m = ID.match(p.id)
        assert m and m["cause"] == p.meta["cause"], f"{p.id}: id must be <cause>/<nn>"
        reason = p.meta.get("reason", "")
        assert reason.strip() and "\n" not in reason, f"{p.id}: one-line reason"
        assert set(p.meta) <= {"cause", "reason", "witness", "expect", "reference_helper"}, p.id


def test_false_pairs_carry_a_witness_or_an_abstention(pairs):
    """A false pair says where its candidate fails, or that Lean rejects the candidate; a true
    pair has neither."""
    for p in pairs:
        expect = p.meta.get("expect")
        assert expect in (None, "abstain"), p.id
        if p.label:
            assert "witness" not in p.meta and expect is None, p.id
        else:
            assert bool(p.meta.get("witness")) != (expect == "abstain"), p.id


def test_every_issue_cause_has_ten_pairs_and_both_labels(pairs):
    counts = Counter(p.meta["cause"] for p in pairs)
    labels = {(p.meta["cause"], p.label) for p in pairs}
    for cause in ISSUE_CAUSES | INDEX_REWRITE_CAUSES | NORMALISATION_CAUSES:
        assert counts[cause] >= 10, (cause, counts[cause])
        assert {(cause, True), (cause, False)} <= labels, cause


OPEN_LINE = re.compile(r"open( [A-Z][\w.]*)+")


def test_sides_have_headers_and_theorem_statements(pairs):
    """A header is `import Mathlib` and, at most, `open` lines (protected and scoped names)."""
    for p in pairs:
        for side in ("reference", "candidate"):
            s = getattr(p, side)
            head, _, opens = s.header.partition("\n")
            assert head == "import Mathlib" and s.header.endswith("\n"), (p.id, side)
            assert all(OPEN_LINE.fullmatch(line) for line in opens.splitlines()), (p.id, side)
            if side == "reference" or p.meta["cause"] not in RAW_OUTPUT_CAUSES:
                assert s.statement.startswith("theorem ") and \
                    s.statement.endswith(":= by sorry"), (p.id, side)


@pytest.fixture(scope="module")
def bench():
    """benchmarks/verdict_soundness.py (the measurement tool; it imports its sibling bench_pair)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(ROOT / "benchmarks"))
        yield importlib.import_module("verdict_soundness")


@pytest.fixture(scope="module")
def transted_report(pairs, bench):
    return bench.measure(pairs, "transted")


@pytest.mark.slow
def test_every_pair_is_scored_and_the_report_adds_up(pairs, transted_report):
    """Every side extracts and parses (no result is an error), and the report's counts are
    those of its rows."""
    overall, rows = transted_report["overall"], transted_report["pairs"]
    assert [r["id"] for r in rows] == [p.id for p in pairs]
    assert overall["errors"] == 0, [r["id"] for r in rows if r["status"] != "ok"]
    assert sum(sum(c.values()) for c in overall["confusion"].values()) == len(pairs)
    assert overall["right"] == sum(r["verdict"] == r["truth"] for r in rows)
    assert sum(overall["false_called_equivalent_by_route"].values()) == \
        overall["false_called_equivalent"]


@pytest.mark.slow
def test_evidence_and_edits_never_call_a_false_pair_equivalent(transted_report):
    wrong = [(r["id"], r["route"]) for r in transted_report["pairs"]
             if r["truth"] == "not-equivalent" and r["verdict"] == "equivalent"
             and r["decided_by"] in ("evidence", "edits")]
    assert not wrong, wrong
    assert [r["id"] for r in transted_report["pairs"] if r["wrong_proved"]] == []
