"""The generators of the Lean sensitivity suite, one function each.

Each takes a :class:`~transted.sensitivity.lean.sites.SpannedStatement` and a seeded RNG and returns
``(candidate text, detail)``, or raises :class:`Skip` with the reason it cannot apply. The
docstring of each function is its justification (it is what
:mod:`transted.sensitivity.lean.perturb` records and documents).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from transted.opt.labels import SLOT
from transted.opt.spans import CharSpan, SpannedNode
from transted.sensitivity.lean.sites import (
    LOGIC,
    SpannedStatement,
    infix_symbol,
    is_quantifier,
    top_level,
)

T = TypeVar("T")


class Skip(Exception):  # noqa: N818 - a control-flow signal, not an error
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _pick(rng: random.Random, sites: Sequence[T], none: str) -> T:
    if not sites:
        raise Skip(none)
    return sites[rng.randrange(len(sites))]


def _fresh(st: SpannedStatement, stem: str) -> str:
    names = {t.text for t in st.tokens if t.kind == "ident"}
    for suffix in ("", "'", "₁", "₂", "₃", "₄", "''"):
        if stem + suffix not in names:
            return stem + suffix
    raise Skip("no fresh name")


# -- faithful rewrites ----------------------------------------------------------------------
def rename_bound(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
    """Alpha-equivalence: a theorem binder used in the statement is renamed to a fresh name
    everywhere after its binder (field uses ``x.f`` included); binder names are not part of
    a proposition's meaning."""
    names = sorted(st.variables)
    name = _pick(rng, names, "no binder variable is used in the statement")
    group = st.group(st.variables[name][0])
    new = _fresh(st, {"x": "u", "y": "v", "z": "w", "n": "m", "a": "b"}.get(name, "t"))
    edits = []
    for t in st.tokens_in(CharSpan(group.span.start, st.end)):
        if t.kind == "ident" and (t.text == name or t.text.startswith(name + ".")):
            edits.append((t.start, t.start + len(name), new))
    return st.splice(edits), f"{name} -> {new}"


