"""Meaning changes of the Lean sensitivity suite (label: not equivalent), one function each.

"Not equivalent" is meant as a translation would be judged: the candidate states a different
proposition schema, and the difference is not made immaterial by the rest of the statement
(the other hypotheses). Each docstring says why the meaning changes and which textual guard
keeps a change from being immaterial; what a textual guard cannot exclude is left to the
evidence hook (:data:`transted.sensitivity.lean.perturb.Validator`).
"""

from __future__ import annotations

import random
import re

from transted.sensitivity.lean.rewrites import _fresh, _pick, _replace
from transted.sensitivity.lean.sites import NUMERIC_TYPES, Statement, splice
from transted.sensitivity.lean.spans import Span

__all__ = ["numeral", "strictness", "reverse_relation", "drop_hypothesis", "add_hypothesis",
           "forall_exists", "and_or", "imp_iff", "negate_conclusion", "change_type",
           "swap_operands"]

# neighbours that make a numeral's value immaterial: 0 * n, n * 0, 1 ^ n, 0 ^ n, n % 1 ...
_ABSORBING = {("0", "*"), ("1", "^"), ("0", "^"), ("0", "/")}
_ABSORBED_AFTER = {("*", "0"), ("%", "1"), ("^", "0")}


def numeral(st: Statement, rng: random.Random) -> tuple[str, str]:
    """A natural-number literal `n` becomes `n + 1` (written as the next literal). The value
    of the term containing it changes; guard: literals next to an absorbing neighbour
    (`0 * n`, `n * 0`, `0 ^ n`, `1 ^ n`, `n ^ 0`, `n % 1`, `0 / n`) are not chosen."""
    toks = st.sk.tokens
    sites = []
    lo = st.sk.groups[0].span.start if st.sk.groups else st.sk.colon
    for k in range(lo, st.sk.conclusion.end):
        t = toks[k]
        if t.kind != "num" or not t.text.isdigit():
            continue
        before = (toks[k - 2].text, toks[k - 1].text) if k >= 2 else ("", "")
        after = (toks[k + 1].text, toks[k + 2].text) if k + 2 < len(toks) else ("", "")
        if before in _ABSORBING or after in _ABSORBED_AFTER or (t.text, after[0]) in _ABSORBING:
            continue
        sites.append(k)
    k = _pick(rng, sites, "no natural-number literal outside an absorbing context")
    t = toks[k]
    new = str(int(t.text) + 1)
    return splice(st.sk, [(t.start, t.end, new)]), f"{t.text} -> {new}"


_STRICT = {"<": "≤", "≤": "<", ">": "≥", "≥": ">"}


def _distinct_known(st: Statement, lhs: str, rhs: str) -> bool:
    """A hypothesis states `lhs ≠ rhs` (either order), or the sides are the same text."""
    for s in st.relation_sites:
        if s.part != -1 and st.tok(s.op) == "≠" and {st.text(s.lhs), st.text(s.rhs)} == {lhs, rhs}:
            return True
    return False


def strictness(st: Statement, rng: random.Random) -> tuple[str, str]:
    """`<` ↔ `≤` (and `>` ↔ `≥`), operands kept: the two differ exactly on the instances
    where the sides are equal (`lt_iff_le_and_ne`). Guard: not when a hypothesis states the
    sides distinct (`a ≠ b`), which would make the instances coincide."""
    sites = [s for s in st.relation_sites if st.tok(s.op) in _STRICT
             and not _distinct_known(st, st.text(s.lhs), st.text(s.rhs))]
    s = _pick(rng, sites, "no order relation whose sides are not stated distinct")
    t = st.sk.tokens[s.op]
    new = _STRICT[t.text]
    return splice(st.sk, [(t.start, t.end, new)]), f"{t.text} -> {new}"


_REVERSE = {"<": ">", ">": "<", "≤": "≥", "≥": "≤"}


def reverse_relation(st: Statement, rng: random.Random) -> tuple[str, str]:
    """`a < b` → `a > b` (and `≤` → `≥` ...), operands kept: the relation now holds in the
    other direction; the two agree only where both sides are equal (`≤`) or never (`<`), so
    they differ unless the sides are always equal. Guard: the sides differ as text."""
    sites = [s for s in st.relation_sites if st.tok(s.op) in _REVERSE
             and st.text(s.lhs) != st.text(s.rhs)]
    s = _pick(rng, sites, "no order relation with distinct sides")
    t = st.sk.tokens[s.op]
    new = _REVERSE[t.text]
    return splice(st.sk, [(t.start, t.end, new)]), f"{t.text} -> {new}"


def _hyp_vars(st: Statement, i: int) -> set[str]:
    g = st.group(i)
    assert g.type is not None
    return st.idents(g.type) & set(st.variables)


