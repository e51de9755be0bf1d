"""z3 encoding of terms with Lean's semantics, and bounded solver calls.

ℕ and ℤ are z3 ``Int`` (ℕ variables get ``x ≥ 0``), ℚ and ℝ are z3 ``Real``. Lean's total
operations are encoded explicitly: truncated ``Nat.sub`` as ``If(a ≥ b, a - b, 0)``; ``/`` and
``%`` on ℕ/ℤ as ``If(b = 0, 0, a div b)`` / ``If(b = 0, a, a mod b)`` (z3's integer div/mod are
SMT-LIB's Euclidean division, the same as ``Int.ediv``/``Int.emod`` and, on ℕ, ``Nat.div``/
``Nat.mod``, for ``b ≠ 0``); field ``/`` as ``If(b = 0, 0, a / b)``; ``Real.sqrt x`` as a fresh
``s`` with ``s ≥ 0 ∧ s² = x`` when ``x > 0``, else 0. A closed subterm is evaluated exactly
(:mod:`~transted.pipeline.evidence.evaluate`) and enters as a constant, so ``Nat.Prime 7`` or ``5!`` cost
nothing. A ℚ variable is a z3 Real: a model is accepted only if its values are rational, and a
validity proof only if no quantifier is nested inside (the universal theory of ordered fields
is the same over ℚ and ℝ for the linear fragment; we keep to quantifier-free bodies).
Every call has a resource limit (``rlimit``: deterministic, the same answer under any machine
load), a time limit (``timeout``, ms; a safety net, reported as ``timeout``) and a memory
limit (``max_memory``, MB).
"""

from __future__ import annotations

import _thread
import itertools
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from transted.pipeline.evidence.evaluate import evaluate_term
from transted.pipeline.evidence.terms import Big, Num, Op, Quant, Term, Unsupported, Var, free_vars

if TYPE_CHECKING:  # annotations only: the engines import these where they run
    import z3

__all__ = ["Encoder", "SolverResult", "check_sat", "known_unencodable", "prove"]


@lru_cache(maxsize=1)
def _context_class() -> type[z3.Context]:
    """A z3 context whose finaliser passes a Ctrl-C on. ``Context.__del__`` frees the C
    context; a KeyboardInterrupt landing there cannot propagate from a finaliser (Python
    prints "Exception ignored in Context.__del__" with a traceback and the interrupt is
    lost), so it is delivered to the main thread again after the finaliser has returned
    (from a timer thread: raised in the finaliser, it would be lost again). Made at first
    use: the class derives from z3's."""
    import z3  # heavy to import (~0.3 s): only when a term reaches the solver

    class _Context(z3.Context):
        def __del__(self) -> None:
            if "owner" not in vars(self):  # a Ctrl-C stopped z3's __init__ before it set
                return                     # its fields: z3's own __del__ would raise
            try:
                super().__del__()
            except KeyboardInterrupt:
                threading.Timer(0.05, _thread.interrupt_main).start()

    return _Context


_UNENCODABLE_MAX = 8192
_UNENCODABLE: dict[Term, str] = {}
"""Terms whose encoding failed in this process, with the reason. Whether a whole term encodes
is a function of the term alone (the encoder's state — its variables, flags and fresh names —
never decides an ``Unsupported``), so a term that failed fails again: it is refused before a
context is made (a context costs milliseconds, and the search asks the same unencodable
premises again at position after position)."""


def known_unencodable(term: Term) -> bool:
    """Whether ``term`` is known, in this process, to have no encoding."""
    return term in _UNENCODABLE


