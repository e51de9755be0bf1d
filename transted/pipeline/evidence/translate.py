"""Elaborated statements → typed terms: a lowering of the shared elaboration, no inference.

The types, coercions and constants come from :mod:`transted.pipeline.opt.elaborate` (Lean's
``binop%``/``binrel%`` with leaves at their own type, expected types pushed into ascriptions
and function arguments, names resolved by the header; docs/ELABORATION.md). This module only
reads them: every node's term is built at the node's elaborated type, a ``cast`` is inserted
exactly where the elaboration puts a ``↑`` (``coerced_to``), and each constant maps to the
term operator with its Lean meaning (docs/EVIDENCE.md). A statement with any elaboration issue
(unknown name, auto-bound implicit, ambiguous overload, missing instance, a construct the
model does not type) is not lowered at all; a type outside ℕ ℤ ℚ ℝ or a constant without a
term operator raises :class:`~transted.pipeline.evidence.terms.Unsupported` with the reason: the
engines abstain.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from transted.pipeline.evidence.terms import (
    NUMBER_TYPES,
    PROP,
    Big,
    Num,
    Op,
    Quant,
    Term,
    Unsupported,
    Var,
)
from transted.pipeline.opt.elaborate import Elaboration, Path, Scope, Ty, elaborate, show
from transted.pipeline.opt.labels import (
    ADD,
    AND,
    ARROW,
    ASCRIPTION,
    COE,
    DIV,
    DVD,
    EQ,
    EXISTS,
    FORALL,
    GE,
    GT,
    IFF,
    LE,
    LT,
    MEM,
    MOD,
    MODEQ,
    MUL,
    NE,
    NEG,
    NOT,
    OR,
    POW,
    SLOT,
    SUB,
    TYPED_BINDER,
    bounded_binder_label,
)
from transted.pipeline.opt.node import Node

__all__ = ["Shape", "shape_of", "translate_prop", "Env", "lower_prop"]

Env = dict[str, str]
_ARITH = {ADD: "add", SUB: "sub", MUL: "mul", DIV: "div", MOD: "mod"}
_MODEQS = {MODEQ: ((0, 1, 2), "ℕ"),
           f"Nat.ModEq {SLOT} {SLOT} {SLOT}": ((1, 2, 0), "ℕ"),
           f"Int.ModEq {SLOT} {SLOT} {SLOT}": ((1, 2, 0), "ℤ")}
"""The congruence forms, with where ``a``, ``b`` and ``n`` sit among the children."""
_RELS = {EQ: ("eq", False), NE: ("ne", False), LT: ("lt", False), LE: ("le", False),
         GT: ("lt", True), GE: ("le", True)}
_LOGIC = {AND: "and", OR: "or", ARROW: "imp", IFF: "iff"}
_BIG = {bounded_binder_label("∑", "∈"): "sum", bounded_binder_label("∏", "∈"): "prod"}
_QUANT = {FORALL: "forall", EXISTS: "exists"}
_NUMERAL = re.compile(r"^[0-9]+(\.[0-9]+)?$")
_FUNCTIONS = {"Real.sqrt": "sqrt", "abs": "abs", "Min.min": "min", "Max.max": "max",
              "Int.floor": "floor", "Int.ceil": "ceil", "Nat.factorial": "fact",
              "Nat.gcd": "gcd", "Nat.lcm": "lcm", "Inv.inv": "inv", "Int.emod": "mod",
              "Int.ediv": "div"}
"""Constants with a term operator (their Lean meaning: docs/EVIDENCE.md; ``Int.emod``/``Int.ediv``
are what ``%``/``/`` on ℤ mean)."""
_PREDICATES = {"Nat.Prime": "prime", "Prime": "prime", "Even": "even", "Odd": "odd"}
_MEMBERSHIP = {"Finset.range": None, "Finset.Icc": (False, False), "Finset.Ico": (False, True),
               "Finset.Ioc": (True, False), "Finset.Ioo": (True, True), "Set.Icc": (False, False),
               "Set.Ico": (False, True), "Set.Ioc": (True, False), "Set.Ioo": (True, True)}
"""``x ∈ s`` by ``Finset.mem_range``/``Finset.mem_Icc``…/``Set.mem_Icc``…: (strict lower, strict
upper); ``Finset.range n`` is ``x < n``."""
_INTERVALS = {"Finset.range": True, "Finset.Icc": False, "Finset.Ico": True}
"""Index sets of ∑/∏ modelled by :class:`Big` (value: upper bound excluded)."""


def _number_type(t: object) -> str:
    if isinstance(t, Ty) and not t.args and t.head in NUMBER_TYPES:
        return t.head
    raise Unsupported(f"type {show(t) if isinstance(t, Ty) else t} is not modelled")  # type: ignore[arg-type]


def _cast(term: Term, target: str) -> Term:
    if term.type == target:
        return term
    if term.type not in NUMBER_TYPES or NUMBER_TYPES.index(term.type) > NUMBER_TYPES.index(target):
        raise Unsupported(f"no coercion from {term.type} to {target}")
    if isinstance(term, Num):
        return Num(term.value, target)
    return Op("cast", (term,), target)


class _Lower:
    """Terms of one elaborated statement, read off its node types."""

    def __init__(self, el: Elaboration) -> None:
        self.el = el

    def type_of(self, path: Path) -> str:
        info = self.el.nodes.get(path)
        if info is None:
            raise Unsupported(f"no elaborated type at {'/'.join(map(str, path))}")
        return _number_type(info.type)

    def constant(self, path: Path) -> str | None:
        info = self.el.nodes.get(path)
        return None if info is None else info.constant

    # -- numbers ------------------------------------------------------------------------------
    def num(self, node: Node, path: Path) -> Term:
        """The term of ``node`` at its elaborated type, with the ``↑`` Lean puts on it."""
        term = self._num(node, path)
        target = self.el.nodes[path].coerced_to
        return term if target is None else _cast(term, _number_type(target))

    def _num(self, node: Node, path: Path) -> Term:
        label, kids = node.label, node.children
        typ = self.type_of(path)
        if label in _ARITH:
            if label == MOD and typ not in ("ℕ", "ℤ"):
                raise Unsupported(f"% on {typ}")
            return Op(_ARITH[label], tuple(self.num(c, (*path, i)) for i, c in enumerate(kids)),
                      typ)
        if label == NEG:
            if typ == "ℕ":
                raise Unsupported("negation on ℕ")
            return Op("neg", (self.num(kids[0], (*path, 0)),), typ)
        if label == POW:
            exponent = self.num(kids[1], (*path, 1))
            if exponent.type != "ℕ":
                raise Unsupported(f"power with a {exponent.type} exponent (zpow/rpow)")
            return Op("pow", (self.num(kids[0], (*path, 0)), exponent), typ)
        if label in (COE, ASCRIPTION):  # the child carries its own ↑ (or was unified)
            return self.num(kids[0], (*path, 0))
        if label in _BIG:
            return self.big(node, path, typ)
        if node.is_leaf:
            return self.leaf(node, path, typ)
        return self.function(node, path, typ)

    def leaf(self, node: Node, path: Path, typ: str) -> Term:
        if _NUMERAL.match(node.label):
            if "." in node.label and typ in ("ℕ", "ℤ"):
                raise Unsupported(f"decimal {node.label} in {typ}")
            return Num(Fraction(node.label), typ)
        if self.constant(path) is not None:
            raise Unsupported(f"no model for the constant {self.constant(path)}")
        return Var(node.label, typ)

    def function(self, node: Node, path: Path, typ: str) -> Term:
        name = self.constant(path)
        op = _FUNCTIONS.get(name or "")
        if op is None or (node.label.startswith("<SLOT>.") and len(node.children) != 1):
            raise Unsupported(f"no model for {name or node.label!r}")
        args = tuple(self.num(c, (*path, i)) for i, c in enumerate(node.children))
        if op in ("floor", "ceil") and args[0].type not in ("ℚ", "ℝ"):
            raise Unsupported(f"{name} of a {args[0].type} value")
        if (op == "inv" and typ not in ("ℚ", "ℝ")) or (op == "abs" and typ == "ℕ"):
            raise Unsupported(f"{name} on {typ}")
        if op in ("mod", "div") and typ != "ℤ":
            raise Unsupported(f"{name} on {typ}")
        return Op(op, args, typ)

    def big(self, node: Node, path: Path, typ: str) -> Term:
        binder, collection, body = node.children
        var, var_path = self._binder(binder, (*path, 0))
        vtype = self.type_of(var_path)
        coll = self.constant((*path, 1))
        if coll not in _INTERVALS or vtype not in ("ℕ", "ℤ"):
            raise Unsupported(f"big operator over {coll or collection.label!r}")
        if coll == "Finset.range":
            lo: Term = Num(Fraction(0), "ℕ")
            hi = self.num(collection.children[0], (*path, 1, 0))
        else:
            lo, hi = (self.num(c, (*path, 1, i)) for i, c in enumerate(collection.children))
        return Big(_BIG[node.label], var, vtype, lo, hi, self.num(body, (*path, 2)), typ,
                   _INTERVALS[coll])

    def _proof_binder(self, binder: Node, path: Path) -> bool:
        """``(h : P)`` / ``(_ : P)`` with ``P`` a proposition: ``∀`` over it is ``P → …``."""
        named = self.el.nodes.get((*path, 0))
        if named is not None:
            return named.type == Ty("Proof")
        declared = self.el.nodes.get((*path, 1))
        return declared is not None and declared.type == Ty("Prop")

    @staticmethod
    def _binder(binder: Node, path: Path) -> tuple[str, Path]:
        if binder.is_leaf:
            return binder.label, path
        if binder.label == TYPED_BINDER and binder.children[0].is_leaf:
            return binder.children[0].label, (*path, 0)
        raise Unsupported(f"binder pattern {binder.label!r}")

    # -- propositions ---------------------------------------------------------------------------
    def prop(self, node: Node, path: Path) -> Term:
        label, kids = node.label, node.children
        if node.is_leaf and label in ("True", "False"):
            return Op(label.lower(), (), PROP)
        if label in _LOGIC:
            return Op(_LOGIC[label], (self.prop(kids[0], (*path, 0)), self.prop(kids[1], (*path, 1))),
                      PROP)
        if label == NOT:
            return Op("not", (self.prop(kids[0], (*path, 0)),), PROP)
        if label in _RELS or label == DVD:
            a, b = (self.num(c, (*path, i)) for i, c in enumerate(kids))
            if a.type != b.type:
                raise Unsupported(f"{label}: operands of types {a.type} and {b.type}")
            if label == DVD:
                if a.type not in ("ℕ", "ℤ"):
                    raise Unsupported(f"∣ on {a.type}")
                return Op("dvd", (a, b), PROP)
            op, swap = _RELS[label]
            return Op(op, (b, a) if swap else (a, b), PROP)
        if label in _MODEQS:
            # Nat.ModEq n a b := a % n = b % n (Mathlib/Data/Nat/ModEq.lean), Int.ModEq
            # likewise with Int's % (Mathlib/Data/Int/ModEq.lean); `a ≡ b [MOD n]` is notation
            # for the first, the normaliser writes it as the constant
            order, typ = _MODEQS[label]
            a, b, n = (self.num(kids[i], (*path, i)) for i in order)
            if {a.type, b.type, n.type} != {typ}:
                raise Unsupported(f"ModEq over {typ} on another operand type")
            return Op("eq", (Op("mod", (a, n), typ), Op("mod", (b, n), typ)), PROP)
        if label == MEM:
            return self.member(kids[0], kids[1], path)
        if label in _QUANT:
            return self.quantifier(node, path)
        pred = _PREDICATES.get(self.constant(path) or "")
        if pred is not None and len(kids) == 1:
            arg = self.num(kids[0], (*path, 0))
            if arg.type not in ("ℕ", "ℤ") or (pred == "prime" and arg.type != "ℕ"):
                raise Unsupported(f"{self.constant(path)} on {arg.type}")
            return Op(pred, (arg,), PROP)
        raise Unsupported(f"no model for proposition {self.constant(path) or label!r}")

    def member(self, elem: Node, coll: Node, path: Path) -> Term:
        kind = self.constant((*path, 1))
        if kind not in _MEMBERSHIP:
            raise Unsupported(f"membership in {kind or coll.label!r}")
        x = self.num(elem, (*path, 0))
        bounds = [self.num(c, (*path, 1, i)) for i, c in enumerate(coll.children)]
        if any(b.type != x.type for b in bounds):
            raise Unsupported("membership: element and bounds of different types")
        strict = _MEMBERSHIP[kind]
        if strict is None:  # Finset.range n
            return Op("lt", (x, bounds[0]), PROP)
        lower = Op("lt" if strict[0] else "le", (bounds[0], x), PROP)
        upper = Op("lt" if strict[1] else "le", (x, bounds[1]), PROP)
        return Op("and", (lower, upper), PROP)

    def quantifier(self, node: Node, path: Path) -> Term:
        binder, body = node.children
        if binder.label == TYPED_BINDER and self._proof_binder(binder, (*path, 0)):
            if node.label != FORALL:
                raise Unsupported("∃ over a proof")
            return Op("imp", (self.prop(binder.children[1], (*path, 0, 1)),
                              self.prop(body, (*path, 1))), PROP)
        name, var_path = self._binder(binder, (*path, 0))
        return Quant(_QUANT[node.label], name, self.type_of(var_path), self.prop(body, (*path, 1)))


def lower_prop(el: Elaboration, path: Path = ()) -> Term:
    """The proposition at ``path`` of an issue-free elaboration as a term."""
    if el.issues:
        raise Unsupported(_issue_reason(el))
    node = el.tree
    for i in path:
        node = node.children[i]
    return _Lower(el).prop(node, path)


def translate_prop(node: Node, env: Mapping[str, str | Ty], scope: Scope | None = None) -> Term:
    """The proposition ``node`` (names as written, read under ``scope``, or in full) with the
    locals ``env`` (name → number type) as a term; raises Unsupported with the reason."""
    locals_ = {k: v if isinstance(v, Ty) else Ty(v) for k, v in env.items()}
    return lower_prop(elaborate(node, scope or Scope(), locals=locals_))


def _issue_reason(el: Elaboration) -> str:
    shown = "; ".join(f"elaboration: {i}" for i in el.issues[:3])
    more = len(el.issues) - 3
    return shown + (f" (and {more} more)" if more > 0 else "")


@dataclass
class Shape:
    """A statement ``∀ vars, hyps → concl`` read off a proposition-form tree.

    ``vars`` are the leading universally bound number variables (in order), ``hyp_trees``/
    ``concl_tree`` the components as trees; ``hyps``/``concl`` their terms, or None with the
    reason in ``errors`` when a component cannot be modelled (any elaboration issue of the
    statement is one).
    """

    vars: dict[str, str] = field(default_factory=dict)
    hyp_trees: list[Node] = field(default_factory=list)
    concl_tree: Node | None = None
    hyps: list[Term | None] = field(default_factory=list)
    concl: Term | None = None
    errors: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.errors and self.concl is not None

    def prop(self) -> Term:
        """The whole statement's open body ``hyps → concl`` (vars free); needs ``complete``."""
        if not self.complete:
            raise Unsupported("; ".join(self.errors) or "incomplete statement")
        body = self.concl
        assert body is not None
        for h in reversed(self.hyps):
            assert h is not None
            body = Op("imp", (h, body), PROP)
        return body


