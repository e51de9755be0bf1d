"""The Optimised verbaliser: logical simplification, then syntactic aggregation (paper 004's
Ranta and LoLa systems, App. A, in one).

:func:`verbalise_optimised` realises every formula of
:func:`~transted.fol.formulaicness.equivalents.equivalents` (negations pushed, double negations
and vacuous quantifiers dropped, De Morgan, contraposition) and keeps the shortest text, as
LoLa does. The realiser applies Ranta's (2011) syntactic optimisations:

* **in-situ quantification**, dropping the variable when one referent suffices:
  ``∀x (Student(x) → Young(x))`` → "every student is young", ``∀x (A(x) → ¬B(x))`` →
  "no A is B", ``∃x (Cube(x) ∧ Small(x))`` → "some cube is small", ``∀x P(x)`` →
  "everything P"; a restrictor without a noun reads "everything that ...", and an inner
  mention of the variable reads "it" (``∀x (A(x) → Likes(c, x))`` → "for every A, C likes it");
* **quantifier merging**: ``∀x ∀y A`` → "for all x and y, A" where names are still needed;
* **verb negation**: ``¬Small(x)`` → "x is not small"; ``¬(A ∨ B)`` → "neither ... nor";
* **aggregation** of clauses with one subject: ``Student(r) ∧ ¬Tired(r)`` → "R is a student and
  not tired", ``A(r) ⊕ B(r)`` → "R is either A or B, but not both";
* **flattening**: ``A ∧ B ∧ C`` → "A, B and C"; **reflexivisation**: ``Love(x, x)`` → "loves
  itself".

Deterministic: variants are tried in a fixed order and ties go to the earlier one.
"""

from __future__ import annotations

from transted.fol.ast import BinOp, Eq, FolTerm, Formula, Not, Pred, Quantified, Variable
from transted.fol.formulaicness.equivalents import MAX_VARIANTS, equivalents, free_variables
from transted.fol.formulaicness.lexicon import article, atom_text, phrase, term_text
from transted.fol.formulaicness.literal import sentence

__all__ = ["verbalise_optimised", "realise"]

Names = dict[str, str]


def verbalise_optimised(formula: Formula, *, max_variants: int = MAX_VARIANTS) -> str:
    """The Optimised text of ``formula``: the shortest realisation (in words, then
    alphabetically) over its first ``max_variants`` equivalent formulas.

    Examples
    --------
    >>> from transted.fol.syntax import parse_formula
    >>> verbalise_optimised(parse_formula("∀x (Cube(x) → ¬Small(x))"))
    'No cube is small.'
    """
    texts = [realise(g) for g in equivalents(formula, limit=max_variants)]
    return sentence(min(texts, key=lambda t: (len(t.split()), t)))


def realise(f: Formula, names: Names | None = None) -> str:
    """One clause for ``f`` (no variants tried); ``names`` maps variables to words ("it")."""
    names = names or {}
    if isinstance(f, (Pred, Eq)):
        return atom_text(f, names=names)
    if isinstance(f, Not):
        return _negation(f, names)
    if isinstance(f, Quantified):
        return _quantified(f, names)
    subject = _common_subject(f)
    if subject is not None:
        return f"{term_text(subject, names)} {_verb_phrase(f, names)}"
    if f.op in ("∧", "∨"):
        items = [realise(g, names) for g in _chain(f, f.op)]
        return _coordinate(items, "and" if f.op == "∧" else "or")
    left, right = realise(f.left, names), realise(f.right, names)
    if f.op == "→":
        return f"if {left}, then {right}"
    if f.op == "↔":
        return f"{left} if and only if {right}"
    return f"either {left} or {right}, but not both"


# -- subjects and verb phrases --------------------------------------------------------------

def _subject(atom: Pred | Eq) -> FolTerm | None:
    if isinstance(atom, Eq):
        return atom.left
    return atom.args[0] if atom.args else None


def _common_subject(f: Formula) -> FolTerm | None:
    """The term every atom of ``f`` is about, when ``f`` is a Boolean combination (¬ ∧ ∨ ⊕)
    of atoms sharing their first argument; else None."""
    if isinstance(f, (Pred, Eq)):
        return _subject(f)
    if isinstance(f, Not):
        return _common_subject(f.body) if _negatable(f.body) else None
    if isinstance(f, BinOp) and f.op in ("∧", "∨", "⊕"):
        left, right = _common_subject(f.left), _common_subject(f.right)
        return left if left is not None and left == right else None
    return None


def _negatable(f: Formula) -> bool:
    """An atom, or ``A ∨ B`` of atoms ("neither A nor B")."""
    if isinstance(f, (Pred, Eq)):
        return True
    return isinstance(f, BinOp) and f.op == "∨" and all(
        isinstance(g, (Pred, Eq)) for g in (f.left, f.right))


def _verb_phrase(f: Formula, names: Names) -> str:
    """``f`` (of :func:`_common_subject`) said of its subject: "is a student and not tired"."""
    if isinstance(f, (Pred, Eq)):
        return atom_text(f, names=names, verb_phrase=True)
    if isinstance(f, Not):
        if isinstance(f.body, BinOp):
            left, right = (_verb_phrase(g, names) for g in (f.body.left, f.body.right))
            return _factor_copula([left, right], "neither {} nor {}")
        return atom_text(f.body, negated=True, names=names, verb_phrase=True)  # type: ignore[arg-type]
    assert isinstance(f, BinOp)
    if f.op == "⊕":
        parts = [_verb_phrase(f.left, names), _verb_phrase(f.right, names)]
        return _factor_copula(parts, "either {} or {}") + ", but not both"
    parts = [_verb_phrase(g, names) for g in _chain(f, f.op)]
    return _factor_copula(parts, "{}", joiner="and" if f.op == "∧" else "or")


