"""Constant types derived from the Mathlib declaration index (issue 32, "typing from the index").

A declaration of the index (:mod:`transted.pipeline.opt.mathlib`) has binders and a declared type as
operator trees, with names *as written* in its source: they are resolved in the declaration's
own scope (namespace and ``open``s, as Lean's ``resolveGlobalName`` reads them). Lean's
elaborator turns each binder into an argument of the constant's type (``App.lean``,
``ElabAppArgs``): implicit and strict-implicit ones are metavariables, instance-implicit ones
are synthesised, explicit ones are the written arguments. So does :class:`IndexConstantType`:

* a binder whose type is a sort (``{α : Type*}``, ``(G : Type u)``, ``{ι : Sort*}``,
  ``outParam (Type*)``) is a *type parameter*: a fresh metavariable, filled by unification
  (implicit) or by the written argument read as a type (explicit: ``Fintype.card α``);
* an instance binder ``[C a …]`` is an instance to synthesise at those types; one whose
  arguments are values (``[Fact p.Prime]``, ``[DecidablePred p]``) cannot be stated over the
  model's types and is reported as undecided where the constant is used;
* an explicit binder of any other type is an argument of that type; the declared type is the
  result (more arguments than binders are taken from its leading ``→``);
* a structure, class or inductive applied to its parameters is a type (the result is a sort;
  as a type it is the opaque ``Ty`` of its full name), or a proposition when declared ``: Prop``
  (``structure Continuous … : Prop``); a definition without a written type is a proposition
  when its value's root is one (``def Tendsto … := l₁.map f ≤ l₂``: ``≤`` is ``Prop``-valued
  whatever its arguments) or the application of a ``Prop``-valued constant.

Types are read from the trees: number types, ``Set``/``Finset``/``List``…, ``α → β``,
``α × β``, type variables, structures and type-valued definitions of the index (opaque, by full
name). A type that mentions the *value* of a binder (``Fin n`` for an argument ``n``, a
dependent ``∀ i, β i``), a notation the parser keeps as a construct (``→+*``, ``⧸``) or a name
that does not resolve makes the constant *unrepresentable*: the elaborator keeps it
``unsupported`` (an abstention), with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from transted.pipeline.opt.context import PROP_ROOTS
from transted.pipeline.opt.elaborate.signatures import Instantiation, Parameter
from transted.pipeline.opt.elaborate.type_nodes import BUNDLED_MAPS, LINEAR_MAP, bundled_type
from transted.pipeline.opt.elaborate.types import NUMBER_TYPES, PROP, SORT, Meta, Ty, Type_, arrow
from transted.pipeline.opt.mathlib.records import Binder, DeclarationScope, IndexedDeclaration
from transted.pipeline.opt.node import SLOT, Node
from transted.pipeline.opt.scope import head_name

__all__ = ["ScopedNames", "DeclarationSource", "Unrepresentable", "IndexConstantType",
           "IndexTypes", "is_sort", "placeholder", "substitute_type_variables"]

_SCALARS: dict[str, Ty] = {**{t: Ty(t) for t in NUMBER_TYPES}, "Nat": Ty("ℕ"), "Int": Ty("ℤ"),
                           "Rat": Ty("ℚ"), "Real": Ty("ℝ"), "Complex": Ty("ℂ"),
                           "Prop": PROP, "Float": Ty("Float"), "Bool": Ty("Bool"),
                           "NNReal": Ty("NNReal"), "ℝ≥0": Ty("NNReal"), "ℕ+": Ty("ℕ+"),
                           "PNat": Ty("ℕ+")}
"""The scalar types as :mod:`~transted.pipeline.opt.elaborate.type_nodes` names them (``Nat`` is ℕ)."""
_CONSTRUCTORS = frozenset({"Set", "Finset", "List", "Multiset", "Option", "Polynomial"})
"""Type constructors the elaborator names by their short name (``type_nodes``); each is the
root-level declaration of that name, so the full name is the same."""
_INDEXED = frozenset({"Fin", "ZMod"})
"""Types indexed by a number: opaque as ``Fin 2`` when the index is a numeral literal."""
_PARAMETER_WRAPPERS = ("outParam", "semiOutParam", "optParam")
_PLACEHOLDER = "\0"
_MAX_DEPTH = 4
_MAX_NESTING = 16
"""How deep a type-valued definition or a value's head is followed to decide a sort."""


