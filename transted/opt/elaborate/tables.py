"""What the elaborator knows of Lean and Mathlib: signatures, notations, instances, names.

The elaborator consumes three interfaces, so that the bundled tables generated from a pinned
Mathlib snapshot (``transted/opt/names.py`` and its instance table, being built separately) can
replace the small tables here without touching the algorithm:

* :class:`NameResolver` — ``resolve(name, scope)`` → resolved / ambiguous / unknown, with the
  header's ``open``/``namespace`` lines and ``protected`` declarations taken into account;
* :class:`SignatureTable` — a resolved constant's :class:`Signature` (implicit type
  parameters, instance arguments, explicit argument types, result type);
* :class:`InstanceTable` — does class ``C`` have an instance at a type: True / False /
  None (the table cannot say: the elaborator abstains).

:data:`PROTOTYPE` implements all three for the constants and notations of competition
statements that the evidence engines model; every entry cites the declaration it copies.
A name it does not list is *unknown to the table*, never assumed absent from Mathlib, and
the elaborator reports it as such (abstention, not a guess).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal, Protocol

from transted.opt.elaborate.header import Scope
from transted.opt.elaborate.types import NUMBER_TYPES, Ty, Type_, arrow

__all__ = ["Signature", "Resolution", "NameResolver", "SignatureTable", "InstanceTable",
           "Tables", "Notation", "NOTATIONS", "PROTOTYPE", "parse_type_text", "instantiate",
           "CLASSES", "IMPLIED"]


@dataclass(frozen=True)
class Signature:
    """``{params} [instances] → args → result``; types are written as text over ``params``."""

    params: tuple[str, ...]
    instances: tuple[tuple[str, str], ...]
    args: tuple[str, ...]
    result: str
    source: str
    protected: bool = False


@dataclass(frozen=True)
class Resolution:
    status: Literal["resolved", "ambiguous", "unknown"]
    candidates: tuple[str, ...] = ()
    reason: str = ""


class NameResolver(Protocol):
    def resolve(self, name: str, scope: Scope) -> Resolution: ...


class SignatureTable(Protocol):
    def signature(self, full_name: str) -> Signature | None: ...


class InstanceTable(Protocol):
    def has_instance(self, cls: str, ty: Ty) -> bool | None: ...


@dataclass(frozen=True)
class Notation:
    """A notation label of the raw tree and the constant it elaborates to; ``scope`` is the
    namespace a ``scoped`` notation needs opened (``open X`` or ``open scoped X``)."""

    function: str
    scope: str | None
    source: str


NOTATIONS: Mapping[str, Notation] = {
    "√<SLOT>": Notation("Real.sqrt", None, "Mathlib/Data/Real/Sqrt.lean:117 prefix:max \"√\""),
    "|<SLOT>|": Notation("abs", None, "Mathlib/Algebra/Order/Group/Unbundled/Abs.lean: macro"),
    "<SLOT>!": Notation("Nat.factorial", "Nat",
                        "Mathlib/Data/Nat/Factorial/Basic.lean:44 scoped notation:10000"),
    "π": Notation("Real.pi", "Real",
                  "Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean:130 scoped"),
    "⌊<SLOT>⌋": Notation("Int.floor", None, "Mathlib/Algebra/Order/Floor/Defs.lean:250"),
    "⌈<SLOT>⌉": Notation("Int.ceil", None, "Mathlib/Algebra/Order/Floor/Defs.lean:253"),
    "⌊<SLOT>⌋₊": Notation("Nat.floor", None, "Mathlib/Algebra/Order/Floor/Defs.lean:108"),
    "⌈<SLOT>⌉₊": Notation("Nat.ceil", None, "Mathlib/Algebra/Order/Floor/Defs.lean:111"),
    "<SLOT>⁻¹": Notation("Inv.inv", None, "Mathlib/Algebra/Group/Defs.lean: postfix:max \"⁻¹\""),
}

_ONE = ("α",)
_INTERVAL = Signature(_ONE, (("Preorder", "α"), ("LocallyFiniteOrder", "α")), ("α", "α"),
                      "Finset α", "Mathlib/Order/Interval/Finset/Defs.lean:271-280 Finset.Icc")
_SET_INTERVAL = Signature(_ONE, (("Preorder", "α"),), ("α", "α"), "Set α",
                          "Mathlib/Order/Interval/Set/Defs.lean Set.Icc")

def _fn(args: tuple[str, ...], result: str, source: str, *, protected: bool = False) -> Signature:
    return Signature((), (), args, result, source, protected)


_SIGNATURES: dict[str, Signature] = {
    "Real.sqrt": _fn(("ℝ",), "ℝ", "Mathlib/Data/Real/Sqrt.lean:112 Real.sqrt"),
    "Nat.sqrt": _fn(("ℕ",), "ℕ", "Nat.sqrt : ℕ → ℕ"),
    "NNReal.sqrt": _fn(("NNReal",), "NNReal", "Mathlib/Data/Real/Sqrt.lean:46 NNReal.sqrt"),
    "Real.pi": _fn((), "ℝ", "Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean:126 "
                   "protected Real.pi", protected=True),
    "Real.exp": _fn(("ℝ",), "ℝ", "Mathlib/Analysis/Complex/Exponential.lean:78 Real.exp"),
    "Real.log": _fn(("ℝ",), "ℝ", "Mathlib/Analysis/SpecialFunctions/Log/Basic.lean:44"),
    "Real.sin": _fn(("ℝ",), "ℝ", "Mathlib/Analysis/Complex/Trigonometric.lean:74"),
    "Real.cos": _fn(("ℝ",), "ℝ", "Mathlib/Analysis/Complex/Trigonometric.lean:79"),
    "Complex.exp": _fn(("ℂ",), "ℂ", "Mathlib/Analysis/Complex/Exponential.lean Complex.exp"),
    "Complex.sin": _fn(("ℂ",), "ℂ", "Mathlib/Analysis/Complex/Trigonometric.lean:30"),
    "Complex.cos": _fn(("ℂ",), "ℂ", "Mathlib/Analysis/Complex/Trigonometric.lean:35"),
    "Complex.log": _fn(("ℂ",), "ℂ", "Mathlib/Analysis/SpecialFunctions/Complex/Log.lean:30"),
    "Complex.abs": _fn(("ℂ",), "ℝ", "Mathlib/Analysis/Complex/Basic.lean Complex.abs "
                       "(deprecated for ‖z‖ in later Mathlib)"),
    "Complex.I": _fn((), "ℂ", "Mathlib/Data/Complex/Basic.lean Complex.I"),
    "Real.logb": _fn(("ℝ", "ℝ"), "ℝ", "Mathlib/Analysis/SpecialFunctions/Log/Base.lean "
                     "Real.logb (b x : ℝ)"),
    "Nat.log": _fn(("ℕ", "ℕ"), "ℕ", "Mathlib/Data/Nat/Log.lean:62 Nat.log (b n : ℕ)"),
    "Nat.factorial": _fn(("ℕ",), "ℕ", "Mathlib/Data/Nat/Factorial/Basic.lean Nat.factorial"),
    "Nat.choose": _fn(("ℕ", "ℕ"), "ℕ", "Mathlib/Data/Nat/Choose/Basic.lean:50"),
    "Nat.gcd": _fn(("ℕ", "ℕ"), "ℕ", "Lean core Nat.gcd"),
    "Nat.lcm": _fn(("ℕ", "ℕ"), "ℕ", "Lean core Nat.lcm"),
    "Nat.Prime": _fn(("ℕ",), "Prop", "Mathlib/Data/Nat/Prime/Defs.lean:42 Nat.Prime"),
    "Int.natAbs": _fn(("ℤ",), "ℕ", "Lean core Int.natAbs"),
    "Int.toNat": _fn(("ℤ",), "ℕ", "Lean core Int.toNat"),
    "Int.floor": Signature(_ONE, (("FloorRing", "α"),), ("α",), "ℤ",
                           "Mathlib/Algebra/Order/Floor/Defs.lean:226 Int.floor"),
    "Int.ceil": Signature(_ONE, (("FloorRing", "α"),), ("α",), "ℤ",
                          "Mathlib/Algebra/Order/Floor/Defs.lean Int.ceil"),
    "Nat.floor": Signature(_ONE, (("FloorSemiring", "α"),), ("α",), "ℕ",
                           "Mathlib/Algebra/Order/Floor/Defs.lean:92 Nat.floor"),
    "Nat.ceil": Signature(_ONE, (("FloorSemiring", "α"),), ("α",), "ℕ",
                          "Mathlib/Algebra/Order/Floor/Defs.lean Nat.ceil"),
    "Min.min": Signature(_ONE, (("Min", "α"),), ("α", "α"), "α",
                         "Lean core Init/Prelude.lean class Min; export Min (min)"),
    "Max.max": Signature(_ONE, (("Max", "α"),), ("α", "α"), "α",
                         "Lean core Init/Prelude.lean class Max; export Max (max)"),
    "abs": Signature(_ONE, (("Lattice", "α"), ("AddGroup", "α")), ("α",), "α",
                     "Mathlib/Algebra/Order/Group/Unbundled/Abs.lean mabs/abs"),
    "Inv.inv": Signature(_ONE, (("Inv", "α"),), ("α",), "α", "Mathlib/Algebra/Group/Defs.lean"),
    "Even": Signature(_ONE, (("Add", "α"),), ("α",), "Prop",
                      "Mathlib/Algebra/Group/Even.lean:57 (to_additive of IsSquare)"),
    "Odd": Signature(_ONE, (("Semiring", "α"),), ("α",), "Prop",
                     "Mathlib/Algebra/Ring/Parity.lean:101 Odd"),
    "Prime": Signature(_ONE, (("CommMonoidWithZero", "α"),), ("α",), "Prop",
                       "Mathlib/Algebra/Prime/Defs.lean:43 Prime"),
    "Finset.range": _fn(("ℕ",), "Finset ℕ", "Mathlib/Data/Finset/Range.lean:53"),
    "Finset.Icc": _INTERVAL, "Finset.Ico": _INTERVAL, "Finset.Ioc": _INTERVAL,
    "Finset.Ioo": _INTERVAL,
    "Set.Icc": _SET_INTERVAL, "Set.Ico": _SET_INTERVAL, "Set.Ioc": _SET_INTERVAL,
    "Set.Ioo": _SET_INTERVAL,
    "Finset.card": Signature(_ONE, (), ("Finset α",), "ℕ", "Mathlib Finset.card"),
    "Finset.sum": Signature(("ι", "M"), (("AddCommMonoid", "M"),), ("Finset ι", "ι → M"), "M",
                            "Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean:68"),
    "Finset.prod": Signature(("ι", "M"), (("CommMonoid", "M"),), ("Finset ι", "ι → M"), "M",
                             "Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean:68"),
}
_EXPORTS = {"min": "Min.min", "max": "Max.max"}
"""``export Min (min)``, ``export Max (max)`` (Lean core ``Init/Prelude.lean``)."""

_ALL = frozenset(NUMBER_TYPES)
_ORDERED = frozenset({"ℕ", "ℤ", "ℚ", "ℝ"})
_FIELDS = frozenset({"ℚ", "ℝ", "ℂ"})
_INSTANCES: dict[str, frozenset[str]] = {
    **{c: _ALL for c in ("Add", "Mul", "Sub", "Div", "AddCommMonoid", "CommMonoid", "Semiring",
                         "CommMonoidWithZero", "Dvd", "Monoid")},
    "Mod": frozenset({"ℕ", "ℤ"}),            # Nat.instMod, Int.instModInt; none on ℚ ℝ ℂ
    "Neg": frozenset({"ℤ", "ℚ", "ℝ", "ℂ"}),  # no Neg ℕ
    "AddGroup": frozenset({"ℤ", "ℚ", "ℝ", "ℂ"}),
    "Inv": _FIELDS, "DivInvMonoid": _FIELDS, "OfScientific": _FIELDS,
    # ℂ is ordered only under `open scoped ComplexOrder` (a partial order: never Min/Max)
    **{c: _ORDERED for c in ("LT", "LE", "Preorder", "LinearOrder", "Min", "Max", "Lattice")},
    "LocallyFiniteOrder": frozenset({"ℕ", "ℤ"}),  # Order/Interval/Finset/Nat.lean:33, Int
    "FloorRing": frozenset({"ℤ", "ℚ", "ℝ"}),  # Data/Rat/Floor.lean:39, Real/Archimedean.lean:37
    "FloorSemiring": _ORDERED,
}
_CONTAINER_CLASSES = {"LE", "LT", "Preorder"}  # Finset/Set are ordered by ⊆
_FLOAT = frozenset({"Add", "Sub", "Mul", "Div", "Neg", "LT", "LE", "OfScientific"})


CLASSES = frozenset({"Fact", "Fintype", "DecidableEq", "LinearOrder", "Group", "CommGroup",
                     "Ring", "CommRing", "Field", "LinearOrderedField", "Nontrivial"})
"""Classes whose instance arguments (``[LinearOrder α]``) the elaborator records as local."""
_ORDER = ("LT", "LE", "Preorder", "Min", "Max", "Lattice")
_RING = ("Add", "Mul", "Sub", "Neg", "AddGroup", "AddCommMonoid", "CommMonoid", "Semiring",
         "Monoid", "CommMonoidWithZero", "Dvd")
IMPLIED = {"LinearOrder": _ORDER, "CommRing": _RING, "Ring": _RING,
           "Field": (*_RING, "Div", "Inv", "DivInvMonoid"), "Group": ("Mul", "Inv", "Monoid")}
"""The classes a local instance of each class provides (Mathlib's ``extends`` chains, only
the parts the elaborator asks for)."""


def parse_type_text(text: str, params: Mapping[str, Type_]) -> Type_:
    """``"Finset α"``, ``"ι → M"``, ``"ℕ"`` with ``params`` substituted (right-assoc ``→``)."""
    parts = [p.strip() for p in _split_arrow(text)]
    if len(parts) > 1:
        out = parse_type_text(parts[-1], params)
        for p in reversed(parts[:-1]):
            out = arrow(parse_type_text(p, params), out)
        return out
    words = parts[0].split()
    head, args = words[0], words[1:]
    if head in params and not args:
        return params[head]
    return Ty(head, tuple(parse_type_text(a, params) for a in args))


def _split_arrow(text: str) -> list[str]:
    """Top-level ``→`` pieces of ``text``, a piece wrapped in parentheses unwrapped."""
    out, depth, cur = [], 0, ""
    for c in text:
        depth += (c == "(") - (c == ")")
        if c == "→" and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    out.append(cur.strip())
    return [o[1:-1] if o.startswith("(") and o.endswith(")") else o for o in out]


class _PrototypeTables:
    """The small bundled tables (see the module docstring)."""

    def signature(self, full_name: str) -> Signature | None:
        return _SIGNATURES.get(full_name)

    def has_instance(self, cls: str, ty: Ty) -> bool | None:
        if ty.head in ("Finset", "Set") and cls in _CONTAINER_CLASSES:
            return True
        if ty == Ty("Float"):
            return cls in _FLOAT or None
        if ty.args or ty.head not in NUMBER_TYPES:
            return None
        known = _INSTANCES.get(cls)
        return None if known is None else ty.head in known

    def resolve(self, name: str, scope: Scope) -> Resolution:
        if name in scope.explicit:  # `open X (name)`: available even when protected
            return Resolution("resolved", (scope.explicit[name],))
        if "." in name and name in _SIGNATURES:
            return Resolution("resolved", (name,))
        for ns in reversed(scope.namespaces):  # the current namespace takes precedence
            if f"{ns}.{name}" in _SIGNATURES:
                return Resolution("resolved", (f"{ns}.{name}",))
        found = [f"{ns}.{name}" for ns in scope.opens
                 if f"{ns}.{name}" in _SIGNATURES and not _SIGNATURES[f"{ns}.{name}"].protected]
        root = _EXPORTS.get(name, name)
        if root in _SIGNATURES and "." not in name:
            found.append(root)
        found = list(dict.fromkeys(found))
        if not found:
            hidden = [f"{ns}.{name}" for ns in scope.opens if f"{ns}.{name}" in _SIGNATURES]
            why = (f"{hidden[0]} is protected: `open` does not bring its short name" if hidden
                   else "not in the bundled name table")
            return Resolution("unknown", (), why)
        return Resolution("resolved" if len(found) == 1 else "ambiguous", tuple(found))


@dataclass(frozen=True)
class Tables:
    """The three interfaces the elaborator reads (defaults: :data:`PROTOTYPE`)."""

    names: NameResolver
    signatures: SignatureTable
    instances: InstanceTable


_PROTO = _PrototypeTables()
PROTOTYPE = Tables(_PROTO, _PROTO, _PROTO)


def instantiate(sig: Signature, fresh: Callable[[], Type_]
                ) -> tuple[list[Type_], Type_, list[tuple[str, Type_]]]:
    """Fresh metavariables for ``sig``'s type parameters: (argument types, result type,
    instance obligations)."""
    params: dict[str, Type_] = {p: fresh() for p in sig.params}
    args = [parse_type_text(a, params) for a in sig.args]
    result = parse_type_text(sig.result, params)
    obligations = [(cls, params[p]) for cls, p in sig.instances]
    return args, result, obligations

