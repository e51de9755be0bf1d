"""Overloaded names: which alternatives certainly fail, as Lean's ``elabAppAux`` decides.

Lean core ``src/Lean/Elab/App.lean``: ``elabAppFnId`` elaborates the application once per
alternative of an overloaded identifier (each under ``observing``, with ``errToSorry`` off, and
``ensureHasType`` against the expected type); ``elabAppAux`` then applies the single success,
throws "ambiguous, possible interpretations" for several and ``mergeFailures`` for none. No
``synthesizeSyntheticMVars`` runs inside an alternative: an instance problem may be postponed
and is not a failure the model may count on.

The model rejects an alternative only when its failure is certain from the signature alone:

* **arity** — the application has more arguments than the alternative can take, and its value
  is a proposition or a type (``Subgroup.Normal H : Prop``, ``Subgroup G : Type``): elabAppArgs
  ends in ``synthesizePendingAndNormalizeFunType``, whose ``coerceToFunction?`` finds no
  ``CoeFun`` at ``Prop`` or ``Sort u`` (none in the pinned Mathlib: no ``CoeFun``,
  ``FunLike`` or ``DFunLike`` instance has a sort as its source, and the generic
  ``DFunLike.toCoeFun`` needs one), so it throws "function expected". Without ``@`` the
  arguments are the explicit parameters (and the arrows of the value's type); with ``@``
  (``ElabAppArgs.Context.explicit``) every binder of the declaration, counted from the index
  only when none of them comes from a ``variable`` command (Lean includes those by use). A value
  that is a function only up to unfolding (``Set X``) is never rejected;
* **no coercion** — an argument whose type is a known type with no coercion to the parameter's
  (the ``type-mismatch`` of :meth:`~.state.ElaborationState.ensure`: the number casts' table,
  a ``Set`` into a ``SetLike`` structure read from the index).

Everything else (an instance the tables do not know or deny, a gap of the model, a nested
overload) keeps the alternative in: one survivor is the resolution, several stay ambiguous.
"""

from __future__ import annotations

from transted.pipeline.opt.elaborate.checks import finish
from transted.pipeline.opt.elaborate.result import Issue, OverloadChoice, Path
from transted.pipeline.opt.elaborate.state import ElaborationState, Env
from transted.pipeline.opt.elaborate.tables import is_identifier
from transted.pipeline.opt.elaborate.types import PROP, SORT, MetaStore, Ty, Type_
from transted.pipeline.opt.labels import EXPLICIT_MARK
from transted.pipeline.opt.node import Node

__all__ = ["overloaded", "explicit", "split_explicit", "arity_failure"]


def split_explicit(ident: str) -> tuple[str, bool]:
    """``@Normal`` → (``Normal``, True); a name without the mark → (it, False)."""
    if ident.startswith(EXPLICIT_MARK) and len(ident) > len(EXPLICIT_MARK):
        return ident[len(EXPLICIT_MARK):], True
    return ident, False


def arity_failure(el: ElaborationState, full: str, arguments: int, explicit: bool) -> str | None:
    """Why ``full`` applied to ``arguments`` arguments certainly fails (see the module
    docstring), or None when it may not."""
    sig = el.tables.signatures.signature(full)
    if sig is None:
        return None
    typed = sig.instantiate(MetaStore().fresh)
    if explicit:
        takes = el.tables.signatures.binder_count(full)
        if takes is None:
            return None
        how = "binders (all explicit under @)"
    else:
        takes, how = len(typed.params), "explicit arguments"
    value = typed.result
    while isinstance(value, Ty) and value.head == "→":
        takes, value = takes + 1, value.args[1]
    if arguments <= takes or value not in (PROP, SORT):
        return None
    what = "a proposition" if value == PROP else "a type"
    return (f"{full} takes {takes} {how} and its value is {what}: applied to {arguments}, "
            "Lean finds no function to apply (\"function expected\")")


def overloaded(el: ElaborationState, ident: str, candidates: tuple[str, ...], node: Node, path: Path,
                env: Env, expected: Type_ | None) -> Type_:
    """``elabAppAux``: drop the alternatives that certainly fail (:mod:`~.overloads`); one left
    is the resolution, several are ``ambiguous``."""
    survivors, rejected = _undefeated(el, candidates, len(node.children), False)
    clean, kept = [], []
    for full in survivors:
        issues = _trial(el, full, node, path, env, expected)
        mismatch = next((i for i in issues if i.kind == "type-mismatch"), None)
        if mismatch is not None:
            rejected.append((full, f"{full}: {mismatch.message}"))
            continue
        kept.append(full)
        if not issues:
            clean.append(full)
    if len(kept) == 1:
        el.overloads[path] = OverloadChoice(ident, kept[0], tuple(rejected))
        return el.constant(kept[0], node, path, env, expected)
    _ambiguous(el, ident, candidates, kept, clean, path)
    el.elab_children(node, path, env)
    return el.metas.fresh()


def _ambiguous(el: ElaborationState, ident: str, candidates: tuple[str, ...], kept: list[str],
               clean: list[str], path: Path) -> None:
    if len(clean) > 1:
        what = f"ambiguous, possible interpretations {', '.join(clean)}"
    elif not kept:
        what = f"no interpretation elaborates ({', '.join(candidates)})"
    else:
        what = f"overloaded ({', '.join(kept)}) and the types cannot settle it"
    el.issue("ambiguous", path, f"{ident}: {what}", ident)


def _trial(el: ElaborationState, full: str, node: Node, path: Path, env: Env,
           expected: Type_ | None) -> list[Issue]:
    trial = el.spawn()
    trial.ensure(path, trial.constant(full, node, path, env, expected), el.known(expected))
    finish(trial)
    return trial.issues


def explicit(el: ElaborationState, ident: str, node: Node, path: Path, env: Env) -> Type_:
    """``@f a …``: the constant ``f`` names (an overload settled by :func:`arity_failure`
    over all its binders), its application not typed."""
    found = el.tables.names.resolve(ident, el.scope) if is_identifier(ident) else None
    if ident in env or found is None or found.status == "unknown" or found.fields:
        el.issue("unsupported", path, f"{EXPLICIT_MARK}{ident}: an explicit application the "
                 "model does not type", ident)
        el.elab_children(node, path, env)
        return el.metas.fresh()
    survivors: list[str] = list(found.candidates)
    rejected: list[tuple[str, str]] = []
    if found.status == "ambiguous":
        survivors, rejected = _undefeated(el, found.candidates, len(node.children), True)
    if len(survivors) != 1:
        _ambiguous(el, ident, found.candidates, survivors, [], path)
    else:
        el.constants[path] = survivors[0]
        if rejected:
            el.overloads[path] = OverloadChoice(ident, survivors[0], tuple(rejected))
        el.issue("unsupported", path, f"{EXPLICIT_MARK}{ident} is {survivors[0]} with every "
                 "binder explicit: its arguments are not typed", survivors[0])
    el.elab_children(node, path, env)
    return el.metas.fresh()


def _undefeated(el: ElaborationState, candidates: tuple[str, ...], arguments: int,
                explicit: bool) -> tuple[list[str], list[tuple[str, str]]]:
    """The candidates no arity rule rejects, and the rejected ones with why."""
    survivors, rejected = [], []
    for full in candidates:
        why = arity_failure(el, full, arguments, explicit)
        if why is None:
            survivors.append(full)
        else:
            rejected.append((full, why))
    return survivors, rejected
