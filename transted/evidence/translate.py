"""Operator trees → typed terms, elaborated as Lean elaborates them.

Types come only from what the statement writes: binder annotations ``(x : ℝ)``, ascriptions
``(e : ℤ)``, and functions with a fixed result type (``Real.sqrt`` → ℝ, ``⌊x⌋`` → ℤ, ``n !`` →
ℕ). An arithmetic tree (``+ - * / %``, unary ``-``, ``⁻¹``, the base of ``^``) and the two sides
of a relation are elaborated at one type, as Lean's ``binop%``/``binrel%`` elaborator does
(Lean core ``Lean/Elab/Extra.lean``): the largest of the leaves' types and the expected type,
with ``↑`` coercions inserted at the leaves (``Nat.cast``, ``Int.cast``, ``Rat.cast``); a tree
of numerals alone defaults to ℕ (``instOfNatNat`` is the default instance). The exponent of
``^`` is elaborated on its own (a numeral exponent is ℕ: ``Monoid.npow``). Anything else
(an untyped variable, a function we do not model, ℂ, a ``zpow``/``rpow``) raises
:class:`~transted.evidence.terms.Unsupported` with the reason: the engines abstain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from transted.evidence.terms import NUMBER_TYPES, PROP, Big, Num, Op, Quant, Term, Unsupported, Var
from transted.opt.labels import (
    ABS,
    ADD,
    AND,
    ARROW,
    ASCRIPTION,
    CEIL,
    COE,
    DIV,
    DVD,
    EQ,
    EXISTS,
    FLOOR,
    FORALL,
    GE,
    GT,
    IFF,
    INV,
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
    SUB,
    TYPED_BINDER,
    application,
    bounded_binder_label,
    postfix,
    prefix,
)
from transted.opt.node import Node

__all__ = ["Shape", "shape_of", "translate_prop", "Env"]

Env = dict[str, str]
_ARITH = {ADD: "add", SUB: "sub", MUL: "mul", DIV: "div", MOD: "mod"}
_RELS = {EQ: ("eq", False), NE: ("ne", False), LT: ("lt", False), LE: ("le", False),
         GT: ("lt", True), GE: ("le", True), DVD: ("dvd", False)}
_LOGIC = {AND: "and", OR: "or", ARROW: "imp", IFF: "iff"}
_SQRT = {prefix("√"), application("Real.sqrt", 1)}
_BARE_SQRT = application("sqrt", 1)
_ABS = {ABS, application("abs", 1)}
_FLOOR = {FLOOR, application("Int.floor", 1)}
_CEIL = {CEIL, application("Int.ceil", 1)}
_FACT = {postfix("!"), application("Nat.factorial", 1), application("factorial", 1)}
_NAT2 = {application(f, 2): op for f, op in (("Nat.gcd", "gcd"), ("gcd", "gcd"),
                                             ("Nat.lcm", "lcm"), ("lcm", "lcm"))}
_MINMAX = {application("min", 2): "min", application("max", 2): "max"}
_PRED = {application("Nat.Prime", 1): "prime", application("Prime", 1): "prime",
         application("Even", 1): "even", application("Odd", 1): "odd"}
_RANGE = {application("Finset.range", 1), application("range", 1)}
_ICC = {application(f"{ns}{kind}", 2): kind == "Ico"
        for kind in ("Icc", "Ico") for ns in ("Finset.", "", "Set.")}
_BIG = {bounded_binder_label("∑", "∈"): "sum", bounded_binder_label("∏", "∈"): "prod"}
_QUANT = {FORALL: "forall", EXISTS: "exists"}
_NUMERAL = re.compile(r"^[0-9]+(\.[0-9]+)?$")


def _order(t: str) -> int:
    return NUMBER_TYPES.index(t)


def _cast(term: Term, target: str) -> Term:
    if term.type == target:
        return term
    if term.type not in NUMBER_TYPES or _order(term.type) > _order(target):
        raise Unsupported(f"no coercion from {term.type} to {target}")
    if isinstance(term, Num):
        return Num(term.value, target)
    return Op("cast", (term,), target)


def _scalar(typ: Node | None) -> str | None:
    if typ is not None and typ.is_leaf and typ.label in NUMBER_TYPES:
        return typ.label
    return None


class _Elab:
    def __init__(self, env: Env) -> None:
        self.env = env

    # -- arithmetic regions --------------------------------------------------------------
    def leaves(self, node: Node, out: list[Node]) -> None:
        if node.label in _ARITH or node.label in (NEG, INV):
            for c in node.children:
                self.leaves(c, out)
        elif node.label == POW:
            self.leaves(node.children[0], out)
        else:
            out.append(node)

    def region_type(self, nodes: list[Node], expected: str | None) -> str | None:
        leaves: list[Node] = []
        for n in nodes:
            self.leaves(n, leaves)
        types = [t for t in (self.leaf_type(x) for x in leaves) if t is not None]
        if expected is not None:
            types.append(expected)
        if not types and any(x.label == COE for x in leaves):
            raise Unsupported("↑ with no target type in sight (Lean leaves it to unification)")
        return max(types, key=_order) if types else None

    def leaf_type(self, node: Node) -> str | None:
        """The leaf's own type, or None if it takes the region's type (numeral, ``↑x``)."""
        label = node.label
        if node.is_leaf:
            if _NUMERAL.match(label):
                return None
            if label in self.env:
                return self.env[label]
            raise Unsupported(f"identifier {label!r} has no modelled type")
        if label == COE:
            return None
        if label == ASCRIPTION:
            t = _scalar(node.children[1])
            if t is None:
                raise Unsupported(f"ascription to {node.children[1]}")
            return t
        if label in _SQRT or (label == _BARE_SQRT):
            return "ℝ"
        if label in _FLOOR or label in _CEIL:
            return "ℤ"
        if label in _FACT or label in _NAT2:
            return "ℕ"
        if label in _ABS or label in _MINMAX:
            return self.region_type(list(node.children), None)
        if label in _BIG:
            var, vtype = self.big_index(node)
            return _Elab({**self.env, var: vtype}).region_type([node.children[2]], None)
        raise Unsupported(f"no model for {label!r}")

    def num(self, node: Node, typ: str) -> Term:
        """Elaborate ``node`` (part of an arithmetic region) at type ``typ``."""
        label = node.label
        op = _ARITH.get(label)
        if op is not None:
            if op == "mod" and typ not in ("ℕ", "ℤ"):
                raise Unsupported(f"% on {typ}")
            a, b = (self.num(c, typ) for c in node.children)
            return Op(op, (a, b), typ)
        if label == NEG:
            if typ == "ℕ":
                raise Unsupported("negation on ℕ")
            return Op("neg", (self.num(node.children[0], typ),), typ)
        if label == INV:
            if typ not in ("ℚ", "ℝ"):
                raise Unsupported(f"⁻¹ on {typ}")
            return Op("inv", (self.num(node.children[0], typ),), typ)
        if label == POW:
            base = self.num(node.children[0], typ)
            exp_type = self.region_type([node.children[1]], None) or "ℕ"
            if exp_type != "ℕ":
                raise Unsupported(f"power with a {exp_type} exponent (zpow/rpow)")
            return Op("pow", (base, self.num(node.children[1], "ℕ")), typ)
        if node.is_leaf and _NUMERAL.match(label):
            if "." in label and typ in ("ℕ", "ℤ"):
                raise Unsupported(f"decimal {label} in {typ}")
            return Num(Fraction(label), typ)
        return _cast(self.leaf(node, typ), typ)

    def leaf(self, node: Node, typ: str) -> Term:
        label, kids = node.label, node.children
        if node.is_leaf:
            return Var(label, self.leaf_type(node) or typ)
        if label == COE:
            return self.arith([kids[0]], None)
        if label == ASCRIPTION:
            t = self.leaf_type(node)
            assert t is not None
            return self.arith([kids[0]], t)
        if label in _SQRT or label == _BARE_SQRT:
            if label == _BARE_SQRT and self.region_type([kids[0]], None) != "ℝ":
                raise Unsupported("`sqrt` on a non-ℝ argument (Nat.sqrt or Real.sqrt?)")
            return Op("sqrt", (self.arith([kids[0]], "ℝ"),), "ℝ")
        if label in _FLOOR or label in _CEIL:
            arg = self.arith([kids[0]], None)
            if arg.type not in ("ℚ", "ℝ"):
                raise Unsupported("floor/ceil of a non-field value")
            return Op("floor" if label in _FLOOR else "ceil", (arg,), "ℤ")
        if label in _FACT:
            arg = self.arith([kids[0]], "ℕ")
            if arg.type != "ℕ":
                raise Unsupported(f"factorial of a {arg.type} value")
            return Op("fact", (arg,), "ℕ")
        if label in _NAT2:
            if self.region_type(list(kids), None) not in ("ℕ", None):
                raise Unsupported("gcd/lcm on a non-ℕ type (Int.gcd or GCDMonoid.gcd?)")
            return Op(_NAT2[label], tuple(self.arith([c], "ℕ") for c in kids), "ℕ")
        if label in _ABS or label in _MINMAX:
            t = self.region_type(list(kids), None) or typ
            if label in _ABS and t == "ℕ":
                raise Unsupported("|x| on ℕ")
            op = "abs" if label in _ABS else _MINMAX[label]
            return Op(op, tuple(self.num(c, t) for c in kids), t)
        if label in _BIG:
            return self.big(node, typ)
        raise Unsupported(f"no model for {label!r}")

    def arith(self, nodes: list[Node], expected: str | None) -> Term:
        t = self.region_type(nodes, expected) or "ℕ"
        if t not in NUMBER_TYPES:
            raise Unsupported(f"type {t}")
        return self.num(nodes[0], t)

    # -- big operators -------------------------------------------------------------------
    def big_index(self, node: Node) -> tuple[str, str]:
        binder, finset = node.children[0], node.children[1]
        declared = _scalar(binder.children[1]) if binder.label == TYPED_BINDER else None
        name = binder.children[0].label if binder.label == TYPED_BINDER else binder.label
        if not binder.is_leaf and binder.label != TYPED_BINDER:
            raise Unsupported("big-operator binder pattern")
        if finset.label in _RANGE:
            return name, declared or "ℕ"
        if finset.label in _ICC:
            t = self.region_type(list(finset.children), declared) or "ℕ"
            if t not in ("ℕ", "ℤ"):
                raise Unsupported("interval over a non-integer type")
            return name, t
        raise Unsupported(f"big operator over {finset.label!r}")

    def big(self, node: Node, typ: str) -> Term:
        var, vtype = self.big_index(node)
        finset = node.children[1]
        if finset.label in _RANGE:
            if vtype != "ℕ":
                raise Unsupported("Finset.range index typed other than ℕ")
            lo: Term = Num(Fraction(0), "ℕ")
            hi = self.arith([finset.children[0]], "ℕ")
            open_hi = True
        else:
            lo, hi = (self.arith([c], vtype) for c in finset.children)
            open_hi = _ICC[finset.label]
        inner = _Elab({**self.env, var: vtype})
        body = inner.num(node.children[2], typ)
        return Big(_BIG[node.label], var, vtype, lo, hi, body, typ, open_hi)

    # -- propositions --------------------------------------------------------------------
    def prop(self, node: Node) -> Term:
        label, kids = node.label, node.children
        if node.is_leaf and label in ("True", "False"):
            return Op(label.lower(), (), PROP)
        if label in _LOGIC:
            return Op(_LOGIC[label], (self.prop(kids[0]), self.prop(kids[1])), PROP)
        if label == NOT:
            return Op("not", (self.prop(kids[0]),), PROP)
        if label in _RELS:
            op, swap = _RELS[label]
            t = self.region_type(list(kids), None) or "ℕ"
            if op == "dvd" and t not in ("ℕ", "ℤ"):
                raise Unsupported(f"∣ on {t}")
            a, b = (self.num(c, t) for c in kids)
            return Op(op, (b, a) if swap else (a, b), PROP)
        if label in _PRED:
            arg = self.arith([kids[0]], None)
            if arg.type not in ("ℕ", "ℤ") or (_PRED[label] == "prime" and arg.type != "ℕ"):
                raise Unsupported(f"{label} on {arg.type}")
            return Op(_PRED[label], (arg,), PROP)
        if label == MODEQ:
            a, b, n = (self.arith([c], "ℕ") for c in kids)
            if {a.type, b.type, n.type} != {"ℕ"}:
                raise Unsupported("Nat.ModEq on a non-ℕ operand")
            return Op("eq", (Op("mod", (a, n), "ℕ"), Op("mod", (b, n), "ℕ")), PROP)
        if label == MEM:
            return self.member(kids[0], kids[1])
        if label in _QUANT:
            binder = kids[0]
            if binder.label != TYPED_BINDER:
                raise Unsupported("binder without a type annotation")
            name, typ = binder.children[0].label, _scalar(binder.children[1])
            if typ is None:
                if _QUANT[label] == "forall":  # `∀ h : P, Q` with a Prop binder is `P → Q`
                    return Op("imp", (self.prop(binder.children[1]), self.prop(kids[1])), PROP)
                raise Unsupported(f"quantifier over {binder.children[1]}")
            body = _Elab({**self.env, name: typ}).prop(kids[1])
            return Quant(_QUANT[label], name, typ, body)
        raise Unsupported(f"no model for proposition {label!r}")

    def member(self, elem: Node, finset: Node) -> Term:
        if finset.label in _RANGE:
            t = self.region_type([elem, finset.children[0]], None) or "ℕ"
            return Op("lt", (self.num(elem, t), self.num(finset.children[0], t)), PROP)
        if finset.label in _ICC:
            lo_n, hi_n = finset.children
            t = self.region_type([elem, lo_n, hi_n], None) or "ℕ"
            x, lo, hi = self.num(elem, t), self.num(lo_n, t), self.num(hi_n, t)
            upper = Op("lt" if _ICC[finset.label] else "le", (x, hi), PROP)
            return Op("and", (Op("le", (lo, x), PROP), upper), PROP)
        raise Unsupported(f"membership in {finset.label!r}")


def translate_prop(node: Node, env: Env) -> Term:
    """The proposition ``node`` as a term; raises Unsupported with the reason."""
    return _Elab(dict(env)).prop(node)


@dataclass
class Shape:
    """A statement ``∀ vars, hyps → concl`` read off a proposition-form tree.

    ``vars`` are the leading universally bound number variables (in order), ``hyp_trees``/
    ``concl_tree`` the components as trees; ``hyps``/``concl`` their terms, or None with the
    reason in ``errors`` when a component cannot be modelled.
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


def shape_of(tree: Node) -> Shape:
    """Peel the leading ``∀ (x : T)`` and ``H →`` of a proposition-form tree."""
    shape = Shape()
    node = tree
    while True:
        if node.label == FORALL and node.children[0].label == TYPED_BINDER:
            name, tnode = node.children[0].children
            typ = _scalar(tnode)
            if typ is None:  # a named hypothesis used later, a function, a set, a type …
                shape.errors.append(f"variable {name.label} : {tnode} is not a number")
            elif name.label in shape.vars:
                shape.errors.append(f"variable {name.label} bound twice")
            else:
                shape.vars[name.label] = typ
            node = node.children[1]
        elif node.label == ARROW:
            shape.hyp_trees.append(node.children[0])
            node = node.children[1]
        else:
            break
    shape.concl_tree = node
    env = dict(shape.vars)
    for h in shape.hyp_trees:
        shape.hyps.append(_try(h, env, shape.errors))
    shape.concl = _try(node, env, shape.errors)
    return shape


def _try(node: Node, env: Env, errors: list[str]) -> Term | None:
    try:
        return translate_prop(node, env)
    except Unsupported as e:
        errors.append(str(e))
        return None
