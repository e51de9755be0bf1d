"""One home for binding structure (transted.pipeline.opt.scope): every binder notation, alpha-renaming,
and the canonicaliser's cost on deep and exponential-looking inputs."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tiers import every_nth_fast

from transted.metrics.registry import get_metric
from transted.pipeline.opt import OptOptions, parse_statement, parse_term
from transted.pipeline.opt.canonical import canonical, canonical_flat, canonicalize
from transted.pipeline.opt.labels import SLOT
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.notation import load_notation
from transted.pipeline.opt.scope import BINDER_HEADS, body_index, free_names
from transted.pipeline.search.engine import search
from transted.pipeline.search.providers.offline import OfflineProvider
from transted.pipeline.ted.backends import flatten
from transted.reading.pairs import Pair, Statement

# One template per binding notation; `{x}` is the bound variable, everything else is free.
# Keys: the notation's head symbol (binder_body_prec keys of notation.yaml + the parser's own).
BINDING_TEMPLATES = {
    "∀": "∀ {x} : ℕ, p {x} ∧ 0 < {x}",
    "∀>": "∀ {x} > 0, p {x}",
    "∃": "∃ {x} : ℝ, p {x}",
    "∃!": "∃! {x} : ℤ, p {x}",
    "Π": "Π {x} : ℕ, p {x}",
    "fun": "fun {x} => f {x} + 1",
    "λ": "λ {x} => f {x}",
    "fun-typed": "fun ({x} : ℝ) => f {x}",
    "∑": "∑ {x} ∈ s, f {x}",
    "∏": "∏ {x} ∈ Finset.range n, f {x}",
    "∑'": "∑' {x}, f {x}",
    "∏'": "∏' {x} : ℕ, f {x}",
    "⋃": "⋃ {x}, s {x}",
    "⋂": "⋂ {x} ∈ t, s {x}",
    "⨆": "⨆ {x}, f {x}",
    "⨅": "⨅ {x} : ℕ, f {x}",
    "∫": "∫ {x} in a..b, f {x}",
    "∫-measure": "∫ {x}, f {x} ∂μ",
    "set-builder": "{{{x} | p {x}}}",
    "set-builder-typed": "{{{x} : ℝ | 0 < {x}}}",
    "set-builder-mem": "{{{x} ∈ s | p {x}}}",
    "subtype": "{{{x} // p {x}}}",
    "let": "let {x} := 2; f {x} = {x}",
    "have": "have {x} : p := h; q {x}",
    "dependent-arrow": "({x} : ℕ) → p {x}",
    "exists-word": "∃ {x} {x}', p {x} {x}'",
}
_NAMES = ["n", "m", "k", "y", "z", "u", "v", "hx", "i'", "α₁"]


def test_every_notation_file_binder_has_a_template():
    heads = {key.split("-")[0].rstrip(">") for key in BINDING_TEMPLATES}
    assert set(load_notation().binder_body_prec) <= heads


def test_every_template_parses_to_a_binding_label():
    for name, text in BINDING_TEMPLATES.items():
        tree = parse_term(text.format(x="x"))
        labels = [n.label for n in tree.preorder()]
        assert any(body_index(lab) is not None for lab in labels), (name, labels)


@pytest.mark.parametrize("key", every_nth_fast(sorted(BINDING_TEMPLATES), 3))
def test_renaming_the_bound_variable_gives_distance_zero_in_ted_and_transted(key):
    text = BINDING_TEMPLATES[key]
    a, b = text.format(x="x"), text.format(x="w")
    assert a != b
    ted = get_metric("ted", canonical_names=True)
    pair = Pair(id=key, reference=Statement(statement=f"example : {a} := sorry"),
                candidate=Statement(statement=f"example : {b} := sorry"))
    result = ted.score_pair(pair)
    assert result.error is None and result.details["distance"] == 0, (key, result)
    found = search(parse_term(a), parse_term(b), OfflineProvider())
    assert found.distance == 0 and found.status == "found", key
    assert get_metric("transted").score_pair(pair).score == 1.0


@settings(derandomize=True, max_examples=80, deadline=None)
@given(st.sampled_from(sorted(BINDING_TEMPLATES)), st.sampled_from(_NAMES),
       st.sampled_from(_NAMES))
def test_alpha_renaming_property(key, x, y):
    a = parse_term(BINDING_TEMPLATES[key].format(x=x))
    b = parse_term(BINDING_TEMPLATES[key].format(x=y))
    assert canonicalize(a) == canonicalize(b)
    assert canonical_flat(a) == canonical_flat(b)
    assert canonical_flat(a) == flatten(canonical(a))


@pytest.mark.parametrize("a, b", [
    ("∑' n, f n", "∑' n, g n"),
    ("{x // p x}", "{x // q x}"),
    ("∑' n, f n m", "∑' m, f m m"),   # the free m must not be captured
    ("∫ x, f x ∂μ", "∫ x, f x ∂x"),  # ∂μ is outside the binder's scope
])
def test_non_alpha_equivalent_binders_stay_apart(a, b):
    assert canonicalize(parse_term(a)) != canonicalize(parse_term(b))
    assert search(parse_term(a), parse_term(b), OfflineProvider()).distance > 0


def test_measure_after_the_body_is_free():
    assert free_names(parse_term("∫ x, f x ∂x")) == {"f", "x"}


def test_statement_form_binders_scope_over_later_binders():
    opts = OptOptions(canonical_names=True, proposition=False)
    a = parse_statement("theorem a (x : ℕ) (h : 0 < x) : ∃ z, x + z = 1 := sorry", options=opts)
    b = parse_statement("theorem b (m : ℕ) (k : 0 < m) : ∃ w, m + w = 1 := sorry", options=opts)
    assert a == b
    assert str(a).startswith("{theorem{<SLOT> : <SLOT>{#1}{ℕ}}{<SLOT> : <SLOT>{#2}"
                             "{<SLOT> < <SLOT>{0}{#1}}}")


def _quantifier_chain(levels: int, swapped: bool) -> str:
    pair = ("∃ y : ℕ, ", "∀ x : ℕ, ") if swapped else ("∀ x : ℕ, ", "∃ y : ℕ, ")
    return "".join(pair) * levels + "True"


def test_nested_unused_binders_canonicalise_in_linear_time():
    # issue 14: 22 nested `∀ x : ℕ, ∃ y : ℕ,` took 115 s (time doubled per level)
    a = parse_term(_quantifier_chain(22, False))
    b = parse_term(_quantifier_chain(22, True))
    t = time.perf_counter()
    ca, cb = canonical_flat(a), canonical_flat(b)
    assert time.perf_counter() - t < 1.0  # measured ~1 ms; generous ceiling
    # every ∀ is unused and typed: Lean's arrow; every ∃ keeps its binder
    assert ca[0].count(f"{SLOT} → {SLOT}") == 22 and ca[0].count(f"∃ {SLOT}, {SLOT}") == 22
    assert ca != cb
    t = time.perf_counter()
    result = search(a, b, OfflineProvider())
    assert time.perf_counter() - t < 20.0
    assert result.status in ("found", "exhausted", "timeout")


def test_five_thousand_deep_trees_do_not_recurse():
    depth = 5000
    tree = Node("p")
    for i in range(depth):
        tree = Node(f"∀ {SLOT}, {SLOT}", (Node(f"x{i % 3}"), tree))
    labels, adj = canonical_flat(tree)
    assert len(labels) == 2 * depth + 1
    assert labels[-1] == "p" and labels[-2] == f"#{depth}"
    assert free_names(tree) == {"p"}
    deep_sum = Node("0")
    for _ in range(depth):
        deep_sum = Node(f"{SLOT} + {SLOT}", (deep_sum, Node("x")))
    assert canonical(deep_sum).size() == 2 * depth + 1


def test_binder_heads_cover_the_parser():
    # every binder label the parser can produce starts with a known head
    for text in BINDING_TEMPLATES.values():
        for node in parse_term(text.format(x="x")).preorder():
            if node.label.startswith(("∀", "∃", "fun", "∑", "∏", "⋃", "⋂", "⨆", "⨅", "∫",
                                      "let", "have")) and node.children:
                assert node.label.startswith(BINDER_HEADS), node.label


def _renamed_by_hand(tree: Node, env: dict[str, str]) -> Node:
    """Reference for binder-free trees: leaves and application heads in ``env`` renamed."""
    if tree.is_leaf:
        return Node(env.get(tree.label, tree.label))
    head, _, rest = tree.label.partition(" ")
    label = tree.label
    if head in env and rest == " ".join([SLOT] * len(tree.children)):
        label = f"{env[head]} {rest}"
    return Node(label, tuple(_renamed_by_hand(c, env) for c in tree.children))


_LEAVES = st.sampled_from(["x", "y", "z", "0", "1"])
_BINDER_FREE = st.recursive(_LEAVES.map(Node), lambda kids: st.one_of(
    st.tuples(st.sampled_from([f"{SLOT} + {SLOT}", f"{SLOT} = {SLOT}", f"f {SLOT} {SLOT}",
                               f"x {SLOT} {SLOT}"]), kids, kids).map(
        lambda t: Node(t[0], (t[1], t[2]))),
    st.tuples(st.sampled_from([f"-{SLOT}", f"y {SLOT}"]), kids).map(
        lambda t: Node(t[0], (t[1],)))), max_leaves=12)


@settings(derandomize=True, max_examples=120, deadline=None)
@given(_BINDER_FREE, st.dictionaries(st.sampled_from(["x", "y"]),
                                     st.sampled_from(["#1", "#2"]), max_size=2))
def test_binder_free_canonical_form_renames_exactly_the_bound_names(tree, env):
    # the leaf-only fast path and the task path must agree with a plain recursive renaming
    assert canonical_flat(tree, env, len(env)) == flatten(_renamed_by_hand(tree, env))


def test_leaf_children_under_binders_keep_their_order_and_levels():
    # worked by hand: x, y are the first and second binders; z is free
    flat = canonical_flat(parse_term("∀ x : ℕ, ∀ y : ℕ, x + y = f y z"))
    assert flat[0][8:] == ["<SLOT> = <SLOT>", "<SLOT> + <SLOT>", "#1", "#2",
                           "f <SLOT> <SLOT>", "#2", "z"]
    assert flat[1][8:] == [[9, 12], [10, 11], [], [], [13, 14], [], []]
