"""What the elaborator knows of each constant's type, and the notations that expand to one.

A :class:`ConstantType` is a constant's type as its Lean/Mathlib declaration gives it —
implicit type parameters, instance arguments, explicit argument types, result type — written
as text over the parameters; every entry cites its declaration. The bundled name table
(:mod:`transted.pipeline.opt.names`) says *which* constant a name is; this table says what type it
has, for the constants of competition statements that the evidence engines model (and a few
more). A constant the name table knows but this table does not is elaborated as an opaque
application: the elaborator reports it as ``unsupported`` (its type is not modelled), never
guesses it.

:data:`NOTATIONS` are the notations of the raw tree (labels as the parser writes them) and
the constant each elaborates to, with the namespace a ``scoped`` one needs opened.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from transted.pipeline.opt.elaborate.types import Meta, Ty, Type_, arrow

__all__ = ["ConstantType", "ConstantSignature", "Parameter", "Instantiation", "SIGNATURES",
           "Notation", "NOTATIONS", "NAMED_NOTATIONS", "CLASSES", "IMPLIED", "parse_type_text",
           "instantiate_constant_type", "signature"]


@dataclass(frozen=True)
class Parameter:
    """One explicit argument: the type it is elaborated against and, for a type parameter
    (``Fintype.card (α : Type*)``, ``Subgroup (G : Type*)``), the metavariable the argument
    read as a type fills (its own type is then a sort)."""

    type: Type_
    stands_for: Meta | None = None
    universe: str | None = None
    """For a type parameter declared ``Type*``/``Type u``: ``"Type"``; ``Sort*``: ``"Sort"``."""


@dataclass(frozen=True)
class Instantiation:
    """A constant's type with fresh metavariables: the explicit parameters in order, the
    result, the instance arguments ``[C a …]`` to synthesise, and those the model cannot
    state (their text: an instance on a value, ``[Fact p.Prime]``), which it cannot check."""

    params: tuple[Parameter, ...]
    result: Type_
    instances: tuple[tuple[str, tuple[Type_, ...]], ...] = ()
    unstated: tuple[str, ...] = ()


class ConstantSignature(Protocol):
    """What the elaborator asks of a constant's type (a hand-cited :class:`ConstantType` or
    one derived from the Mathlib index, :mod:`~transted.pipeline.opt.elaborate.index_types`)."""

    @property
    def source(self) -> str: ...

    @property
    def argument_heads(self) -> tuple[str | None, ...]:
        """The head of each explicit argument's type (None: a type variable)."""
        ...

    def instantiate(self, fresh: Callable[[], Meta]) -> Instantiation:
        """The type with a fresh metavariable for each type parameter."""
        ...


@dataclass(frozen=True)
class ConstantType:
    """``{params} [instances] → args → result``; types are written as text over ``params``."""

    params: tuple[str, ...]
    instances: tuple[tuple[str, str], ...]
    args: tuple[str, ...]
    result: str
    source: str
    protected: bool = False

    @property
    def argument_heads(self) -> tuple[str | None, ...]:
        return tuple(None if a.split()[0] in self.params else a.split()[0] for a in self.args)

    def instantiate(self, fresh: Callable[[], Meta]) -> Instantiation:
        args, result, obligations = instantiate_constant_type(self, fresh)
        return Instantiation(tuple(Parameter(a) for a in args), result,
                             tuple((cls, (t,)) for cls, t in obligations))


