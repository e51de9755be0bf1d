"""The end of elaboration: Lean's default instances, then the deferred checks.

Lean elaborates first and synthesises pending instances and default instances at the end
(``synthesizeSyntheticMVars``); so do we: the numerals still untyped default to ℕ (or Float
beside a scientific literal), then every ``↑`` must have a coercion, every operation its
instance at the type it got (``HMod ℝ`` does not exist; ``LocallyFiniteOrder ℝ`` neither), and
every binder a type.
"""

from __future__ import annotations

from transted.pipeline.opt.elaborate.result import GAP_KINDS, Issue, Path
from transted.pipeline.opt.elaborate.signatures import IMPLIED
from transted.pipeline.opt.elaborate.state import ElaborationState
from transted.pipeline.opt.elaborate.types import Meta, Ty, Type_, show

__all__ = ["finish"]


def finish(el: ElaborationState) -> list[Issue]:
    """Default the numerals, then check coercion arrows, instances and binder types."""
    before = len(el.issues)
    for _path, inner, target in el.arrows:  # `↑2`: the numeral takes the target type
        if el.metas.unknown(inner) and not el.metas.unknown(target):
            el.metas.unify(inner, target)
    gaps = any(i.kind in GAP_KINDS for i in el.issues)
    defaulted = {m.id for m, _t in el.metas.default()}
    el.defaulted_metas |= defaulted
    for path, inner, target in el.arrows:
        _check_arrow(el, path, inner, target)
    for cls, args, path in el.obligations:
        if gaps and any(_defaulted(el, t, defaulted) for t in args):
            # the numeral's type was defaulted to ℕ because something the model does not
            # type (a gap reported above) left it open: in Lean that something may fix it
            el.issue("uninferred", path, f"the type of this {cls} operation was defaulted, "
                     "but a constant the model does not type may determine it", cls)
            continue
        _check_instance(el, cls, tuple(el.metas.zonk(t) for t in args), path)
    for base, exponent, path in el.pow_obligations:
        _check_pow(el, el.metas.zonk(base), el.metas.zonk(exponent), path)
    for path, name, meta in el.binder_metas:
        if el.metas.unknown(meta):
            el.issue("uninferred", path, f"the type of {name} is not determined")
    return el.issues[before:]


def _defaulted(el: ElaborationState, ty: Type_, defaulted: set[int]) -> bool:
    """Whether ``ty`` got its value from a default instance (its metavariable chain meets
    one that :meth:`MetaStore.default` filled)."""
    while isinstance(ty, Meta):
        if ty.id in defaulted:
            return True
        if ty.id not in el.metas.solution:
            return False
        ty = el.metas.solution[ty.id]
    return False


def _check_arrow(el: ElaborationState, path: Path, inner: Type_, target: Type_) -> None:
    a, b = el.metas.zonk(inner), el.metas.zonk(target)
    if isinstance(b, Meta):
        el.issue("uninferred", path, "↑ with no target type in sight")
    elif a != b:
        el.ensure(path, a, b)


def _check_instance(el: ElaborationState, cls: str, args: tuple[Type_, ...], path: Path) -> None:
    """Lean's instance synthesis at the end: a local instance or one of its parents first,
    then the instance table (number types); what neither decides is undecided, never
    missing (an abstract type may have the instance through a binder the model cannot read)."""
    at = " ".join(show(a) for a in args)
    if any(isinstance(a, Meta) for a in args):
        el.issue("uninferred", path, f"the type of this {cls} operation is not determined")
        return
    typed = tuple(a for a in args if isinstance(a, Ty))
    if _local(el, cls, typed):
        return
    if len(typed) != 1:
        el.issue("undecided-instance", path, f"{cls} {at}: a class of several arguments "
                 "the local instances do not give", cls)
        return
    has = el.tables.instances.has_instance(cls, typed[0], el.scope.scoped)
    if has is False:
        el.issue("missing-instance", path, f"no {cls} instance at {at}", cls)
    elif has is None:
        el.issue("undecided-instance", path, f"{cls} at {at}: not in the table", cls)


def _local(el: ElaborationState, cls: str, args: tuple[Ty, ...]) -> bool:
    """A local instance gives ``cls args``: itself, or a parent through the class hierarchy
    (the index's ``extends`` and instance edges, with their arguments:
    :mod:`~transted.pipeline.opt.elaborate.classes`); without the index, the curated ``IMPLIED``
    parents. Only upwards: ``[Ring R]`` gives ``Mul R``, never ``CommRing R``."""
    hierarchy = el.tables.classes
    for local_cls, local_args in el.local_instances:
        given = (local_cls, tuple(el.metas.zonk(a) for a in local_args))
        if given == (cls, args):
            return True
        if hierarchy is not None:
            if hierarchy.provides(given, (cls, args)):
                return True
        elif len(args) == 1 and given[1] == args and cls in IMPLIED.get(local_cls, ()):
            return True
    return False


def _check_pow(el: ElaborationState, base: Type_, exponent: Type_, path: Path) -> None:
    if not (isinstance(base, Ty) and isinstance(exponent, Ty)):
        el.issue("uninferred", path, "the type of this power is not determined")
        return
    cls = {"ℕ": "Monoid", "ℤ": "DivInvMonoid"}.get(exponent.head)
    if cls is not None:
        _check_instance(el, cls, (base,), path)
    elif not (base == exponent and base.head in ("ℝ", "ℂ")):  # Real.rpow, Complex.cpow
        el.issue("missing-instance", path, f"no power {show(base)} ^ {show(exponent)}")