def reorder_hypotheses(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
    """`imp.swap` / `forall_swap` (Mathlib): `(a → b → c) ↔ (b → a → c)`; two adjacent
    hypothesis binders whose types differ are swapped (hypothesis names are never used in
    the statement, so neither depends on the other)."""
    hyps = st.hypotheses
    sites = [(i, j) for i, j in zip(hyps, hyps[1:], strict=False) if j == i + 1
             and st.text(st.group(i).span) != st.text(st.group(j).span)]
    i, j = _pick(rng, sites, "fewer than two adjacent distinct hypotheses")
    a, b = st.group(i).span, st.group(j).span
    return st.splice([(a.start, a.end, st.text(b)), (b.start, b.end, st.text(a))]), \
        f"swap {st.group(i).names[0]}, {st.group(j).names[0]}"


_FLIP = {"<": ">", ">": "<", "≤": "≥", "≥": "≤"}


def flip_relation(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
    """`GT.gt a b := LT.lt b a` and `GE.ge a b := LE.le b a` (Lean core, Init/Prelude;
    Mathlib `gt_iff_lt`, `ge_iff_le` are `Iff.rfl`): `a > b` becomes `b < a` (and back),
    `a ≥ b` becomes `b ≤ a`."""
    sites = [s for s in st.relation_sites if s.symbol in _FLIP]
    s = _pick(rng, sites, "no <, >, ≤, ≥ relation")
    op, new_op = s.symbol, _FLIP[s.symbol]
    new = f"{st.text(s.rhs)} {new_op} {st.text(s.lhs)}"
    return st.replace(CharSpan(s.lhs.start, s.rhs.end), new), f"{op} -> {new_op}, sides swapped"


def ne_not_eq(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
    """`Ne a b` is defined as `a = b → False`, i.e. `¬(a = b)` (Lean core `Ne`; Mathlib
    simp lemma `ne_eq`): `a ≠ b` becomes `¬(a = b)`, and `¬ a = b` becomes `a ≠ b`."""
    sites = [s for s in st.relation_sites if s.symbol == "≠"
             or s.symbol == "=" and s.negation is not None]
    s = _pick(rng, sites, "no ≠ and no ¬(a = b)")
    if s.symbol == "≠":
        new = f"¬({st.text(s.lhs)} = {st.text(s.rhs)})"
        return st.replace(CharSpan(s.lhs.start, s.rhs.end), new), "≠ -> ¬ ="
    assert s.negation is not None
    return st.replace(s.negation, f"{st.text(s.lhs)} ≠ {st.text(s.rhs)}"), "¬ = -> ≠"


def _conjunct(st: SpannedStatement, item: SpannedNode) -> str:
    """The text of a hypothesis type as an operand of `∧`: parenthesised when a connective
    or a binder notation is written at its top level (it would take the `∧` in)."""
    text = st.text(st.outer(item))
    loose = any(infix_symbol(n) in LOGIC or is_quantifier(n) for n in top_level(item))
    return f"({text})" if loose else text


def curry_conjoin(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
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
            s = next((x for x in st.logic_sites if x.part == i and x.symbol == "∧"
                      and x.node is g.type and g.type.span == g.type.outer), None)
            if s is not None:
                split.append(("split", i))
    kind, i = _pick(rng, merge + split, "no adjacent hypotheses and no conjunction hypothesis")
    g = st.group(i)
    assert g.type is not None
    if kind == "merge":
        h = st.group(i + 1)
        assert h.type is not None
        new = f"({g.names[0]} : {_conjunct(st, g.type)} ∧ {_conjunct(st, h.type)})"
        return st.replace(CharSpan(g.span.start, h.span.end), new), \
            f"merge {g.names[0]}, {h.names[0]}"
    s = next(x for x in st.logic_sites if x.part == i and x.node is g.type)
    name = g.names[0]
    new = f"({name} : {st.text(s.lhs)}) ({_fresh(st, name + '_2')} : {st.text(s.rhs)})"
    return st.replace(g.span, new), f"split {name}"


def _atomic(st: SpannedStatement, item: SpannedNode) -> bool:
    """Is the argument one identifier or numeral, or written in parentheses?"""
    outer = st.outer(item)
    tokens = st.tokens_in(outer)
    text = st.text(outer)
    return (len(tokens) == 1 and tokens[0].kind in ("ident", "num")) or (
        text.startswith("(") and text.endswith(")"))


def _head(st: SpannedStatement, item: SpannedNode) -> str | None:
    """The head of a one-argument application as written (``Real.sqrt`` of ``Real.sqrt x``)."""
    gaps = item.gaps(st.source) if len(item.children) == 1 else None
    if gaps is None or item.node.label != item.node.label.split(" ")[0] + f" {SLOT}":
        return None
    return st.text(gaps[0])


def _notation_site(st: SpannedStatement, item: SpannedNode) -> tuple[int, int, str, str] | None:
    """The variant of one node: ``Real.sqrt a`` / ``√a`` / ``abs a`` / ``|a|`` / the
    ``in`` or ``∈`` of a big operator's binder."""
    if item.span is None:
        return None
    span, label = item.span, item.node.label
    head = _head(st, item)
    if head in ("Real.sqrt", "abs") and _atomic(st, item.children[0]):
        arg = st.text(st.outer(item.children[0]))
        if head == "Real.sqrt":
            return span.start, span.end, f"√{arg}", "Real.sqrt -> √"
        inner = arg[1:-1].strip() if arg.startswith("(") else arg
        return span.start, span.end, f"|{inner}|", "abs -> |·|"
    if label == f"√{SLOT}" and _atomic(st, item.children[0]):
        return span.start, span.end, f"Real.sqrt {st.text(st.outer(item.children[0]))}", \
            "√ -> Real.sqrt"
    if label == f"|{SLOT}|":
        return span.start, span.end, f"abs ({st.text(st.outer(item.children[0]))})", \
            "|·| -> abs"
    if label.startswith(("∑ ", "∏ ")) and len(item.children) == 3:
        written = st.tokens_in(CharSpan(span.start, st.outer(item.children[1]).start))
        if len(written) > 2 and written[-1].text in ("in", "∈") and all(
                t.kind == "ident" for t in written[1:-1]):
            t = written[-1]
            new = "∈" if t.text == "in" else "in"
            return t.start, t.end, new, f"∑ x {t.text} s -> ∑ x {new} s"
    return None


def notation(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
    """Notation variants that elaborate to the same term: `Real.pi` ↔ `π` (Mathlib
    `Real.pi` notation `π`, scoped in `Real`, so only under `open Real`); `Real.sqrt a` ↔
    `√a` (Mathlib prefix notation `√` for `Real.sqrt`); `abs a` ↔ `|a|` (Mathlib's `|a|`
    macro for `abs a`); `∑ x in s, f` ↔ `∑ x ∈ s, f` (and `∏`; Mathlib big-operator syntax
    for `Finset.sum`/`Finset.prod`, `in` being the older spelling)."""
    sites: list[tuple[int, int, str, str]] = []
    if "Real" in st.opens:
        for t in st.tokens_in(CharSpan(st.start, st.end)):
            if t.text == "Real.pi":
                sites.append((t.start, t.end, "π", "Real.pi -> π"))
            elif t.text == "π":
                sites.append((t.start, t.end, "Real.pi", "π -> Real.pi"))
    for root in [b.type for b in st.binders if b.type is not None] + [st.conclusion]:
        sites += [site for item in root.walk() if (site := _notation_site(st, item))]
    a, b, new, detail = _pick(rng, sorted(sites), "no notation with a variant")
    return st.splice([(a, b, new)]), detail


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


def namespace(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
    """Name resolution variants (Lean 4): generalized field notation, `Ns.f v args` ↔
    `v.f args` when `v` is declared with the type `Ns` names (ℕ `Nat`, ℤ `Int`, ℝ `Real`,
    ℚ `Rat`, ℂ `Complex`) and is `f`'s first explicit argument; and `Ns.f` → `f` under
    `open Ns` when no other opened namespace (nor the root) declares `f` (a small table of
    Mathlib/core short names guards against an ambiguous overload)."""
    toks = st.tokens
    sites: list[tuple[int, int, str, str]] = []
    written = st.token_range(CharSpan(st.start, st.end))
    lo, hi = written.start, written.stop
    for k in written:
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
    return st.splice([(a, b, new)]), detail


def commute(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
    """`add_comm` / `mul_comm` (Mathlib, any commutative additive / multiplicative magma):
    the operands of one `+` or `*` are swapped, only where every variable of the expression
    is declared with one type among ℕ ℤ ℚ ℝ ℂ (all commutative) and the rest is numerals and
    arithmetic."""
    sites = [a for a in st.arith_sites if a.symbol in ("+", "*")
             and st.numeric_type(a.span) is not None
             and st.text(st.outer(a.lhs)) != st.text(st.outer(a.rhs))]
    a = _pick(rng, sites, "no + or * over variables of one type in ℕ ℤ ℚ ℝ ℂ")
    op = st.text(a.op)
    new = f"{st.operand(a.rhs)} {op} {st.operand(a.lhs)}"
    return st.replace(a.span, new), f"{op} operands swapped"


def eq_symm(st: SpannedStatement, rng: random.Random) -> tuple[str, str]:
    """`eq_comm` (Mathlib; `Eq.symm` both ways): `a = b` becomes `b = a`, on an equation
    whose sides differ."""
    sites = [s for s in st.relation_sites if s.symbol == "="
             and st.text(s.lhs) != st.text(s.rhs)]
    s = _pick(rng, sites, "no equation with distinct sides")
    return st.replace(CharSpan(s.lhs.start, s.rhs.end),
                      f"{st.text(s.rhs)} = {st.text(s.lhs)}"), "= sides swapped"


__all__ = ["Skip", "rename_bound", "reorder_hypotheses", "flip_relation", "ne_not_eq",
           "curry_conjoin", "notation", "namespace", "commute", "eq_symm"]
