"""Congruence moves of ASSESS Table 1: reduce ``f x = f y`` to ``x = y``.

Each move replaces the goal by a *stronger* one (§3.3.1: "to show f(i) = f(j) it suffices to
show i = j"), and is offered only when it leaves a single goal, as Algorithm 1 requires:

=====================  ==========================  ============================================
goal                   new goal                    tactic (lemma)
=====================  ==========================  ============================================
``f a x = f a y``      ``x = y``                   ``congr 1`` (congrArg / congrFun)
``(a → b) = (a → c)``  ``h : a ⊢ b = c``           ``apply forall_congr; intro _`` (forall_congr)
``(a → c) = (b → c)``  ``a = b``                   ``refine implies_congr ?_ rfl``
``(∀ x, p) = ∀ y, q``  ``x ⊢ p = q[y:=x]``         ``apply forall_congr; intro x``
``(fun x => p) = …``   ``x ⊢ p = q[y:=x]``         ``funext x`` (funext)
``(∃ x, p) = ∃ y, q``  ``x ⊢ p = q[y:=x]``         ``refine congrArg _ (funext fun x => ?_)``
=====================  ==========================  ============================================

The last row covers every binder whose Lean term is ``F (fun x => body)`` (∃, ∃!, set-builder,
``∑ x ∈ s``, ``∏``, ⋃, ⋂ …); binder types must agree (compared alpha-canonically), and the
introduced variable gets the left binder's name, fresh for the context.
"""

from __future__ import annotations

from collections.abc import Iterator

from transted.pipeline.opt.labels import APP, ARROW, FORALL, FUN
from transted.pipeline.opt.scope import binder_type, body_index, bound_name, free_names
from transted.pipeline.opt.substitution import fresh_name, rename_free
from transted.pipeline.search.providers.base import Move
from transted.pipeline.search.state import Local, State

__all__ = ["congruence_moves"]

_NO_INTRO = ("let ", "have ", "∫ ")


def congruence_moves(state: State) -> Iterator[Move]:
    """The congruence moves applicable at the root of ``state``'s two sides."""
    lhs, rhs = state.lhs, state.rhs
    clhs, crhs = state.canonical_lhs, state.canonical_rhs
    if (lhs.label != rhs.label or len(lhs.children) != len(rhs.children) or clhs == crhs
            or lhs.is_leaf):
        return
    differ = [i for i, (a, b) in enumerate(zip(clhs.children, crhs.children, strict=False)) if a != b]
    if lhs.label == ARROW:
        if differ == [1]:
            # the shared antecedent is a hypothesis of the new goal (inaccessible, as `intro _`
            # leaves it): side conditions of later rewrites may use it
            hypothesis = Local(fresh_name("h✝", state.names()), lhs.children[0])
            yield Move("forall_congr", "apply forall_congr; intro _",
                       State(lhs.children[1], rhs.children[1],
                             state.context + (hypothesis,)))
        elif differ == [0]:
            yield Move("implies_congr", "refine implies_congr ?_ rfl",
                       State(lhs.children[0], rhs.children[0], state.context))
        return
    body = body_index(lhs.label)
    if body is not None and len(lhs.children) >= 2:
        if differ == [body]:
            intro = _intro(state)
            if intro is not None:
                yield intro
        elif len(differ) == 1 and 0 < differ[0] != body:
            i = differ[0]
            yield Move("congrArg", "congr 1",
                       State(lhs.children[i], rhs.children[i], state.context))
        return
    if len(differ) == 1:
        i = differ[0]
        name = "congrFun" if lhs.label.startswith(APP) and i == 0 else "congrArg"
        yield Move(name, "congr 1", State(lhs.children[i], rhs.children[i], state.context))


def _intro(state: State) -> Move | None:
    lhs, rhs = state.lhs, state.rhs
    if lhs.label.startswith(_NO_INTRO):
        return None
    bl, br = lhs.children[0], rhs.children[0]
    xl, xr = bound_name(bl), bound_name(br)
    if xl is None or xr is None:
        return None
    body = body_index(lhs.label)
    assert body is not None
    body_l, body_r = lhs.children[body], rhs.children[body]
    avoid = state.names() | (free_names(body_l) - {xl}) | (free_names(body_r) - {xr})
    name = fresh_name(xl, avoid)
    if name != xl:
        body_l = rename_free(body_l, xl, name)
    if name != xr:
        body_r = rename_free(body_r, xr, name)
    if len(lhs.children) != body + 1:  # ∫'s ∂μ after the body: no congruence lemma here
        return None
    new = State(body_l, body_r, state.context + (Local(name, binder_type(bl)),))
    if lhs.label == FORALL:
        return Move("forall_congr", f"apply forall_congr; intro {name}", new)
    if lhs.label == FUN:
        return Move("funext", f"funext {name}", new)
    return Move("congrArg", f"refine congrArg _ (funext fun {name} => ?_)", new)
