"""The elaboration walk: each node's type as Lean's elaborators compute it.

One recursive function, :meth:`Elaborator.elab` ``(node, expected type) → type``, dispatching
on the label as Lean dispatches on syntax (docs/ELABORATION.md has the rule for each kind and
the Lean source it follows):

* arithmetic and relations: :mod:`~transted.opt.elaborate.operators` (``binop%``/``binrel%``);
* ascription ``(e : T)``: ``e`` elaborated *with* expected type ``T``, then ``↑`` if needed
  (``elabTypeAscription``, ``BuiltinNotation.lean``);
* applications ``f a b`` of a constant: the expected type is unified with the result type
  *before* the arguments are elaborated (``ElabAppArgs.propagateExpectedType``, ``App.lean``;
  not for ``Prop``), each argument is elaborated against its parameter type and coerced;
  so ``(min (a - b) c : ℤ)`` computes ``a - b`` in ℤ. ``if c then t else e`` is ``ite``:
  the same rule. An overloaded name keeps the alternatives that elaborate; more than one is
  ``ambiguous`` (``elabAppAux``);
* ``a ∣ b`` (plain ``Dvd.dvd``: the first argument fixes the type), ``a ∈ s``
  (``Membership.mem s a``: the collection fixes the element type), big operators
  (``Finset.sum s (fun x ↦ body)``: the expected type flows into the body);
* leaves: numerals are metavariables defaulted to ℕ at the end (``instOfNatNat``); names are
  locals first, then the name table, then auto-bound implicits (``autoImplicit``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from transted.opt.elaborate import checks, forms, operators
from transted.opt.elaborate.header import Scope
from transted.opt.elaborate.result import Elaboration, Issue, IssueKind, NodeType, Path
from transted.opt.elaborate.tables import CLASSES, NOTATIONS, Tables, instantiate
from transted.opt.elaborate.type_nodes import type_of_node
from transted.opt.elaborate.types import (
    PROP,
    SORT,
    Meta,
    MetaStore,
    Ty,
    Type_,
    arrow,
    coe_known,
    show,
)
from transted.opt.node import SLOT, Node
from transted.opt.scope import binder_names, binder_type, head_name

__all__ = ["Elaborator", "Env"]

Env = dict[str, Type_]
S = SLOT
_LOGIC = {f"{S} ∧ {S}", f"{S} ∨ {S}", f"{S} ↔ {S}"}
_QUANTIFIERS = {f"∀ {S}, {S}", f"∃ {S}, {S}", f"∃! {S}, {S}"}
_MODEQ = {f"{S} ≡ {S} [MOD {S}]": Ty("ℕ"), f"{S} ≡ {S} [ZMOD {S}]": Ty("ℤ")}
_NUMERAL = re.compile(r"^[0-9]+$")
_SCIENTIFIC = re.compile(r"^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$")
_FIELD = re.compile(r"^<SLOT>\.([^\s.][^\s]*)((?: <SLOT>)*)$")
_AUTO_SUFFIX = re.compile(r"^[0-9₀-₉ₐ-ₜ_']*$")
_TYPE_NAMESPACES = {"ℕ": "Nat", "ℤ": "Int", "ℚ": "Rat", "ℝ": "Real", "ℂ": "Complex",
                    "Finset": "Finset", "Set": "Set"}


@dataclass
class Elaborator:
    scope: Scope
    tables: Tables
    metas: MetaStore = field(default_factory=MetaStore)
    types: dict[Path, Type_] = field(default_factory=dict)
    coercions: dict[Path, Type_] = field(default_factory=dict)
    constants: dict[Path, str] = field(default_factory=dict)
    issues: list[Issue] = field(default_factory=list)
    obligations: list[tuple[str, Type_, Path]] = field(default_factory=list)
    pow_obligations: list[tuple[Type_, Type_, Path]] = field(default_factory=list)
    arrows: list[tuple[Path, Type_, Type_]] = field(default_factory=list)
    binder_metas: list[tuple[Path, str, Meta]] = field(default_factory=list)
    local_instances: list[tuple[str, Type_]] = field(default_factory=list)
    auto_bound: dict[str, Meta] = field(default_factory=dict)

    # -- bookkeeping -------------------------------------------------------------------------
    def issue(self, kind: IssueKind, path: Path, message: str) -> None:
        self.issues.append(Issue(kind, path, message))

    def require(self, cls: str, ty: Type_, path: Path) -> None:
        self.obligations.append((cls, ty, path))

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
        known = coe_known(a, e)
        if known:
            self.coercions[path] = e
        elif known is None:
            self.issue("undecided-instance", path, f"coercion {show(a)} → {show(e)}: a type "
                       "the tables do not know")
        else:
            self.issue("type-mismatch", path, f"has type {show(a)}, expected {show(e)} "
                       "(no coercion)")

    # -- the walk ---------------------------------------------------------------------------
    def elab(self, node: Node, path: Path, env: Env, expected: Type_ | None) -> Type_:
        t = self._dispatch(node, path, env, expected)
        self.types[path] = t
        return t

    def _dispatch(self, node: Node, path: Path, env: Env, expected: Type_ | None) -> Type_:
        label, kids = node.label, node.children
        if label in operators.RELATIONS:
            return operators.binrel(self, node, path, env)
        if operators.is_operator(label):
            return operators.op_tree(self, node, path, env, expected)
        if label in _LOGIC or label == f"¬{S}":
            for i, c in enumerate(kids):
                self.ensure((*path, i), self.elab(c, (*path, i), env, PROP), PROP)
            return PROP
        if label == f"{S} → {S}":
            return self._arrow(node, path, env)
        if label in _QUANTIFIERS:
            return self._quantifier(node, path, env)
        if label == f"({S} : {S})":
            return self._ascription(node, path, env)
        if label == f"↑{S}":
            return forms.coe(self, node, path, env, expected)
        if label in forms.BIG:
            return forms.big(self, node, path, env, expected)
        if label == forms.LAMBDA:
            return forms.lam(self, node, path, env, expected)
        if label == f"if {S} then {S} else {S}":
            return forms.ite(self, node, path, env, expected)
        if label == f"{S} ∣ {S}":
            return forms.dvd(self, node, path, env)
        if label in (f"{S} ∈ {S}", f"{S} ∉ {S}"):
            return forms.mem(self, node, path, env)
        if label in _MODEQ:
            for i, c in enumerate(kids):
                self.ensure((*path, i), self.elab(c, (*path, i), env, _MODEQ[label]),
                            _MODEQ[label])
            return PROP
        if node.is_leaf:
            return self._leaf(node, path, env, expected)
        if label in NOTATIONS:
            return self._notation(node, path, env, expected)
        return self._application(node, path, env, expected)

    # -- propositions and binders -------------------------------------------------------------
    def _arrow(self, node: Node, path: Path, env: Env) -> Type_:
        left, right = node.children
        as_type = type_of_node(left, env)
        if as_type is not None:  # `(x : ℝ) → P` with x unused, or an instance `[C α]`
            self.types[(*path, 0)] = SORT
        elif left.children and head_name(left.label, len(left.children)) in CLASSES:
            cls = head_name(left.label, len(left.children))
            arg = type_of_node(left.children[0], env)
            if cls is not None and arg is not None:
                self.local_instances.append((cls, arg))
            self.types[(*path, 0)] = SORT
        elif self._is_type_like(self._spawn().elab(left, (*path, 0), env, None)):
            # `↥s → ℝ`: a function type over a set coerced to a type
            self.issue("unsupported", (*path, 0), f"function type over {left}")
            return self.metas.fresh()
        else:
            self.ensure((*path, 0), self.elab(left, (*path, 0), env, PROP), PROP)
        self.ensure((*path, 1), self.elab(right, (*path, 1), env, PROP), PROP)
        return PROP

    def _is_type_like(self, t: Type_) -> bool:
        t = self.metas.zonk(t)
        return isinstance(t, Ty) and (t == SORT or t.head in ("Set", "Finset"))

    def bind(self, binder: Node, path: Path, env: Env) -> Env:
        """The environment inside a binder: declared types, or metavariables to unify."""
        inner = dict(env)
        names = binder_names(binder)
        declared = binder_type(binder)
        if declared is None and not binder.is_leaf:
            self.issue("unsupported", path, f"binder form {binder.label!r}")
        ty: Type_ | None = type_of_node(declared, env) if declared is not None else None
        if declared is not None and ty is None:
            ty = self._binder_type(declared, (*path, len(binder.children) - 1), env)
        for i, name in enumerate(names):
            t = ty if ty is not None else self.metas.fresh()
            if isinstance(t, Meta):
                self.binder_metas.append(((*path, i) if not binder.is_leaf else path, name, t))
            inner[name] = t
            self.types[(*path, i) if not binder.is_leaf else path] = t
        return inner

    def _binder_type(self, declared: Node, path: Path, env: Env) -> Ty:
        """A declared type that is not a type expression we read: a proposition (``∀ h : P,
        Q``, a hypothesis) if it elaborates to ``Prop``, else a type the tables do not model
        (``Submodule R M``): opaque, with an ``unsupported`` issue."""
        trial = self._spawn()
        if self.metas.zonk(trial.elab(declared, path, env, None)) == PROP:
            self.ensure(path, self.elab(declared, path, env, PROP), PROP)
            return Ty("Proof")
        self.issue("unsupported", path, f"binder type {declared} not modelled")
        return Ty(str(declared))

    def _spawn(self) -> Elaborator:
        """A scratch elaborator on a copy of the metavariables (for trials)."""
        child = Elaborator(self.scope, self.tables,
                           MetaStore(dict(self.metas.solution), dict(self.metas.kinds)))
        child.local_instances = list(self.local_instances)
        child.auto_bound = dict(self.auto_bound)
        return child

    def _quantifier(self, node: Node, path: Path, env: Env) -> Type_:
        inner = self.bind(node.children[0], (*path, 0), env)
        self.ensure((*path, 1), self.elab(node.children[1], (*path, 1), inner, PROP), PROP)
        return PROP

    # -- expected types -----------------------------------------------------------------------
    def _ascription(self, node: Node, path: Path, env: Env) -> Type_:
        target = type_of_node(node.children[1], env)
        if target is None:
            self.issue("unsupported", (*path, 1), f"type {node.children[1]} not modelled")
            return self.metas.fresh()
        self.types[(*path, 1)] = SORT
        self.ensure((*path, 0), self.elab(node.children[0], (*path, 0), env, target), target)
        return target

    # -- names ----------------------------------------------------------------------------------
    def _leaf(self, node: Node, path: Path, env: Env, expected: Type_ | None) -> Type_:
        label = node.label
        if _NUMERAL.match(label):
            return self.metas.fresh("numeral")
        if _SCIENTIFIC.match(label):  # `OfScientific α`: fields and Float, not ℕ or ℤ
            meta = self.metas.fresh("scientific")
            self.require("OfScientific", meta, path)
            return meta
        if label in ("True", "False"):
            return PROP
        if label in env:
            return env[label]
        notation = NOTATIONS.get(label)
        if notation is not None and self.scope.notation_active(notation.scope):
            return self._notation(node, path, env, expected)
        if label in self.auto_bound:
            return self.auto_bound[label]
        resolution = self.tables.names.resolve(label, self.scope)
        if notation is not None:  # inactive scoped notation: Lean reads an identifier
            resolution = type(resolution)(resolution.status, resolution.candidates,
                                          f"{label} is notation scoped in {notation.scope}, "
                                          "which the header does not open")
        if resolution.status == "resolved":
            return self._constant(resolution.candidates[0], node, path, env, expected)
        if resolution.status == "ambiguous":
            return self._overloaded(resolution.candidates, node, path, env, expected)
        return self._unresolved(label, path, resolution.reason)

    def _unresolved(self, name: str, path: Path, why: str) -> Type_:
        if name in self.scope.declared:
            self.issue("unknown-name", path, f"{name} is declared in the header; its "
                       "signature is not read")
            return self.metas.fresh()
        valid = "." not in name and (self.scope.relaxed_auto_implicit
                                     or (name[:1].isalpha() and _AUTO_SUFFIX.match(name[1:])))
        if self.scope.auto_implicit and valid:
            self.auto_bound[name] = self.metas.fresh()
            self.issue("auto-bound", path, f"{name} is not a known constant ({why}): Lean "
                       "binds it as an implicit argument of unknown meaning")
            return self.auto_bound[name]
        self.issue("unknown-name", path, f"unknown identifier {name} ({why})")
        return self.metas.fresh()

    def _notation(self, node: Node, path: Path, env: Env, expected: Type_ | None) -> Type_:
        entry = NOTATIONS[node.label]
        if not self.scope.notation_active(entry.scope):
            self.issue("scoped-notation", path, f"{node.label.replace(SLOT, '·')} is "
                       f"`scoped` in {entry.scope} ({entry.source}); the header does not open "
                       "it, so Lean does not read it as " + entry.function)
        return self._constant(entry.function, node, path, env, expected)

    def _application(self, node: Node, path: Path, env: Env, expected: Type_ | None) -> Type_:
        field_match = _FIELD.match(node.label)
        if field_match:
            return self._field(field_match.group(1), node, path, env, expected)
        head = head_name(node.label, len(node.children))
        if head is None:
            self.issue("unsupported", path, f"construct {node.label!r}")
            for i, c in enumerate(node.children):
                self.elab(c, (*path, i), env, None)
            return self.metas.fresh()
        if head in env:
            return self._local_call(env[head], node, path, env)
        resolution = self.tables.names.resolve(head, self.scope)
        if resolution.status == "resolved":
            return self._constant(resolution.candidates[0], node, path, env, expected)
        if resolution.status == "ambiguous":
            return self._overloaded(resolution.candidates, node, path, env, expected)
        for i, c in enumerate(node.children):
            self.elab(c, (*path, i), env, None)
        return self._unresolved(head, path, resolution.reason)

    def _local_call(self, fn: Type_, node: Node, path: Path, env: Env) -> Type_:
        for i, arg in enumerate(node.children):
            fn = self.metas.zonk(fn)
            if not (isinstance(fn, Ty) and fn.head == "→"):
                self.issue("unsupported", path, f"application of a local of type {show(fn)}")
                return self.metas.fresh()
            self.ensure((*path, i), self.elab(arg, (*path, i), env, fn.args[0]), fn.args[0])
            fn = fn.args[1]
        return fn

    def _constant(self, full: str, node: Node, path: Path, env: Env,
                  expected: Type_ | None) -> Type_:
        sig = self.tables.signatures.signature(full)
        if sig is None:
            self.issue("unknown-name", path, f"{full} has no signature in the table")
            return self.metas.fresh()
        self.constants[path] = full
        params, result, obligations = instantiate(sig, self.metas.fresh)
        args = list(enumerate(node.children))
        if len(args) > len(params):
            self.issue("unsupported", path, f"{full} applied to {len(args)} arguments")
            return self.metas.fresh()
        for p in reversed(params[len(args):]):  # partial application
            result = arrow(p, result)
        goal = self.known(expected)
        if args and goal is not None and goal != PROP:  # propagateExpectedType
            self.metas.unify(result, goal)
        for (i, arg), param in zip(args, params, strict=False):
            self.ensure((*path, i), self.elab(arg, (*path, i), env, param), param)
        for cls, ty in obligations:
            self.require(cls, ty, path)
        return result

    def _overloaded(self, candidates: tuple[str, ...], node: Node, path: Path, env: Env,
                    expected: Type_ | None) -> Type_:
        """``elabAppAux``: keep the alternatives that elaborate; one → it, several → error."""
        fits = [c for c in candidates if self._trial(c, node, path, env, expected)]
        if len(fits) == 1:
            return self._constant(fits[0], node, path, env, expected)
        what = "ambiguous, possible interpretations" if fits else "no interpretation elaborates"
        self.issue("ambiguous", path, f"{what}: {', '.join(fits or candidates)}")
        for i, c in enumerate(node.children):
            self.elab(c, (*path, i), env, None)
        return self.metas.fresh()

    def _trial(self, full: str, node: Node, path: Path, env: Env, expected: Type_ | None) -> bool:
        trial = self._spawn()
        trial.ensure(path, trial._constant(full, node, path, env, expected), self.known(expected))
        trial.finish_checks()
        return not trial.issues

    def _field(self, name: str, node: Node, path: Path, env: Env, expected: Type_ | None) -> Type_:
        """``x.f a`` (generalized field notation): ``T.f`` with ``x`` as its first explicit
        argument of type ``T …``; the tree must mark it (label ``<SLOT>.f …``)."""
        receiver = self.metas.zonk(self.elab(node.children[0], (*path, 0), env, None))
        namespace = _TYPE_NAMESPACES.get(receiver.head) if isinstance(receiver, Ty) else None
        sig = self.tables.signatures.signature(f"{namespace}.{name}") if namespace else None
        if sig is None:
            self.issue("unknown-name", path, f"field {name} of {show(receiver)}")
            return self.metas.fresh()
        assert isinstance(receiver, Ty)
        slot = next((i for i, a in enumerate(sig.args) if a.split()[0] == receiver.head), 0)
        args = list(node.children[1:])
        args.insert(slot, node.children[0])
        reordered = Node(f"{namespace}.{name}" + f" {SLOT}" * len(args), tuple(args))
        return self._constant(f"{namespace}.{name}", reordered, path, env, expected)

    def finish_checks(self) -> list[Issue]:
        """Default the numerals, then check coercion arrows, instances and binder types."""
        return checks.finish(self)

    def result(self, tree: Node) -> Elaboration:
        nodes = {p: NodeType(self.metas.zonk(t), self._coercion(p), self.constants.get(p))
                 for p, t in self.types.items()}
        return Elaboration(tree, nodes, tuple(self.issues))

    def _coercion(self, path: Path) -> Type_ | None:
        target = self.coercions.get(path)
        return None if target is None else self.metas.zonk(target)