def shape_of(statement: Node | Elaboration) -> Shape:
    """Peel the leading ``∀ (x : T)`` and ``H →`` of a proposition-form statement: an
    :class:`Elaboration` (the metric's: the tree as written under its header), or a tree,
    elaborated here with no header (names as written there, or in full)."""
    el = statement if isinstance(statement, Elaboration) else elaborate(statement, Scope())
    shape = Shape()
    low = _Lower(el)
    node: Node = el.tree
    path: Path = ()
    hyp_paths: list[Path] = []
    while True:
        if node.label == FORALL and node.children[0].label == TYPED_BINDER and \
                low._proof_binder(node.children[0], (*path, 0)):  # `∀ (_ : P), Q` is `P → Q`
            shape.hyp_trees.append(node.children[0].children[1])
            hyp_paths.append((*path, 0, 1))
            node, path = node.children[1], (*path, 1)
        elif node.label == FORALL and node.children[0].label == TYPED_BINDER:
            name = node.children[0].children[0].label
            info = el.nodes.get((*path, 0, 0))
            typ = info.type if info is not None else None
            if not (isinstance(typ, Ty) and not typ.args and typ.head in NUMBER_TYPES):
                shape.errors.append(f"variable {name} : {node.children[0].children[1]} is not a "
                                    "number")
            elif name in shape.vars:
                shape.errors.append(f"variable {name} bound twice")
            else:
                shape.vars[name] = typ.head
            node, path = node.children[1], (*path, 1)
        elif node.label == ARROW:
            shape.hyp_trees.append(node.children[0])
            hyp_paths.append((*path, 0))
            node, path = node.children[1], (*path, 1)
        else:
            break
    shape.concl_tree = node
    if el.issues:
        shape.errors.insert(0, _issue_reason(el))
        return shape
    for tree, p in zip(shape.hyp_trees, hyp_paths, strict=True):
        shape.hyps.append(_try(low, tree, p, shape.errors))
    shape.concl = _try(low, node, path, shape.errors)
    return shape


def _try(low: _Lower, node: Node, path: Path, errors: list[str]) -> Term | None:
    try:
        return low.prop(node, path)
    except Unsupported as e:
        errors.append(str(e))
        return None
