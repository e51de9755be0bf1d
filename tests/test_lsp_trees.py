"""GTED's Lean-LSP trees as our Node (transted.pipeline.opt.lsp_trees) and TED agreement on them.

The agreement figure checked here is the one issue 2 quotes for TED similarity on the LSP
trees of the 93 dev pairs: kappa 0.418, accuracy 71.0% at the best threshold.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, cohen_kappa_score

from transted.errors import InputError
from transted.pipeline.opt.lsp_trees import SPECIAL_LABELS, _by_rules, lsp_tree_to_node, map_label
from transted.pipeline.opt.node import Node
from transted.pipeline.ted import ted_similarity
from transted.reading.pairs import read_pairs

DEV = Path(__file__).parent / "data" / "gted" / "proofnet.jsonl"
PAIRS = read_pairs(DEV)


def gted(content: str, *children: dict[str, Any]) -> dict[str, Any]:
    return {"content": content, "children": list(children)}


# (GTED content, children, our label) — ours from the conventions in docs/INTERNALS.md
LABELS = [
    (" _ = _ ", 2, "<SLOT> = <SLOT>"),
    (" _ → _ ", 2, "<SLOT> → <SLOT>"),
    ("∀ _ , _ ", 2, "∀ <SLOT>, <SLOT>"),
    ("∃! _ , _ ", 2, "∃! <SLOT>, <SLOT>"),
    ("fun _ => _ ", 2, "fun <SLOT> => <SLOT>"),
    ("{ _ : _ }", 2, "{<SLOT> : <SLOT>}"),
    ("[ _ : _ ]", 2, "[<SLOT> : <SLOT>]"),
    ("f _ ", 1, "f <SLOT>"),
    ("Tendsto _  _  _ ", 3, "Tendsto <SLOT> <SLOT> <SLOT>"),
    ("_._", 2, "<SLOT>.<SLOT>"),
    ("¬", 1, "¬<SLOT>"),
    ("↑", 1, "↑<SLOT>"),
    ("‖‖", 1, "‖<SLOT>‖"),
    ("||", 1, "|<SLOT>|"),
    ("⁻¹", 1, "<SLOT>⁻¹"),
    ("[]", 1, "[<SLOT>]"),
    ("=", 2, "<SLOT> = <SLOT>"),
    ("Type _ u_1", 0, "Type u_1"),  # a leaf: `_` marks no operand; u_1 keeps its underscore
    ("hg'_ne_0", 0, "hg'_ne_0"),
    ("x", 0, "x"),
    ("theorem", 3, "theorem"),
]


@pytest.mark.parametrize(("content", "arity", "ours"), LABELS)
def test_map_label(content: str, arity: int, ours: str) -> None:
    assert map_label(content, arity) == ours


def test_special_labels_have_one_slot_per_child_and_are_needed() -> None:
    for (content, arity), ours in SPECIAL_LABELS.items():
        assert ours.count("<SLOT>") == arity, content
        assert _by_rules(content, arity) != ours, content


def test_conversion_keeps_structure() -> None:
    obj = gted("theorem", gted(" _ : _ ", gted("x", ), gted("ℝ")),
               gted("¬", gted(" _ < _ ", gted("‖‖", gted("x")), gted("1"))))
    expected = Node.from_text(
        "{theorem{<SLOT> : <SLOT>{x}{ℝ}}{¬<SLOT>{<SLOT> < <SLOT>{‖<SLOT>‖{x}}{1}}}}")
    assert lsp_tree_to_node(obj) == expected
    raw = lsp_tree_to_node(obj, map_labels=False)
    assert raw.labels() == ["theorem", " _ : _ ", "x", "ℝ", "¬", " _ < _ ", "‖‖", "x", "1"]


def test_big_operator_over_a_bounded_binder() -> None:
    obj = gted("∑ _  _ , _ ", gted("i"), gted("∈", gted("range _ ", gted("n"))), gted("i"))
    assert str(lsp_tree_to_node(obj)) == "{∑ <SLOT> ∈ <SLOT>, <SLOT>{i}{range <SLOT>{n}}{i}}"


def test_errors_name_the_node() -> None:
    with pytest.raises(InputError, match=r"root\.children\[1\]: `content`"):
        lsp_tree_to_node(gted("f _  _ ", gted("a"), {"children": []}))
    with pytest.raises(InputError, match=r"root: `children` must be a list"):
        lsp_tree_to_node({"content": "a", "children": "b"})
    with pytest.raises(InputError, match="expected an object"):
        lsp_tree_to_node(["a"])  # type: ignore[arg-type]


def test_deep_tree() -> None:
    obj = gted("x")
    for _ in range(5000):
        obj = gted("¬", obj)
    tree = lsp_tree_to_node(obj)
    assert tree.depth() == 5001 and tree.label == "¬<SLOT>"


def test_every_dev_tree_converts_with_its_size() -> None:
    for pair in PAIRS:
        for side in ("reference", "candidate"):
            obj = pair.meta["lsp_trees"][side]
            raw, mapped = lsp_tree_to_node(obj, map_labels=False), lsp_tree_to_node(obj)
            stack, count = [obj], 0
            while stack:
                count += 1
                stack.extend(stack.pop()["children"])
            assert raw.size() == count
            # rule 6 removes one `∈` node per bounded big operator; nothing else changes size
            assert count - mapped.size() == raw.labels().count("∈") - mapped.labels().count("∈")


def _best_threshold(similarity: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """Best (kappa, accuracy) over thresholds t with 'equivalent' = similarity >= t."""
    return max((cohen_kappa_score(labels, similarity >= t), accuracy_score(labels, similarity >= t))
               for t in np.unique(similarity))


@pytest.mark.parametrize("map_labels", [False, True])
def test_agreement_on_lsp_trees_matches_the_issue(map_labels: bool) -> None:
    sims = np.array([ted_similarity(lsp_tree_to_node(p.meta["lsp_trees"]["reference"], map_labels=map_labels),
                                    lsp_tree_to_node(p.meta["lsp_trees"]["candidate"], map_labels=map_labels)
                                    ).similarity for p in PAIRS])
    labels = np.array([p.label for p in PAIRS])
    kappa, accuracy = _best_threshold(sims, labels)
    assert round(kappa, 3) == 0.418
    assert round(accuracy, 3) == 0.710
