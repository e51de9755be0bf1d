"""Hypothesis entailment: is one hypothesis implied by a set of others? Proofs only.

A faithful translation may add a hypothesis the others imply (``x ≠ 0`` next to ``x * y = 6``)
or drop one the rest implies. When the whole pair is too large for the engines (an unmodelled
construct elsewhere in the statement), the hypothesis can still be discharged on its own:
:func:`entails` asks the decision procedures whether ``premises → goal`` holds for every value
of the statement's number variables.

The implication is built as a tree and decided by the public evidence function
:func:`transted.pipeline.evidence.decide.decide_trees` on the goal ``P ∧ goal = P`` (``P`` the
conjunction of the premises): ``(P ∧ g) ↔ P`` is valid exactly when ``P → g`` is. Soundness:

* only a **proof** discharges (z3 unsatisfiability of the negation, a ring normal form, or a
  componentwise closing of those), never a sample: sampling can only fail to find a
  counterexample;
* the decision's **vacuity guard** (docs/EVIDENCE.md) requires ``P ∧ g`` to be contingent, so
  ``P`` is satisfiable: unsatisfiable premises (a vacuous statement) never discharge anything;
* a premise outside the engines' fragment is left out (premises are only ever *dropped*, and an
  implication from fewer premises is stronger, so the result stays a proof);
* a goal that is valid on its own (``0 ≤ x ^ 2``) is not discharged without premises (the
  vacuity guard refuses a valid ``g``): a missed discharge, never a wrong one.

:func:`equal_under` does the same for two number terms (``t₁ = t₂`` under the premises): a
conclusion that differs only where the hypotheses fix a value (``(h : x = 2) : f x = 0`` vs
``f 2 = 0``) holds at exactly the same points (Leibniz substitution: ``Eq.subst``/``congrArg``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from transted.budget import Budget
from transted.pipeline.evidence.decide import decide_trees
from transted.pipeline.evidence.refute import RefuteOptions, engine_budget
from transted.pipeline.evidence.terms import NUMBER_TYPES, Unsupported
from transted.pipeline.evidence.translate import translate_prop
from transted.pipeline.opt.elaborate import Ty
from transted.pipeline.opt.labels import AND, EQ
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import binder_names, binder_type

__all__ = ["Entailment", "entails", "equal_under", "number_variables", "in_fragment"]


@dataclass(frozen=True)
class Entailment:
    """A proved implication: which premises were used (indices into the premises given) and
    the Lean tactics the closing is named after (``omega``, ``linarith``, ``z3`` …)."""

    premises: tuple[int, ...]
    tactics: tuple[str, ...]


def number_variables(binders: Sequence[Node]) -> dict[str, str]:
    """Name → number type (ℕ ℤ ℚ ℝ) of the binders that declare one; others are left out (a
    premise or goal that mentions them is outside the fragment)."""
    out: dict[str, str] = {}
    for binder in binders:
        ty = binder_type(binder)
        if ty is None or not ty.is_leaf or ty.label not in NUMBER_TYPES:
            continue
        for name in binder_names(binder):
            out[name] = ty.label
    return out


def in_fragment(prop: Node, variables: Mapping[str, str], options: RefuteOptions | None = None
                ) -> bool:
    """Whether the engines can read ``prop`` over ``variables``: whether ``decide_trees(p, p)``
    closes it, which it does by ``rfl``, with no solver call, exactly when ``p`` translates
    (both sides are the same translation). ``options`` is not read (no solver runs)."""
    return _translates(prop, tuple(variables.items()))


@lru_cache(maxsize=16384)
def _translates(prop: Node, variables: tuple[tuple[str, str], ...]) -> bool:
    """Kept for the process: a side condition's premises are asked again for every condition
    at every position under them, and the translation is a function of the two arguments
    (the elaborator reads only the tree, the locals' types and the bundled tables)."""
    env = {name: Ty(typ) for name, typ in variables if typ}
    try:
        translate_prop(prop, env)
    except Unsupported:
        return False
    return True


def _conjunction(props: Sequence[Node]) -> Node:
    out = props[0]
    for p in props[1:]:
        out = Node(AND, (out, p))
    return out


def entails(premises: Sequence[Node], goal: Node, variables: Mapping[str, str],
            options: RefuteOptions | None = None, budget: Budget | None = None
            ) -> Entailment | None:
    """A proof that the premises imply ``goal`` for all values of ``variables``, or None.

    ``premises`` and ``goal`` are propositions (proposition-form subtrees) over ``variables``
    (:func:`number_variables`); premises outside the engines' fragment are left out."""
    options = options or RefuteOptions()
    if not in_fragment(goal, variables, options):
        return None
    used = [i for i, p in enumerate(premises) if in_fragment(p, variables, options)]
    if not used:
        return None
    conj = _conjunction([premises[i] for i in used])
    stage = engine_budget(options, budget)
    closing = decide_trees(Node(AND, (conj, goal)), conj, variables, options, stage)
    if closing is None:
        return None
    return Entailment(tuple(used), tuple(closing.tactics))


def equal_under(premises: Sequence[Node], lhs: Node, rhs: Node, variables: Mapping[str, str],
                options: RefuteOptions | None = None, budget: Budget | None = None
                ) -> Entailment | None:
    """A proof that the number terms ``lhs`` and ``rhs`` are equal wherever the premises hold
    (:func:`entails` with the goal ``lhs = rhs``), or None."""
    return entails(premises, Node(EQ, (lhs, rhs)), variables, options, budget)
