"""Terms back to Lean 4 source, fully parenthesised and with explicit casts, for scripts."""

from __future__ import annotations

from transted.evidence.model import format_exact
from transted.evidence.terms import Big, Num, Quant, Term, Var

__all__ = ["term_to_lean"]

_INFIX = {"add": "+", "sub": "-", "mul": "*", "div": "/", "mod": "%", "pow": "^", "eq": "=",
          "ne": "≠", "lt": "<", "le": "≤", "dvd": "∣", "and": "∧", "or": "∨", "imp": "→",
          "iff": "↔"}
_FUN = {"sqrt": "Real.sqrt", "abs": "abs", "min": "min", "max": "max", "floor": "Int.floor",
        "ceil": "Int.ceil", "fact": "Nat.factorial", "gcd": "Nat.gcd", "lcm": "Nat.lcm",
        "prime": "Nat.Prime", "even": "Even", "odd": "Odd"}


def term_to_lean(term: Term) -> str:
    if isinstance(term, Var):
        return term.name
    if isinstance(term, Num):
        text = format_exact(term.value)
        return f"({text} : {term.type})"
    if isinstance(term, Quant):
        q = "∀" if term.kind == "forall" else "∃"
        return f"({q} {term.var} : {term.vtype}, {term_to_lean(term.body)})"
    if isinstance(term, Big):
        op = "∑" if term.kind == "sum" else "∏"
        rng = "Finset.Ico" if term.open_hi else "Finset.Icc"
        return (f"({op} {term.var} ∈ {rng} {term_to_lean(term.lo)} {term_to_lean(term.hi)}, "
                f"{term_to_lean(term.body)})")
    args = [term_to_lean(a) for a in term.args]
    if term.op in ("true", "false"):
        return "True" if term.op == "true" else "False"
    if term.op in _INFIX:
        return f"({args[0]} {_INFIX[term.op]} {args[1]})"
    if term.op == "neg":
        return f"(-{args[0]})"
    if term.op == "not":
        return f"(¬{args[0]})"
    if term.op == "inv":
        return f"({args[0]})⁻¹"
    if term.op == "cast":
        return f"(↑{args[0]} : {term.type})"
    return f"({_FUN[term.op]} {' '.join(args)})"
