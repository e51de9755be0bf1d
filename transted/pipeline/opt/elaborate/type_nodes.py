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

__all__ = ["type_of_node", "TYPE_CONSTRUCTORS", "BUNDLED_MAPS", "LINEAR_MAP", "bundled_type"]

_SCALARS = {**{t: Ty(t) for t in NUMBER_TYPES}, "Prop": PROP, "Float": Ty("Float"),
            "NNReal": Ty("NNReal"), "ℝ≥0": Ty("NNReal"), "Bool": Ty("Bool"), "ℕ+": Ty("ℕ+"),
            "PNat": Ty("ℕ+"), "Nat": Ty("ℕ"), "Int": Ty("ℤ"), "Rat": Ty("ℚ"), "Real": Ty("ℝ"),
            "Complex": Ty("ℂ")}
"""Scalar types by every name Lean and Mathlib give them (``Nat`` is ``ℕ``: ``notation "ℕ" =>
Nat``, Mathlib/Data/Nat/Notation.lean; ``ℤ``, ``ℚ``, ``ℝ``, ``ℂ`` likewise)."""
TYPE_CONSTRUCTORS = frozenset({"Finset", "Set", "List", "Multiset", "Polynomial", "Fin", "ZMod",
                               "Matrix", "Option"})
_SORTS = ("Type", "Sort", "Type*", "Type _")
BUNDLED_MAPS: Mapping[str, str] = {
    # Mathlib/Algebra/Group/Hom/Defs.lean:373 infixr:25 " →* " => MonoidHom
    f"{SLOT} →* {SLOT}": "MonoidHom",
    # Mathlib/Algebra/Group/Hom/Defs.lean:151 infixr:25 " →+ " => AddMonoidHom
    f"{SLOT} →+ {SLOT}": "AddMonoidHom",
    # Mathlib/Algebra/Group/Equiv/Defs.lean:84 infixl:25 " ≃* " => MulEquiv
    f"{SLOT} ≃* {SLOT}": "MulEquiv",
    # Mathlib/Algebra/Group/Equiv/Defs.lean:87 infixl:25 " ≃+ " => AddEquiv
    f"{SLOT} ≃+ {SLOT}": "AddEquiv",
    # Mathlib/Algebra/Ring/Hom/Defs.lean:300 infixr:25 " →+* " => RingHom
    f"{SLOT} →+* {SLOT}": "RingHom",
}
"""Bundled morphism types written as infix notations: ``G →* H`` is the structure
``MonoidHom G H`` over the two types (its instance arguments are Lean's to find; the index
cannot read these structures' own headers, whose ``extends`` use notations it lacks)."""
LINEAR_MAP = f"{SLOT} →ₗ[{SLOT}] {SLOT}"
"""``M →ₗ[R] M₂`` (Mathlib/Algebra/Module/LinearMap/Defs.lean:99 ``notation:25 M " →ₗ[" R:25
"] " M₂:0 => LinearMap (RingHom.id R) M M₂``): read as ``LinearMap R M M₂``, the ring
homomorphism being always ``RingHom.id R`` in this notation."""


def bundled_type(label: str, args: tuple[Ty, ...]) -> Ty | None:
    """The type a bundled-morphism notation ``label`` over the types ``args`` (as the tree
    orders its children) stands for, or None when ``label`` is not one."""
    if label in BUNDLED_MAPS and len(args) == 2:
        return Ty(BUNDLED_MAPS[label], args)
    if label == LINEAR_MAP and len(args) == 3:
        source, ring, target = args
        return Ty("LinearMap", (ring, source, target))
    return None


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
    if label in BUNDLED_MAPS or label == LINEAR_MAP:
        args = [type_of_node(c, env) for c in node.children]
        if any(a is None for a in args):
            return None
        return bundled_type(label, tuple(a for a in args if a is not None))
    head = label.split(" ", 1)[0]
    if head in TYPE_CONSTRUCTORS and label == head + f" {SLOT}" * len(node.children):
        args = [type_of_node(c, env) for c in node.children]
        if head in ("Fin", "ZMod"):  # indexed by a number, not a type: opaque
            return Ty(f"{head} {node.children[0]}")
        if all(a is not None for a in args):
            return Ty(head, tuple(a for a in args if a is not None))
    return None
