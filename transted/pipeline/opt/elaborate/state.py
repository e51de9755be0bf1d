"""The elaborator's records (types, coercions, constants, issues, deferred checks) and the
walk's entry points that the notation modules call back into.

The walk itself is :class:`transted.pipeline.opt.elaborate.core.Elaborator`; the modules it dispatches
to (:mod:`~transted.pipeline.opt.elaborate.operators`, :mod:`~transted.pipeline.opt.elaborate.forms`,
:mod:`~transted.pipeline.opt.elaborate.resolve`, :mod:`~transted.pipeline.opt.elaborate.checks`) take an
:class:`ElaborationState` and elaborate sub-terms through its abstract methods, so they import
this module and never the core that imports them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from transted.pipeline.opt.elaborate.result import (
    Elaboration,
    Issue,
    IssueKind,
    NodeType,
    OverloadChoice,
    Path,
)
from transted.pipeline.opt.elaborate.tables import Tables
from transted.pipeline.opt.elaborate.types import Meta, MetaStore, Ty, Type_, coe_known, show
from transted.pipeline.opt.header_scope import Scope
from transted.pipeline.opt.node import Node

__all__ = ["ElaborationState", "Env"]

Env = dict[str, Type_]
"""The local variables in scope and their types."""


@dataclass
class ElaborationState(ABC):
    scope: Scope
    tables: Tables
    metas: MetaStore = field(default_factory=MetaStore)
    types: dict[Path, Type_] = field(default_factory=dict)
    coercions: dict[Path, Type_] = field(default_factory=dict)
    constants: dict[Path, str] = field(default_factory=dict)
    receivers: dict[Path, int] = field(default_factory=dict)
    """Field-notation nodes ``x.f …``: the argument position of the receiver in ``T.f``."""
    issues: list[Issue] = field(default_factory=list)
    obligations: list[tuple[str, tuple[Type_, ...], Path]] = field(default_factory=list)
    """Instances to synthesise at the end: class (full name), its arguments, where."""
    pow_obligations: list[tuple[Type_, Type_, Path]] = field(default_factory=list)
    arrows: list[tuple[Path, Type_, Type_]] = field(default_factory=list)
    binder_metas: list[tuple[Path, str, Meta]] = field(default_factory=list)
    local_instances: list[tuple[str, tuple[Type_, ...]]] = field(default_factory=list)
    """Instance binders in scope (``[Field F]``: ``("Field", (F,))``)."""
    auto_bound: dict[str, Meta] = field(default_factory=dict)
    auto_sorts: dict[str, str] = field(default_factory=dict)
    """Auto-bound names that are types, and the universe (``Type``/``Sort``) Lean gives them."""
    overloads: dict[Path, OverloadChoice] = field(default_factory=dict)
    """Overloaded names resolved at a path (:mod:`~transted.pipeline.opt.elaborate.overloads`)."""
    defaulted_metas: set[int] = field(default_factory=set)
    """The metavariables a default instance filled (:func:`~.checks.finish`)."""

    # -- the walk (transted.pipeline.opt.elaborate.core.Elaborator) -----------------------------------
    @abstractmethod
    def elab(self, node: Node, path: Path, env: Env, expected: Type_ | None) -> Type_:
        """``node``'s type, elaborated against ``expected`` (recorded at ``path``)."""

    @abstractmethod
    def elab_children(self, node: Node, path: Path, env: Env, start: int = 0) -> None:
        """Elaborate children with no expected type (their names resolve, their issues count)."""

    @abstractmethod
    def bind(self, binder: Node, path: Path, env: Env) -> Env:
        """The environment inside a binder: declared types, or metavariables to unify."""

    @abstractmethod
    def constant(self, full: str, node: Node, path: Path, env: Env,
                 expected: Type_ | None) -> Type_:
        """A resolved constant applied to the node's children (none for a leaf)."""

    @abstractmethod
    def spawn(self) -> ElaborationState:
        """A scratch elaborator on a copy of the metavariables (for trials)."""

    # -- bookkeeping -------------------------------------------------------------------------
    def issue(self, kind: IssueKind, path: Path, message: str, name: str | None = None) -> None:
        self.issues.append(Issue(kind, path, message, name))

    def require(self, cls: str, ty: Type_, path: Path) -> None:
        self.obligations.append((cls, (ty,), path))

    def require_class(self, cls: str, args: tuple[Type_, ...], path: Path) -> None:
        """An instance of a class of any arity (``Module R M``) to synthesise at the end."""
        self.obligations.append((cls, args, path))

    def require_pow(self, base: Type_, exponent: Type_, path: Path) -> None:
        self.pow_obligations.append((base, exponent, path))

    def known(self, t: Type_ | None) -> Ty | None:
        """``t`` if it is a known type (an expected type that is a metavariable is none)."""
        if t is None:
            return None
        t = self.metas.zonk(t)
        return t if isinstance(t, Ty) else None

    def ensure(self, path: Path, actual: Type_, expected: Type_ | None) -> None:
        """``ensureHasType``: unify, else coerce (recording ``↑`` at ``path``), else a mismatch."""
        if expected is None or self.metas.unify(actual, expected):
            return
        a, e = self.metas.zonk(actual), self.metas.zonk(expected)
        known = self.coerces(a, e)
        if known:
            self.coercions[path] = e
        elif known is None:
            self.issue("undecided-instance", path, f"coercion {show(a)} → {show(e)}: a type "
                       "the tables do not know")
        else:
            self.issue("type-mismatch", path, f"has type {show(a)}, expected {show(e)} "
                       "(no coercion)")

    def coerces(self, src: Type_, dst: Type_) -> bool | None:
        """Whether a coercion ``src → dst`` exists (None: the tables cannot say): the number
        casts (:func:`coe_known`), then ``SetLike A B`` to ``Set B`` and no coercion from a
        ``Set`` into a ``SetLike`` structure, both read from the index
        (:mod:`~transted.pipeline.opt.elaborate.set_coercions`)."""
        known = coe_known(src, dst)
        classes = self.tables.classes
        if known is not None or classes is None or not (isinstance(src, Ty) and
                                                         isinstance(dst, Ty)):
            return known
        if dst.head == "Set" and src.head not in ("Set", "Finset"):
            element = classes.set_of(src)
            if element is not None and element == self.metas.zonk(dst.args[0]):
                return True
        if src.head == "Set" and classes.set_of(dst) is not None and \
                classes.excluded_from_set(dst):
            return False
        return None

    def result(self, tree: Node) -> Elaboration:
        nodes = {p: NodeType(self.metas.zonk(t), self._coercion(p), self.constants.get(p),
                             self.receivers.get(p))
                 for p, t in self.types.items()}
        defaulted = frozenset(p for p, t in self.types.items() if self._provisional(t))
        return Elaboration(tree, nodes, tuple(self.issues), self.scope, dict(self.auto_sorts),
                           defaulted, dict(self.overloads))

    def _provisional(self, t: Type_) -> bool:
        """Whether ``t`` (as recorded, before zonking) is unknown or reaches a metavariable a
        default instance filled."""
        stack = [t]
        while stack:
            cur = stack.pop()
            while isinstance(cur, Meta):
                if cur.id in self.defaulted_metas:
                    return True
                if cur.id not in self.metas.solution:
                    return True
                cur = self.metas.solution[cur.id]
            stack.extend(cur.args)
        return False

    def _coercion(self, path: Path) -> Type_ | None:
        target = self.coercions.get(path)
        return None if target is None else self.metas.zonk(target)
