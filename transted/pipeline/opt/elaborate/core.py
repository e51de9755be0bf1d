"""The elaboration walk: each node's type as Lean's elaborators compute it.

One recursive function, :meth:`Elaborator.elab` ``(node, expected type) → type``, dispatching
on the label as Lean dispatches on syntax (docs/ELABORATION.md has the rule for each kind and
the Lean source it follows):

* arithmetic and relations: :mod:`~transted.pipeline.opt.elaborate.operators` (``binop%``/``binrel%``);
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

from transted.errors import ParseError
from transted.pipeline.opt.elaborate import checks, forms, operators, resolve
from transted.pipeline.opt.elaborate.result import Issue, Path
from transted.pipeline.opt.elaborate.signatures import NOTATIONS, Parameter
from transted.pipeline.opt.elaborate.state import ElaborationState, Env
from transted.pipeline.opt.elaborate.type_nodes import type_of_node
from transted.pipeline.opt.elaborate.types import (
    PROP,
    SORT,
    Meta,
    MetaStore,
    Ty,
    Type_,
    arrow,
    show,
)
from transted.pipeline.opt.header_scope import open_in
from transted.pipeline.opt.labels import SET_BUILDER, TERM_OPEN
from transted.pipeline.opt.node import SLOT, Node
from transted.pipeline.opt.scope import binder_names, binder_type, body_index, head_name

__all__ = ["Elaborator", "MAX_DEPTH"]

MAX_DEPTH = 150
"""Tree depth the elaborator descends (about 5 Python frames a level stay inside the default
recursion limit); statements nest at most 17 levels in tests/data, operator chains are read
iteratively (``operators._collect``)."""

S = SLOT
_LOGIC = {f"{S} ∧ {S}", f"{S} ∨ {S}", f"{S} ↔ {S}"}
_QUANTIFIERS = {f"∀ {S}, {S}", f"∃ {S}, {S}", f"∃! {S}, {S}"}
_MODEQ = {f"{S} ≡ {S} [MOD {S}]": Ty("ℕ"), f"{S} ≡ {S} [ZMOD {S}]": Ty("ℤ")}
_NUMERAL = re.compile(r"^[0-9]+$")
_SCIENTIFIC = re.compile(r"^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$")


class Elaborator(ElaborationState):
    """The walk: :meth:`elab` dispatches on the label to the notation modules and to the
    propositions, binders, ascriptions and applications below."""

    # -- the walk ---------------------------------------------------------------------------
    def elab(self, node: Node, path: Path, env: Env, expected: Type_ | None) -> Type_:
        if len(path) > MAX_DEPTH:  # a long left-associated chain the parser does not nest
            self.issue("unsupported", path, f"nested deeper than {MAX_DEPTH} levels")
            t: Type_ = self.metas.fresh()
        else:
            t = self._dispatch(node, path, env, expected)
        self.types[path] = t
        return t

    def _dispatch(self, node: Node, path: Path, env: Env, expected: Type_ | None) -> Type_:
        label, kids = node.label, node.children
        if label in operators.RELATIONS:
            return operators.binrel(self, node, path, env)
        if operators.is_arithmetic_operator(label):
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
        if label == SET_BUILDER:
            return forms.set_builder(self, node, path, env, expected)
        if m := TERM_OPEN.match(label):
            return self._open_in(m.group(1), node, path, env, expected)
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
        """``A → B``: an implication (``A`` a proposition, an instance ``[C α]``, or a type
        whose variable ``B`` does not use), or a function type when ``B`` is a type. Left
        first, as Lean elaborates it (``A`` may fix the types ``B`` uses)."""
        left, right = node.children
        if resolve.instance_binder(self, left, env) or \
                self.read_type(left, (*path, 0), env) is not None:
            self.types[(*path, 0)] = SORT
        elif type_of_node(right, env) is not None:
            # `I → ℝ` with `I` a type the model cannot read: a function type (a structure on
            # the right may be a Prop-valued class, `SeparableSpace X`: not decided here)
            self.issue("unsupported", (*path, 0), f"function type over {left}")
            self.elab(left, (*path, 0), env, None)
            self.types[(*path, 1)] = SORT
            return SORT
        elif self._is_type_like(self.spawn().elab(left, (*path, 0), env, None)):
            # `↥s → P`: a binder over a set coerced to a type
            self.issue("unsupported", (*path, 0), f"binder over {left}")
            return self.metas.fresh()
        else:
            self.ensure((*path, 0), self.elab(left, (*path, 0), env, PROP), PROP)
        result = self.metas.zonk(self.elab(right, (*path, 1), env, None))
        if result == SORT:  # `ℕ → ℝ`: a function type
            return SORT
        if self.types.get((*path, 0)) == SORT and self._is_type_like(result):
            # `ℕ → Icc 0 1`: a function into a set coerced to a type (`CoeSort`)
            self.issue("unsupported", (*path, 1), f"function type into {right}")
            return SORT
        if isinstance(result, Meta) and self.types.get((*path, 0)) == SORT:
            # `ℕ → T` with `T` of unknown type: a function type or an implication
            self.issue("unsupported", path, f"{node}: function type or implication (the "
                       "type of its right side is not known)")
            return self.metas.fresh()
        self.ensure((*path, 1), result, PROP)
        return PROP

    def read_type(self, node: Node, path: Path, env: Env) -> Ty | None:
        """``node`` read as a type: ℕ … ``Finset ℕ``, a structure of the name table
        (``Subgroup G``), a function type between such; None if it is not one."""
        known = type_of_node(node, env)
        if known is not None:
            return known
        if node.label == f"{S} → {S}":
            dom = self.read_type(node.children[0], (*path, 0), env)
            cod = self.read_type(node.children[1], (*path, 1), env)
            return arrow(dom, cod) if dom is not None and cod is not None else None
        return resolve.structure_type(self, node, path, env)

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
        type_path = (*path, len(binder.children) - 1)
        ty: Type_ | None = (self.read_type(declared, type_path, env) if declared is not None
                            else None)
        if declared is not None and ty is None:
            ty = self._binder_type(declared, type_path, env)
        for i, name in enumerate(names):
            t = ty if ty is not None else self.metas.fresh()
            if isinstance(t, Meta):
                self.binder_metas.append(((*path, i) if not binder.is_leaf else path, name, t))
            inner[name] = t
            self.types[(*path, i) if not binder.is_leaf else path] = t
        return inner

    def _binder_type(self, declared: Node, path: Path, env: Env) -> Ty:
        """A declared type that is not a type expression we read: a structure or class the
        name table knows (``Subgroup G``: an opaque type), a proposition (``∀ h : P, Q``, a
        hypothesis) if it elaborates to ``Prop``, else a type the tables do not model
        (opaque, with an ``unsupported`` issue)."""
        trial = self.spawn()
        if self.metas.zonk(trial.elab(declared, path, env, None)) == PROP:
            self.ensure(path, self.elab(declared, path, env, PROP), PROP)
            return Ty("Proof")
        self.elab(declared, path, env, None)  # its names still resolve (normalisation reads them)
        self.issue("unsupported", path, f"binder type {declared} not modelled")
        return Ty(str(declared))

    def _open_in(self, body: str, node: Node, path: Path, env: Env,
                 expected: Type_ | None) -> Type_:
        """``open X in e`` (Lean core ``Term.open``): ``e`` elaborated with ``X`` opened; a
        namespace the table does not know is an error in Lean (``unknown namespace``)."""
        try:
            inner = open_in(self.scope, body, self.tables.names.is_namespace)
        except ParseError as e:
            self.issue("unsupported", path, f"term-level open not read: {e.reason}")
            inner = self.scope
        unknown = inner.unknown_namespaces[len(self.scope.unknown_namespaces):]
        if unknown:
            self.issue("unknown-name", path, f"open {body}: unknown namespace {unknown[0]}",
                       unknown[0])
        outer, self.scope = self.scope, inner
        try:
            return self.elab(node.children[0], (*path, 0), env, expected)
        finally:
            self.scope = outer

    def spawn(self) -> Elaborator:
        """A scratch elaborator on a copy of the metavariables (for trials)."""
        child = Elaborator(self.scope, self.tables,
                           MetaStore(dict(self.metas.solution), dict(self.metas.kinds)))
        child.local_instances = list(self.local_instances)
        child.auto_bound = dict(self.auto_bound)
        return child

    def _quantifier(self, node: Node, path: Path, env: Env) -> Type_:
        inner = self.bind(node.children[0], (*path, 0), env)
        body = self.metas.zonk(self.elab(node.children[1], (*path, 1), inner, None))
        if body == SORT and node.label == f"∀ {S}, {S}":  # `Π a, f a`: a dependent type
            return SORT
        self.ensure((*path, 1), body, PROP)
        return PROP

    # -- expected types -----------------------------------------------------------------------
    def _ascription(self, node: Node, path: Path, env: Env) -> Type_:
        target = self.read_type(node.children[1], (*path, 1), env)
        if target is None:
            self.issue("unsupported", (*path, 1), f"type {node.children[1]} not modelled")
            self.elab(node.children[0], (*path, 0), env, None)
            return self.metas.fresh()
        self.types[(*path, 1)] = SORT
        self.ensure((*path, 0), self.elab(node.children[0], (*path, 0), env, target), target)
        return target

    # -- names and applications (resolution: transted.pipeline.opt.elaborate.resolve) -------------------
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
        if label == "sorry":  # `sorryAx _`: a term of any type (Lean's pretty-printer shows it
            # where it could not print the elaborated term), not an identifier to auto-bind
            self.issue("unsupported", path, "sorry stands for a term of unknown type", label)
            return self.metas.fresh()
        if label in env:
            return env[label]
        if type_of_node(node, env) is not None:  # `ℝ` as an argument (`IsAlgebraic ℚ x`)
            return SORT
        return resolve.name(self, node, path, env, expected)

    def _notation(self, node: Node, path: Path, env: Env, expected: Type_ | None) -> Type_:
        entry = NOTATIONS[node.label]
        if not self.scope.notation_active(entry.scope):  # Lean does not parse it at all
            symbol = node.label.replace(SLOT, "·")
            self.issue("scoped-notation", path, f"{symbol} is `scoped` in {entry.scope} "
                       f"({entry.source}); the header does not open it, so Lean does not read "
                       f"it as {entry.function}", symbol)
            self.elab_children(node, path, env)
            return self.metas.fresh()
        if entry.rival is not None and self.scope.notation_active(entry.rival):
            symbol = node.label.replace(SLOT, "·")
            self.issue("ambiguous", path, f"{symbol} is `scoped` in both {entry.scope} "
                       f"({entry.function}) and {entry.rival}, both open: not chosen", symbol)
            self.elab_children(node, path, env)
            return self.metas.fresh()
        return self.constant(entry.function, node, path, env, expected)

    def _application(self, node: Node, path: Path, env: Env, expected: Type_ | None) -> Type_:
        if resolve.FIELD.match(node.label):
            return resolve.field(self, node, path, env, expected)
        head = head_name(node.label, len(node.children))
        if head is None:
            self.issue("unsupported", path, f"construct {node.label!r}")
            inner = env
            if body_index(node.label) is not None:  # a binding notation (`∫ x in a..b, f x`)
                inner = self.bind(node.children[0], (*path, 0), env)
                self.binder_metas = [b for b in self.binder_metas if b[0][:len(path) + 1]
                                     != (*path, 0)]  # its binder's type is not the point
            for i, c in enumerate(node.children):
                if i or inner is env:
                    self.elab(c, (*path, i), inner if i else env,
                              SORT if type_of_node(c, inner) is not None else None)
            return self.metas.fresh()
        if head in env:
            return self._local_call(env[head], node, path, env)
        return resolve.name(self, node, path, env, expected, head=head)

    def elab_children(self, node: Node, path: Path, env: Env, start: int = 0) -> None:
        """Elaborate children with no expected type (their names resolve, their issues count)."""
        for i, c in enumerate(node.children[start:], start):
            self.elab(c, (*path, i), env, SORT if type_of_node(c, env) is not None else None)

    def _local_call(self, fn: Type_, node: Node, path: Path, env: Env) -> Type_:
        for i, arg in enumerate(node.children):
            fn = self.metas.zonk(fn)
            if not (isinstance(fn, Ty) and fn.head == "→"):
                self.issue("unsupported", path, f"application of a local of type {show(fn)}")
                self.elab_children(node, path, env, i)
                return self.metas.fresh()
            self.ensure((*path, i), self.elab(arg, (*path, i), env, fn.args[0]), fn.args[0])
            fn = fn.args[1]
        return fn

    def constant(self, full: str, node: Node, path: Path, env: Env,
                 expected: Type_ | None) -> Type_:
        """A resolved constant applied to the node's children (none for a leaf)."""
        self.constants[path] = full
        sig = self.tables.signatures.signature(full)
        if sig is None:
            self.issue("unsupported", path, self.tables.signatures.why_not(full), full)
            self.elab_children(node, path, env)
            return self.metas.fresh()
        typed = sig.instantiate(self.metas.fresh)
        params, result = list(typed.params), typed.result
        args = list(enumerate(node.children))
        while len(args) > len(params):  # `Nat.digits : ℕ → ℕ → List ℕ`: the result's arrows
            shape = self.metas.zonk(result)
            if not (isinstance(shape, Ty) and shape.head == "→"):
                self.issue("unsupported", path, f"{full} applied to {len(args)} arguments",
                           full)
                self.elab_children(node, path, env)
                return self.metas.fresh()
            params.append(Parameter(shape.args[0]))
            result = shape.args[1]
        for p in reversed(params[len(args):]):  # partial application
            result = arrow(p.type, result)
        goal = self.known(expected)
        if args and goal is not None and goal != PROP:  # propagateExpectedType
            self.metas.unify(result, goal)
        for (i, arg), param in zip(args, params, strict=False):
            if param.stands_for is not None:
                self._type_argument(arg, (*path, i), env, param.stands_for)
            else:
                self.ensure((*path, i), self.elab(arg, (*path, i), env, param.type), param.type)
        for cls, types in typed.instances:
            self.require_class(cls, types, path)
        for text in typed.unstated:
            self.issue("undecided-instance", path, f"{full} needs an instance [{text}] on a "
                       "value, which the model cannot check", full)
        return result

    def _type_argument(self, arg: Node, path: Path, env: Env, meta: Meta) -> None:
        """An explicit type parameter's argument (``Fintype.card α``, ``Subgroup G``): read as
        a type, which fills the parameter."""
        read = self.read_type(arg, path, env)
        if read is None:  # its names still resolve; it is a type, never read as a statement
            self.elab_children(arg, path, env) if arg.children else self.elab(arg, path, env,
                                                                               None)
            self.issue("unsupported", path, f"{arg} as a type argument is not modelled")
            return
        self.types[path] = SORT
        if not self.metas.unify(meta, read):
            self.issue("unsupported", path, f"type argument {show(read)} where "
                       f"{show(self.metas.zonk(meta))} is expected")

    def finish_checks(self) -> list[Issue]:
        """Default the numerals, then check coercion arrows, instances and binder types."""
        return checks.finish(self)
