"""Semantic cost model, hypotheses as units, costed edits (transted.pipeline.ted.semantic/hypotheses/edits).

Expected distances are derived by hand from the packaged table's weights (read from the table,
so a change of a weight changes the expectation, not the test's logic)."""

from __future__ import annotations

import hashlib
import math
from importlib import resources
from pathlib import Path

import pytest
import zss

from transted.errors import InputError, TranstedError
from transted.metrics.ted import TEDSimilarity
from transted.pipeline.opt import parse_statement
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.parts import statement_parts
from transted.pipeline.ted import TreeEditDistance
from transted.pipeline.ted.edits import costed_edits
from transted.pipeline.ted.hypotheses import (
    HypothesisAlignedDistance,
    align,
    load_unit_costs,
)
from transted.pipeline.ted.semantic import SemanticCost, load_cost_table
from transted.pipeline.ted.statement_distance import (
    SemanticDistance,
    UnitDistance,
    statement_distance,
)
from transted.reading.pairs import Pair, Statement, read_pairs

DATA = Path(__file__).parent / "data"

COST = SemanticCost()
W = {name: c for name, c in COST.table.classes.items()}
UNITS = load_unit_costs()


def S(text: str) -> Node:
    return parse_statement(text)


def test_renames_follow_the_table():
    assert COST.rename("<SLOT> < <SLOT>", "<SLOT> ≤ <SLOT>") == W["relation"].rename
    assert COST.rename("ℕ", "ℝ") == W["type"].rename
    assert COST.rename("2", "3") == W["numeral"].rename
    assert COST.rename("2", "2.0") == 0.0  # the same value
    assert COST.rename("Real.sqrt <SLOT>", "sqrt <SLOT>") == W["namespace"].rename
    assert COST.rename("Nat.sqrt <SLOT>", "Real.sqrt <SLOT>") == W["function"].rename
    assert COST.rename("x", "y") == W["variable"].rename
    # a changed numeral costs at least a full unit, and more than any notation difference
    assert W["numeral"].rename >= 1.0
    assert W["numeral"].rename > max(W["notation"].rename, W["namespace"].rename)
    # meaning changes cost more than notation-only ones
    for cls in ("relation", "logic", "quantifier", "type", "numeral"):
        assert W[cls].rename > W["variable"].rename and W[cls].rename > W["notation"].rename


def test_relation_change_distance_derived_by_hand():
    a = S("theorem t (x : ℝ) (h : 1 < x) : Real.sqrt x < x")
    b = S("theorem t (x : ℝ) (h : 1 < x) : Real.sqrt x ≤ x")
    d, sim = SemanticDistance().similarity(a, b)
    assert d == W["relation"].rename
    # M = one binder + one hypothesis + conclusion {<}{Real.sqrt{x}}{x}
    conclusion = W["relation"].weight + W["function"].weight + 2 * W["variable"].weight
    norm = UNITS.binder + UNITS.hypothesis + conclusion
    assert sim == pytest.approx(1 - d / norm)


def test_dropped_hypothesis_costs_its_fixed_unit_whatever_its_size():
    ted = TreeEditDistance(cost=COST)
    h = HypothesisAlignedDistance(ted, COST)
    base = "theorem t (a b : ℝ) (ha : 0 < a) {} : a + b = b + a"
    short = h(S(base.format("(hb : 0 < b)")), S(base.format("")))
    long = h(S(base.format("(hb : 0 < b ^ 2 + a * b + 17 * a ^ 3)")), S(base.format("")))
    assert short == long == UNITS.hypothesis


def test_hypothesis_order_does_not_matter():
    ted = TreeEditDistance(cost=COST)
    h = HypothesisAlignedDistance(ted, COST)
    a = S("theorem t (a b : ℝ) (ha : 0 < a) (hb : b < 1) : a * b < a")
    b = S("theorem t (a b : ℝ) (hb : b < 1) (ha : 0 < a) : a * b < a")
    assert h(a, b) == 0.0


def test_align_prefers_unmatching_when_a_match_is_dearer():
    x, y = Node("x"), Node("y")
    cost, pairs = align([x], [y], lambda a, b: 10.0, unmatched=3.0)
    assert cost == 6.0 and sorted(pairs, key=str) == sorted([(0, None, 3.0), (None, 0, 3.0)], key=str)
    cost, pairs = align([x], [y], lambda a, b: 5.0, unmatched=3.0)
    assert cost == 5.0 and pairs == [(0, 0, 5.0)]