@dataclass(frozen=True)
class Notation:
    """A notation label of the raw tree and the constant it elaborates to; ``scope`` is the
    namespace a ``scoped`` notation needs opened (``open X`` or ``open scoped X``)."""

    function: str
    scope: str | None
    source: str
    rival: str | None = None
    """Another scope with a notation of the same symbol (``#`` is ``Finset.card`` in
    ``Finset`` and ``Cardinal.mk`` in ``Cardinal``): with both open the model does not
    choose (Lean elaborates both and keeps the one that type-checks)."""


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
    "#<SLOT>": Notation("Finset.card", "Finset", "Mathlib/Data/Finset/Card.lean:50 scoped "
                        "prefix:arg \"#\" => Finset.card", rival="Cardinal"),
    "<SLOT> '' <SLOT>": Notation("Set.image", None, "Mathlib/Data/Set/Operations.lean:133 "
                                 "infixr:80 \" '' \" => image (namespace Set)"),
    "<SLOT> ⁻¹' <SLOT>": Notation("Set.preimage", None, "Mathlib/Data/Set/Operations.lean:127 "
                                  "infixr:80 \" ⁻¹' \" => preimage (namespace Set)"),
    "‖<SLOT>‖": Notation("Norm.norm", None, "Mathlib/Analysis/Normed/Group/Defs.lean:80 "
                         "notation \"‖\" e \"‖\" => norm e (:76 export Norm (norm))"),
    "<SLOT>ˣ": Notation("Units", None, "Mathlib/Algebra/Group/Units/Defs.lean:62 postfix:1024 "
                        "\"ˣ\" => Units"),
    "<SLOT>⁻¹": Notation("Inv.inv", None, "Mathlib/Algebra/Group/Defs.lean: postfix:max \"⁻¹\""),
    "<SLOT> ⊔ <SLOT>": Notation("Max.max", None, "Mathlib/Order/Notation.lean:78 macro_rules "
                                "| `($a ⊔ $b) => `(Max.max $a $b)"),
    "<SLOT> ⊓ <SLOT>": Notation("Min.min", None, "Mathlib/Order/Notation.lean:79 macro_rules "
                                "| `($a ⊓ $b) => `(Min.min $a $b)"),
}

_ONE = ("α",)
_INTERVAL = ConstantType(_ONE, (("Preorder", "α"), ("LocallyFiniteOrder", "α")), ("α", "α"),
                      "Finset α", "Mathlib/Order/Interval/Finset/Defs.lean:271-280 Finset.Icc")
_SET_INTERVAL = ConstantType(_ONE, (("Preorder", "α"),), ("α", "α"), "Set α",
                          "Mathlib/Order/Interval/Set/Defs.lean Set.Icc")

def _fn(args: tuple[str, ...], result: str, source: str, *, protected: bool = False) -> ConstantType:
    return ConstantType((), (), args, result, source, protected)


