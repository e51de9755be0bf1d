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

from transted.opt.labels import EXISTS, FORALL, NOT, infix
from transted.opt.spans import CharSpan
from transted.sensitivity.lean.rewrites import _fresh, _pick
from transted.sensitivity.lean.sites import (
    NUMERIC_TYPES,
    ArithSite,
    RelationSite,
    SpannedStatement,
    infix_symbol,
    written_body,
)

__all__ = ["numeral", "strictness", "reverse_relation", "drop_hypothesis", "add_hypothesis",
           "forall_exists", "and_or", "imp_iff", "negate_conclusion", "change_type",
           "swap_operands"]

# neighbours that make a numeral's value immaterial: 0 * n, n * 0, 1 ^ n, 0 ^ n, n % 1 ...
_ABSORBING = {("0", "*"), ("1", "^"), ("0", "^"), ("0", "/")}
_ABSORBED_AFTER = {("*", "0"), ("%", "1"), ("^", "0")}


def numeral(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
    """A natural-number literal `n` becomes `n + 1` (written as the next literal). The value
    of the term containing it changes; guard: literals next to an absorbing neighbour
    (`0 * n`, `n * 0`, `0 ^ n`, `1 ^ n`, `n ^ 0`, `n % 1`, `0 / n`) are not chosen."""
    toks = st.tokens
    sites = []
    for k in st.token_range(CharSpan(st.start, st.end)):
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
    return st.replace(CharSpan(t.start, t.end), new), f"{t.text} -> {new}"


_STRICT = {"<": "≤", "≤": "<", ">": "≥", "≥": ">"}


def _distinct_known(st: SpannedStatement, lhs: str, rhs: str) -> bool:
    """A hypothesis states `lhs ≠ rhs` (either order), or the sides are the same text."""
    for s in st.relation_sites:
        if s.part != -1 and s.symbol == "≠" and {st.text(s.lhs), st.text(s.rhs)} == {lhs, rhs}:
            return True
    return False


_REFLEXIVE = ("=", "≤", "≥", "∣", "⊆", "≡")


def _trivial_when_equal(st: SpannedStatement, s: RelationSite) -> bool:
    """Is ``s`` the premise of an implication whose conclusion holds by reflexivity where
    the sides of ``s`` are equal (`i < j → a i ∣ a j` at `i = j` reads `a i ∣ a i`)?"""
    implication = next((x for x in st.logic_sites if x.symbol == "→"
                        and x.node.children[0] is s.node), None)
    if implication is None:
        return False
    lhs, rhs = st.text(s.lhs), st.text(s.rhs)
    stack = [implication.node.children[1]]
    while stack:
        item = stack.pop()
        symbol = infix_symbol(item)
        if symbol == "∨":
            stack += item.children
        elif symbol == "→":
            stack.append(item.children[1])
        elif symbol in _REFLEXIVE:
            a, b = ([lhs if t.text == rhs else t.text for t in st.tokens_in(st.outer(c))]
                    for c in item.children[:2])
            if a == b:
                return True
    return False


def strictness(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
    """`<` ↔ `≤` (and `>` ↔ `≥`), operands kept: the two differ exactly on the instances
    where the sides are equal (`lt_iff_le_and_ne`). Guards: not when a hypothesis states the
    sides distinct (`a ≠ b`), which would make the instances coincide, nor when the relation
    is the premise of an implication whose conclusion (or one of its disjuncts) is a
    reflexive relation (`= ≤ ≥ ∣ ⊆ ≡`) between sides that the equal instance makes equal
    (`∀ K, M ≤ K → K = M ∨ P`: at `K = M` both statements hold, `M < K` changes nothing)."""
    sites = [s for s in st.relation_sites if s.symbol in _STRICT
             and not _distinct_known(st, st.text(s.lhs), st.text(s.rhs))
             and not _trivial_when_equal(st, s)]
    s = _pick(rng, sites, "no order relation whose sides are not stated distinct")
    new = _STRICT[s.symbol]
    return st.replace(s.op, new), f"{s.symbol} -> {new}"


_REVERSE = {"<": ">", ">": "<", "≤": "≥", "≥": "≤"}


def reverse_relation(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
    """`a < b` → `a > b` (and `≤` → `≥` ...), operands kept: the relation now holds in the
    other direction; the two agree only where both sides are equal (`≤`) or never (`<`), so
    they differ unless the sides are always equal. Guard: the sides differ as text."""
    sites = [s for s in st.relation_sites if s.symbol in _REVERSE
             and st.text(s.lhs) != st.text(s.rhs)]
    s = _pick(rng, sites, "no order relation with distinct sides")
    new = _REVERSE[s.symbol]
    return st.replace(s.op, new), f"{s.symbol} -> {new}"


def _hyp_vars(st: SpannedStatement, i: int) -> set[str]:
    g = st.group(i)
    assert g.type is not None
    return st.idents(st.outer(g.type)) & set(st.variables)


def drop_hypothesis(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
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
        text = st.text(st.outer(g.type))
        others = [j for j in st.hypotheses if j != i]
        conjuncts = {st.text(x) for s in st.logic_sites if s.part in others
                     and s.symbol == "∧" for x in (s.lhs, s.rhs)}
        if any(st.text(st.outer(t)) == text for j in others if (t := st.group(j).type)) \
                or text in conjuncts:
            reasons.append("implied by another hypothesis")
            continue
        mine = _hyp_vars(st, i)
        if not mine:
            reasons.append("closed hypothesis")
            continue
        elsewhere = st.idents(st.outer(st.conclusion)).union(*[_hyp_vars(st, j) for j in others])
        if not mine & elsewhere:
            reasons.append("its variables occur nowhere else")
            continue
        sites.append(i)
    none = "no hypothesis" if not reasons else f"every hypothesis refused ({reasons[0]})"
    i = _pick(rng, sites, none)
    g = st.group(i)
    a, b = g.span.start, g.span.end
    # remove the binder and the blank before it
    while a > 0 and st.source[a - 1] in " \t":
        a -= 1
    return st.replace(CharSpan(a, b), ""), f"dropped {g.names[0]}"


def add_hypothesis(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
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
            if len(st.tokens_in(a)) == 1 and not (st.idents(b) & set(st.variables)):
                pinned.add(st.text(a))
    concl = st.idents(st.outer(st.conclusion))
    sites = [v for v, (_, ty) in sorted(st.variables.items())
             if ty in NUMERIC_TYPES[:4] and v in concl and v not in pinned]
    v = _pick(rng, sites, "no ℕ ℤ ℚ ℝ variable of the conclusion free of a direct bound")
    numerals = {t.text for t in st.tokens if t.kind == "num"}
    k = next(str(n) for n in range(2, 10**6) if str(n) not in numerals)
    name = _fresh(st, "h_new")
    at = st.group(st.variables[v][0]).span.end
    return st.replace(CharSpan(at, at), f" ({name} : {v} ≠ {k})"), f"added {v} ≠ {k}"


def forall_exists(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
    """One `∀` becomes `∃` or one `∃` becomes `∀` (binder and body kept): a universal and an
    existential claim differ unless the body does not depend on the bound variable (then
    they agree on an inhabited type). Guard: a bound name of the binder occurs in its body."""
    sites = []
    for item in st.conclusion.walk():
        if item.node.label not in (FORALL, EXISTS) or item.span is None:
            continue
        names, body = written_body(item)
        if body.outer is not None and set(names) & st.idents(body.outer):
            sites.append(item.span.start)
    at = _pick(rng, sorted(sites), "no ∀/∃ whose body uses its variable")
    t = st.tokens_in(CharSpan(at, at + 1))[0]
    new = "∃" if t.text == "∀" else "∀"
    return st.replace(CharSpan(t.start, t.end), new), f"{t.text} -> {new}"


def and_or(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
    """One `∧` becomes `∨` or one `∨` becomes `∧`: they agree only when both operands are
    equivalent. Guard: the operands differ as text. The operands are kept: where the other
    connective's precedence would regroup the neighbours (`A ∧ B ∧ C` → `A ∧ (B ∨ C)`), the
    edit is parenthesised, and the parser checks that only that connective changed."""
    return _swap_connective(st, rng, ("∧", "∨"), "no ∧/∨ with distinct operands")


def imp_iff(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
    """One logical `→` becomes `↔` (adds the converse) or one `↔` becomes `→` (drops it):
    they agree only when the converse holds. Guard: the operands differ as text, and only
    `→` between propositions (found through the statement's connectives, never in a binder
    type such as `ℕ → ℝ`). The operands are kept as for `and_or` (`p → q → r` →
    `p → (q ↔ r)`)."""
    return _swap_connective(st, rng, ("→", "↔"), "no →/↔ between distinct propositions")


def _swap_connective(st: SpannedStatement, rng: random.Random, pair: tuple[str, str],
                     none_found: str) -> tuple[str, str]:
    """One connective of ``pair`` between operands that differ as text becomes the other,
    the operands kept: where the two connectives' precedences differ, the edit is
    parenthesised as the parser needs (:meth:`SpannedStatement.reads_as` checks it)."""
    edits = []
    for s in st.logic_sites:
        if s.symbol in pair and st.text(s.lhs) != st.text(s.rhs):
            new = pair[1] if s.symbol == pair[0] else pair[0]
            text = _connective_edit(st, s, new)
            if text is not None:
                edits.append((text, f"{s.symbol} -> {new}"))
    return _pick(rng, edits, none_found)


def _connective_edit(st: SpannedStatement, s: RelationSite, new: str) -> str | None:
    """The statement with the connective of ``s`` made ``new``: in place if that reads as
    the same tree with one label changed, else with the edited node or its operands (or
    both) in parentheses; None if no spelling does."""
    assert s.node.span is not None
    lhs, rhs = s.node.children
    bare = f"{st.text(s.lhs)} {new} {st.text(s.rhs)}"
    wrapped = f"{st.operand(lhs)} {new} {st.operand(rhs)}"
    for text in (st.replace(s.op, new), st.replace(s.node.span, f"({bare})"),
                 st.replace(s.node.span, wrapped), st.replace(s.node.span, f"({wrapped})")):
        if st.reads_as(text, s.node, infix(new)):
            return text
    return None


def negate_conclusion(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
    """The conclusion `P` becomes `¬(P)` (or `¬P` becomes `P`): `P ↔ ¬P` is refutable, so the
    statements differ unless the hypotheses are contradictory (then both are vacuous; the
    suite's statements are benchmark problems with satisfiable hypotheses)."""
    c = st.conclusion
    whole = st.outer(c)
    if c.node.label == NOT and c.span == whole:
        return st.replace(whole, st.text(st.outer(c.children[0]))), "¬P -> P"
    return st.replace(whole, f"¬({st.text(whole)})"), "P -> ¬(P)"


_TYPE_SWAP = {"ℝ": "ℚ", "ℚ": "ℝ", "ℤ": "ℕ", "ℕ": "ℤ"}


def change_type(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
    """The declared type of a variable binder changes (ℝ → ℚ, ℚ → ℝ, ℤ → ℕ, ℕ → ℤ): the
    statement quantifies over other values (and its arithmetic is another structure's).
    Guards: the variable is used, and no hypothesis pins it to a closed term (`x = 3`),
    which would make the domain immaterial. The result may not elaborate (no Lean here)."""
    pinned = {st.text(a) for s in st.relation_sites if s.part != -1 and s.symbol == "="
              for a, b in ((s.lhs, s.rhs), (s.rhs, s.lhs))
              if len(st.tokens_in(a)) == 1 and not (st.idents(b) & set(st.variables))}
    groups = sorted({i for v, (i, ty) in st.variables.items() if ty in _TYPE_SWAP
                     and v not in pinned})
    i = _pick(rng, groups, "no ℝ ℚ ℤ ℕ binder free of a pinning hypothesis")
    g = st.group(i)
    assert g.type is not None
    old = st.text(st.outer(g.type))
    return st.replace(st.outer(g.type), _TYPE_SWAP[old]), f"{', '.join(g.names)} : {old} -> " \
        f"{_TYPE_SWAP[old]}"


def swap_operands(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
    """The operands of one `-`, `/` or `^` are swapped: these operations are not commutative,
    `a - b = b - a` only when `a = b` (or both truncate to 0 on ℕ), likewise for `/` and `^`.
    Guards: the operands differ as text, two literals are not swapped when the results are
    equal (`2 ^ 4 = 4 ^ 2`), and a difference not known to be on ℕ is not swapped where only
    its sign changes and the sign is not observed (`b - a = -(a - b)`, Mathlib `neg_sub`): as
    the base of an even literal power (`Even.neg_pow`), as a side of `= 0`, `≠ 0` or
    `≡ 0 [MOD n]` (`neg_eq_zero`), as a side of `∣` (`dvd_neg`, `neg_dvd`). On ℕ, `-`
    truncates (`b - a` is 0 where `a - b` is not), so there the swap changes these too."""
    sites = []
    for a in st.arith_sites:
        op = a.symbol
        lt, rt = st.text(st.outer(a.lhs)), st.text(st.outer(a.rhs))
        if op not in ("-", "/", "^") or lt == rt or op == "-" and _sign_unobserved(st, a):
            continue
        a_val, b_val = _literal(lt), _literal(rt)
        if a_val is not None and b_val is not None and _value(op, a_val, b_val) == _value(
                op, b_val, a_val):
            continue
        sites.append(a)
    a = _pick(rng, sites, "no -, /, ^ with distinct operands")
    op = st.text(a.op)
    new = f"{st.operand(a.rhs)} {op} {st.operand(a.lhs)}"
    return st.replace(a.span, new), f"{op} operands swapped"


def _sign_unobserved(st: SpannedStatement, a: ArithSite) -> bool:
    """Is the difference ``a`` where negating it cannot change the statement (on a ring)?"""
    if st.numeric_type(a.span) == "ℕ":
        return False
    parent = a.parent
    symbol = infix_symbol(parent)
    if symbol == "^" and parent.children[0] is a.node:
        exponent = _literal(st.text(st.outer(parent.children[1])))
        return exponent is not None and exponent % 2 == 0
    if symbol in ("=", "≠", "≡"):
        other = parent.children[1] if parent.children[0] is a.node else parent.children[0]
        return _literal(st.text(st.outer(other))) == 0
    return symbol == "∣"


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
