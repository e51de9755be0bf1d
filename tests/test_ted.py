"""TED, TED similarity, cost models and the memo (transted.pipeline.ted).

Expected distances are derived by hand (stated next to each case) or from the Zhang–Shasha
paper's worked example; backends are cross-checked against the zss reference.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import transted.pipeline.ted as ted_pkg
from transted.pipeline.opt.node import Node
from transted.pipeline.ted import (
    BACKENDS,
    PerOperationCost,
    TEDBackend,
    TreeEditDistance,
    UnitCost,
    similarity_from,
    ted_similarity,
)
from transted.pipeline.ted.backends import flatten
from transted.signature import Signature

T = Node.from_text
ALL = list(BACKENDS)


def chain(n: int, label: str = "a") -> Node:
    node = Node(label)
    for _ in range(n - 1):
        node = Node(label, (node,))
    return node


def star(n: int, label: str = "a") -> Node:
    return Node(label, tuple(Node(label) for _ in range(n - 1)))


# (t1, t2, distance, why)
CASES = [
    ("{a}", "{a}", 0, "identical single nodes"),
    ("{a}", "{b}", 1, "one rename"),
    ("{a}", "{a{b}}", 1, "insert one leaf"),
    ("{a{b}{c}}", "{a{b}{c}}", 0, "identical trees"),
    ("{<SLOT> + <SLOT>{a}{b}}", "{<SLOT> + <SLOT>{b}{a}}", 2, "swapped operands: two renames"),
    ("{<SLOT> + <SLOT>{a}{b}}", "{<SLOT> * <SLOT>{a}{b}}", 1, "other operator: one rename"),
    ("{a{b}{c}{d}}", "{a{c}{d}}", 1, "delete the first child"),
    ("{a{b{c}{d}}}", "{a{c}{d}}", 1, "delete an inner node: its children move up"),
    ("{x}", "{a{b}{c}}", 3, "rename the root, insert two leaves"),
    # Zhang & Shasha (1989), Fig. 1 / zss README: f(d(a, c(b)), e) -> f(c(d(a, b)), e)
    ("{f{d{a}{c{b}}}{e}}", "{f{c{d{a}{b}}}{e}}", 2, "Zhang-Shasha example"),
    ("{a\\{}", "{a\\}}", 1, "escaped braces are labels like any other"),
]


@pytest.mark.parametrize("backend", ALL)
@pytest.mark.parametrize(("a", "b", "expected", "why"), CASES, ids=[c[3] for c in CASES])
def test_distance_table(backend: str, a: str, b: str, expected: int, why: str) -> None:
    ted = TreeEditDistance(backend=backend, cache_size=0)
    assert ted(T(a), T(b)) == expected
    assert ted(T(b), T(a)) == expected


@pytest.mark.parametrize("backend", ALL)
@pytest.mark.parametrize("n", [5, 8])
def test_chain_against_star_exceeds_the_larger_size(backend: str, n: int) -> None:
    # Mapped nodes must keep ancestry: chain nodes are pairwise ancestor-related, star
    # leaves are not, so at most the root and one leaf map: (n - 2) deletions + (n - 2)
    # insertions.
    d = TreeEditDistance(backend=backend)(chain(n), star(n))
    assert d == 2 * n - 4
    assert similarity_from(d, n, n) == 0.0  # clipped: 1 - (2n - 4)/n < 0 for n > 4


def test_similarity_definition() -> None:
    # ASSESS Definition 3 with d = 1, sizes 2 and 2
    r = ted_similarity(T("{f <SLOT>{x}}"), T("{f <SLOT>{y}}"))
    assert (r.distance, r.size1, r.size2, r.similarity) == (1.0, 2, 2, 0.5)
    r = ted_similarity(T("{a}"), T("{a{b}{c}{d}}"))
    assert r.similarity == pytest.approx(1 - 3 / 4)
    assert ted_similarity(T("{a{b}}"), T("{a{b}}")).similarity == 1.0


def test_similarity_from_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="`size1`"):
        similarity_from(1, 0, 3)
    with pytest.raises(ValueError, match="`distance`"):
        similarity_from(-1, 2, 3)


def test_result_signature_names_backend_cost_and_extra_options() -> None:
    r = ted_similarity(T("{a}"), T("{b}"), backend="zss", signature_options={"parser": "1"})
    sig = Signature.parse(r.signature)
    assert sig.metric == "ted"
    fields = sig.as_dict()
    assert fields["backend"] == r.backend and r.backend.startswith("zss-")
    assert fields["cost"] == "unit" and fields["parser"] == "1"
    assert list(fields).index("parser") < list(fields).index("backend")
    assert r.as_dict()["similarity"] == 0.0


# -- cost models -------------------------------------------------------------------------

@pytest.mark.parametrize("backend", ALL)
def test_per_operation_costs(backend: str) -> None:
    cost = PerOperationCost(insert=2, delete=3, rename=0.5)
    ted = TreeEditDistance(backend=backend, cost=cost)
    assert ted(T("{a}"), T("{b}")) == 0.5
    assert ted(T("{a}"), T("{a{b}}")) == 2  # one insertion
    assert ted(T("{a{b}}"), T("{a}")) == 3  # one deletion
    # renaming costs more than deleting and inserting: 4 + 4 < 10
    expensive = TreeEditDistance(backend=backend, cost=PerOperationCost(insert=4, delete=4, rename=10))
    assert expensive(T("{r{a}}"), T("{r{b}}")) == 8


def test_cost_validation() -> None:
    with pytest.raises(ValueError, match="`insert`"):
        PerOperationCost(insert=0)
    with pytest.raises(ValueError, match="`delete`"):
        PerOperationCost(delete=float("inf"))
    with pytest.raises(ValueError, match="`rename`"):
        PerOperationCost(rename=-1)
    with pytest.raises(TypeError, match="`rename`"):
        PerOperationCost(rename=True)  # type: ignore[arg-type]
    assert PerOperationCost().is_unit and PerOperationCost().describe() == "unit"
    assert not PerOperationCost(insert=2, delete=1).symmetric
    with pytest.raises(TypeError, match="`cost`"):
        TreeEditDistance(cost="unit")  # type: ignore[arg-type]


class _UnitOnly(TEDBackend):
    name = "unit-only"
    distribution = "transted"
    supports_costs = False

    def _distance(self, t1: Node, t2: Node, cost: object) -> float:
        return float(BACKENDS["edist"]()._distance(t1, t2, UnitCost()))


def test_unit_only_backend_rejects_non_unit_costs() -> None:
    assert TreeEditDistance(backend=_UnitOnly(), cost=PerOperationCost())(T("{a}"), T("{b}")) == 1
    with pytest.raises(ValueError, match="`cost`.*unit-only"):
        TreeEditDistance(backend=_UnitOnly(), cost=PerOperationCost(rename=2))


def test_unknown_backend_and_bad_arguments() -> None:
    with pytest.raises(ValueError, match="`backend`.*'nope'"):
        TreeEditDistance(backend="nope")
    with pytest.raises(TypeError, match="`backend`"):
        TreeEditDistance(backend=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="`cache_size`"):
        TreeEditDistance(cache_size=-1)
    with pytest.raises(TypeError, match="`t2`"):
        TreeEditDistance()(T("{a}"), "{a}")  # type: ignore[arg-type]


# -- memo --------------------------------------------------------------------------------

def test_memo_counts_hits_and_evicts_least_recently_used() -> None:
    ted = TreeEditDistance(cache_size=2)
    a, b, c = T("{a}"), T("{b{c}}"), T("{c{d}{e}}")
    assert ted(a, b) == 2
    assert ted(a, b) == 2  # identity level
    assert ted(T("{a}"), T("{b{c}}")) == 2  # equal copies: text level
    assert ted(b, a) == 2  # symmetric unit cost: the reversed pair shares the entry
    assert ted.cache_info().hits == 3 and ted.cache_info().misses == 1
    ted(a, c)
    ted(b, c)  # third distinct pair: (a, b) is evicted
    assert ted.cache_info().currsize == 2
    ted(T("{a}"), T("{b{c}}"))
    assert ted.cache_info().misses == 4
    ted.cache_clear()
    assert ted.cache_info() == (0, 0, 2, 0)


def test_memo_keeps_orders_apart_for_asymmetric_costs() -> None:
    ted = TreeEditDistance(cost=PerOperationCost(insert=1, delete=5))
    small, big = T("{a}"), T("{a{b}}")
    assert ted(small, big) == 1
    assert ted(big, small) == 5


def test_memo_distinguishes_trees_that_print_alike_without_escapes() -> None:
    ted = TreeEditDistance()
    assert ted(T("{a\\{b\\}}"), T("{a{b}}")) == 2


# -- deep trees --------------------------------------------------------------------------

@pytest.mark.slow
def test_deep_trees_do_not_overflow() -> None:
    deep = chain(5000)
    changed = Node("b", deep.children)
    r = ted_similarity(deep, changed, backend="edist")
    assert (r.distance, r.size1, r.similarity) == (1, 5000, 1 - 1 / 5000)
    labels, adj = flatten(deep)
    assert len(labels) == 5000 and adj[-1] == [] and adj[0] == [1]


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["zss", "apted"])
def test_deep_tree_on_python_backends(backend: str) -> None:
    # chain(5000) -> chain(3): keep 3 nodes, delete 4997
    assert TreeEditDistance(backend=backend)(chain(5000), chain(3)) == 4997


def test_public_names_are_pinned() -> None:
    assert sorted(ted_pkg.__all__) == sorted([
        "BACKENDS", "DEFAULT_BACKEND", "CostModel", "PerOperationCost", "TEDBackend",
        "TEDResult", "TreeEditDistance", "UnitCost", "backend_names", "get_backend",
        "similarity_from", "ted_similarity"])


# -- metric properties (ASSESS Definition 2: TED is a metric under unit costs) ----------

LABELS = st.sampled_from(["a", "b", "c", "<SLOT> + <SLOT>", "f <SLOT>"])
trees = st.recursive(LABELS.map(Node), lambda kids: st.builds(
    Node, LABELS, st.lists(kids, min_size=1, max_size=3).map(tuple)), max_leaves=12)
PROPS = settings(derandomize=True, max_examples=150, deadline=None)
fast = TreeEditDistance(backend="edist", cache_size=0)


@PROPS
@given(trees, trees)
def test_symmetry_identity_and_size_bounds(t1: Node, t2: Node) -> None:
    d = fast(t1, t2)
    n1, n2 = t1.size(), t2.size()
    assert d == fast(t2, t1)
    assert fast(t1, t1) == 0
    assert (d == 0) == (str(t1) == str(t2))
    assert abs(n1 - n2) <= d <= n1 + n2
    assert 0.0 <= ted_similarity(t1, t2).similarity <= 1.0


@PROPS
@given(trees, trees, trees)
def test_triangle_inequality(t1: Node, t2: Node, t3: Node) -> None:
    assert fast(t1, t3) <= fast(t1, t2) + fast(t2, t3)


@settings(derandomize=True, max_examples=60, deadline=None)
@given(trees, trees)
def test_backends_agree_with_zss_on_random_trees(t1: Node, t2: Node) -> None:
    reference = TreeEditDistance(backend="zss", cache_size=0)(t1, t2)
    for name in ("edist", "apted"):
        assert TreeEditDistance(backend=name, cache_size=0)(t1, t2) == reference
    cost = PerOperationCost(insert=1.5, delete=1.5, rename=0.75)
    reference = TreeEditDistance(backend="zss", cost=cost, cache_size=0)(t1, t2)
    for name in ("edist", "apted"):
        assert TreeEditDistance(backend=name, cost=cost, cache_size=0)(t1, t2) == pytest.approx(reference)


@pytest.mark.parametrize("backend", ALL)
def test_one_node_object_at_two_positions(backend: str) -> None:
    # a Node value may sit at several positions (interning); each position is its own node
    x = Node("x")
    shared = Node("f <SLOT> <SLOT>", (x, x))
    assert TreeEditDistance(backend=backend)(shared, T("{f <SLOT> <SLOT>{x}{y}}")) == 1
    assert TreeEditDistance(backend=backend)(shared, T("{f <SLOT> <SLOT>{x}}")) == 1
    # f(y(z, w), q(y(z, w))) has 8 nodes, f(y, q) 3: d >= 5, reached by deleting z, w and
    # the inner y(z, w)
    y = T("{y{z}{w}}")
    tree = Node("f", (y, Node("q", (y,))))
    assert TreeEditDistance(backend=backend)(tree, T("{f{y}{q}}")) == 5