SIGNATURES: dict[str, ConstantType] = {
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
    "Int.floor": ConstantType(_ONE, (("FloorRing", "α"),), ("α",), "ℤ",
                           "Mathlib/Algebra/Order/Floor/Defs.lean:226 Int.floor"),
    "Int.ceil": ConstantType(_ONE, (("FloorRing", "α"),), ("α",), "ℤ",
                          "Mathlib/Algebra/Order/Floor/Defs.lean Int.ceil"),
    "Nat.floor": ConstantType(_ONE, (("FloorSemiring", "α"),), ("α",), "ℕ",
                           "Mathlib/Algebra/Order/Floor/Defs.lean:92 Nat.floor"),
    "Nat.ceil": ConstantType(_ONE, (("FloorSemiring", "α"),), ("α",), "ℕ",
                          "Mathlib/Algebra/Order/Floor/Defs.lean Nat.ceil"),
    "Min.min": ConstantType(_ONE, (("Min", "α"),), ("α", "α"), "α",
                         "Lean core Init/Prelude.lean class Min; export Min (min)"),
    "Max.max": ConstantType(_ONE, (("Max", "α"),), ("α", "α"), "α",
                         "Lean core Init/Prelude.lean class Max; export Max (max)"),
    "abs": ConstantType(_ONE, (("Lattice", "α"), ("AddGroup", "α")), ("α",), "α",
                     "Mathlib/Algebra/Order/Group/Unbundled/Abs.lean mabs/abs"),
    "Inv.inv": ConstantType(_ONE, (("Inv", "α"),), ("α",), "α", "Mathlib/Algebra/Group/Defs.lean"),
    "Even": ConstantType(_ONE, (("Add", "α"),), ("α",), "Prop",
                      "Mathlib/Algebra/Group/Even.lean:57 (to_additive of IsSquare)"),
    "Odd": ConstantType(_ONE, (("Semiring", "α"),), ("α",), "Prop",
                     "Mathlib/Algebra/Ring/Parity.lean:101 Odd"),
    "Prime": ConstantType(_ONE, (("CommMonoidWithZero", "α"),), ("α",), "Prop",
                       "Mathlib/Algebra/Prime/Defs.lean:43 Prime"),
    "Finset.range": _fn(("ℕ",), "Finset ℕ", "Mathlib/Data/Finset/Range.lean:53"),
    "Finset.Icc": _INTERVAL, "Finset.Ico": _INTERVAL, "Finset.Ioc": _INTERVAL,
    "Finset.Ioo": _INTERVAL,
    "Set.Icc": _SET_INTERVAL, "Set.Ico": _SET_INTERVAL, "Set.Ioc": _SET_INTERVAL,
    "Set.Ioo": _SET_INTERVAL,
    "Finset.card": ConstantType(_ONE, (), ("Finset α",), "ℕ", "Mathlib Finset.card"),
    "Finset.sum": ConstantType(("ι", "M"), (("AddCommMonoid", "M"),), ("Finset ι", "ι → M"), "M",
                            "Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean:68"),
    "Finset.prod": ConstantType(("ι", "M"), (("CommMonoid", "M"),), ("Finset ι", "ι → M"), "M",
                             "Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean:68"),
    "Real.tan": _fn(("ℝ",), "ℝ", "Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean Real.tan"),
    "Real.arctan": _fn(("ℝ",), "ℝ", "Mathlib/Analysis/SpecialFunctions/Trigonometric/Arctan.lean"),
    "Complex.re": _fn(("ℂ",), "ℝ", "Mathlib/Data/Complex/Basic.lean structure Complex (re : ℝ)"),
    "Complex.im": _fn(("ℂ",), "ℝ", "Mathlib/Data/Complex/Basic.lean structure Complex (im : ℝ)"),
    "Int.fract": ConstantType(_ONE, (("FloorRing", "α"),), ("α",), "α",
                           "Mathlib/Algebra/Order/Floor/Defs.lean Int.fract"),
    "Int.tdiv": _fn(("ℤ", "ℤ"), "ℤ", "Lean core src/Init/Data/Int/Basic.lean Int.tdiv"),
    "Int.tmod": _fn(("ℤ", "ℤ"), "ℤ", "Lean core src/Init/Data/Int/Basic.lean Int.tmod"),
    "Int.fdiv": _fn(("ℤ", "ℤ"), "ℤ", "Lean core src/Init/Data/Int/Basic.lean Int.fdiv"),
    "Int.fmod": _fn(("ℤ", "ℤ"), "ℤ", "Lean core src/Init/Data/Int/Basic.lean Int.fmod"),
    "Int.ediv": _fn(("ℤ", "ℤ"), "ℤ", "Lean core src/Init/Data/Int/Basic.lean Int.ediv"),
    "Int.emod": _fn(("ℤ", "ℤ"), "ℤ", "Lean core src/Init/Data/Int/Basic.lean Int.emod"),
    "Int.gcd": _fn(("ℤ", "ℤ"), "ℕ", "Lean core src/Init/Data/Int/Gcd.lean Int.gcd"),
    "Nat.succ": _fn(("ℕ",), "ℕ", "Lean core src/Init/Prelude.lean Nat.succ"),
    "Nat.pred": _fn(("ℕ",), "ℕ", "Lean core src/Init/Prelude.lean Nat.pred"),
    "Nat.totient": _fn(("ℕ",), "ℕ", "Mathlib/Data/Nat/Totient.lean Nat.totient"),
    "Nat.Coprime": _fn(("ℕ", "ℕ"), "Prop", "Mathlib/Data/Nat/GCD/Basic.lean Nat.Coprime"),
    "Nat.divisors": _fn(("ℕ",), "Finset ℕ", "Mathlib/NumberTheory/Divisors.lean Nat.divisors"),
    "Nat.ModEq": _fn(("ℕ", "ℕ", "ℕ"), "Prop", "Mathlib/Data/Nat/ModEq.lean Nat.ModEq (n a b : ℕ)"),
}
NAMED_NOTATIONS: Mapping[str, Notation] = {
    "π": NOTATIONS["π"],
    "rexp": Notation("Real.exp", None, "Mathlib/Analysis/SpecialFunctions/Exp.lean notation \"rexp\""),
    "𝓝": Notation("nhds", "Topology", "Mathlib/Topology/Defs/Filter.lean:134 "
                  "scoped[Topology] notation \"𝓝\" => nhds"),
}
"""Notations written as a name (a leaf, or the head of an application)."""


def signature(full_name: str) -> ConstantType | None:
    return SIGNATURES.get(full_name)


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


def instantiate_constant_type(sig: ConstantType, fresh: Callable[[], Type_]
                              ) -> tuple[list[Type_], Type_, list[tuple[str, Type_]]]:
    """Fresh metavariables for ``sig``'s type parameters: (argument types, result type,
    instance obligations)."""
    params: dict[str, Type_] = {p: fresh() for p in sig.params}
    args = [parse_type_text(a, params) for a in sig.args]
    result = parse_type_text(sig.result, params)
    obligations = [(cls, params[p]) for cls, p in sig.instances]
    return args, result, obligations

