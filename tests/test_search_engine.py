"""The best-first search (ASSESS Algorithm 1) on small goals built with Node.from_text."""

from __future__ import annotations

import networkx as nx
import pytest
import zss

from transted.pipeline.opt import parse_term
from transted.pipeline.opt.node import Node
from transted.pipeline.search.distance import tree_distance
from transted.pipeline.search.engine import SearchConfig, search
from transted.pipeline.search.graph import write_graph
from transted.pipeline.search.providers.base import Move
from transted.pipeline.search.providers.offline import OfflineProvider
from transted.pipeline.search.state import State

ADD = "<SLOT> + <SLOT>"


def _zss(a: Node, b: Node) -> int:
    def conv(n: Node) -> zss.Node:
        z = zss.Node(n.label)
        for c in n.children:
            z.addkid(conv(c))
        return z
    return int(zss.simple_distance(conv(a), conv(b)))


@pytest.mark.parametrize("a, b", [
    ("{f}", "{f}"), ("{f}", "{g}"), ("{f{a}{b}}", "{f{b}{a}}"),
    ("{f{a{b}{c}}{d}}", "{g{d}{a{c}}}"), ("{x{y{z}}}", "{x}"),
])
def test_tree_distance_matches_zss(a, b):
    assert tree_distance(Node.from_text(a), Node.from_text(b)) == _zss(Node.from_text(a),
                                                                         Node.from_text(b))


class SwapProvider:
    """A toy provider: swap the operands of any top-level `+` (a sound move for ℕ)."""

    name = "swap"

    def options(self):
        return {}

    def moves(self, state):
        for side in ("lhs", "rhs"):
            tree = getattr(state, side)
            if tree.label == ADD:
                new = tree.with_children(tree.children[::-1])
                other = state.rhs if side == "lhs" else state.lhs
                pair = (new, other) if side == "lhs" else (other, new)
                yield Move("add_comm", f"rw [add_comm] -- {side}", State(*pair))


def test_swap_closes_the_goal_with_distance_zero():
    a = Node.from_text("{<SLOT> + <SLOT>{a}{b}}")
    b = Node.from_text("{<SLOT> + <SLOT>{b}{a}}")
    result = search(a, b, SwapProvider())
    assert result.start_distance == 2  # two relabels
    assert result.distance == 0 and result.status == "found"
    assert [s.name for s in result.path] == ["add_comm"]
    assert result.script[-1] == "rfl"


def test_no_moves_means_plain_ted_and_exhausted():
    a, b = Node.from_text("{f{a}}"), Node.from_text("{g{a}{c}}")
    result = search(a, b, [])
    assert result.distance == tree_distance(a, b) == 2
    assert result.status == "exhausted" and result.path == ()


def test_alpha_renaming_is_free():
    a = parse_term("∀ x : ℝ, x = x")
    b = parse_term("∀ y : ℝ, y = y")
    result = search(a, b, [])
    assert result.start_distance == 3  # x → y in the binder and both occurrences
    assert result.distance == 0 and result.status == "found"


def test_distance_never_exceeds_raw_ted_and_search_is_deterministic():
    a = parse_term("∀ x y : ℝ, x ≥ y → x * y > 0")
    b = parse_term("∀ u v : ℝ, v ≤ u → 0 < v * u")
    provider = OfflineProvider()
    config = SearchConfig(max_expansions=40, max_time=None)
    first = search(a, b, provider, config=config)
    second = search(a, b, provider, config=config)
    assert first.distance <= first.start_distance
    assert first.distance == 0
    assert first.script == second.script
    assert [s.state.key for s in first.path] == [s.state.key for s in second.path]


def test_budget_zero_expands_nothing():
    a, b = parse_term("a ∧ b"), parse_term("b ∧ a")
    result = search(a, b, OfflineProvider(), config=SearchConfig(max_expansions=0))
    assert result.stats["expanded"] == 0 and result.distance == 2


@pytest.mark.parametrize("field, value", [("max_expansions", -1), ("queue_cap", 1.5),
                                          ("max_time", 0), ("max_depth", True)])
def test_config_rejects_bad_values_naming_the_field(field, value):
    with pytest.raises(ValueError, match=f"`{field}`"):
        SearchConfig(**{field: value})


def test_path_is_a_shortest_path_in_the_exported_graph(tmp_path):
    a = parse_term("(p ∧ q) ∧ r → s")
    b = parse_term("q → p → r → s")
    result = search(a, b, OfflineProvider(), config=SearchConfig(max_expansions=30))
    graph = result.graph
    assert isinstance(graph, nx.DiGraph)
    assert result.distance == 0 and result.path
    best = [i for i, st in enumerate(result.stats["_states"]) if st.key == result.best.key][0]
    assert len(result.path) == nx.shortest_path_length(graph, 0, best)
    out = tmp_path / "g.graphml"
    write_graph(result, out)
    back = nx.read_graphml(out)
    assert back.number_of_nodes() == graph.number_of_nodes()
    dot = tmp_path / "g.dot"
    write_graph(result, dot)
    assert dot.read_text().startswith("digraph")


class RenameProvider:
    """A toy provider that changes nothing: the goal stays as given."""

    name = "none"

    def options(self):
        return {}

    def moves(self, state):
        return iter(())


def test_a_distance_of_zero_is_not_a_closed_goal():
    # cost=semantic renames numerals of the same value for free (2 ↔ 2.0), yet `7 / 2 = 3`
    # is about ℕ and `7 / 2.0 = 3` about Float: distance 0, but the goal is not closed
    from transted.metrics.registry import get_metric

    ted = get_metric("transted", cost="semantic").pipeline.distance.goal_distance  # type: ignore[attr-defined]
    lhs, rhs = parse_term("7 / 2 = 3"), parse_term("7 / 2.0 = 3")
    result = search(lhs, rhs, RenameProvider(), ted=ted)
    assert result.distance == 0 and result.status == "exhausted"
    # identical canonical sides (bound names aside) are closed, by rfl
    same = search(parse_term("∀ x : ℕ, x = x"), parse_term("∀ y : ℕ, y = y"), RenameProvider(),
                  ted=ted)
    assert same.status == "found" and same.script == ["rfl"]
