"""Abstract syntax of first-order formulas (FOLIO / MALLS style).

Terms: :class:`Variable`, :class:`Const`, :class:`Func` (``f(t1, ...)``). Formulas: :class:`Pred`
(``P(t1, ...)``), :class:`Eq` (``t1 = t2``), :class:`Not`, :class:`BinOp` (``∧ ∨ → ↔ ⊕``) and
:class:`Quantified` (``∀x`` / ``∃x``). Nodes are frozen and hashable; children are tuples.
Whether a bare lowercase identifier is a variable or a constant is decided by the parser from
the quantifiers in scope.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Variable", "Const", "Func", "FolTerm", "Pred", "Eq", "Not", "BinOp", "Quantified", "Formula",
           "BINARY_OPS", "QUANTIFIERS"]

BINARY_OPS = ("∧", "∨", "→", "↔", "⊕")
QUANTIFIERS = ("∀", "∃")


@dataclass(frozen=True, slots=True)
class Variable:
    name: str


@dataclass(frozen=True, slots=True)
class Const:
    name: str


@dataclass(frozen=True, slots=True)
class Func:
    name: str
    args: tuple[FolTerm, ...]


FolTerm = Variable | Const | Func


@dataclass(frozen=True, slots=True)
class Pred:
    name: str
    args: tuple[FolTerm, ...]


@dataclass(frozen=True, slots=True)
class Eq:
    left: FolTerm
    right: FolTerm


@dataclass(frozen=True, slots=True)
class Not:
    body: Formula


@dataclass(frozen=True, slots=True)
class BinOp:
    op: Literal["∧", "∨", "→", "↔", "⊕"]
    left: Formula
    right: Formula


@dataclass(frozen=True, slots=True)
class Quantified:
    quantifier: Literal["∀", "∃"]
    var: str
    body: Formula


Formula = Pred | Eq | Not | BinOp | Quantified
