"""The generators of the Lean sensitivity suite, one function each.

Each takes a :class:`~transted.sensitivity.lean.sites.Statement` and a seeded RNG and returns
``(candidate text, detail)``, or raises :class:`Skip` with the reason it cannot apply. The
docstring of each function is its justification (it is what
:mod:`transted.sensitivity.lean.perturb` records and documents).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from transted.sensitivity.lean.sites import Statement, splice
from transted.sensitivity.lean.spans import BINDER_TOKENS, Span

T = TypeVar("T")


class Skip(Exception):  # noqa: N818 - a control-flow signal, not an error
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _pick(rng: random.Random, sites: Sequence[T], none: str) -> T:
    if not sites:
        raise Skip(none)
    return sites[rng.randrange(len(sites))]


def _fresh(st: Statement, stem: str) -> str:
    names = {t.text for t in st.sk.tokens if t.kind == "ident"}
    for suffix in ("", "'", "₁", "₂", "₃", "₄", "''"):
        if stem + suffix not in names:
            return stem + suffix
    raise Skip("no fresh name")


def _replace(st: Statement, span: Span, new: str) -> str:
    a, b = st.chars(span)
    return splice(st.sk, [(a, b, new)])


# -- faithful rewrites ----------------------------------------------------------------------
def rename_bound(st: Statement, rng: random.Random) -> tuple[str, str]:
    """Alpha-equivalence: a theorem binder used in the statement is renamed to a fresh name
    everywhere after its binder (field uses ``x.f`` included); binder names are not part of
    a proposition's meaning."""
    names = sorted(st.variables)
    name = _pick(rng, names, "no binder variable is used in the statement")
    group = st.group(st.variables[name][0])
    new = _fresh(st, {"x": "u", "y": "v", "z": "w", "n": "m", "a": "b"}.get(name, "t"))
    edits = []
    for t in st.sk.tokens[group.span.start:st.sk.conclusion.end]:
        if t.kind == "ident" and (t.text == name or t.text.startswith(name + ".")):
            edits.append((t.start, t.start + len(name), new))
    return splice(st.sk, edits), f"{name} -> {new}"


def reorder_hypotheses(st: Statement, rng: random.Random) -> tuple[str, str]:
    """`imp.swap` / `forall_swap` (Mathlib): `(a → b → c) ↔ (b → a → c)`; two adjacent
    hypothesis binders whose types differ are swapped (hypothesis names are never used in
    the statement, so neither depends on the other)."""
    hyps = st.hypotheses
    sites = [(i, j) for i, j in zip(hyps, hyps[1:], strict=False) if j == i + 1
             and st.text(st.group(i).span) != st.text(st.group(j).span)]
    i, j = _pick(rng, sites, "fewer than two adjacent distinct hypotheses")
    a, b = st.chars(st.group(i).span), st.chars(st.group(j).span)
    ta, tb = st.sk.text[a[0]:a[1]], st.sk.text[b[0]:b[1]]
    return splice(st.sk, [(a[0], a[1], tb), (b[0], b[1], ta)]), f"swap {st.group(i).names[0]}, " \
        f"{st.group(j).names[0]}"


_FLIP = {"<": ">", ">": "<", "≤": "≥", "≥": "≤"}


def flip_relation(st: Statement, rng: random.Random) -> tuple[str, str]:
    """`GT.gt a b := LT.lt b a` and `GE.ge a b := LE.le b a` (Lean core, Init/Prelude;
    Mathlib `gt_iff_lt`, `ge_iff_le` are `Iff.rfl`): `a > b` becomes `b < a` (and back),
    `a ≥ b` becomes `b ≤ a`."""
    sites = [s for s in st.relation_sites if st.tok(s.op) in _FLIP]
    s = _pick(rng, sites, "no <, >, ≤, ≥ relation")
    op = st.tok(s.op)
    new = f"{st.text(s.rhs)} {_FLIP[op]} {st.text(s.lhs)}"
    return _replace(st, Span(s.lhs.start, s.rhs.end), new), f"{op} -> {_FLIP[op]}, sides swapped"


