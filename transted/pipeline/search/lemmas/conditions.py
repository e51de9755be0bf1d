"""A conditional lemma's side conditions, discharged from the pair's own hypotheses.

``Real.log_mul (hx : x ≠ 0) (hy : y ≠ 0) : log (x * y) = log x + log y`` may rewrite
``log (a * b)`` only where ``a ≠ 0`` and ``b ≠ 0`` follow from what Lean would have in context
at that subterm after ``intro``: the antecedents of the arrows above it on the side being
rewritten (``∀ a b, 0 < a → 0 < b → …``) and the goal's hypotheses. Rewriting under an
antecedent with a fact it gives is an equality of the two propositions (``implies_congr_ctx``,
Lean core Init/SimpLemmas.lean: ``(p₁ = p₂) → (p₂ → q₁ = q₂) → (p₁ → q₁) = (p₂ → q₂)``).

:func:`premises_at` gathers those premises (dropping any a later binder shadows) with the
number variables in scope; :func:`discharge_conditions` proves each condition: a premise that *is* the
condition (``assumption``), else a proof by the evidence engines
(:func:`transted.pipeline.evidence.entail.entails`: z3/ring normal forms, never sampling; unsatisfiable
premises never discharge anything). A condition not proved leaves the lemma unused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from transted.budget import Budget
from transted.pipeline.evidence.entail import entails
from transted.pipeline.evidence.refute import RefuteOptions
from transted.pipeline.evidence.terms import NUMBER_TYPES
from transted.pipeline.opt.elaborate import Elaboration
from transted.pipeline.opt.elaborate.type_nodes import type_of_node
from transted.pipeline.opt.elaborate.types import SORT, Ty
from transted.pipeline.opt.labels import ARROW
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import binder_names, binder_type, body_index, free_names
from transted.pipeline.search.pattern import Path

__all__ = ["PathContext", "premises_at", "discharge_conditions"]


@dataclass(frozen=True, slots=True)
class PathContext:
    """What is known at a position: premises (propositions), number variables, and the
    antecedents that are class instances (``[Field K]``) with their paths."""

    premises: tuple[Node, ...]
    variables: Mapping[str, str]
    instances: tuple[tuple[Node, Path], ...]
    type_variables: frozenset[str] = frozenset()
    """Names bound above the position whose declared type is a sort (``(G : Type*)``)."""


def premises_at(tree: Node, path: Path, elaboration: Elaboration | None,
               outer: Mapping[str, Node | None]) -> PathContext:
    """The premises, number variables and local instances in scope at ``path`` of ``tree``
    (``outer``: the goal's locals; a local whose type is a proposition is a premise)."""
    premises: list[Node] = []
    variables: dict[str, str] = {}
    instances: list[tuple[Node, Path]] = []
    sorts: set[str] = set()
    for name, typ in outer.items():
        _declare(name, typ, premises, variables)
        if typ is not None and not _is_type(typ):
            premises.append(typ)
    node: Node = tree
    here: Path = ()
    for i in path:
        if node.label == ARROW and i == 1:
            antecedent = node.children[0]
            info = elaboration.nodes.get(here + (0,)) if elaboration is not None else None
            if info is not None and info.type == SORT:
                instances.append((antecedent, here + (0,)))
            else:
                premises.append(antecedent)
        elif i == body_index(node.label) and len(node.children) >= 2:
            binder = node.children[0]
            declared = binder_type(binder)
            for name in binder_names(binder):
                _declare(name, None, premises, variables)
                sorts.discard(name)
                if declared is not None and _is_sort(declared):
                    sorts.add(name)
                number = _number_type(binder, here, elaboration)
                if number is not None:
                    variables[name] = number
        node, here = node.children[i], here + (i,)
    return PathContext(tuple(premises), variables, tuple(instances), frozenset(sorts))


def _declare(name: str, typ: Node | None, premises: list[Node], variables: dict[str, str]
             ) -> None:
    """A binder for ``name``: premises about an outer ``name`` no longer speak of it."""
    premises[:] = [p for p in premises if name not in free_names(p)]
    variables.pop(name, None)
    if typ is not None and typ.is_leaf and typ.label in NUMBER_TYPES:
        variables[name] = typ.label


def _number_type(binder: Node, at: Path, elaboration: Elaboration | None) -> str | None:
    declared = binder_type(binder)
    if declared is not None and declared.is_leaf and declared.label in NUMBER_TYPES:
        return declared.label
    if elaboration is None:
        return None
    name_path = at + ((0,) if binder.is_leaf else (0, 0))
    info = elaboration.nodes.get(name_path)
    if info is not None and isinstance(info.type, Ty) and not info.type.args \
            and info.type.head in NUMBER_TYPES:
        return info.type.head
    return None


def _is_type(node: Node) -> bool:
    return type_of_node(node, {}) is not None


def _is_sort(node: Node) -> bool:
    return type_of_node(node, {}) == SORT


def discharge_conditions(conditions: Sequence[Node], context: PathContext, options: RefuteOptions,
              budget: Budget) -> tuple[str, ...] | None:
    """The tactic proving each condition from ``context``, or None if one is not proved."""
    out: list[str] = []
    for condition in conditions:
        if condition in context.premises:
            out.append("assumption")
            continue
        if budget.spent():
            return None
        proof = entails(context.premises, condition, context.variables, options, budget)
        if proof is None:
            return None
        out.append(proof.tactics[0] if len(proof.tactics) == 1 else
                   "(" + " <;> ".join(proof.tactics) + ")")
    return tuple(out)


