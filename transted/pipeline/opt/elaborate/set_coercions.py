"""Coercions between a ``SetLike`` structure and ``Set``, read from the Mathlib index.

* **Into ``Set``.** ``class SetLike (A : Type*) (B : outParam Type*)`` comes with
  ``instance : CoeTC A (Set B) where coe := SetLike.coe`` (Mathlib
  ``Data/SetLike/Basic.lean``): ``(H : Set G)`` with ``H : Subgroup G`` is ``↑H``, because the
  index holds ``instance : SetLike (Subgroup G) G`` (``Algebra/Group/Subgroup/Defs.lean``).
  ``B`` is an outParam, so ``A`` alone fixes it: :meth:`SetCoercions.set_of` reads it from the
  index's ``SetLike`` instances (a reducible abbreviation unfolded, ``Ideal R`` is
  ``Submodule R R``); none, or two that disagree, is None (no claim).
* **Out of ``Set``.** Lean's ``binrel%`` keeps the first operand's type as the maximum unless a
  coercion leads from the next one into it (``Lean.Elab.Extra``, ``analyze``: ``hasCoe type
  max`` is tried first), so ``C' = C`` with ``C' : Subgroup G`` and ``C : Set G`` is
  ``↑C' = C`` only if no coercion goes from ``Set G`` into ``Subgroup G``.
  :meth:`SetCoercions.excluded_from_set` says so when no coercion instance of the index
  (``Coe``, ``CoeTC``, ``CoeOut``, ``CoeHead``, ``CoeTail``, ``CoeHTCT``, ``CoeHTC``, ``CoeOTC``,
  ``CoeT``, ``CoeDep``) could have a ``Set`` source and that target, but for the generic ones of
  :data:`NOT_FROM_SETS`, whose hypotheses a ``Set`` cannot meet (read in the sources). Lean
  core's coercion instances (``Init/Coe.lean``: the chain ``CoeT ← CoeHTCT ← … ← Coe``,
  ``optionCoe``, ``subtypeCoe``, ``boolToProp``, ``decPropToBool``; ``Init/Data/Cast.lean``:
  ``NatCast``/``IntCast`` from ℕ and ℤ) are not in the index: each has a concrete source other
  than ``Set`` or a target that is not a structure.
"""

from __future__ import annotations

from collections.abc import Callable

from transted.pipeline.opt.elaborate.index_types import (
    IndexTypes,
    Unrepresentable,
    is_sort,
    placeholder,
    substitute_type_variables,
)
from transted.pipeline.opt.elaborate.types import Meta, Ty, Type_
from transted.pipeline.opt.mathlib.records import IndexedDeclaration
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import head_name

__all__ = ["SetCoercions", "COERCION_CLASSES", "NOT_FROM_SETS", "READ_NOT_INTO_SETLIKE",
           "has_placeholder", "match_type_pattern"]

COERCION_CLASSES = {"Coe": (0, 1), "CoeTC": (0, 1), "CoeOut": (0, 1), "CoeHead": (0, 1),
                    "CoeTail": (0, 1), "CoeHTCT": (0, 1), "CoeHTC": (0, 1), "CoeOTC": (0, 1),
                    "CoeT": (0, 2), "CoeDep": (0, 2)}
"""Lean core's coercion classes (``Init/Coe.lean``) and the positions of source and target
among their arguments (``CoeT α a β``, ``CoeDep α a β`` carry the value in the middle)."""
NOT_FROM_SETS = {
    "algebraMap.coeHTCT": "Mathlib/Algebra/Algebra/Defs.lean: `[CommSemiring R] [Semiring A] "
                          "[Algebra R A] : CoeHTCT R A`; a `Set` has no `CommSemiring` "
                          "instance (Set's semiring is the type synonym `SetSemiring`, "
                          "Mathlib/Data/Set/Semiring.lean)",
}
"""Coercion instances with a variable source and target that still never start at a ``Set``."""
_NOT_A_SET = "its source is not a Set: a type outside the index, another type's notation, a " \
    "structure or a function type"
_NOT_SETLIKE = "its target is not a SetLike structure: a quotient, a completion, a bundled map " \
    "or another type built from the source"