def ne_not_eq(st: Statement, rng: random.Random) -> tuple[str, str]:
    """`Ne a b` is defined as `a = b → False`, i.e. `¬(a = b)` (Lean core `Ne`; Mathlib
    simp lemma `ne_eq`): `a ≠ b` becomes `¬(a = b)`, and `¬ a = b` becomes `a ≠ b`."""
    sites = [s for s in st.relation_sites if st.tok(s.op) == "≠"
             or st.tok(s.op) == "=" and s.negation is not None]
    s = _pick(rng, sites, "no ≠ and no ¬(a = b)")
    if st.tok(s.op) == "≠":
        new = f"¬({st.text(s.lhs)} = {st.text(s.rhs)})"
        return _replace(st, Span(s.lhs.start, s.rhs.end), new), "≠ -> ¬ ="
    assert s.outer is not None
    return _replace(st, s.outer, f"{st.text(s.lhs)} ≠ {st.text(s.rhs)}"), "¬ = -> ≠"


_LOOSE = ("∧", "∨", "→", "↔", ",", "↦", "=>") + BINDER_TOKENS


def _conjunct(st: Statement, span: Span) -> str:
    text = st.text(span)
    return f"({text})" if any(t in _LOOSE for t in st.top_tokens(span)) else text


def curry_conjoin(st: Statement, rng: random.Random) -> tuple[str, str]:
    """`and_imp` (Mathlib): `(a ∧ b → c) ↔ (a → b → c)`: two adjacent hypotheses
    `(h₀ : A) (h₁ : B)` become `(h₀ : A ∧ B)`, or a hypothesis `(h : A ∧ B)` becomes
    `(h : A) (h' : B)` (hypothesis names are unused, so renaming them is alpha-equivalence)."""
    hyps = st.hypotheses
    merge = [("merge", i) for i, j in zip(hyps, hyps[1:], strict=False) if j == i + 1
             and len(st.group(i).names) == 1 and len(st.group(j).names) == 1]
    split = []
    for i in hyps:
        g = st.group(i)
        if len(g.names) == 1 and g.type is not None:
            s = next((x for x in st.logic_sites if x.part == i and st.tok(x.op) == "∧"
                      and x.lhs.start == g.type.start and x.rhs.end == g.type.end), None)
            if s is not None:
                split.append(("split", i))
    kind, i = _pick(rng, merge + split, "no adjacent hypotheses and no conjunction hypothesis")
    g = st.group(i)
    assert g.type is not None
    if kind == "merge":
        h = st.group(i + 1)
        assert h.type is not None
        new = f"({g.names[0]} : {_conjunct(st, g.type)} ∧ {_conjunct(st, h.type)})"
        a, b = st.chars(g.span)[0], st.chars(h.span)[1]
        return splice(st.sk, [(a, b, new)]), f"merge {g.names[0]}, {h.names[0]}"
    s = next(x for x in st.logic_sites if x.part == i and st.tok(x.op) == "∧"
             and x.lhs.start == g.type.start and x.rhs.end == g.type.end)
    name = g.names[0]
    new = f"({name} : {st.text(s.lhs)}) ({_fresh(st, name + '_2')} : {st.text(s.rhs)})"
    return _replace(st, g.span, new), f"split {name}"


def _atomic(st: Statement, k: int) -> Span | None:
    """The argument starting at token ``k`` if it is one token or one parenthesised group."""
    t = st.sk.tokens[k]
    if t.kind in ("ident", "num"):
        return Span(k, k + 1)
    if t.text == "(":
        end = next(j for j in range(k + 1, len(st.sk.tokens))
                   if st.sk.depth[j] == st.sk.depth[k] and st.tok(j) == ")")
        return Span(k, end + 1)
    return None


