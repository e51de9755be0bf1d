"""Exact evaluation of terms with Lean's semantics, and the assignments to try (as ``plausible``).

Values: ``int`` for ℕ/ℤ, :class:`fractions.Fraction` for ℚ/ℝ, ``bool`` for Prop. Reals are
evaluated only where they are rational: ``Real.sqrt`` of a perfect rational square is exact,
any other square root raises :class:`Unsupported` (the assignment is skipped, never rounded).
Quantifiers over infinite types raise Unsupported; big operators run over their (small) range.
The Lean definition behind each operation is cited in docs/EVIDENCE.md.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from fractions import Fraction

from transted.budget import Budget
from transted.pipeline.evidence.terms import Big, Num, Op, Quant, Term, Unsupported, Var

__all__ = ["evaluate_term", "assignments", "lean_div", "lean_mod", "MAX_RANGE", "MAX_VALUE_BITS",
           "stops_at"]

Value = int | Fraction | bool
MAX_RANGE = 2000
"""Largest range a big operator or a factorial argument may have."""
_MAX_EXPONENT = 256
MAX_VALUE_BITS = 1 << 16
"""Largest bit length of an intermediate value (an integer, or a fraction's numerator or
denominator). Past it evaluation abstains (Unsupported) instead of computing: a deterministic
bound on the work of one evaluation (``((n ^ 250) ^ 250) ^ 250`` ran for seconds past a pair's
deadline, inside one multiplication no deadline check can interrupt). 2000! has 19,053 bits."""
_budgets: list[Budget] = []  # whose deadline stops big operators (innermost last)


@contextmanager
def stops_at(budget: Budget) -> Iterator[None]:
    """Within the block, evaluating a big operator once ``budget`` is spent (its deadline
    passed) raises Unsupported (one evaluation of nested sums can otherwise outlast any
    budget)."""
    _budgets.append(budget)
    try:
        yield
    finally:
        _budgets.pop()


def lean_div(a: int, b: int, typ: str) -> int:
    """``Nat.div`` / ``Int.ediv`` (Lean 4's ``/`` on ℤ): ``a / 0 = 0``; else the quotient of
    Euclidean division (remainder ``0 ≤ r < |b|``)."""
    if b == 0:
        return 0
    if typ == "ℕ":
        return a // b
    return (a - lean_mod(a, b, typ)) // b


def lean_mod(a: int, b: int, typ: str) -> int:
    """``Nat.mod`` / ``Int.emod``: ``a % 0 = a``; else the remainder in ``[0, |b|)``."""
    if b == 0:
        return a
    return a % abs(b)


def _sqrt(x: Fraction) -> Fraction:
    """``Real.sqrt``: 0 for ``x ≤ 0`` (Real.sqrt_eq_zero_of_nonpos); exact on rational squares."""
    if x <= 0:
        return Fraction(0)
    n, d = math.isqrt(x.numerator), math.isqrt(x.denominator)
    if n * n == x.numerator and d * d == x.denominator:
        return Fraction(n, d)
    raise Unsupported(f"√{x} is irrational")


def _bits(value: Value) -> int:
    if isinstance(value, Fraction):
        return max(value.numerator.bit_length(), value.denominator.bit_length())
    return int(value).bit_length()


def _bounded(value: Value) -> Value:
    """``value``, or Unsupported when it is larger than :data:`MAX_VALUE_BITS`."""
    if _bits(value) > MAX_VALUE_BITS:
        raise Unsupported(f"a {_bits(value)}-bit intermediate value (cap {MAX_VALUE_BITS} bits)")
    return value


def _power(base: Value, exponent: int) -> Value:
    """``Monoid.npow``, sized before it is computed: ``|b^e|`` has at most ``bits(b)·e`` bits."""
    if exponent > _MAX_EXPONENT:
        raise Unsupported(f"exponent {exponent} too large")
    if base not in (0, 1, -1) and _bits(base) * exponent > MAX_VALUE_BITS:
        raise Unsupported(f"a power of about {_bits(base) * exponent} bits "
                          f"(cap {MAX_VALUE_BITS} bits)")
    return base ** exponent  # type: ignore[operator,no-any-return]


def _prime(n: int) -> bool:
    """``Nat.Prime``; sympy's ``isprime`` is deterministic below 2⁶⁴, larger numbers abstain."""
    import sympy  # heavy to import (~0.5 s): only when a term reaches it
    if n >= 2**64:
        raise Unsupported(f"primality of a {n.bit_length()}-bit number")
    return bool(sympy.isprime(n))


def evaluate_term(term: Term, env: Mapping[str, Value]) -> Value:
    """The value of ``term`` under ``env``; raises Unsupported where it is not exact/finite."""
    if isinstance(term, Num):
        return term.value if term.type in ("ℚ", "ℝ") else int(term.value)
    if isinstance(term, Var):
        try:
            return env[term.name]
        except KeyError:
            raise Unsupported(f"no value for {term.name}") from None
    if isinstance(term, Quant):
        raise Unsupported(f"quantifier over {term.vtype} cannot be enumerated")
    if isinstance(term, Big):
        return _big(term, env)
    return _op(term, env)


def _big(term: Big, env: Mapping[str, Value]) -> Value:
    lo, hi = int(evaluate_term(term.lo, env)), int(evaluate_term(term.hi, env))
    stop = hi if term.open_hi else hi + 1
    if stop - lo > MAX_RANGE:
        raise Unsupported(f"range of {stop - lo} terms")
    acc: int | Fraction = 0 if term.kind == "sum" else 1
    for i in range(lo, stop):
        if _budgets and i % 64 == 0 and _budgets[-1].spent():
            raise Unsupported("evaluation deadline")
        v = evaluate_term(term.body, {**env, term.var: i})
        acc = _bounded(acc + v if term.kind == "sum" else acc * v)  # type: ignore[assignment]
    return acc


def _op(term: Op, env: Mapping[str, Value]) -> Value:
    """One operation; every arithmetic result is held to :data:`MAX_VALUE_BITS` (the operands
    already are, so no single step computes more than twice the cap)."""
    value = _operation(term, env)
    return value if isinstance(value, bool) else _bounded(value)


def _operation(term: Op, env: Mapping[str, Value]) -> Value:  # noqa: C901 - one case per operator
    op, t = term.op, term.type
    if op in ("true", "false"):
        return op == "true"
    if op in ("and", "or", "imp", "iff", "not"):
        return _logic(op, term.args, env)
    v = [evaluate_term(a, env) for a in term.args]
    if op == "add":
        return v[0] + v[1]
    if op == "mul":
        return v[0] * v[1]
    if op == "sub":
        return max(v[0] - v[1], 0) if t == "ℕ" else v[0] - v[1]  # Nat.sub truncates
    if op == "neg":
        return -v[0]
    if op == "div":
        if t in ("ℚ", "ℝ"):
            return Fraction(0) if v[1] == 0 else Fraction(v[0]) / v[1]  # div_zero
        return lean_div(int(v[0]), int(v[1]), t)
    if op == "mod":
        return lean_mod(int(v[0]), int(v[1]), t)
    if op == "inv":
        return Fraction(0) if v[0] == 0 else 1 / Fraction(v[0])  # inv_zero
    if op == "pow":
        return _power(v[0], int(v[1]))
    if op == "cast":
        return Fraction(v[0]) if t in ("ℚ", "ℝ") else int(v[0])
    if op == "sqrt":
        return _sqrt(Fraction(v[0]))
    if op == "abs":
        return abs(v[0])  # type: ignore[return-value]
    if op in ("min", "max"):
        return min(v[0], v[1]) if op == "min" else max(v[0], v[1])
    if op == "floor":
        return math.floor(v[0])
    if op == "ceil":
        return math.ceil(v[0])
    if op == "fact":
        if v[0] > MAX_RANGE:
            raise Unsupported(f"{v[0]}! too large")
        return math.factorial(int(v[0]))
    if op == "gcd":
        return math.gcd(int(v[0]), int(v[1]))
    if op == "lcm":
        return math.lcm(int(v[0]), int(v[1]))
    if op in ("eq", "ne", "lt", "le"):
        a, b = v
        return {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b}[op]
    if op == "dvd":  # Nat/Int dvd: ∃ c, b = a * c
        a, b = int(v[0]), int(v[1])
        return b == 0 if a == 0 else b % a == 0
    if op == "prime":
        return _prime(int(v[0]))
    if op in ("even", "odd"):
        return int(v[0]) % 2 == (0 if op == "even" else 1)
    raise Unsupported(f"no evaluation for {op}")


def _logic(op: str, args: tuple[Term, ...], env: Mapping[str, Value]) -> bool:
    if op == "not":
        return not evaluate_term(args[0], env)
    a = bool(evaluate_term(args[0], env))
    if op == "and" and not a:
        return False
    if op == "or" and a:
        return True
    if op == "imp" and not a:
        return True
    b = bool(evaluate_term(args[1], env))
    return a == b if op == "iff" else b


_SMALL: dict[str, list[int | Fraction]] = {
    "ℕ": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 25, 100],
    "ℤ": [0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 7, -7, 10, -10, 100],
    "ℚ": [*(Fraction(x) for x in (0, 1, -1, 2, -2, 3, -3, 4)),
          Fraction(1, 2), Fraction(-1, 2), Fraction(1, 4), Fraction(9, 4), Fraction(3, 2),
       Fraction(1, 3), Fraction(-3, 2), Fraction(100), Fraction(1, 100)],
}
_SMALL["ℝ"] = _SMALL["ℚ"]


def _random(typ: str, rng: random.Random) -> int | Fraction:
    if typ == "ℕ":
        return rng.randint(0, 200)
    if typ == "ℤ":
        return rng.randint(-200, 200)
    return Fraction(rng.randint(-400, 400), rng.choice((1, 1, 2, 3, 4, 5, 7, 10, 16)))


def assignments(variables: Mapping[str, str], *, limit: int = 4000, seed: int = 0
                ) -> Iterator[dict[str, Value]]:
    """Small and boundary values first (the full grid while it fits ``limit``, diagonal-first),
    then seeded random ones, up to ``limit`` assignments in all. Deterministic for a seed."""
    names = list(variables)
    if not names:
        yield {}
        return
    grids = [_SMALL[variables[n]] for n in names]
    count = 0
    per_axis = max(2, int(limit ** (1 / len(names)) * 0.7))
    for values in itertools.product(*(g[:per_axis] for g in grids)):
        yield dict(zip(names, values, strict=True))
        count += 1
        if count >= limit // 2:
            break
    rng = random.Random(seed)
    while count < limit:
        yield {n: (rng.choice(list(_SMALL[variables[n]])) if rng.random() < 0.3
                   else _random(variables[n], rng)) for n in names}
        count += 1