READ_NOT_INTO_SETLIKE = {
    **dict.fromkeys((
        "FirstOrder.Language.ElementarySubstructure.instCoe", "SchwartzMap.instCoeToLp",
        "SchwartzMap.instCoeToTemperedDistribution",
        "instance@batteries:Batteries/Data/ByteSlice.lean:58",
        "instance@batteries:Batteries/Data/String/Basic.lean:10",
        "instance@mathlib:Mathlib/Analysis/Convex/Cone/Basic.lean:72",
        "instance@mathlib:Mathlib/Combinatorics/SimpleGraph/Connectivity/Subgraph.lean:37",
        "instance@mathlib:Mathlib/Combinatorics/SimpleGraph/Connectivity/Subgraph.lean:51",
        "instance@mathlib:Mathlib/NumberTheory/Padics/Complex.lean:61",
        "instance@mathlib:Mathlib/NumberTheory/Padics/PadicIntegers.lean:70",
        "instance@mathlib:Mathlib/RingTheory/Valuation/Discrete/Basic.lean:251",
        "Filter.Product.coeTC", "instance@mathlib:Mathlib/ModelTheory/Basic.lean:233",
        "instance@mathlib:Mathlib/CategoryTheory/Subobject/MonoOver.lean:83",
        "instance@mathlib:Mathlib/CategoryTheory/Subfunctor/Basic.lean:147",
        "instance@mathlib:Mathlib/CategoryTheory/Subfunctor/SubmonoidFunctor.lean:69",
        "instance@mathlib:Mathlib/NumberTheory/NumberField/Basic.lean:141",
        "instance@mathlib:Mathlib/RingTheory/DividedPowers/SubDPIdeal.lean:245"), _NOT_A_SET),
    **dict.fromkeys((
        "instance@mathlib:Mathlib/Analysis/Normed/Field/WithAbs.lean:138",
        "instance@mathlib:Mathlib/GroupTheory/Coset/Defs.lean:176",
        "instance@mathlib:Mathlib/GroupTheory/DivisibleHull.lean:64",
        "instance@mathlib:Mathlib/NumberTheory/NumberField/Completion/InfinitePlace.lean:158",
        "instance@mathlib:Mathlib/Order/WithBotTop.lean:32",
        "instance@mathlib:Mathlib/RingTheory/Ideal/Quotient/Defs.lean:90",
        "instance@mathlib:Mathlib/Topology/Algebra/Valued/WithVal.lean:504",
        "BoundedContinuousFunction.instCoeTC", "ZeroAtInftyContinuousMap.instCoeTC",
        "instance@mathlib:Mathlib/Algebra/Quaternion.lean:724",
        "instance@mathlib:Mathlib/Analysis/CStarAlgebra/Multiplier.lean:446",
        "instance@mathlib:Mathlib/GroupTheory/Congruence/Defs.lean:210",
        "instance@mathlib:Mathlib/RingTheory/Congruence/Defs.lean:204",
        "instance@mathlib:Mathlib/Topology/ContinuousMap/Defs.lean:66"), _NOT_SETLIKE),
}
"""Coercion instances whose types the model does not read in full (field notation, notations
the parser keeps, names outside the index), each read in the pinned source: none goes from a
``Set`` into a ``SetLike`` structure. A coercion instance outside this list that the model cannot
rule out keeps :meth:`SetCoercions.excluded_from_set` False (no claim)."""
_PLACEHOLDER = "\0"
_MAX_UNFOLD = 3
_ANY = "\0any"
_STRUCTURE_NOTATIONS = ("→ₐ", "→ₗ", "→+", "→*", "≃", "ˣ", "→ₙ", "→o", " → ")
"""Notations of types that are bundled morphisms, equivalences, units or functions
(structures and ``∀``-types, never a ``Set`` nor a ``SetLike`` structure)."""

Rule = tuple[Type_, Type_]
"""A (source, target) or (collection, element) pattern over placeholders."""