class Encoder:
    """Encodes terms into one z3 context, collecting side conditions of auxiliary variables.

    Each encoder has its own context, made at first use: in z3's shared ``main_ctx`` the
    terms of earlier calls stay, and the model a call returns (a refutation's witness) could
    depend on which pairs this process scored before. A context costs about 4 ms; only an
    encoder that reaches z3 pays it."""

    def __init__(self) -> None:
        self._ctx: z3.Context | None = None
        self._fresh = itertools.count()  # bound and auxiliary names, unique in this context
        self.side: list[z3.BoolRef] = []
        self.vars: dict[str, z3.ExprRef] = {}
        self.types: dict[str, str] = {}
        self.nested_quantifier = False
        self.nonlinear = False

    @property
    def ctx(self) -> z3.Context:
        if self._ctx is None:
            self._ctx = _context_class()()
        return self._ctx

    def var(self, name: str, typ: str) -> z3.ExprRef:
        import z3  # heavy to import (~0.3 s): only when a term reaches the solver
        key = f"{name}:{typ}"
        if key not in self.vars:
            v = z3.Int(key, self.ctx) if typ in ("ℕ", "ℤ") else z3.Real(key, self.ctx)
            self.vars[key] = v
            self.types[key] = typ
            if typ == "ℕ":
                self.side.append(v >= 0)
        return self.vars[key]

    def const(self, value: int | Fraction, typ: str) -> z3.ExprRef:
        import z3  # heavy to import (~0.3 s): only when a term reaches the solver
        if typ in ("ℕ", "ℤ"):
            return z3.IntVal(int(value), self.ctx)
        f = Fraction(value)
        return z3.RealVal(f"{f.numerator}/{f.denominator}", self.ctx)

    def encode(self, term: Term) -> z3.ExprRef:
        """``term`` in this encoder's context; Unsupported (with its reason) when it has no
        encoding — at once, before any context is made, for a term that failed before."""
        reason = _UNENCODABLE.get(term)
        if reason is not None:
            raise Unsupported(reason)
        try:
            return self._encode(term, {})
        except Unsupported as e:
            if len(_UNENCODABLE) >= _UNENCODABLE_MAX:
                _UNENCODABLE.clear()
            _UNENCODABLE[term] = str(e)
            raise

    def _encode(self, term: Term, bound: Mapping[str, z3.ExprRef]) -> z3.ExprRef:
        import z3  # heavy to import (~0.3 s): only when a term reaches the solver
        if not free_vars(term) and not isinstance(term, Num):
            try:
                value = evaluate_term(term, {})
            except Unsupported:
                pass
            else:
                if isinstance(value, bool):
                    return z3.BoolVal(value, self.ctx)
                return self.const(value, term.type)
        if isinstance(term, Num):
            return self.const(term.value, term.type)
        if isinstance(term, Var):
            if term.name in bound:
                return bound[term.name]
            return self.var(term.name, term.type)
        if isinstance(term, Quant):
            self.nested_quantifier = True
            typ = term.vtype
            self.types[f"!{term.var}"] = typ
            x = z3.Int(f"{term.var}!{next(self._fresh)}", self.ctx) if typ in ("ℕ", "ℤ") \
                else z3.Real(f"{term.var}!{next(self._fresh)}", self.ctx)
            body = self._encode(term.body, {**bound, term.var: x})
            if term.kind == "forall":
                return z3.ForAll([x], z3.Implies(x >= 0, body) if typ == "ℕ" else body)
            return z3.Exists([x], z3.And(x >= 0, body) if typ == "ℕ" else body)
        if isinstance(term, Big):
            lo, hi = (evaluate_term(term.lo, {}), evaluate_term(term.hi, {})) if not (
                free_vars(term.lo) or free_vars(term.hi)) else (None, None)
            if lo is None or hi is None:
                raise Unsupported("big operator with a variable bound")
            stop = int(hi) if term.open_hi else int(hi) + 1
            if stop - int(lo) > 64:
                raise Unsupported("big operator with more than 64 terms")
            parts = [self._encode(term.body, {**bound, term.var: self.const(i, term.vtype)})
                     for i in range(int(lo), stop)]
            if not parts:
                return self.const(0 if term.kind == "sum" else 1, term.type)
            return z3.Sum(parts) if term.kind == "sum" else z3.Product(parts)
        return self._op(term, bound)

    def _op(self, term: Op, bound: Mapping[str, z3.ExprRef]) -> z3.ExprRef:  # noqa: C901
        import z3  # heavy to import (~0.3 s): only when a term reaches the solver
        op, t = term.op, term.type
        if op in ("true", "false"):
            return z3.BoolVal(op == "true", self.ctx)
        if op == "pow":
            exp = term.args[1]
            if not isinstance(exp, Num) or exp.value > 12:
                raise Unsupported("power with a non-numeral or large exponent")
            base = self._encode(term.args[0], bound)
            n = int(exp.value)
            self.nonlinear |= n > 1 and not z3.is_rational_value(base) and \
                not z3.is_int_value(base)
            return self.const(1, t) if n == 0 else z3.Product([base] * n) if n > 1 else base
        a = [self._encode(x, bound) for x in term.args]
        zero = self.const(0, t) if t != "Prop" else None
        if op == "and":
            return z3.And(a[0], a[1])
        if op == "or":
            return z3.Or(a[0], a[1])
        if op == "imp":
            return z3.Implies(a[0], a[1])
        if op == "iff":
            return a[0] == a[1]
        if op == "not":
            return z3.Not(a[0])
        if op == "add":
            return a[0] + a[1]
        if op == "mul":
            self.nonlinear |= not any(z3.is_int_value(x) or z3.is_rational_value(x) for x in a)
            return a[0] * a[1]
        if op == "sub":
            return z3.If(a[0] >= a[1], a[0] - a[1], zero) if t == "ℕ" else a[0] - a[1]
        if op == "neg":
            return -a[0]
        if op == "div":
            return z3.If(a[1] == 0, zero, a[0] / a[1])
        if op == "mod":
            return z3.If(a[1] == 0, a[0], a[0] % a[1])
        if op == "inv":
            return z3.If(a[0] == 0, zero, 1 / a[0])
        if op == "cast":
            src = term.args[0].type
            return z3.ToReal(a[0]) if src in ("ℕ", "ℤ") and t in ("ℚ", "ℝ") else a[0]
        if op == "sqrt":
            if set(free_vars(term.args[0])) & set(bound):
                raise Unsupported("√ under a nested quantifier")
            s = z3.Real(f"sqrt!{next(self._fresh)}", self.ctx)
            self.side.append(z3.If(a[0] > 0, z3.And(s >= 0, s * s == a[0]), s == 0))
            return s
        if op == "abs":
            return z3.If(a[0] >= 0, a[0], -a[0])
        if op == "min":
            return z3.If(a[0] <= a[1], a[0], a[1])
        if op == "max":
            return z3.If(a[0] >= a[1], a[0], a[1])
        if op == "floor":
            return z3.ToInt(a[0])
        if op == "ceil":
            return -z3.ToInt(-a[0])
        if op == "eq":
            return a[0] == a[1]
        if op == "ne":
            return a[0] != a[1]
        if op == "lt":
            return a[0] < a[1]
        if op == "le":
            return a[0] <= a[1]
        if op == "dvd":
            return z3.If(a[0] == 0, a[1] == 0, a[1] % a[0] == 0)
        if op == "even":
            return a[0] % 2 == 0
        if op == "odd":
            return a[0] % 2 == 1
        raise Unsupported(f"no z3 encoding for {op} on non-constant arguments")