def test_statement_parts():
    p = statement_parts(S("theorem t (x : ℝ) (h : 0 < x) (k : ℕ) : x ^ k > 0"))
    assert len(p.binders) == 2 and len(p.hypotheses) == 1
    assert [q.path for q in p.binders] == [(0,), (1, 1, 0)] and p.hypotheses[0].path == (1, 0)
    assert p.conclusion.node == S("theorem t (x : ℝ) (k : ℕ) : 0 < x ^ k").children[1].children[1]


def test_unit_cost_reproduces_assess_exactly():
    # 1 - TED/max(|T1|,|T2|) with zss's own unit-cost Zhang–Shasha, independent of edist
    pairs = read_pairs(DATA / "gted" / "proofnet.jsonl")[:15]
    metric = TEDSimilarity(cost="unit")
    checked = 0
    for pair in pairs:
        try:
            ref, cand = metric.trees(pair)
        except TranstedError:
            continue
        checked += 1
        d = zss.simple_distance(ref, cand, get_children=lambda n: list(n.children),
                                get_label=lambda n: n.label)
        expected = max(0.0, 1 - d / max(ref.size(), cand.size()))
        assert metric.score_pair(pair).score == pytest.approx(expected)
    assert checked >= 10


def test_semantic_similarity_in_unit_interval_and_edits_add_up():
    pairs = read_pairs(DATA / "gted" / "proofnet.jsonl")[:12]
    metric = TEDSimilarity(cost="semantic")
    for pair in pairs:
        result = metric.score_pair(pair)
        if result.score is None:
            continue
        assert 0.0 <= result.score <= 1.0
        ref, cand = metric.trees(pair)
        edits = costed_edits(ref, cand, SemanticDistance())
        assert math.isclose(sum(e.cost for e in edits), result.details["distance"])


def test_unit_edits_add_up_to_ted():
    a = S("theorem t (a b : ℝ) (ha : 0 < a) (hb : 0 < b) : a / b + b / a ≥ 2")
    b = S("theorem t (a b : ℝ) (ha : 0 < a) : a / b + b / a ≥ 3")
    edits = costed_edits(a, b, UnitDistance())
    assert sum(e.cost for e in edits) == TreeEditDistance()(a, b) == 5.0
    sem = costed_edits(a, b, SemanticDistance())
    assert {(e.op, e.kind) for e in sem} == {("unmatched", "hypothesis"), ("rename", "numeral")}


def test_signature_pins_the_table():
    text = resources.files("transted.pipeline.ted").joinpath("costs", "semantic.yaml").read_bytes()
    sha = hashlib.sha256(text).hexdigest()
    assert sha[:16] in TEDSimilarity(cost="semantic").options()["cost"]
    assert TEDSimilarity().options()["cost"] == "unit"


def test_bad_table_is_rejected(tmp_path):
    bad = tmp_path / "bad.yaml"
    text = resources.files("transted.pipeline.ted").joinpath("costs", "semantic.yaml").read_text("utf-8")
    bad.write_text(text.replace("rename: 3.0", "rename: 9.0", 1), encoding="utf-8")
    with pytest.raises(InputError, match="relation"):
        load_cost_table(bad)
    with pytest.raises(ValueError, match="cost"):
        statement_distance("fancy")


def test_metric_reports_auto_bound():
    pair = Pair(id="p", reference=Statement(statement="theorem t (x : ℝ) : x + y = 1"),
                candidate=Statement(statement="theorem t (x y : ℝ) : x + y = 1"))
    result = TEDSimilarity().score_pair(pair)
    assert result.details["auto_bound"] == {"reference": ["y"]}


def test_metric_lists_the_costed_edits_of_a_pair():
    pair = Pair(id="p", reference=Statement(statement="theorem t (x : ℝ) (h : 1 < x) : √x < x"),
                candidate=Statement(statement="theorem t (x : ℝ) (h : 1 < x) : √x ≤ x"))
    metric = TEDSimilarity(cost="semantic")
    edits = costed_edits(*metric.trees(pair), metric.pipeline.distance)
    assert [(e.op, e.where, e.kind, e.reference, e.candidate) for e in edits] == [
        ("rename", "conclusion", "relation", "· < ·", "· ≤ ·")]
    assert edits[0].cost == metric.score_pair(pair).details["distance"] == W["relation"].rename