def _factor_copula(parts: list[str], frame: str, *, joiner: str | None = None) -> str:
    """Aggregate verb phrases: "is A" and "is not B" → "is A and not B"."""
    if all(p.startswith("is ") for p in parts):
        rest = [p[3:] for p in parts]
        body = _coordinate(rest, joiner) if joiner else frame.format(*rest)
        return "is " + body
    return _coordinate(parts, joiner) if joiner else frame.format(*parts)


def _chain(f: Formula, op: str) -> list[Formula]:
    """The operands of a chain of ``op`` (flattening ``(A ∧ B) ∧ C``)."""
    if isinstance(f, BinOp) and f.op == op:
        return _chain(f.left, op) + _chain(f.right, op)
    return [f]


def _coordinate(items: list[str], joiner: str) -> str:
    if len(items) <= 2:
        return f" {joiner} ".join(items)
    return ", ".join(items[:-1]) + f" {joiner} {items[-1]}"


# -- quantifiers ----------------------------------------------------------------------------

def _quantified(f: Quantified, names: Names) -> str:
    variables, body = [f.var], f.body
    while isinstance(body, Quantified) and body.quantifier == f.quantifier:
        variables.append(body.var)
        body = body.body
    if len(variables) == 1 and _in_situ(f.var, body):
        text = (_universal if f.quantifier == "∀" else _existential)(f.var, body, names)
        if text is not None:
            return text
    listed = _coordinate(variables, "and")
    lead = "for all" if f.quantifier == "∀" else "for some"
    return f"{lead} {listed}, {realise(body, names)}"


def _in_situ(var: str, body: Formula) -> bool:
    """One referent suffices: ``var`` is the body's only free variable and nothing inside
    quantifies again."""
    return free_variables(body) == {var} and not _has_quantifier(body)


def _has_quantifier(f: Formula) -> bool:
    if isinstance(f, Quantified):
        return True
    if isinstance(f, Not):
        return _has_quantifier(f.body)
    if isinstance(f, BinOp):
        return _has_quantifier(f.left) or _has_quantifier(f.right)
    return False


def _about(var: str, f: Formula) -> bool:
    return _common_subject(f) == Variable(var)


def _universal(var: str, body: Formula, names: Names) -> str | None:
    if _about(var, body):
        if isinstance(body, Not) and isinstance(body.body, (Pred, Eq)):
            return "nothing " + _verb_phrase(body.body, names)
        return "everything " + _verb_phrase(body, names)
    if not (isinstance(body, BinOp) and body.op == "→" and _about(var, body.left)):
        return None
    scope = body.right
    if isinstance(scope, Not) and isinstance(scope.body, (Pred, Eq)) and _about(var, scope):
        return f"{_noun_phrase('no', var, body.left, names)} {_verb_phrase(scope.body, names)}"
    subject = _noun_phrase("every", var, body.left, names)
    if _about(var, scope):
        return f"{subject} {_verb_phrase(scope, names)}"
    return f"for {subject}, {realise(scope, {**names, var: 'it'})}"


def _existential(var: str, body: Formula, names: Names) -> str | None:
    if not _about(var, body):
        return None
    conjuncts = _chain(body, "∧")
    head = _head_noun(conjuncts)
    if head is None:
        return "something " + _verb_phrase(body, names)
    rest = [c for c in conjuncts if c is not head]
    noun = _noun(head)
    if not rest:
        return f"there is {article(noun)} {noun}"
    return f"some {noun} {_verb_phrase(_conjoin(rest), names)}"


def _negation(f: Not, names: Names) -> str:
    b = f.body
    if isinstance(b, (Pred, Eq)):
        return atom_text(b, negated=True, names=names)
    if isinstance(b, Quantified) and b.quantifier == "∃" and _in_situ(b.var, b.body) \
            and _about(b.var, b.body):
        conjuncts = _chain(b.body, "∧")
        head = _head_noun(conjuncts)
        rest = [c for c in conjuncts if c is not head]
        if head is None:
            return "nothing " + _verb_phrase(b.body, names)
        noun = _noun(head)
        return (f"no {noun} {_verb_phrase(_conjoin(rest), names)}" if rest
                else f"there is no {noun}")
    if _common_subject(f) is not None:
        subject = _common_subject(f)
        assert subject is not None
        return f"{term_text(subject, names)} {_verb_phrase(f, names)}"
    return "it is not the case that " + realise(b, names)


def _noun(atom: Pred) -> str:
    noun = phrase(atom.name, 1).noun
    assert noun is not None
    return noun


def _head_noun(conjuncts: list[Formula]) -> Pred | None:
    """The first unary predicate naming a kind ("student"), to head a noun phrase."""
    for c in conjuncts:
        if isinstance(c, Pred) and len(c.args) == 1 and phrase(c.name, 1).noun is not None:
            return c
    return None


def _conjoin(items: list[Formula]) -> Formula:
    result = items[0]
    for item in items[1:]:
        result = BinOp("∧", result, item)
    return result


def _noun_phrase(determiner: str, var: str, restrictor: Formula, names: Names) -> str:
    """"every student that is young", "no cube", "everything that drinks"."""
    conjuncts = _chain(restrictor, "∧")
    head = _head_noun(conjuncts)
    if head is None:
        return f"{determiner}thing that {_verb_phrase(restrictor, names)}"
    rest = [c for c in conjuncts if c is not head]
    noun = f"{determiner} {_noun(head)}"
    return f"{noun} that {_verb_phrase(_conjoin(rest), names)}" if rest else noun
