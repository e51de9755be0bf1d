"""Discharging residual meaning edits with hypothesis entailment (proofs only).

Given the judged residual edits of a pair (:mod:`transted.pipeline.verdict.residual`) and an ``entail``
function (:func:`transted.pipeline.evidence.entail.entails` bound to the pair's options and budget):

* a hypothesis **only in the candidate** is discharged when the reference's hypotheses imply
  it; one **only in the reference** when the candidate's imply it; a **changed** hypothesis
  when both implications hold (its reference version from the candidate's hypotheses, its
  candidate version from the reference's). Every hypothesis of each side is then implied by the
  other side's, so the two hypothesis sets hold at exactly the same points;
* the **conclusion** is discharged when its differences are number terms at the same positions
  that the hypotheses prove equal (``(h : x = 2) : f x = 0`` vs ``f 2 = 0``: substitution of
  equals, ``Eq.subst``), once no hypothesis difference is left. Substituting equals preserves
  the statement only where the surrounding operations keep their type (``congrArg`` over the
  same function): every node above a difference, and the two differing terms themselves, must
  have the same elaborated type on both sides (``y - 5`` over ℝ is not ``m - 5`` over ℕ, however
  ``y = m``) and the two terms must be used at the same type (``Real.exp m`` casts ``m`` to ℝ
  like ``y``), and the equality is asked at that type (``(x : T) = (y : T)``), so a subterm is
  never compared outside the ascription or the context that types it.

Preconditions, or nothing is discharged: the binders agree (no binder edit but presentational
ones: the two sides talk about the same variables) and the group has no untrusted edit. A
difference between two propositions in the conclusion is never "decided by the hypotheses":
under its hypotheses a true theorem's conclusion always holds, so ``H → (C₁ ↔ C₂)`` would call
any two true theorems equivalent (the vacuity rule of docs/EVIDENCE.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from transted.pipeline.evidence.entail import number_variables
from transted.pipeline.evidence.terms import NUMBER_TYPES
from transted.pipeline.opt.elaborate.classes import ClassInstance
from transted.pipeline.opt.elaborate.index_types import is_sort
from transted.pipeline.opt.elaborate.tables import bundled_tables
from transted.pipeline.opt.elaborate.types import Ty
from transted.pipeline.opt.labels import ASCRIPTION, EQ
from transted.pipeline.opt.mathlib import load_index
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.parts import Part, PartPath, StatementParts
from transted.pipeline.opt.scope import binder_names
from transted.pipeline.verdict.edit_kinds import label_kind
from transted.pipeline.verdict.residual_edit import Entail, ResidualEdit
from transted.pipeline.verdict.typed_checks import TypedSides
from transted.reading.pairs import Side

__all__ = ["discharge", "term_differences"]

_PROP_KINDS = frozenset({"relation", "logic", "quantifier"})
_PROP = Node("Prop")


def _groups(edits: Sequence[ResidualEdit]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for k, e in enumerate(edits):
        out.setdefault(e.where, []).append(k)
    return out


def _variables(binders: Sequence[Part]) -> dict[str, str]:

    return number_variables([p.node for p in binders])


def _tactics(proof: object) -> str:
    tactics = getattr(proof, "tactics", ())
    return "+".join(dict.fromkeys(tactics)) or "decided"


def _numbers(indices: Sequence[int]) -> str:
    return ", ".join(str(i + 1) for i in indices)


def discharge(edits: list[ResidualEdit], reference: StatementParts,
              candidate: StatementParts, entail: Entail, typed: TypedSides
              ) -> list[ResidualEdit]:
    """The edits with ``discharged_by`` set where entailment proves them immaterial."""
    if any(e.where.startswith("binder") and e.role != "presentational" for e in edits):
        return edits
    rb, rh, rc = reference.binders, reference.hypotheses, reference.conclusion
    ch, cc = candidate.hypotheses, candidate.conclusion
    out = _classes_supplied(list(edits), reference, candidate, typed)
    variables = _variables(rb)
    if not variables or not any(e.counts for e in out):
        return out
    ref_h, cand_h = [p.node for p in rh], [p.node for p in ch]
    for where, members in _groups(edits).items():
        if not where.startswith("hypothesis") or not any(out[k].counts for k in members):
            continue
        if any(out[k].role == "untrusted" for k in members):
            continue
        note = _hypothesis_proof(where, [out[k] for k in members], ref_h, cand_h, variables,
                                 entail)
        if note is not None:
            for k in members:
                if out[k].counts:
                    out[k] = replace(out[k], discharged_by=note)
    hypotheses_clean = not any(e.where.startswith("hypothesis") and
                               (e.counts or e.role == "untrusted") for e in out)
    members = _groups(out).get("conclusion", [])
    if hypotheses_clean and any(out[k].counts for k in members) and \
            not any(out[k].role == "untrusted" for k in members):
        note = _conclusion_proof(rc, cc, ref_h, variables, entail, typed)
        if note is not None:
            for k in members:
                if out[k].counts:
                    out[k] = replace(out[k], discharged_by=note)
    return out


def _classes_supplied(edits: list[ResidualEdit], reference: StatementParts,
                      candidate: StatementParts, typed: TypedSides) -> list[ResidualEdit]:
    """Discharge a hypothesis only on one side that is a ``Prop``-valued class the other
    side's class hypotheses provide through the Mathlib hierarchy (``[IsDomain F]`` beside
    ``[Field F]``: ``DivisionRing.isDomain``; ``[Nontrivial F]``: ``Field`` extends
    ``DivisionRing`` extends ``Nontrivial``). A proposition has at most one proof (proof
    irrelevance), so assuming one that is derivable changes nothing; a data-carrying class
    (``[Ring F]`` beside ``[Field F]``) is a second, unrelated instance and is never
    discharged. The hierarchy is walked with its arguments and only up
    (:meth:`~transted.pipeline.opt.elaborate.classes.IndexClasses.provides`)."""
    classes = bundled_tables().classes
    if classes is None:
        return edits  # no index: no hierarchy to follow
    for where, members in _groups(edits).items():
        group = [edits[k] for k in members]
        if not where.startswith("hypothesis") or not any(e.counts for e in group) \
                or any(e.role == "untrusted" for e in group):
            continue
        side: Side
        other: Side
        if where.endswith("(candidate)"):
            side, other, own, others = "candidate", "reference", candidate, reference
        elif group[0].op == "unmatched":
            side, other, own, others = "reference", "candidate", reference, candidate
        else:
            continue
        wanted = _prop_class(typed, side, own, own.hypotheses[int(where.split()[1]) - 1])
        if wanted is None:
            continue
        for part in others.hypotheses:
            given = _class_instance(typed, other, others, part)
            if given is not None and classes.provides(given, wanted):
                note = f"{wanted[0]} is a proposition the other side's [{given[0]}] gives " \
                       f"(the Mathlib class hierarchy)"
                for k in members:
                    if edits[k].counts:
                        edits[k] = replace(edits[k], discharged_by=note)
                break
    return edits


def _prop_class(typed: TypedSides, side: Side, parts: StatementParts, part: Part
                ) -> ClassInstance | None:
    found = _class_instance(typed, side, parts, part)
    index = load_index()
    decl = index.declaration(found[0]) if found is not None else None
    if decl is None or decl.kind != "class" or decl.type is None or decl.type.tree != _PROP:
        return None
    return found


def _class_instance(typed: TypedSides, side: Side, parts: StatementParts, part: Part
                    ) -> ClassInstance | None:
    """``C α`` as a class at type variables the side binds (``{F : Type*}``), or None."""
    node = part.node
    if not node.children or not all(c.is_leaf for c in node.children):
        return None
    cls = typed.constant_at(side, part.path)
    sorts = {n for b in parts.binders if b.node.children and is_sort(b.node.children[-1])
             for n in binder_names(b.node.children[0])}
    if cls is None or not all(c.label in sorts for c in node.children):
        return None
    return cls, tuple(Ty(c.label) for c in node.children)


def _hypothesis_proof(where: str, group: list[ResidualEdit], ref_h: list[Node],
                      cand_h: list[Node], variables: dict[str, str], entail: Entail
                      ) -> str | None:
    """Why a hypothesis group is immaterial, or None (no proof)."""
    index = int(where.split()[1]) - 1
    if where.endswith("(candidate)"):  # only in the candidate: implied by the reference's
        proof = entail(ref_h, cand_h[index], variables)
        return None if not proof else \
            f"implied by the reference's hypotheses {_premises(proof, len(ref_h))} " \
            f"({_tactics(proof)})"
    if group[0].op == "unmatched":  # only in the reference: implied by the candidate's
        proof = entail(cand_h, ref_h[index], variables)
        return None if not proof else \
            f"implied by the candidate's hypotheses {_premises(proof, len(cand_h))} " \
            f"({_tactics(proof)})"
    j = _partner(group)
    if j is None:
        return None
    there = entail(ref_h, cand_h[j], variables)
    back = entail(cand_h, ref_h[index], variables) if there else None
    if not (there and back):
        return None
    return f"equivalent given the other hypotheses: the candidate's from the reference's " \
           f"{_premises(there, len(ref_h))}, the reference's from the candidate's " \
           f"{_premises(back, len(cand_h))} ({_tactics(there)})"


def _partner(group: list[ResidualEdit]) -> int | None:
    """The candidate index a changed reference hypothesis is matched with (carried in the
    edits' ``partner`` field)."""
    partners = {e.partner for e in group if e.partner is not None}
    return partners.pop() if len(partners) == 1 else None


def _premises(proof: object, n: int) -> str:
    used = getattr(proof, "premises", tuple(range(n)))
    return _numbers(list(used))


def term_differences(a: Node, b: Node) -> list[tuple[PartPath, Node, Node]] | None:
    """The maximal differing subterm pairs at the same positions of ``a`` and ``b`` (same
    labels above them), each with its path from the roots, or None when a difference is not
    between two terms (a relation, connective or quantifier differs)."""
    out: list[tuple[PartPath, Node, Node]] = []
    stack: list[tuple[PartPath, Node, Node]] = [((), a, b)]
    while stack:
        path, x, y = stack.pop()
        if x == y:
            continue
        if x.label == y.label and len(x.children) == len(y.children) and x.children:
            stack.extend(((*path, k), cx, cy)
                         for k, (cx, cy) in enumerate(zip(x.children, y.children, strict=True)))
            continue
        if {label_kind(x.label)[0], label_kind(y.label)[0]} & _PROP_KINDS:
            return None
        out.append((path, x, y))
    return out


def _common_type(typed: TypedSides, ref: Part, cand: Part, path: PartPath) -> str | None:
    """The number type at which the differing terms at ``path`` (under the conclusions) are
    used on both sides — their type after any coercion Lean inserts — when every node above
    them has the same type on both sides too; None otherwise (another type anywhere on the
    way, or a type the elaboration cannot settle)."""
    if not _same_types_along(typed, ref, cand, path, including=False):
        return None
    ref_type = typed.effective_type_at("reference", (*ref.path, *path))
    cand_type = typed.effective_type_at("candidate", (*cand.path, *path))
    return ref_type if ref_type == cand_type and ref_type in NUMBER_TYPES else None


def _conclusion_proof(ref: Part, cand: Part, hyps: list[Node], variables: dict[str, str],
                      entail: Entail, typed: TypedSides) -> str | None:
    pairs = term_differences(ref.node, cand.node)
    if not pairs or not hyps:
        return None
    tactics = []
    for path, x, y in pairs:
        written = _written_equation(x, y, hyps)
        if written is not None and _same_types_along(typed, ref, cand, path, including=True):
            tactics.append(f"rw [h{written + 1}]")
            continue
        at = _common_type(typed, ref, cand, path)
        if at is None:
            return None
        typed_eq = Node(EQ, (_ascribed(x, at), _ascribed(y, at)))
        proof = entail(hyps, typed_eq, variables)
        if not proof:
            return None
        tactics.append(_tactics(proof))
    return f"the differing terms are equal under the hypotheses ({'+'.join(dict.fromkeys(tactics))})"


def _written_equation(x: Node, y: Node, hyps: list[Node]) -> int | None:
    """The index of a hypothesis that is literally ``x = y`` or ``y = x``: rewriting with it
    turns one conclusion into the other, at any type."""
    return next((k for k, h in enumerate(hyps)
                 if h.label == EQ and h.children in ((x, y), (y, x))), None)


def _same_types_along(typed: TypedSides, ref: Part, cand: Part, path: PartPath, *,
                      including: bool) -> bool:
    """Every node from the conclusions' roots down to ``path`` (that node too when
    ``including``) has the same elaborated type, and the same coercion, on both sides."""
    depths = range(len(path) + 1) if including else range(len(path))
    return all(typed.same_type((*ref.path, *path[:d]), (*cand.path, *path[:d]))[0]
               == "presentational" for d in depths)


def _ascribed(term: Node, number_type: str) -> Node:
    """``(term : T)``: the term elaborated at the type its context gives it."""
    return Node(ASCRIPTION, (term, Node(number_type)))