def notation(st: Statement, rng: random.Random) -> tuple[str, str]:
    """Notation variants that elaborate to the same term: `Real.pi` ↔ `π` (Mathlib
    `Real.pi` notation `π`, scoped in `Real`, so only under `open Real`); `Real.sqrt a` ↔
    `√a` (Mathlib prefix notation `√` for `Real.sqrt`); `abs a` ↔ `|a|` (Mathlib's `|a|`
    macro for `abs a`); `∑ x in s, f` ↔ `∑ x ∈ s, f` (and `∏`; Mathlib big-operator syntax
    for `Finset.sum`/`Finset.prod`, `in` being the older spelling)."""
    toks = st.sk.tokens
    real_open = "Real" in st.opens
    sites: list[tuple[int, int, str, str]] = []
    lo, hi = st.sk.groups[0].span.start if st.sk.groups else st.sk.colon, st.sk.conclusion.end
    for k in range(lo, hi):
        t = toks[k]
        if t.text == "Real.pi" and real_open:
            sites.append((t.start, t.end, "π", "Real.pi -> π"))
        elif t.text == "π" and real_open:
            sites.append((t.start, t.end, "Real.pi", "π -> Real.pi"))
        elif t.text in ("Real.sqrt", "abs") and k + 1 < hi and (
                k == lo or toks[k - 1].kind not in ("ident", "num")):
            arg = _atomic(st, k + 1)
            if arg is None or arg.end > hi:
                continue
            inner = st.text(Span(arg.start + 1, arg.end - 1)) if len(arg) > 1 else st.text(arg)
            if t.text == "Real.sqrt":
                sites.append((t.start, st.chars(arg)[1], f"√{st.text(arg)}", "Real.sqrt -> √"))
            elif inner == inner.strip():
                sites.append((t.start, st.chars(arg)[1], f"|{inner}|", "abs -> |·|"))
        elif t.text == "√":
            arg = _atomic(st, k + 1)
            if arg is not None and arg.end <= hi:
                sep = " " if len(arg) == 1 else " "
                sites.append((t.start, st.chars(arg)[1], f"Real.sqrt{sep}{st.text(arg)}",
                              "√ -> Real.sqrt"))
        elif t.text == "|" and k + 1 < hi:
            close = next((j for j in range(k + 1, hi) if st.tok(j) == "|"
                          and st.sk.depth[j] == st.sk.depth[k]), None)
            if close is not None and close > k + 1 and not toks[k + 1].space_before:
                sites.append((t.start, toks[close].end,
                              f"abs ({st.text(Span(k + 1, close))})", "|·| -> abs"))
        elif t.text in ("in", "∈") and _binder_in(st, k):
            new = "∈" if t.text == "in" else "in"
            sites.append((t.start, t.end, new, f"∑ x {t.text} s -> ∑ x {new} s"))
    a, b, new, detail = _pick(rng, sites, "no notation with a variant")
    return splice(st.sk, [(a, b, new)]), detail


def _binder_in(st: Statement, k: int) -> bool:
    """Is token ``k`` the `in`/`∈` of a `∑ x in s,` / `∏ x ∈ s,` binder header?"""
    d = st.sk.depth[k]
    j = k - 1
    while j >= 0 and st.sk.tokens[j].kind == "ident" and st.sk.depth[j] == d:
        j -= 1
    return j >= 0 and j < k - 1 and st.tok(j) in ("∑", "∏") and st.sk.depth[j] == d


_NS_OF_TYPE = {"ℕ": "Nat", "ℤ": "Int", "ℝ": "Real", "ℚ": "Rat", "ℂ": "Complex"}
# Short names declared in more than one namespace a header may open (Mathlib / core): an
# unqualified use would be ambiguous, so `Real.log` → `log` is refused under `open Nat`.
_DECLARES = {
    "Real": {"pi", "sqrt", "exp", "log", "cos", "sin", "tan", "arctan", "cosh", "sinh", "logb",
             "rpow", "arcsin", "arccos"},
    "Nat": {"sqrt", "log", "Prime", "gcd", "lcm", "factorial", "choose", "digits",
            "divisors", "totient", "succ", "pred", "cast", "floor", "ceil", "ModEq",
            "Coprime", "dist", "find", "sub", "add", "mul", "pow", "div", "mod", "min", "max"},
    "Int": {"sqrt", "log", "gcd", "lcm", "natAbs", "toNat", "floor", "ceil", "fract",
            "ModEq", "emod", "ediv", "cast", "sub", "add", "mul", "pow", "div", "mod",
            "min", "max", "sign"},
    "Complex": {"exp", "log", "cos", "sin", "tan", "cosh", "sinh", "abs", "re", "im", "I",
                "cpow", "arg", "conj", "ofReal"},
    "Rat": {"num", "den", "floor", "ceil", "cast", "sqrt", "add", "mul", "sub", "div"},
    "_root_": {"Prime", "gcd", "lcm", "abs", "max", "min", "floor", "ceil", "id", "dist",
               },
}


