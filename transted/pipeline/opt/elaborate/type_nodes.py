"""Type expressions of the tree (binder types, ascription targets) as :class:`Ty`.

``ℕ ℤ ℚ ℝ ℂ``, ``Prop``, ``Finset ℕ``, ``Set ℝ``, ``ℕ → ℝ``, a type variable bound earlier
(``(α : Type*)``), and other type constructors applied to types (kept opaque: ``Polynomial ℝ``
is a type the engines do not model, but it is a type). None when the node is not a type
expression (then it is a proposition: a hypothesis binder ``(h : 0 < x)``).
"""

from __future__ import annotations

from collections.abc import Mapping

from transted.pipeline.opt.elaborate.types import NUMBER_TYPES, PROP, SORT, Ty, Type_, arrow
from transted.pipeline.opt.node import SLOT, Node

__all__ = ["type_of_node", "TYPE_CONSTRUCTORS"]

_SCALARS = {**{t: Ty(t) for t in NUMBER_TYPES}, "Prop": PROP, "Float": Ty("Float"),
            "NNReal": Ty("NNReal"), "ℝ≥0": Ty("NNReal"), "Bool": Ty("Bool"), "ℕ+": Ty("ℕ+"),
            "PNat": Ty("ℕ+"), "Nat": Ty("ℕ"), "Int": Ty("ℤ"), "Rat": Ty("ℚ"), "Real": Ty("ℝ"),
            "Complex": Ty("ℂ")}
"""Scalar types by every name Lean and Mathlib give them (``Nat`` is ``ℕ``: ``notation "ℕ" =>
Nat``, Mathlib/Data/Nat/Notation.lean; ``ℤ``, ``ℚ``, ``ℝ``, ``ℂ`` likewise)."""
TYPE_CONSTRUCTORS = frozenset({"Finset", "Set", "List", "Multiset", "Polynomial", "Fin", "ZMod",
                               "Matrix", "Option"})
_SORTS = ("Type", "Sort", "Type*", "Type _")


def type_of_node(node: Node | None, env: Mapping[str, Type_]) -> Ty | None:
    if node is None:
        return None
    label = node.label
    if node.is_leaf:
        if label in _SCALARS:
            return _SCALARS[label]
        if label in _SORTS:
            return SORT
        local = env.get(label)
        if local == SORT:
            return Ty(label)
        if isinstance(local, Ty) and local.head in ("Set", "Finset"):  # `(a : Ω)`: ↥Ω
            return Ty(f"↥{label}")
        return None
    if label.split(" ", 1)[0] in ("Type", "Sort"):
        return SORT
    if label in (f"{SLOT} → {SLOT}", f"{SLOT} × {SLOT}"):
        dom, cod = (type_of_node(c, env) for c in node.children)
        if dom is None or cod is None:
            return None
        return arrow(dom, cod) if "→" in label else Ty("×", (dom, cod))
    head = label.split(" ", 1)[0]
    if head in TYPE_CONSTRUCTORS and label == head + f" {SLOT}" * len(node.children):
        args = [type_of_node(c, env) for c in node.children]
        if head in ("Fin", "ZMod"):  # indexed by a number, not a type: opaque
            return Ty(f"{head} {node.children[0]}")
        if all(a is not None for a in args):
            return Ty(head, tuple(a for a in args if a is not None))
    return None