def drop_hypothesis(st: Statement, rng: random.Random) -> tuple[str, str]:
    """A hypothesis binder is removed: the statement now claims its conclusion in more
    cases. Guards against a hypothesis whose removal is immaterial: not when another
    hypothesis has the same type or contains it as a conjunct (it is implied), not when it
    mentions no variable (a closed fact, decidable by `norm_num`/`decide`), and not when
    none of its variables occurs in the conclusion or another hypothesis (it then only
    restricts otherwise unused variables, and dropping it is equivalent once some value
    satisfies it)."""
    sites, reasons = [], []
    for i in st.hypotheses:
        g = st.group(i)
        assert g.type is not None
        text = st.text(g.type)
        others = [j for j in st.hypotheses if j != i]
        conjuncts = {st.text(x) for s in st.logic_sites if s.part in others
                     and st.tok(s.op) == "∧" for x in (s.lhs, s.rhs)}
        if any(st.text(st.group(j).type) == text for j in others) or text in conjuncts:  # type: ignore[arg-type]
            reasons.append("implied by another hypothesis")
            continue
        mine = _hyp_vars(st, i)
        if not mine:
            reasons.append("closed hypothesis")
            continue
        elsewhere = st.idents(st.sk.conclusion).union(*[_hyp_vars(st, j) for j in others])
        if not mine & elsewhere:
            reasons.append("its variables occur nowhere else")
            continue
        sites.append(i)
    none = "no hypothesis" if not reasons else f"every hypothesis refused ({reasons[0]})"
    i = _pick(rng, sites, none)
    g = st.group(i)
    a, b = st.chars(g.span)
    # remove the binder and the blank before it
    while a > 0 and st.sk.text[a - 1] in " \t":
        a -= 1
    return splice(st.sk, [(a, b, "")]), f"dropped {g.names[0]}"


def add_hypothesis(st: Statement, rng: random.Random) -> tuple[str, str]:
    """A hypothesis `(h_new : v ≠ K)` is added for a variable `v` of type ℕ ℤ ℚ ℝ that
    occurs in the conclusion, with `K` a literal absent from the statement: the statement
    no longer claims anything for `v = K`. Guard: not when a hypothesis relates `v` directly
    to a closed term (`v = c`, `v < c`, `c ≤ v`, `v ∈ s` ...), which could already exclude
    `K`."""
    pinned = set()
    for s in st.relation_sites:
        if s.part == -1:
            continue
        for a, b in ((s.lhs, s.rhs), (s.rhs, s.lhs)):
            if len(a) == 1 and not (st.idents(b) & set(st.variables)):
                pinned.add(st.tok(a.start))
    concl = st.idents(st.sk.conclusion)
    sites = [v for v, (_, ty) in sorted(st.variables.items())
             if ty in NUMERIC_TYPES[:4] and v in concl and v not in pinned]
    v = _pick(rng, sites, "no ℕ ℤ ℚ ℝ variable of the conclusion free of a direct bound")
    numerals = {t.text for t in st.sk.tokens if t.kind == "num"}
    k = next(str(n) for n in range(2, 10**6) if str(n) not in numerals)
    name = _fresh(st, "h_new")
    at = st.chars(st.group(st.variables[v][0]).span)[1]
    return splice(st.sk, [(at, at, f" ({name} : {v} ≠ {k})")]), f"added {v} ≠ {k}"


def forall_exists(st: Statement, rng: random.Random) -> tuple[str, str]:
    """One `∀` becomes `∃` or one `∃` becomes `∀` (binder and body kept): a universal and an
    existential claim differ unless the body does not depend on the bound variable (then
    they agree on an inhabited type). Guard: a bound name of the binder occurs in its body."""
    sites = []
    toks = st.sk.tokens
    for k in range(st.sk.colon, st.sk.conclusion.end):
        if toks[k].text not in ("∀", "∃"):
            continue
        d = st.sk.depth[k]
        comma = next((j for j in range(k + 1, len(toks)) if st.sk.depth[j] == d
                      and toks[j].text == ","), None)
        if comma is None:
            continue
        names = {toks[j].text for j in range(k + 1, comma)
                 if toks[j].kind == "ident" and st.sk.depth[j] in (d, d + 1)}
        end = next((j for j in range(comma + 1, len(toks)) if st.sk.depth[j] < d
                    or toks[j].kind == "eof" or (d == 0 and toks[j].text == ":=")), len(toks))
        body = {t.text.split(".")[0] for t in toks[comma + 1:end] if t.kind == "ident"}
        if names & body:
            sites.append(k)
    k = _pick(rng, sites, "no ∀/∃ whose body uses its variable")
    t = toks[k]
    new = "∃" if t.text == "∀" else "∀"
    return splice(st.sk, [(t.start, t.end, new)]), f"{t.text} -> {new}"


def and_or(st: Statement, rng: random.Random) -> tuple[str, str]:
    """One `∧` becomes `∨` or one `∨` becomes `∧`: they agree only when both operands are
    equivalent. Guard: the operands differ as text."""
    return _swap_connective(st, rng, ("∧", "∨"), "no ∧/∨ with distinct operands")