class Unrepresentable(Exception):
    """A type the model cannot represent; the message says which and why."""


class ScopedNames(Protocol):
    """Resolution of a name as written in a declaration of the index."""

    def resolve_in(self, name: str, scope: DeclarationScope) -> tuple[str, str] | None:
        """The full name and kind (``def``, ``structure``, …) ``name`` denotes in ``scope``;
        None when it is unknown or ambiguous there."""
        ...


class DeclarationSource(Protocol):
    def declaration(self, name: str) -> IndexedDeclaration | None: ...

    def current_name(self, name: str) -> str: ...


def placeholder(name: str) -> Ty:
    """The stand-in of a type parameter in a template (replaced on instantiation)."""
    return Ty(_PLACEHOLDER + name)


def substitute_type_variables(t: Type_, values: Mapping[str, Type_]) -> Type_:
    """``t`` with each placeholder ``name`` of ``values`` replaced."""
    if isinstance(t, Meta):
        return t
    if not t.args and t.head.startswith(_PLACEHOLDER):
        return values.get(t.head[1:], t)
    if not t.args:
        return t
    return Ty(t.head, tuple(substitute_type_variables(a, values) for a in t.args))


def is_sort(node: Node | None) -> bool:
    """``Type*``, ``Type u``, ``Sort _``, ``Type``, ``outParam (Type*)``: a universe."""
    if node is None:
        return False
    label = node.label
    if label.split(" ", 1)[0] in _PARAMETER_WRAPPERS and len(node.children) == 1:
        return is_sort(node.children[0])
    head, _, rest = label.partition(" ")
    return head.rstrip("*") in ("Type", "Sort") and (  # `Type max u v`: levels as arguments
        node.is_leaf or rest == " ".join([SLOT] * len(node.children)))


@dataclass(frozen=True)
class IndexConstantType:
    """A constant's type read from its index declaration, over placeholders (one per type
    parameter), instantiated with fresh metavariables for each use."""

    name: str
    source: str
    type_parameters: tuple[str, ...]
    params: tuple[Parameter, ...]
    """Explicit arguments, their types over the placeholders."""
    explicit_types: tuple[str | None, ...]
    """Per explicit argument: the type parameter it is (``Fintype.card (α)``), or None."""
    result: Type_
    instances: tuple[tuple[str, tuple[Type_, ...]], ...]
    unstated: tuple[str, ...]
    protected: bool = False

    def instantiate(self, fresh: Callable[[], Meta]) -> Instantiation:
        metas: dict[str, Type_] = {p: fresh() for p in self.type_parameters}
        params = []
        for p, own in zip(self.params, self.explicit_types, strict=True):
            stands = metas[own] if own is not None else None
            params.append(Parameter(substitute_type_variables(p.type, metas),
                                    stands if isinstance(stands, Meta) else None, p.universe))
        return Instantiation(tuple(params), substitute_type_variables(self.result, metas),
                             tuple((c, tuple(substitute_type_variables(a, metas) for a in args))
                                   for c, args in self.instances), self.unstated)

    @property
    def argument_heads(self) -> tuple[str | None, ...]:
        """The head of each explicit argument's type, None for a type variable (generalized
        field notation puts the receiver at the first whose head is the receiver type's)."""
        return tuple(p.type.head if isinstance(p.type, Ty)
                     and not p.type.head.startswith(_PLACEHOLDER) else None
                     for p in self.params)