@dataclass
class SolverResult:
    """``status`` is ``sat``/``unsat``/``unknown``; ``model`` maps variable names to exact values."""

    status: str
    model: dict[str, int | Fraction] | None = None
    reason: str | None = None


def _solver(enc: Encoder, timeout_ms: int, memory_mb: int, rlimit: int | None) -> z3.Solver:
    import z3  # heavy to import (~0.3 s): only when a term reaches the solver
    s = z3.Solver(ctx=enc.ctx)
    s.set("timeout", max(1, int(timeout_ms)))
    s.set("max_memory", int(memory_mb))
    if rlimit is not None:
        # z3's resource counter: the same answer on a loaded machine as on an idle one
        s.set("rlimit", int(rlimit))
    return s


def check_sat(enc: Encoder, formula: z3.BoolRef, *, timeout_ms: int = 100,
              memory_mb: int = 256, rlimit: int | None = None) -> SolverResult:
    """Is ``formula`` ∧ side conditions satisfiable? A model is returned with exact values."""
    import z3  # heavy to import (~0.3 s): only when a term reaches the solver
    if enc.nested_quantifier and "ℚ" in enc.types.values():
        return SolverResult("unknown", reason="ℚ variables with a nested quantifier")
    if enc.nested_quantifier and enc.nonlinear:
        # measured: `¬ ∃ x y : ℤ, 3*x^2 + 2 = y^2` ran for minutes past a 100 ms timeout
        return SolverResult("unknown", reason="nonlinear arithmetic under a quantifier "
                                              "(z3 does not honour its time limit there)")
    s = _solver(enc, timeout_ms, memory_mb, rlimit)
    s.add(*enc.side, formula)
    start = time.perf_counter()
    r = s.check()
    if r == z3.unknown:
        why = s.reason_unknown()
        if (time.perf_counter() - start) * 1000 >= timeout_ms or why == "timeout":
            return SolverResult("unknown", reason="z3: timeout")  # the wall-clock safety net
        if rlimit is not None and (why == "canceled" or "resource limit" in why):
            why = "resource limit (rlimit)"
        return SolverResult("unknown", reason=f"z3: {why}")
    if r == z3.unsat:
        return SolverResult("unsat")
    m = s.model()
    model: dict[str, int | Fraction] = {}
    for key, v in enc.vars.items():
        if key.startswith("!"):
            continue
        val = m.eval(v, model_completion=True)
        name, typ = key.rsplit(":", 1)
        if typ in ("ℕ", "ℤ"):
            model[name] = val.as_long()
        elif z3.is_rational_value(val):
            model[name] = Fraction(val.numerator_as_long(), val.denominator_as_long())
        else:
            return SolverResult("unknown", reason=f"z3 model gives {name} an irrational value")
    return SolverResult("sat", model)


def prove(enc: Encoder, formula: z3.BoolRef, *, timeout_ms: int = 100,
          memory_mb: int = 256, rlimit: int | None = None) -> SolverResult:
    """``unsat`` means ``formula`` is valid (under the side conditions) — proved."""
    import z3  # heavy to import (~0.3 s): only when a term reaches the solver
    return check_sat(enc, z3.Not(formula), timeout_ms=timeout_ms, memory_mb=memory_mb,
                     rlimit=rlimit)
