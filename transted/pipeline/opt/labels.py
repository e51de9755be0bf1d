"""The vocabulary of operator trees: every node label spelled once.

Labels follow ASSESS §3.2.1 (docs/INTERNALS.md, "Labels"): an operator node is labelled by
its notation with :data:`SLOT` in each operand position (``<SLOT> + <SLOT>``), a named
application by its head and one slot per argument (``Nat.Prime <SLOT>``), a binder notation by
its head, binder slot and body slot (``∀ <SLOT>, <SLOT>``). The parser builds these labels, and
the normaliser, the search, the TED cost models and the evidence translation read them; all of
them take the spelling from here, so a label cannot drift between the module that builds it
and the one that recognises it. The notation table (``notation.yaml``) and the rule and cost
files are data in the same convention.
"""

from __future__ import annotations

import re

__all__ = [
    "SLOT", "infix", "prefix", "postfix", "bracketed", "application", "binder_label",
    "bounded_binder_label",
    "FORALL", "EXISTS", "ARROW", "IFF", "AND", "OR", "NOT",
    "EQ", "NE", "LT", "LE", "GT", "GE", "DVD", "MEM", "MODEQ",
    "ADD", "SUB", "MUL", "DIV", "MOD", "POW", "NEG", "INV", "COE", "ABS", "NORM", "FLOOR", "CEIL",
    "ASCRIPTION", "TYPED_BINDER", "IMPLICIT_BINDER", "STRICT_BINDER", "INSTANCE_BINDER",
    "NAMED_INSTANCE_BINDER", "FUN", "LET", "HAVE", "APP", "TUPLE", "ITE", "SET_BUILDER", "SUBTYPE",
    "THEOREM", "BINDER_HEADS", "NAMED_APPLICATION", "anonymous", "tuple_of",
    "match_pattern", "match_label", "ALTERNATIVE", "EVENTUALLY", "FREQUENTLY",
]

SLOT = "<SLOT>"
"""The operand placeholder of a label."""


def infix(op: str) -> str:
    """``<SLOT> op <SLOT>``."""
    return f"{SLOT} {op} {SLOT}"


def prefix(symbol: str) -> str:
    """``symbol<SLOT>`` (no space: ``¬<SLOT>``, ``↑<SLOT>``, ``-<SLOT>``)."""
    return f"{symbol}{SLOT}"


def postfix(symbol: str) -> str:
    """``<SLOT>symbol`` (``<SLOT>⁻¹``, ``<SLOT>!``)."""
    return f"{SLOT}{symbol}"


def bracketed(opening: str, closing: str) -> str:
    """A bracket notation around one operand: ``|<SLOT>|``, ``⌊<SLOT>⌋``, ``{<SLOT>}``."""
    return f"{opening}{SLOT}{closing}"


def application(head: str, arity: int) -> str:
    """A named application: ``head <SLOT> … <SLOT>`` with ``arity`` slots."""
    return head + f" {SLOT}" * arity


def binder_label(head: str) -> str:
    """A binder notation ``head <SLOT>, <SLOT>`` (``∀``, ``∃``, ``∃!``, ``∑``, ``⋃`` …)."""
    return f"{head} {SLOT}, {SLOT}"


def anonymous(arity: int) -> str:
    """``⟨<SLOT>, …, <SLOT>⟩``: an anonymous constructor (a term, or a pattern in a binder)."""
    return "⟨" + ", ".join([SLOT] * arity) + "⟩"


def tuple_of(arity: int) -> str:
    """``(<SLOT>, …, <SLOT>)``: a tuple (a term, or a pattern in a binder)."""
    return "(" + ", ".join([SLOT] * arity) + ")"


def match_pattern(arity: int) -> str:
    """``pattern(<SLOT>, …)``: the pattern(s) of a match alternative, one per discriminant
    (not spelled as an application: ``pattern`` is no name)."""
    return "pattern(" + ", ".join([SLOT] * arity) + ")"


def match_label(discriminants: int, alternatives: int) -> str:
    """``match <SLOT>, … with <SLOT> …``: the discriminants, then the alternatives."""
    return "match " + ", ".join([SLOT] * discriminants) + " with" + f" {SLOT}" * alternatives


def bounded_binder_label(head: str, relation: str) -> str:
    """A bounded binder ``head <SLOT> relation <SLOT>, <SLOT>`` (``∑ i ∈ s, f i``)."""
    return f"{head} {SLOT} {relation} {SLOT}, {SLOT}"


# -- logic -----------------------------------------------------------------------------------
FORALL = binder_label("∀")
EXISTS = binder_label("∃")
ARROW = infix("→")
IFF = infix("↔")
AND = infix("∧")
OR = infix("∨")
NOT = prefix("¬")

