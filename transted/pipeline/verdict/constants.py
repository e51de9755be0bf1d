"""Two different Mathlib constants in the same place: what the declaration index says they are.

A residual edit between two named constants was untrusted while the tool knew only their names
(``Monotone f`` vs ``Antitone f`` could be synonyms). The Mathlib declaration index
(:mod:`transted.pipeline.opt.mathlib`, docs/MATHLIB_INDEX.md) says what each constant *is*, and
:func:`judge_constants` decides the edit from that:

* the **same constant** once aliases and deprecations are followed (``alias``, ``export``, a
  deprecated name): presentational;
* two functions curated as giving the **same value** (:data:`SAME_VALUE`: ``Fintype.card``
  and ``Nat.card``, by ``Nat.card_eq_fintype_card``): presentational;
* a curated wrapper around a whole hypothesis (:data:`HYPOTHESIS_WRAPPERS`: ``[Fact P]`` is
  ``P``): presentational there, read by the residual;
* two **types** (structures, classes, inductive types: ``Subgroup G`` vs ``Submonoid G``,
  ``[Field F]`` vs ``[CommRing F]``) are different types — a structure is a new type, and two
  classes are two hypotheses, one at best implied by the other (``Field`` extends ``CommRing``):
  a meaning edit; except the pairs curated as interchangeable in a proposition
  (:data:`INTERCHANGEABLE`: ``Fintype``/``Finite``), which are presentational;
* two **definitions** whose bodies the index holds (a ``def``/``abbrev`` with one term as its
  value, not recursive) are compared by their bodies, with their parameters named by position
  and their bound variables by de Bruijn level, with the residual's own kinds: identical
  bodies are one definition under two names (presentational) — except two type synonyms
  (``OrderDual`` and ``Lex`` are both ``α``): a ``def`` whose value is a type carries its own
  instances, so two of them are two types (a meaning edit); bodies whose differences are
  all of the closed vocabulary (another relation, operator, connective, numeral, variable:
  ``Monotone``'s ``f a ≤ f b`` against ``Antitone``'s ``f b ≤ f a``) are different
  definitions (a meaning edit); a difference between two constants inside is judged the same
  way, one level down (``Real.sin`` vs ``Real.cos`` through ``Complex.sin`` vs
  ``Complex.cos``), up to :data:`MAX_DEPTH` levels;
* a **structure** against a definition whose value is a type (:func:`_type_head`, unfolded
  through definitions): ``Units ℝ`` (``ℝˣ``) vs ``Multiplicative ℝ`` (a synonym of ``ℝ``),
  ``Finset α`` vs ``Set α`` (a function type): a structure is a new type, equal to no other —
  a meaning edit;
* anything else — a constant the index lacks or could not parse, an ``irreducible_def``
  (Lean does not unfold it), a pattern-matching or recursive definition, a definition against a
  type — stays untrusted: an honest fallback, never a decision.

Soundness: a *meaning* verdict here says what the residual says of every closed-vocabulary edit
(another operator is another statement), now about the definitions' bodies; a *presentational*
one rests on the two names being one constant, or on two definitions whose bodies are the same
term.
"""

from __future__ import annotations

from functools import lru_cache

from transted.pipeline.opt.canonical import canonical
from transted.pipeline.opt.labels import ARROW, SLOT
from transted.pipeline.opt.mathlib import MathlibIndex, load_index
from transted.pipeline.opt.mathlib.records import IndexedDeclaration
from transted.pipeline.opt.node import Node
from transted.pipeline.verdict.edit_kinds import label_kind, rename_kind

__all__ = ["judge_constants", "INTERCHANGEABLE", "SAME_VALUE", "HYPOTHESIS_WRAPPERS", "MAX_DEPTH",
           "ConstantJudgement"]

ConstantJudgement = tuple[str, str]
"""``(role, why)``: ``meaning``, ``presentational`` or ``untrusted``."""

MAX_DEPTH = 2
"""Levels of constants inside definitions compared before giving up (untrusted)."""

