"""GTED's Lean-LSP operator trees (``meta.lsp_trees`` of the dev set) as our :class:`Node`.

GTED builds its trees from the Lean language server's hover ranges; each node's ``content``
is the notation with ``_`` in operand positions (``" _ = _ "``, ``"∀ _ , _ "``,
``"f _ "``) and ``children`` are the operands. This module maps those labels to our
convention (ASSESS §3.2.1; ``docs/INTERNALS.md``) so our parser's trees can be compared
with Lean's own parse by TED:

1. a ``_`` that is not part of an identifier becomes ``<SLOT>`` (``u_1`` is kept);
2. whitespace runs collapse to one space; the label is stripped;
3. no space before ``,`` nor inside brackets: ``{ <SLOT> : <SLOT> }`` → ``{<SLOT> : <SLOT>}``;
4. in a leaf, a ``_`` marks no operand (GTED puts them inside universe levels,
   ``Type _ u_1``) and is dropped: ``Type u_1``;
5. the special cases of :data:`SPECIAL_LABELS`: operator symbols that GTED prints
   without placeholders (``¬``, ``↑``, ``‖‖``, ``⁻¹``, ``[]``, bare binary ``=``...);
6. one structural rule: a big operator over a bounded binder, GTED's
   ``∑ _  _ , _ `` [i, ``∈``[s], body], becomes ``∑ <SLOT> ∈ <SLOT>, <SLOT>`` [i, s, body].

Everything else (grouped binders ``<SLOT> <SLOT> : <SLOT>``, the ``: <SLOT>`` node above a
theorem's type, GTED's ``variable_freecost``/``hypothesis_freecost`` flags, which only its
commented-out "freecost" variant reads) is kept as GTED has it.

Does the mapping matter for TED between two LSP trees? Barely: it merges labels GTED spells
two ways (``*`` and `` _ * _ ``, ``g _ `` and ``g`` as leaves) and rule 6 removes a node, so
the distance changes on 7 of the 93 dev pairs, and the agreement with the expert labels at
the best threshold is the same either way (kappa 0.418, accuracy 71.0%;
``tests/test_lsp_trees.py``). It matters when comparing our parser's trees with Lean's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from transted.errors import InputError
from transted.pipeline.opt.labels import (
    ABS,
    ADD,
    COE,
    EQ,
    FORALL,
    IFF,
    INSTANCE_BINDER,
    INV,
    MUL,
    NEG,
    NORM,
    NOT,
    OR,
    POW,
    SET_BUILDER,
    SLOT,
    binder_label,
    bounded_binder_label,
    bracketed,
    postfix,
    prefix,
)
from transted.pipeline.opt.node import Node

__all__ = ["lsp_tree_to_node", "map_label", "SPECIAL_LABELS"]

SPECIAL_LABELS: Mapping[tuple[str, int], str] = {
    # prefix operators
    ("¬", 1): NOT,
    ("↑", 1): COE,
    ("⇑", 1): prefix("⇑"),
    ("↥", 1): prefix("↥"),
    ("√", 1): prefix("√"),
    ("-", 1): NEG,
    ("#", 1): prefix("#"),
    # brackets
    ("‖‖", 1): NORM,
    ("||", 1): ABS,
    # postfix operators
    ("⁻¹", 1): INV,
    ("!", 1): postfix("!"),
    ("ᶜ", 1): postfix("ᶜ"),
    ("ˣ", 1): postfix("ˣ"),
    ("[X]", 1): postfix("[X]"),
    # binders printed without their placeholders
    ("[]", 1): INSTANCE_BINDER,
    ("{}", 1): bracketed("{", "}"),
    ("{| _ }", 2): SET_BUILDER,
    ("∀,", 2): FORALL,
    ("∑, _ ", 2): binder_label("∑"),
    ("∏, _ ", 2): binder_label("∏"),
    # binary operators printed bare
    ("=", 2): EQ,
    ("+", 2): ADD,
    ("*", 2): MUL,
    ("^", 2): POW,
    ("↔", 2): IFF,
    ("∨", 2): OR,
}
"""``(GTED content, number of children) -> our label`` where rules 1–3 do not suffice."""

_PLACEHOLDER = re.compile(r"(?<![\w'])_(?![\w'])")
_SPACE = re.compile(r"\s+")
_BEFORE_COMMA = re.compile(r" ,")
_AFTER_OPEN = re.compile(r"([{\[(⟨⦃]) ")
_BEFORE_CLOSE = re.compile(r" ([}\])⟩⦄])")
_BIG_OPERATOR = re.compile(r"^\s*([∑∏])\s+_\s+_\s*,\s*_\s*$")


def map_label(content: str, arity: int) -> str:
    """Our label for a GTED node with text ``content`` and ``arity`` children."""
    special = SPECIAL_LABELS.get((content, arity))
    return special if special is not None else _by_rules(content, arity)


def _by_rules(content: str, arity: int) -> str:
    """Rules 1–4 of the module docstring."""
    text = _PLACEHOLDER.sub(SLOT if arity else " ", content)
    text = _SPACE.sub(" ", text).strip()
    text = _BEFORE_COMMA.sub(",", text)
    text = _AFTER_OPEN.sub(r"\1", text)
    return _BEFORE_CLOSE.sub(r"\1", text)


def lsp_tree_to_node(obj: Mapping[str, Any], *, map_labels: bool = True) -> Node:
    """Convert one GTED LSP tree (``{"content", "children"}`` JSON) into a :class:`Node`.

    Parameters
    ----------
    obj : mapping
        The tree as stored in ``meta.lsp_trees.reference`` / ``.candidate``.
    map_labels : bool, default=True
        Map labels to our convention (module docstring); False keeps GTED's text as is.

    Raises
    ------
    InputError
        A node lacks ``content`` (a string) or has non-list ``children``; the message
        names the node's path, e.g. ``children[0].children[2]``.
    """
    # Post-order assembly with an explicit stack: the trees can be deeper than the
    # recursion limit, and Node is immutable so children must exist before parents.
    built: list[Node] = []
    stack: list[tuple[Mapping[str, Any], str, bool]] = [(obj, "root", False)]
    while stack:
        item, path, expanded = stack.pop()
        content, children = _check_node(item, path)
        if not expanded:
            stack.append((item, path, True))
            stack.extend((child, f"{path}.children[{i}]", False)
                         for i, child in reversed(list(enumerate(children))))
            continue
        kids = tuple(built[len(built) - len(children):]) if children else ()
        del built[len(built) - len(children):]
        built.append(_make(content, kids) if map_labels else Node(content, kids))
    return built[0]


def _check_node(item: object, path: str) -> tuple[str, list[Any]]:
    if not isinstance(item, Mapping):
        raise InputError(f"LSP tree {path}: expected an object, got {type(item).__name__}")
    content = item.get("content")
    children = item.get("children", [])
    if not isinstance(content, str):
        raise InputError(f"LSP tree {path}: `content` must be a string, got {content!r}")
    if not isinstance(children, list):
        raise InputError(f"LSP tree {path}: `children` must be a list, got {type(children).__name__}")
    return content, children


def _make(content: str, kids: tuple[Node, ...]) -> Node:
    big = _BIG_OPERATOR.match(content)
    if big and len(kids) == 3 and kids[1].label == "∈" and len(kids[1].children) == 1:
        binder, bound, body = kids
        return Node(bounded_binder_label(big.group(1), "∈"), (binder, bound.children[0], body))
    return Node(map_label(content, len(kids)), kids)
