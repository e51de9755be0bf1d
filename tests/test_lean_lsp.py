"""Hover ranges → tree assembly (the pure part of the language-server tree source).

The spans below are written by hand for the string ``a + b`` (what the GTED procedure
expects from hovers: innermost syntax range per character); they are not Lean output.
The live path is in tests/test_lean_live.py.
"""

from __future__ import annotations

import pytest

from transted.pipeline.lean.lsp import ranges_to_tree
from transted.pipeline.opt.lsp_trees import lsp_tree_to_node
from transted.pipeline.opt.node import Node


def test_binary_operator_tree():
    whole, a, b = (0, 5), (0, 1), (4, 5)
    tree = ranges_to_tree("a + b", [a, whole, whole, whole, b])
    assert tree == {"content": " _  +  _ ", "children": [{"content": "a", "children": []},
                                                         {"content": "b", "children": []}]}
    assert lsp_tree_to_node(tree) == Node.from_text("{<SLOT> + <SLOT>{a}{b}}")


def test_parentheses_are_dropped_and_nesting_follows_containment():
    text = "(a + b) * c"
    inner, whole = (1, 6), (0, 11)
    owner = [whole, (1, 2), inner, inner, inner, (5, 6), whole, whole, whole, whole, (10, 11)]
    tree = ranges_to_tree(text, owner)
    assert [c["content"] for c in tree["children"]] == [" _  +  _ ", "c"]
    assert tree["content"] == " _  *  _ "


def test_no_hover_and_length_mismatch():
    assert ranges_to_tree("ab", [None, None]) is None
    with pytest.raises(ValueError, match="`owner`"):
        ranges_to_tree("ab", [None])