def imp_iff(st: Statement, rng: random.Random) -> tuple[str, str]:
    """One logical `→` becomes `↔` (adds the converse) or one `↔` becomes `→` (drops it):
    they agree only when the converse holds. Guard: the operands differ as text, and only
    `→` between propositions (found through the statement's connectives, never in a binder
    type such as `ℕ → ℝ`)."""
    return _swap_connective(st, rng, ("→", "↔"), "no →/↔ between distinct propositions")


def _swap_connective(st: Statement, rng: random.Random, pair: tuple[str, str],
                     none_found: str) -> tuple[str, str]:
    """One connective of ``pair`` between operands that differ as text becomes the other."""
    sites = [s for s in st.logic_sites if st.tok(s.op) in pair
             and st.text(s.lhs) != st.text(s.rhs)]
    s = _pick(rng, sites, none_found)
    t = st.sk.tokens[s.op]
    new = pair[1] if t.text == pair[0] else pair[0]
    return splice(st.sk, [(t.start, t.end, new)]), f"{t.text} -> {new}"


def negate_conclusion(st: Statement, rng: random.Random) -> tuple[str, str]:
    """The conclusion `P` becomes `¬(P)` (or `¬P` becomes `P`): `P ↔ ¬P` is refutable, so the
    statements differ unless the hypotheses are contradictory (then both are vacuous; the
    suite's statements are benchmark problems with satisfiable hypotheses)."""
    c = st.sk.conclusion
    if st.tok(c.start) == "¬" and len(c) > 1 and _whole_operand(st, c):
        return _replace(st, c, st.text(Span(c.start + 1, c.end)).strip()), "¬P -> P"
    return _replace(st, c, f"¬({st.text(c)})"), "P -> ¬(P)"


def _whole_operand(st: Statement, c: Span) -> bool:
    from transted.sensitivity.lean.spans import root_split

    return root_split(st.sk, c, st.table) is None


_TYPE_SWAP = {"ℝ": "ℚ", "ℚ": "ℝ", "ℤ": "ℕ", "ℕ": "ℤ"}


def change_type(st: Statement, rng: random.Random) -> tuple[str, str]:
    """The declared type of a variable binder changes (ℝ → ℚ, ℚ → ℝ, ℤ → ℕ, ℕ → ℤ): the
    statement quantifies over other values (and its arithmetic is another structure's).
    Guards: the variable is used, and no hypothesis pins it to a closed term (`x = 3`),
    which would make the domain immaterial. The result may not elaborate (no Lean here)."""
    pinned = {st.tok(a.start) for s in st.relation_sites if s.part != -1 and st.tok(s.op) == "="
              for a, b in ((s.lhs, s.rhs), (s.rhs, s.lhs))
              if len(a) == 1 and not (st.idents(b) & set(st.variables))}
    groups = sorted({i for v, (i, ty) in st.variables.items() if ty in _TYPE_SWAP
                     and v not in pinned})
    i = _pick(rng, groups, "no ℝ ℚ ℤ ℕ binder free of a pinning hypothesis")
    g = st.group(i)
    assert g.type is not None
    old = st.text(g.type)
    return _replace(st, g.type, _TYPE_SWAP[old]), f"{', '.join(g.names)} : {old} -> " \
        f"{_TYPE_SWAP[old]}"


def swap_operands(st: Statement, rng: random.Random) -> tuple[str, str]:
    """The operands of one `-`, `/` or `^` are swapped: these operations are not commutative,
    `a - b = b - a` only when `a = b` (or both truncate to 0 on ℕ), likewise for `/` and `^`.
    Guards: the operands differ as text, and two literals are not swapped when the results
    are equal (`2 ^ 4 = 4 ^ 2`)."""
    sites = []
    for a in st.all_arith_sites:
        op = st.tok(a.op)
        lt, rt = st.text(a.lhs), st.text(a.rhs)
        if op not in ("-", "/", "^") or lt == rt:
            continue
        a_val, b_val = _literal(lt), _literal(rt)
        if a_val is not None and b_val is not None and _value(op, a_val, b_val) == _value(
                op, b_val, a_val):
            continue
        sites.append(a)
    a = _pick(rng, sites, "no -, /, ^ with distinct operands")
    op = st.tok(a.op)
    new = f"{st.operand(a.rhs)} {op} {st.operand(a.lhs)}"
    return _replace(st, Span(a.lhs.start, a.rhs.end), new), f"{op} operands swapped"


_LITERAL = re.compile(r"^\(?\s*(\d+)\s*(?::\s*[ℕℤℚℝℂ]\s*)?\)?$")


def _literal(text: str) -> int | None:
    """The value of a literal, bare or type-ascribed (`(2 : ℕ)`), else None."""
    m = _LITERAL.match(text)
    return int(m.group(1)) if m else None


def _value(op: str, a: int, b: int) -> object:
    if op == "-":
        return a - b
    if op == "/":
        return (a, b) if b else None
    return a ** b if b < 64 else (a, b)