INTERCHANGEABLE: frozenset[frozenset[str]] = frozenset({
    # Fintype α → Finite α (Finite.of_fintype) and Finite α → Nonempty (Fintype α)
    # (Fintype.ofFinite, noncomputable); Fintype is a Subsingleton, so a proposition over
    # [Fintype α] holds iff it holds over [Finite α] (Mathlib/Data/Fintype/Card.lean)
    frozenset({"Fintype", "Finite"}),
})
"""Classes a proposition may assume either of (curated, each with its Mathlib reason)."""

SAME_VALUE: frozenset[frozenset[str]] = frozenset({
    # Nat.card_eq_fintype_card [Fintype α] : Nat.card α = Fintype.card α
    # (Mathlib/SetTheory/Cardinal/Finite.lean:45): wherever Fintype.card α elaborates a
    # Fintype α instance is in scope, and Fintype is a subsingleton, so the two agree
    frozenset({"Fintype.card", "Nat.card"}),
})
"""Functions that give the same value at the same arguments wherever both elaborate (curated,
each with its Mathlib lemma)."""

HYPOTHESIS_WRAPPERS: dict[str, str] = {
    f"Fact {SLOT}": "a hypothesis [Fact P] is (h : P): Fact p ↔ p (fact_iff, "
                    "Mathlib/Logic/Basic.lean:175), and how a hypothesis is passed is not what "
                    "is claimed",
}
"""Constants that, wrapped around a whole hypothesis, leave the hypothesis what it was (curated,
each with its reason): the residual makes such a wrapper presentational there only."""

_TYPE_KINDS = frozenset({"structure", "class", "inductive"})
_DEFINITION_KINDS = frozenset({"def", "abbrev"})
_CLOSED = frozenset({"relation", "logic", "quantifier", "operator", "numeral", "type",
                     "big-operator", "bound-variable", "local-application"})


def judge_constants(reference: str, candidate: str, index: MathlibIndex | None = None,
                    *, depth: int = MAX_DEPTH) -> ConstantJudgement:
    """The role of an edit replacing the constant ``reference`` by ``candidate`` (full names,
    as the elaboration resolved them)."""
    index = index if index is not None else _bundled()
    if index is None:
        return "untrusted", "no Mathlib index: the two constants cannot be compared"
    a, b = index.current_name(reference), index.current_name(candidate)
    if a == b:
        return "presentational", f"{reference} and {candidate} are one constant ({a})"
    if frozenset({a, b}) in SAME_VALUE:
        return "presentational", f"{a} and {b} agree wherever both elaborate"
    da, db = index.declaration(a), index.declaration(b)
    if da is None or db is None:
        missing = a if da is None else b
        return "untrusted", f"{missing} is not in the Mathlib index"
    if da.kind in _TYPE_KINDS and db.kind in _TYPE_KINDS:
        if frozenset({a, b}) in INTERCHANGEABLE:
            return "presentational", f"[{a} α] and [{b} α] are interchangeable in a proposition"
        return "meaning", f"{a} and {b} are two different {_noun(da, db)}"
    if da.kind in _DEFINITION_KINDS and db.kind in _DEFINITION_KINDS:
        return _compare_bodies(da, db, index, depth)
    heads = _type_head(da, index, depth), _type_head(db, index, depth)
    if _NEW_TYPE in (heads[0][0], heads[1][0]) and None not in (heads[0][0], heads[1][0]) \
            and heads[0] != heads[1]:
        return "meaning", (f"{a} is {_shown_head(heads[0])} and {b} is {_shown_head(heads[1])}: "
                           "two different types")
    return "untrusted", f"{a} ({da.kind}) and {b} ({db.kind}): the index cannot compare them"


_NEW_TYPE = "structure"