class IndexTypes:
    """Signatures and type formers of the index's declarations (cached per name)."""

    def __init__(self, index: DeclarationSource, names: ScopedNames) -> None:
        self.index = index
        self.names = names
        self._signatures: dict[str, IndexConstantType | str] = {}
        self._formers: dict[str, bool] = {}
        self._deriving: list[str] = []
        """The declarations whose signatures are being derived, outermost first: a name met
        again is a cycle (a type former's value read through itself), answered as unknown."""

    # -- signatures -----------------------------------------------------------------------------
    def signature(self, full_name: str) -> IndexConstantType | str:
        """The constant's type, or why the model cannot represent it."""
        hit = self._signatures.get(full_name)
        if hit is None:
            hit = self._derive(full_name, 0)
            if not self._deriving:  # a nested answer depends on the stack: not memoised
                self._signatures[full_name] = hit
        return hit

    def _derive(self, full_name: str, depth: int) -> IndexConstantType | str:
        if full_name in self._deriving or len(self._deriving) > _MAX_NESTING:
            return (f"the type of {full_name} is read through itself or through more than "
                    f"{_MAX_NESTING} declarations")
        self._deriving.append(full_name)
        try:
            return self._derived(full_name, depth)
        finally:
            self._deriving.pop()

    def _derived(self, full_name: str, depth: int) -> IndexConstantType | str:
        d = self._declaration(full_name)
        if d is None:
            return f"{full_name} is not in the Mathlib index"
        if d.parse_error is not None:
            return f"the signature of {d.name} does not parse ({d.parse_error})"
        if d.kind in ("theorem", "instance", "constructor"):
            return f"{d.name} is a {d.kind}"
        try:
            return self._signature_of(d, depth)
        except Unrepresentable as e:
            return f"the type of {d.name} is not representable: {e}"

    def binder_count(self, full_name: str) -> int | None:
        """The declaration's binders, one per name (an anonymous instance binder is one), or
        None: not in the index, or a binder added from a ``variable`` command (Lean includes
        those by use, so the count is not exact)."""
        d = self._declaration(full_name)
        if d is None or any(b.from_variable for b in d.binders):
            return None
        return sum(max(1, len(b.names)) for b in d.binders)

    def _declaration(self, full_name: str) -> IndexedDeclaration | None:
        current = self.index.current_name(full_name)
        d = self.index.declaration(current)
        if d is not None and d.kind == "alias" and d.alias_of:
            d = self.index.declaration(d.alias_of)
        return d

    def _signature_of(self, d: IndexedDeclaration, depth: int) -> IndexConstantType:
        types: dict[str, Type_] = {}
        values: set[str] = set()
        params: list[Parameter] = []
        owners: list[str | None] = []
        instances: list[tuple[str, tuple[Type_, ...]]] = []
        unstated: list[str] = []
        untyped = self._untyped_types(d)
        for b in d.binders:
            if b.kind == "instance":
                self._instance(b, d.scope, types, frozenset(values), instances, unstated)
                continue
            sort = is_sort(b.type.tree) or (b.type.tree is not None and b.type.tree.label == "_"
                                             and set(b.names) <= untyped)
            if sort:
                universe = _universe(b.type.tree)
                for n in b.names:
                    types[n] = placeholder(n)
                    if b.kind == "explicit":
                        params.append(Parameter(SORT, universe=universe))
                        owners.append(n)
                continue
            if b.kind == "explicit":
                t = self.read(b.type.tree, d.scope, types, frozenset(values))
                for _n in b.names:
                    params.append(Parameter(t))
                    owners.append(None)
            values.update(b.names)
        result = self._result(d, types, frozenset(values), depth)
        return IndexConstantType(d.name, str(d.source), tuple(types), tuple(params),
                                 tuple(owners), result, tuple(instances), tuple(unstated),
                                 d.protected)

    def _instance(self, b: Binder, scope: DeclarationScope, types: Mapping[str, Type_],
                  values: frozenset[str], out: list[tuple[str, tuple[Type_, ...]]],
                  unstated: list[str]) -> None:
        tree = b.type.tree
        head = _head(tree)
        found = self.names.resolve_in(head, scope) if head is not None else None
        if tree is None or found is None or found[1] != "class":
            unstated.append(b.type.text)
            return
        try:
            args = tuple(self.read(c, scope, types, values) for c in tree.children)
        except Unrepresentable:
            unstated.append(b.type.text)
            return
        out.append((found[0], args))

    def _untyped_types(self, d: IndexedDeclaration) -> set[str]:
        """Binders written without a type (``(α)``) that an instance binder passes where its
        class takes a type (``def card (α) [Fintype α]``): Lean infers a sort for them."""
        out: set[str] = set()
        for b in d.binders:
            tree = b.type.tree
            head = _head(tree)
            if b.kind != "instance" or tree is None or head is None:
                continue
            found = self.names.resolve_in(head, d.scope)
            cls = self._declaration(found[0]) if found is not None else None
            if cls is None:
                continue
            own = [p for p in cls.binders if p.kind != "instance" for _ in p.names]
            for arg, p in zip(tree.children, own, strict=False):
                if arg.is_leaf and is_sort(p.type.tree):
                    out.add(arg.label)
        return out

    def _result(self, d: IndexedDeclaration, types: Mapping[str, Type_], values: frozenset[str],
                depth: int) -> Type_:
        declared = d.type.tree if d.type is not None else None
        if d.type is not None and declared is None:
            raise Unrepresentable("its declared type does not parse")
        if declared is not None:
            if is_sort(declared):
                return SORT
            return self.read(declared, d.scope, types, values)
        if d.kind in ("structure", "class", "inductive"):
            return SORT  # `structure Subgroup (G : Type*) …`: a `Type _`
        return self._value_sort(d, types, depth)

    def _value_sort(self, d: IndexedDeclaration, types: Mapping[str, Type_], depth: int) -> Type_:
        """The type of a definition written without one, from its value: ``Prop`` when the
        value's root is a proposition (``≤``, ``∃``, ``∈``, …) or a ``Prop``-valued constant
        applied; a sort when the value is a type (``def Set (α) := α → Prop``)."""
        body = d.body.value.tree if d.body is not None and d.body.form == "term" else None
        if body is None:
            raise Unrepresentable("no declared type, and no value term to read one from")
        if body.label in PROP_ROOTS:
            return PROP
        head = _head(body)
        found = self.names.resolve_in(head, d.scope) if head is not None else None
        if found is not None and depth < _MAX_DEPTH:
            inner = self._derive(found[0], depth + 1)
            if isinstance(inner, IndexConstantType) and inner.result == PROP:
                return PROP
        try:
            self.read(body, d.scope, types, frozenset())
        except Unrepresentable:
            raise Unrepresentable("no declared type, and its value is neither a proposition "
                                  "nor a type") from None
        return SORT

    # -- type trees ---------------------------------------------------------------------------
    def read(self, node: Node | None, scope: DeclarationScope, types: Mapping[str, Type_],
             values: frozenset[str], depth: int = 0) -> Type_:
        """``node`` (a type as written in a declaration of ``scope``) as a type over the
        placeholders of ``types``; raises :class:`Unrepresentable`."""
        if node is None:
            raise Unrepresentable("a type that does not parse")
        label, kids = node.label, node.children
        if label in types and not kids:
            return types[label]
        if label in values and not kids:
            raise Unrepresentable(f"it depends on the value of {label}")
        if label in _SCALARS:
            return _SCALARS[label]
        if label == "_":
            raise Unrepresentable("a type that is not written")
        if is_sort(node):
            return SORT
        if label == f"{SLOT} → {SLOT}":
            return arrow(*(self.read(c, scope, types, values, depth) for c in kids))
        if label == f"{SLOT} × {SLOT}":
            return Ty("×", tuple(self.read(c, scope, types, values, depth) for c in kids))
        if label == f"({SLOT})" and len(kids) == 1:
            return self.read(kids[0], scope, types, values, depth)
        if label in BUNDLED_MAPS or label == LINEAR_MAP:
            args = tuple(self.read(c, scope, types, values, depth) for c in kids)
            if not all(isinstance(a, Ty) for a in args):
                raise Unrepresentable(f"the construct {label!r} over a type not settled")
            bundled = bundled_type(label, args)  # type: ignore[arg-type]
            if bundled is None:
                raise Unrepresentable(f"the construct {label!r}")
            return bundled
        head = _head(node)
        if head is None:
            raise Unrepresentable(f"the construct {label!r}")
        if head in _PARAMETER_WRAPPERS and len(kids) == 1:
            return self.read(kids[0], scope, types, values, depth)
        if head in types or head in values:
            raise Unrepresentable(f"{head} applied to arguments (a dependent type)")
        full = self._type_name(head, scope, depth)
        if full in _INDEXED:
            if len(kids) == 1 and kids[0].is_leaf and kids[0].label.isdigit():
                return Ty(f"{full} {kids[0].label}")
            raise Unrepresentable(f"{full} indexed by a value")
        return Ty(full, tuple(self.read(c, scope, types, values, depth) for c in kids))

    def _type_name(self, head: str, scope: DeclarationScope, depth: int) -> str:
        if head in _CONSTRUCTORS or head in _INDEXED:
            return head
        found = self.names.resolve_in(head, scope)
        if found is None:
            raise Unrepresentable(f"{head} does not resolve in {scope.namespace or 'the root'}")
        full, _kind = found
        if full in _SCALARS:
            return _SCALARS[full].head
        if not self.is_type_former(full, depth):
            raise Unrepresentable(f"{full} is not a type")
        return full

    def is_type_former(self, full_name: str, depth: int = 0) -> bool:
        """A structure, class or inductive, or a definition whose value is a type (its
        declared type a sort: ``ZMod : ℕ → Type``, ``abbrev Ideal (R) … := Submodule R R``)."""
        hit = self._formers.get(full_name)
        if hit is not None:
            return hit
        d = self._declaration(full_name)
        ok = False
        if d is not None and d.kind in ("structure", "class", "inductive"):
            ok = not (d.type is not None and d.type.tree is not None
                      and d.type.tree.label == "Prop")
        elif d is not None and d.kind in ("def", "abbrev", "opaque") and depth < _MAX_DEPTH:
            if d.type is not None:
                ok = is_sort(d.type.tree)
            else:
                sig = self._derive(d.name, depth + 1)
                ok = isinstance(sig, IndexConstantType) and sig.result == SORT
        if not self._deriving:  # a nested answer depends on the stack: not memoised
            self._formers[full_name] = ok
        return ok

    def unfold_type(self, t: Ty) -> Ty | None:
        """A reducible type abbreviation applied to types, unfolded once (``Ideal R`` is
        ``Submodule R R``: ``abbrev Ideal (R) [Semiring R] := Submodule R R``); None if
        ``t`` is not one."""
        d = self._declaration(t.head)
        if d is None or d.kind != "abbrev" or d.body is None or d.body.form != "term":
            return None
        own = [n for b in d.binders if b.kind != "instance" for n in b.names]
        if len(own) != len(t.args) or not all(is_sort(b.type.tree) for b in d.binders
                                               if b.kind != "instance"):
            return None
        try:
            body = self.read(d.body.value.tree, d.scope, {n: placeholder(n) for n in own},
                             frozenset())
        except Unrepresentable:
            return None
        out = substitute_type_variables(body, dict(zip(own, t.args, strict=True)))
        return out if isinstance(out, Ty) else None


def _universe(node: Node | None) -> str | None:
    """``"Type"`` for ``Type*``/``Type u``, ``"Sort"`` for ``Sort*``/``Sort u`` (through
    ``outParam``), None for a binder written without a type."""
    while node is not None and node.children and node.label.split(" ", 1)[0] in \
            _PARAMETER_WRAPPERS:
        node = node.children[0]
    if node is None or node.label == "_":
        return None
    return "Sort" if node.label.startswith("Sort") else "Type"


def _head(node: Node | None) -> str | None:
    if node is None:
        return None
    if node.is_leaf:
        return node.label
    return head_name(node.label, len(node.children))
