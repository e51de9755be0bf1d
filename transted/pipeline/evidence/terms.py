"""The typed term language the evidence engines evaluate and encode.

A term is a :class:`Var`, a :class:`Num`, an :class:`Op` (operator with a fixed Lean meaning,
listed in :data:`OPS`), a :class:`Quant` (``∀``/``∃`` over a number type) or a :class:`Big`
(``∑``/``∏`` over an integer interval). Every node carries its type: one of
:data:`NUMBER_TYPES` or ``"Prop"``. The meaning of each operator is Lean's (see
docs/EVIDENCE.md); the engines implement exactly these and nothing else, so a construct that
has no term here cannot be evaluated and the translator abstains.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

__all__ = ["NUMBER_TYPES", "PROP", "OPS", "Term", "Var", "Num", "Op", "Quant", "Big",
           "Unsupported", "free_vars", "is_ground", "rename_vars"]

NUMBER_TYPES = ("ℕ", "ℤ", "ℚ", "ℝ")
"""Modelled number types, in coercion order (``Nat.cast``, ``Int.cast``, ``Rat.cast``)."""
PROP = "Prop"

OPS = {
    # arithmetic: add sub mul div mod neg inv pow; cast (to the node's type)
    "add", "sub", "mul", "div", "mod", "neg", "inv", "pow", "cast",
    # functions
    "sqrt", "abs", "min", "max", "floor", "ceil", "fact", "gcd", "lcm",
    # relations (their operands share one number type)
    "eq", "ne", "lt", "le", "dvd", "prime", "even", "odd",
    # connectives
    "and", "or", "not", "imp", "iff", "true", "false",
}


class Unsupported(Exception):
    """A construct or value outside what an engine models exactly: the engine abstains."""


@dataclass(frozen=True, slots=True)
class Var:
    name: str
    type: str


@dataclass(frozen=True, slots=True)
class Num:
    value: Fraction
    type: str


@dataclass(frozen=True, slots=True)
class Op:
    op: str
    args: tuple[Term, ...]
    type: str


@dataclass(frozen=True, slots=True)
class Quant:
    """``∀ var : vtype, body`` (``kind == "forall"``) or ``∃`` (``"exists"``)."""

    kind: str
    var: str
    vtype: str
    body: Term
    type: str = PROP


@dataclass(frozen=True, slots=True)
class Big:
    """``∑``/``∏`` (``kind`` ``"sum"``/``"prod"``) of ``body`` for ``var`` from ``lo`` to ``hi``,
    ``hi`` excluded when ``open_hi`` (``Finset.range n`` is ``0 ≤ i < n``, ``Finset.Icc a b``
    is ``a ≤ i ≤ b``, ``Finset.Ico a b`` is ``a ≤ i < b``)."""

    kind: str
    var: str
    vtype: str
    lo: Term
    hi: Term
    body: Term
    type: str
    open_hi: bool = False


Term = Var | Num | Op | Quant | Big


def free_vars(term: Term) -> dict[str, str]:
    """Free variable name → type."""
    out: dict[str, str] = {}
    _free(term, frozenset(), out)
    return out


def _free(term: Term, bound: frozenset[str], out: dict[str, str]) -> None:
    if isinstance(term, Var):
        if term.name not in bound:
            out[term.name] = term.type
    elif isinstance(term, Op):
        for a in term.args:
            _free(a, bound, out)
    elif isinstance(term, Quant):
        _free(term.body, bound | {term.var}, out)
    elif isinstance(term, Big):
        _free(term.lo, bound, out)
        _free(term.hi, bound, out)
        _free(term.body, bound | {term.var}, out)


def is_ground(term: Term) -> bool:
    return not free_vars(term)


def rename_vars(term: Term, mapping: dict[str, str]) -> Term:
    """Rename free variables (alpha-renaming of the statement's outer binders)."""
    if isinstance(term, Var):
        return Var(mapping.get(term.name, term.name), term.type)
    if isinstance(term, Num):
        return term
    if isinstance(term, Op):
        return Op(term.op, tuple(rename_vars(a, mapping) for a in term.args), term.type)
    inner = {k: v for k, v in mapping.items() if k != term.var}
    if term.var in inner.values():
        raise Unsupported(f"renaming would capture {term.var}")
    if isinstance(term, Quant):
        return Quant(term.kind, term.var, term.vtype, rename_vars(term.body, inner))
    return Big(term.kind, term.var, term.vtype, rename_vars(term.lo, mapping),
               rename_vars(term.hi, mapping), rename_vars(term.body, inner), term.type,
               term.open_hi)