def _type_head(decl: IndexedDeclaration, index: MathlibIndex, depth: int
               ) -> tuple[str | None, str]:
    """What a type former is once its definitions are unfolded: ``("structure", name)`` for a
    structure or inductive type (a new type, equal to no other), ``("parameter", k)`` for a
    type synonym of its k-th parameter (``def Multiplicative (α : Type*) := α``), ``("pi",
    "")`` for a function type (``def Set (α) := α → Prop``), ``(None, why)`` when the index
    cannot say (a class, an opaque or pattern-matching definition, another head)."""
    if decl.kind in ("structure", "inductive"):
        return _NEW_TYPE, decl.name
    body = _body(decl) if decl.kind in _DEFINITION_KINDS else None
    if body is None:
        return None, decl.name
    kind, name = label_kind(body.label)
    if body.label.startswith("#p") and body.is_leaf:
        return "parameter", body.label
    if body.label == ARROW:
        return "pi", ""
    if kind == "constant" and depth > 1:
        inner = index.declaration(index.current_name(name))
        if inner is not None:
            return _type_head(inner, index, depth - 1)
    return None, decl.name


def _shown_head(head: tuple[str | None, str]) -> str:
    kind, name = head
    if kind == "parameter":
        return f"a synonym of its argument {int(name[2:]) + 1}"
    if kind == "pi":
        return "a function type"
    return f"the {kind} {name}"


def _noun(da: IndexedDeclaration, db: IndexedDeclaration) -> str:
    if da.kind == db.kind == "class":
        return "classes (one hypothesis is not the other)"
    return "types"


def _compare_bodies(da: IndexedDeclaration, db: IndexedDeclaration, index: MathlibIndex,
                    depth: int) -> ConstantJudgement:
    ta, tb = _body(da), _body(db)
    if ta is None or tb is None:
        which = da if ta is None else db
        why = which.body.why_not if which.body is not None else "no body"
        return "untrusted", f"{which.name} does not unfold ({why or 'its value did not parse'})"
    if ta == tb:
        synonym = next((d.name for d in (da, db)
                        if d.kind == "def" and index.defines_a_type(d.name)), None)
        if synonym is not None:
            return "meaning", (f"{da.name} and {db.name} are type synonyms of one value, each "
                               f"with its own instances ({synonym} is a def: Lean's instance "
                               "resolution does not see through it)")
        return "presentational", f"{da.name} and {db.name} have the same definition"
    differences = _differences(ta, tb)
    if differences is None:
        return "untrusted", f"{da.name} and {db.name} are defined by differently shaped terms"
    for x, y in differences:
        kind = rename_kind(x.label, y.label)
        if kind in _CLOSED:
            continue
        if kind in ("constant", "namespace") and depth > 1:
            inner, why = judge_constants(label_kind(x.label)[1], label_kind(y.label)[1], index,
                                         depth=depth - 1)
            if inner == "meaning":
                continue
            return "untrusted", f"inside {da.name} and {db.name}: {why}"
        return "untrusted", f"{da.name} and {db.name} differ by {kind} edits the index cannot judge"
    shown = ", ".join(f"{x.label} → {y.label}" for x, y in differences[:3])
    return "meaning", f"{da.name} and {db.name} are defined differently ({shown})"


def _body(decl: IndexedDeclaration) -> Node | None:
    """The definition's value with its parameters named by position (``#p0``…), bound
    variables by de Bruijn level: two definitions differing only in names give one tree."""
    body = decl.body
    if body is None or not body.unfoldable or body.value.tree is None:
        return None
    if decl.generated is not None:  # a `@[to_additive]` copy: its value is the source's,
        return None                 # translated by name guessing, not read from Mathlib
    if decl.reducibility == "irreducible":  # Lean does not unfold it (irreducible_def)
        return None
    names = [n for binder in decl.binders for n in binder.names]
    return canonical(body.value.tree, {n: f"#p{i}" for i, n in enumerate(names)}, arrows=False)


def _differences(a: Node, b: Node) -> list[tuple[Node, Node]] | None:
    """The differing nodes of two trees of the same shape (label renames), or None when the
    shapes differ (an inserted or deleted node: not a closed-vocabulary rename)."""
    out: list[tuple[Node, Node]] = []
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if len(x.children) != len(y.children):
            return None
        if x.label != y.label:
            out.append((x, y))
        stack.extend(zip(x.children, y.children, strict=True))
    return out


@lru_cache(maxsize=1)
def _bundled() -> MathlibIndex | None:
    try:
        return load_index()
    except FileNotFoundError:
        return None