def namespace(st: Statement, rng: random.Random) -> tuple[str, str]:
    """Name resolution variants (Lean 4): generalized field notation, `Ns.f v args` ↔
    `v.f args` when `v` is declared with the type `Ns` names (ℕ `Nat`, ℤ `Int`, ℝ `Real`,
    ℚ `Rat`, ℂ `Complex`) and is `f`'s first explicit argument; and `Ns.f` → `f` under
    `open Ns` when no other opened namespace (nor the root) declares `f` (a small table of
    Mathlib/core short names guards against an ambiguous overload)."""
    toks = st.sk.tokens
    sites: list[tuple[int, int, str, str]] = []
    lo, hi = st.sk.colon, st.sk.conclusion.end
    if st.sk.groups:
        lo = st.sk.groups[0].span.start
    for k in range(lo, hi):
        t = toks[k]
        if t.kind != "ident" or "." not in t.text:
            continue
        head, _, field = t.text.rpartition(".")
        head_position = k == lo or toks[k - 1].kind not in ("ident", "num") and \
            toks[k - 1].text not in (")", "]", "}", "⟩")
        var = st.variables.get(head)
        if var is not None and "." not in head and field[:1].isalpha():
            ns = _NS_OF_TYPE.get(var[1])
            if ns:  # v.f → (Ns.f v)
                sites.append((t.start, t.end, f"({ns}.{field} {head})", f"{t.text} -> {ns}.{field}"))
            continue
        if head in _NS_OF_TYPE.values() and head_position and k + 1 < hi:
            nxt = toks[k + 1]
            v = st.variables.get(nxt.text)
            if nxt.kind == "ident" and v is not None and _NS_OF_TYPE.get(v[1]) == head \
                    and field[:1].isalpha():
                sites.append((t.start, nxt.end, f"{nxt.text}.{field}",
                              f"{t.text} {nxt.text} -> {nxt.text}.{field}"))
            if head in st.opens and field in _DECLARES.get(head, set()) and not any(
                    field in _DECLARES.get(other, set()) for other in
                    [*(o for o in st.opens if o != head), "_root_"]):
                sites.append((t.start, t.end, field, f"{t.text} -> {field} (open {head})"))
    a, b, new, detail = _pick(rng, sites, "no qualified name or field use with a variant")
    return splice(st.sk, [(a, b, new)]), detail


def commute(st: Statement, rng: random.Random) -> tuple[str, str]:
    """`add_comm` / `mul_comm` (Mathlib, any commutative additive / multiplicative magma):
    the operands of one `+` or `*` are swapped, only where every variable of the expression
    is declared with one type among ℕ ℤ ℚ ℝ ℂ (all commutative) and the rest is numerals and
    arithmetic."""
    sites = [a for a in st.all_arith_sites if st.tok(a.op) in ("+", "*")
             and st.numeric_type(Span(a.lhs.start, a.rhs.end)) is not None
             and st.text(a.lhs) != st.text(a.rhs)]
    a = _pick(rng, sites, "no + or * over variables of one type in ℕ ℤ ℚ ℝ ℂ")
    op = st.tok(a.op)
    new = f"{st.operand(a.rhs)} {op} {st.operand(a.lhs)}"
    return _replace(st, Span(a.lhs.start, a.rhs.end), new), f"{op} operands swapped"


def eq_symm(st: Statement, rng: random.Random) -> tuple[str, str]:
    """`eq_comm` (Mathlib; `Eq.symm` both ways): `a = b` becomes `b = a`, on an equation
    whose sides differ."""
    sites = [s for s in st.relation_sites if st.tok(s.op) == "="
             and st.text(s.lhs) != st.text(s.rhs)]
    s = _pick(rng, sites, "no equation with distinct sides")
    return _replace(st, Span(s.lhs.start, s.rhs.end),
                    f"{st.text(s.rhs)} = {st.text(s.lhs)}"), "= sides swapped"


__all__ = ["Skip", "rename_bound", "reorder_hypotheses", "flip_relation", "ne_not_eq",
           "curry_conjoin", "notation", "namespace", "commute", "eq_symm"]