class SetCoercions:
    """The two questions above, over the index's instances (read on first use)."""

    def __init__(self, instances_of: Callable[[str], tuple[str, ...]],
                 declaration: Callable[[str], IndexedDeclaration | None],
                 types: IndexTypes) -> None:
        self._instances_of = instances_of
        self._declaration = declaration
        self.types = types
        self._setlike: list[Rule] | None = None
        self._coercions: list[tuple[IndexedDeclaration | None, Node, Node]] | None = None
        self._excluded: dict[Ty, bool] = {}

    def set_of(self, collection: Ty) -> Type_ | None:
        """``B`` of ``SetLike collection B`` (the coercion goes to ``Set B``), or None."""
        t: Ty | None = collection
        for _ in range(_MAX_UNFOLD):
            if t is None:
                return None
            found: set[Type_] = set()
            for pattern, elem in self.setlike_rules():
                binding: dict[str, Type_] = {}
                if match_type_pattern(pattern, t, binding):
                    found.add(substitute_type_variables(elem, binding))
            found = {f for f in found if not has_placeholder(f)}
            if len(found) == 1:
                return found.pop()
            if found:
                return None
            t = self.types.unfold_type(t)
        return None

    def excluded_from_set(self, target: Ty) -> bool:
        """No coercion from any ``Set _`` into ``target`` (nor into its unfoldings): no
        coercion instance of the index may have both (:meth:`_may_head`)."""
        known = self._excluded.get(target)
        if known is None:
            known = self._excluded[target] = self._excluded_heads(target)
        return known

    def _excluded_heads(self, target: Ty) -> bool:
        heads = {target.head}
        t: Ty | None = target
        for _ in range(_MAX_UNFOLD):
            t = self.types.unfold_type(t) if t is not None else None
            if t is not None:
                heads.add(t.head)
        return not any(self._may_head(d, source, {"Set"}) and self._may_head(d, dest, heads)
                       for d, source, dest in self.coercion_instances())

    def setlike_rules(self) -> list[Rule]:
        if self._setlike is None:
            rules = (self._rule(n) for n in self._instances_of("SetLike"))
            self._setlike = [r for r in rules if r is not None and isinstance(r[0], Ty)
                             and not r[0].head.startswith(_PLACEHOLDER)]
        return self._setlike

    def coercion_instances(self) -> list[tuple[IndexedDeclaration | None, Node, Node]]:
        """Every coercion instance not read by hand, with its source and target trees."""
        if self._coercions is None:
            out: list[tuple[IndexedDeclaration | None, Node, Node]] = []
            for cls, (src, dst) in COERCION_CLASSES.items():
                for name in self._instances_of(cls):
                    if name in NOT_FROM_SETS or name in READ_NOT_INTO_SETLIKE:
                        continue
                    d = self._declaration(name)
                    args = d.instance.arguments if d is not None and d.instance else ()
                    if len(args) > dst and args[src] is not None and args[dst] is not None:
                        out.append((d, args[src], args[dst]))
                    else:  # an instance the model cannot read could be any coercion
                        out.append((d, Node(_ANY), Node(_ANY)))
            self._coercions = out
        return self._coercions

    def _may_head(self, d: IndexedDeclaration | None, tree: Node, heads: set[str]) -> bool:
        """The type ``tree`` (an instance argument of ``d``) could be one whose head is in
        ``heads``, up to reducible unfolding (instances are found up to it): read as a type,
        a type variable could; else :meth:`_may_head_written`."""
        if tree.label == _ANY or d is None:
            return True
        types = {n: placeholder(n) for b in d.binders if is_sort(b.type.tree) for n in b.names}
        values = frozenset(n for b in d.binders for n in b.names) - set(types)
        try:
            t: Type_ | None = self.types.read(tree, d.scope, types, values)
        except Unrepresentable:
            return self._may_head_written(d, tree, heads, values)
        for _ in range(_MAX_UNFOLD):
            if not isinstance(t, Ty) or t.head.startswith(_PLACEHOLDER) or t.head in heads:
                return True
            t = self.types.unfold_type(t)
            if t is None:
                return False
        return True

    def _may_head_written(self, d: IndexedDeclaration, tree: Node, heads: set[str],
                          values: frozenset[str]) -> bool:
        """The same from the tree as written: a value of the instance in a type position is
        ``↥v`` (``CoeSort``: ``Set.Elem s``, a subtype), never a ``Set`` nor a structure; a
        bundled morphism, equivalence, units or function notation is not either; a name that
        resolves to neither one of ``heads`` nor an abbreviation is not; anything else could
        be."""
        if tree.is_leaf and tree.label in values:
            return False
        head = head_name(tree.label, len(tree.children))
        if head is None:
            return not any(notation in tree.label for notation in _STRUCTURE_NOTATIONS)
        if any(head in b.names for b in d.binders):
            return head not in values
        found = self.types.names.resolve_in(head, d.scope)
        if found is None:
            return True
        full, kind = found
        named = self._declaration(full)
        return full in heads or kind == "abbrev" or (named is not None and
                                                    named.reducibility == "reducible")

    def _rule(self, name: str) -> Rule | None:
        """``SetLike A B``'s (``A``, ``B``) over placeholders, or None."""
        d = self._declaration(name)
        if d is None or d.instance is None or len(d.instance.arguments) != 2:
            return None
        types = {n: placeholder(n) for b in d.binders if is_sort(b.type.tree) for n in b.names}
        values = frozenset(n for b in d.binders for n in b.names) - set(types)
        try:
            return (self.types.read(d.instance.arguments[0], d.scope, types, values),
                    self.types.read(d.instance.arguments[1], d.scope, types, values))
        except Unrepresentable:
            return None



def has_placeholder(t: Type_) -> bool:
    if isinstance(t, Meta):
        return False
    return t.head.startswith(_PLACEHOLDER) or any(has_placeholder(a) for a in t.args)


def match_type_pattern(pattern: Type_, t: Type_, binding: dict[str, Type_]) -> bool:
    """One-way matching: ``pattern``'s placeholders bind to subterms of ``t``."""
    if isinstance(pattern, Ty) and not pattern.args and pattern.head.startswith(_PLACEHOLDER):
        name = pattern.head[1:]
        if name in binding:
            return binding[name] == t
        binding[name] = t
        return True
    if isinstance(pattern, Meta) or isinstance(t, Meta):
        return pattern == t
    return (pattern.head == t.head and len(pattern.args) == len(t.args)
            and all(match_type_pattern(p, a, binding)
                    for p, a in zip(pattern.args, t.args, strict=True)))
