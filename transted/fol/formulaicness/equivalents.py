"""Logically equivalent rewrites of a formula (LoLa's step before verbalising, paper 004 App. A).

LoLa (Calò et al. 2022) searches the formulas equivalent to the input under textbook laws and
verbalises the one whose text is shortest. :func:`equivalents` enumerates, breadth first and
in a fixed order, the formulas reachable by these classical equivalences applied at any
position (Partee, ter Meulen & Wall 1990, ch. 6–7, the laws LoLa cites):

* double negation ``¬¬A ≡ A``;
* De Morgan ``¬(A ∧ B) ≡ ¬A ∨ ¬B``, ``¬(A ∨ B) ≡ ¬A ∧ ¬B`` (and back: ``¬A ∧ ¬B`` reads
  "neither A nor B");
* quantifier negation ``¬∀x A ≡ ∃x ¬A``, ``¬∃x A ≡ ∀x ¬A``;
* ``¬(A → B) ≡ A ∧ ¬B``; contraposition ``¬A → ¬B ≡ B → A``;
* ``¬(A ↔ B) ≡ A ⊕ B``, ``¬(A ⊕ B) ≡ A ↔ B``;
* vacuous quantification ``∀x A ≡ A`` when ``x`` is not free in ``A`` (so for ``∃``, over a
  non-empty domain, as first-order semantics assumes).

:func:`negation_normal_form` pushes every negation down to the atoms with the same laws.
"""

from __future__ import annotations

from collections.abc import Iterator

from transted.fol.ast import BinOp, Eq, FolTerm, Formula, Func, Not, Pred, Quantified, Variable

__all__ = ["equivalents", "negation_normal_form", "free_variables", "MAX_VARIANTS"]

MAX_VARIANTS = 64
"""How many equivalent formulas :func:`equivalents` returns at most (breadth first)."""


def _term_vars(term: FolTerm) -> set[str]:
    if isinstance(term, Variable):
        return {term.name}
    if isinstance(term, Func):
        return set().union(*(_term_vars(a) for a in term.args))
    return set()


def free_variables(f: Formula) -> frozenset[str]:
    """The variables occurring free in ``f``."""
    if isinstance(f, Pred):
        return frozenset(set().union(*(_term_vars(a) for a in f.args)))
    if isinstance(f, Eq):
        return frozenset(_term_vars(f.left) | _term_vars(f.right))
    if isinstance(f, Not):
        return free_variables(f.body)
    if isinstance(f, Quantified):
        return free_variables(f.body) - {f.var}
    return free_variables(f.left) | free_variables(f.right)


def _rewrites(f: Formula) -> list[Formula]:
    """The formulas one law turns ``f`` into, at its root."""
    out: list[Formula] = []
    if isinstance(f, Not):
        b = f.body
        if isinstance(b, Not):
            out.append(b.body)
        elif isinstance(b, Quantified):
            out.append(Quantified("∃" if b.quantifier == "∀" else "∀", b.var, Not(b.body)))
        elif isinstance(b, BinOp):
            if b.op in ("∧", "∨"):
                out.append(BinOp("∨" if b.op == "∧" else "∧", Not(b.left), Not(b.right)))
            elif b.op == "→":
                out.append(BinOp("∧", b.left, Not(b.right)))
            elif b.op in ("↔", "⊕"):
                out.append(BinOp("⊕" if b.op == "↔" else "↔", b.left, b.right))
    elif isinstance(f, BinOp) and isinstance(f.left, Not) and isinstance(f.right, Not):
        if f.op == "∧":
            out.append(Not(BinOp("∨", f.left.body, f.right.body)))
        elif f.op == "→":
            out.append(BinOp("→", f.right.body, f.left.body))
    elif isinstance(f, Quantified) and f.var not in free_variables(f.body):
        out.append(f.body)
    return out


def _one_step(f: Formula) -> Iterator[Formula]:
    """``f`` with one law applied at one position (root first, then left to right)."""
    yield from _rewrites(f)
    if isinstance(f, Not):
        yield from (Not(b) for b in _one_step(f.body))
    elif isinstance(f, Quantified):
        yield from (Quantified(f.quantifier, f.var, b) for b in _one_step(f.body))
    elif isinstance(f, BinOp):
        yield from (BinOp(f.op, left, f.right) for left in _one_step(f.left))
        yield from (BinOp(f.op, f.left, right) for right in _one_step(f.right))


def negation_normal_form(f: Formula) -> Formula:
    """``f`` with every negation pushed onto an atom (and double negations removed)."""
    if isinstance(f, Quantified):
        return Quantified(f.quantifier, f.var, negation_normal_form(f.body))
    if isinstance(f, BinOp):
        return BinOp(f.op, negation_normal_form(f.left), negation_normal_form(f.right))
    if isinstance(f, Not) and not isinstance(f.body, (Pred, Eq)):
        pushed = _rewrites(f)
        return negation_normal_form(pushed[0]) if pushed else f
    return f


def equivalents(f: Formula, *, limit: int = MAX_VARIANTS) -> list[Formula]:
    """``f``, its negation normal form, then the formulas reachable by the laws of the module
    docstring, breadth first, without repeats, at most ``limit`` in all."""
    if not isinstance(limit, int) or limit < 1:
        raise ValueError(f"`limit` must be a positive int, got {limit!r}")
    found = list(dict.fromkeys([f, negation_normal_form(f)]))[:limit]
    seen = set(found)
    frontier = list(found)
    while frontier and len(found) < limit:
        following: list[Formula] = []
        for g in frontier:
            for h in _one_step(g):
                if h not in seen:
                    seen.add(h)
                    found.append(h)
                    following.append(h)
                    if len(found) == limit:
                        return found
        frontier = following
    return found