# -- relations -------------------------------------------------------------------------------
EQ = infix("=")
NE = infix("≠")
LT = infix("<")
LE = infix("≤")
GT = infix(">")
GE = infix("≥")
DVD = infix("∣")
MEM = infix("∈")
MODEQ = f"{SLOT} ≡ {SLOT} [MOD {SLOT}]"

# -- arithmetic ------------------------------------------------------------------------------
ADD = infix("+")
SUB = infix("-")
MUL = infix("*")
DIV = infix("/")
MOD = infix("%")
POW = infix("^")
NEG = prefix("-")
INV = postfix("⁻¹")
COE = prefix("↑")
ABS = bracketed("|", "|")
NORM = bracketed("‖", "‖")
FLOOR = bracketed("⌊", "⌋")
CEIL = bracketed("⌈", "⌉")

# -- types, binders, terms -------------------------------------------------------------------
ASCRIPTION = f"({SLOT} : {SLOT})"
"""A type ascription ``(e : T)``."""
TYPED_BINDER = f"{SLOT} : {SLOT}"
"""A binder child ``x : T`` (a declaration's explicit binder, a typed ``∀``)."""
IMPLICIT_BINDER = f"{{{SLOT} : {SLOT}}}"
STRICT_BINDER = f"⦃{SLOT} : {SLOT}⦄"
INSTANCE_BINDER = f"[{SLOT}]"
NAMED_INSTANCE_BINDER = f"[{SLOT} : {SLOT}]"
FUN = f"fun {SLOT} => {SLOT}"
LET = f"let {SLOT} := {SLOT}; {SLOT}"
HAVE = f"have {SLOT} := {SLOT}; {SLOT}"
"""``let``/``have`` in a term: binder (name, optional type), value, body."""
EXPLICIT_MARK = "@"
"""Prefix of a free name written with ``@`` (``@Normal G hG H``: every binder explicit, Lean
core ``ElabAppArgs.Context.explicit``); the label keeps it, so ``@f a b`` and ``f a b`` differ."""
APP = f"{SLOT} {SLOT}"
"""An application whose function is itself a term (not a name)."""
TUPLE = f"({SLOT}, {SLOT})"
ITE = f"if {SLOT} then {SLOT} else {SLOT}"
SET_BUILDER = f"{{{SLOT} | {SLOT}}}"
SUBTYPE = f"{{{SLOT} // {SLOT}}}"
THEOREM = "theorem"
"""The root of the statement form: one child per declaration binder, then the type."""

ALTERNATIVE = f"| {SLOT} => {SLOT}"
"""A match alternative: its pattern (:func:`match_pattern`) binds its variables in the
right-hand side."""
EVENTUALLY = f"∀ᶠ {SLOT} in {SLOT}, {SLOT}"
"""Mathlib's ``Filter.Eventually`` notation (binder, filter, body)."""
FREQUENTLY = f"∃ᶠ {SLOT} in {SLOT}, {SLOT}"
"""Mathlib's ``Filter.Frequently`` notation (binder, filter, body)."""

BINDER_HEADS = ("∀ ", "∃ ", "∃! ", "fun ", "∑ ", "∏ ", "∑' ", "∏' ", "⋃ ", "⋂ ", "⨆ ", "⨅ ",
                "∫ ", "let ", "have ", f"{{{SLOT} | ", f"{{{SLOT} // ", "∀ᶠ ", "∃ᶠ ", "| ",
                "Σ ", "Σ' ")
"""Label prefixes of binding notations (the parser's binder notations, ``transted.pipeline.opt.binders``)."""

NAMED_APPLICATION = re.compile(r"^([^\s<]\S*)((?: " + re.escape(SLOT) + r")+)$")
"""A named application label: group 1 is the head, group 2 the slots."""
FIELD_APPLICATION = re.compile(r"^" + re.escape(SLOT) + r"\.([^\s.<]\S*)((?: " + re.escape(SLOT)
                               + r")*)$")
"""Generalized field notation ``x.f a …``: ``<SLOT>.f <SLOT> …`` (group 1 the field, group 2
the slots of the arguments after the receiver)."""


def field_label(name: str, arity: int) -> str:
    """``x.f`` applied to ``arity`` further arguments: ``<SLOT>.f <SLOT> …``."""
    return f"{SLOT}.{name}" + f" {SLOT}" * arity


TERM_OPEN = re.compile(r"^open ((?:scoped )?\S+(?: \S+)*) in " + re.escape(SLOT) + r"$")
"""A term-level ``open X in e`` (Lean core ``Term.open``): group 1 the ``open`` command's body.
The names of ``e`` are kept as written; the elaborator reads them with ``X`` opened."""


def term_open_label(body: str) -> str:
    """``open <body> in <SLOT>``."""
    return f"open {body} in {SLOT}"
