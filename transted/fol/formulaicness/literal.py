"""The Literal verbaliser: the formula read aloud node by node (paper 004's *Literal* tier).

Every node has one fixed English template, with variables named as in the formula:

=============  ==============================================  ===============================
node           template                                        as operand of ∧ ∨ → ↔ ⊕
=============  ==============================================  ===============================
``P(t, u)``    "t <is a> P u" (:func:`~.lexicon.atom_text`)    same
``t = u``      "t is u"                                        same
``¬A``         "it is not the case that A" (A as an operand)   same
``A ∧ B``      "A and B"                                       "both A and B"
``A ∨ B``      "A or B"                                        "either A or B"
``A → B``      "if A, then B"                                  same
``A ↔ B``      "A if and only if B"                            same
``A ⊕ B``      "either A or B, but not both"                   same
``∀x A``       "for all x, A"                                  same
``∃x A``       "there is an element x such that A"             same
=============  ==============================================  ===============================

The bracketing words ("both", "either") mark where a nested connective's operands begin, as
the brackets of the formula do; the templates are those of the literal system of Calò et al.
(2022) as paper 004 Table 2 quotes it ("For all x, if x is a cube, then there is an element y
such that ...", "it is not the case that"). Deterministic: the same formula gives the same text.
"""

from __future__ import annotations

from transted.fol.ast import Eq, Formula, Not, Pred, Quantified
from transted.fol.formulaicness.lexicon import atom_text

__all__ = ["verbalise_literal", "sentence"]

_TOP = {"∧": "{a} and {b}", "∨": "{a} or {b}", "→": "if {a}, then {b}",
        "↔": "{a} if and only if {b}", "⊕": "either {a} or {b}, but not both"}
_NESTED = {**_TOP, "∧": "both {a} and {b}", "∨": "either {a} or {b}"}


def sentence(clause: str) -> str:
    """``clause`` as a sentence: first letter upper-cased, one final full stop."""
    clause = clause.strip()
    return clause[:1].upper() + clause[1:].rstrip(".") + "." if clause else clause


def verbalise_literal(formula: Formula) -> str:
    """The Literal text of ``formula`` (see the module docstring), as one sentence.

    Examples
    --------
    >>> from transted.fol.syntax import parse_formula
    >>> verbalise_literal(parse_formula("∀x (Cube(x) → ¬Small(x))"))
    'For all x, if x is a cube, then it is not the case that x is small.'
    """
    return sentence(_clause(formula, nested=False))


def _clause(f: Formula, *, nested: bool) -> str:
    if isinstance(f, (Pred, Eq)):
        return atom_text(f)
    if isinstance(f, Not):
        return "it is not the case that " + _clause(f.body, nested=True)
    if isinstance(f, Quantified):
        body = _clause(f.body, nested=False)
        if f.quantifier == "∀":
            return f"for all {f.var}, {body}"
        return f"there is an element {f.var} such that {body}"
    template = (_NESTED if nested else _TOP)[f.op]
    return template.format(a=_clause(f.left, nested=True), b=_clause(f.right, nested=True))
