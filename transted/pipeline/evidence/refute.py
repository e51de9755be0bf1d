"""Refutation: show that a pair's statements differ in truth, with a checked witness.

A statement ``∀ vars, hyps → concl`` is *false* exactly when some assignment of its variables
makes ``hyps → concl`` false; such an assignment is a witness. ``refuted`` is reported only
when one whole statement is false at the witness (checked by exact evaluation, or by z3 when
the evaluator cannot represent a value) and the other statement is true: either taken as true
(``assume_reference``: the benchmark's reference is a theorem) or proved valid by z3. A
witness that only separates two components (a hypothesis on one side, the conclusion on the
other) is never reported by itself: the search looks for a falsifier of the whole candidate,
preferring one at which the reference's own instance still holds (``ref ∧ ¬cand``), and an
instance where both statements fail is reported as suspect, never as a refutation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from transted.budget import Budget
from transted.pipeline.engine_libraries import load_engine_libraries
from transted.pipeline.evidence.evaluate import Value, assignments, evaluate_term, stops_at
from transted.pipeline.evidence.model import Evidence, format_exact
from transted.pipeline.evidence.smt import Encoder, SolverResult, check_sat, prove
from transted.pipeline.evidence.terms import Term, Unsupported, rename_vars
from transted.pipeline.evidence.translate import Shape, shape_of
from transted.pipeline.opt.elaborate import Elaboration
from transted.pipeline.opt.node import Node
from transted.reading.pairs import Side

if TYPE_CHECKING:  # annotations only: the engines import these where they run
    import z3

__all__ = ["RefuteOptions", "engine_budget", "left_ms", "refute", "falsify", "solve"]


@dataclass(frozen=True)
class RefuteOptions:
    """Options of the refutation engines (all go into the signature)."""

    assume_reference: bool = True
    """The benchmark case: the reference is a theorem, so a false candidate is refuted."""
    engines: tuple[str, ...] = ("eval", "z3")
    budget_ms: float = 2000.0
    """Wall-clock safety net for the whole pair; past it the answer is ``none`` with reason
    ``timeout`` (the work itself is bounded by ``rlimit`` and ``samples``, which do not depend
    on machine load)."""
    call_timeout_ms: int = 1000
    """z3 ``timeout`` per solver call: a safety net only (a call it ends makes the pair a
    ``timeout``); the answer of a call comes from ``rlimit``."""
    memory_mb: int = 256
    """z3 ``max_memory`` per solver call."""
    samples: int = 400
    """Exact-evaluation assignments per statement (the evaluation engine's deterministic bound)."""
    seed: int = 0
    rlimit: int | None = 200_000
    """z3 resource limit per solver call (deterministic; None: time limits only)."""

    def __post_init__(self) -> None:
        if self.rlimit is not None and (not isinstance(self.rlimit, int) or self.rlimit <= 0):
            raise ValueError(f"`rlimit` must be a positive int or None, got {self.rlimit!r}")
        if not isinstance(self.samples, int) or self.samples < 0:
            raise ValueError(f"`samples` must be a non-negative int, got {self.samples!r}")

    def signature(self) -> str:
        rl = "none" if self.rlimit is None else str(self.rlimit)
        return (f"ref:{'assume' if self.assume_reference else 'prove'}|eng:{'+'.join(self.engines)}"
                f"|rlimit:{rl}|samples:{self.samples}|seed:{self.seed}"
                f"|budget:{self.budget_ms:g}ms|call:{self.call_timeout_ms}ms|mem:{self.memory_mb}MB")


def engine_budget(options: RefuteOptions, budget: Budget | None = None) -> Budget:
    """The engines' stage of a pair's budget: the safety net ``options.budget_ms``, ended
    earlier by the pair's own deadline (``budget``; None: the safety net alone). The engines'
    libraries are loaded first: their import is not the pair's time."""
    load_engine_libraries()
    return (budget if budget is not None else Budget()).within(options.budget_ms / 1000)


def left_ms(budget: Budget) -> float:
    """Milliseconds before ``budget``'s deadline (z3 takes its per-call timeout in ms)."""
    left = budget.remaining_time()
    return float("inf") if left is None else left * 1000


def solve(enc: Encoder, formula: z3.BoolRef, budget: Budget, options: RefuteOptions, *,
          valid: bool = False) -> SolverResult:
    """One z3 call: is ``formula`` satisfiable (``valid``: is it valid, ``unsat`` meaning
    proved)? The answer comes from the deterministic ``options.rlimit``; the wall clock
    (``options.call_timeout_ms``, capped by what is left of ``budget``) is only a safety net,
    and a call it ends marks ``budget``'s deadline reached, so the pair ends as ``timeout``
    instead of taking this load-dependent ``unknown`` as its answer."""
    left = left_ms(budget)
    if left < 1:
        budget.reach_deadline()
        return SolverResult("unknown", reason="z3: timeout")
    call = prove if valid else check_sat
    res = call(enc, formula, timeout_ms=int(min(options.call_timeout_ms, left)),
               memory_mb=options.memory_mb, rlimit=options.rlimit)
    if res.reason == "z3: timeout":
        budget.reach_deadline()
    return res


@dataclass
class _Falsifier:
    witness: dict[str, Value]
    engine: str


def _eval_or_none(term: Term, env: Mapping[str, Value]) -> bool | None:
    try:
        return bool(evaluate_term(term, env))
    except Unsupported:
        return None


def falsify(shape: Shape, budget: Budget, options: RefuteOptions, *,
            other: Shape | None = None, notes: list[str] | None = None) -> _Falsifier | None:
    """An assignment making ``shape``'s statement false, confirmed by exact evaluation
    (or found by z3 where evaluation cannot represent the values). With ``other`` (the
    statement taken as true), prefer assignments where ``other``'s instance holds."""
    import z3  # heavy to import (~0.3 s): only when a term reaches the solver
    notes = notes if notes is not None else []
    body = shape.prop()
    other_body = _aligned_body(shape, other)
    if "eval" in options.engines:
        with stops_at(budget):
            found = _falsify_eval(body, shape, budget, options, notes)
        if found is not None:
            return found
    if "z3" in options.engines and left_ms(budget) > 0:
        try:
            enc = Encoder()
            neg = z3.Not(enc.encode(body))
            queries = [neg]
            if other_body is not None:
                queries.insert(0, z3.And(enc.encode(other_body), neg))
        except Unsupported as e:
            notes.append(f"z3: {e}")
            return None
        for q in queries:
            res = solve(enc, q, budget, options)
            if res.reason == "z3: timeout":
                notes.append("z3: timeout")
                break
            if res.status == "sat" and res.model is not None:
                witness = {k: v for k, v in res.model.items() if k in shape.vars}
                confirm = _eval_or_none(body, witness)
                if confirm is True:  # encodings disagree: never report
                    notes.append(f"z3 witness {witness} not confirmed by evaluation")
                    return None
                return _Falsifier(witness, "z3" if confirm is None else "z3+eval")
            if res.status == "unknown":
                notes.append(res.reason or "z3: unknown")
            if res.status == "unsat" and q is neg:
                notes.append("z3: statement valid")
    return None


def _falsify_eval(body: Term, shape: Shape, budget: Budget, options: RefuteOptions,
                  notes: list[str]) -> _Falsifier | None:
    unevaluable = 0
    for i, env in enumerate(assignments(shape.vars, limit=options.samples, seed=options.seed)):
        if left_ms(budget) <= 0:
            notes.append("eval: timeout")
            return None
        value = _eval_or_none(body, env)
        if value is None:
            unevaluable += 1
            if unevaluable > 50 and unevaluable > i // 2:
                notes.append("eval: most assignments not exactly evaluable")
                return None
            continue
        if not value:
            return _Falsifier(env, "eval")
    return None


def _aligned_body(shape: Shape, other: Shape | None) -> Term | None:
    """``other``'s open body over ``shape``'s variables: aligned by name and type, else (a
    renamed statement) by position and type; None when neither aligns."""
    if other is None or not other.complete:
        return None
    if all(shape.vars.get(n) == t for n, t in other.vars.items()):
        return other.prop()
    if list(shape.vars.values()) == list(other.vars.values()):
        try:
            return rename_vars(other.prop(), dict(zip(other.vars, shape.vars, strict=True)))
        except Unsupported:  # a bound variable would capture a renamed one: not aligned
            return None
    return None


def _statement_valid(shape: Shape, budget: Budget, options: RefuteOptions) -> bool:
    if "z3" not in options.engines or left_ms(budget) <= 0:
        return False
    try:
        enc = Encoder()
        formula = enc.encode(shape.prop())
    except Unsupported:
        return False
    return solve(enc, formula, budget, options, valid=True).status == "unsat"


def refute(reference: Node | Elaboration, candidate: Node | Elaboration,
           options: RefuteOptions | None = None,
           budget: Budget | None = None) -> Evidence:
    """``refuted`` with a witness if the two statements provably differ in truth, else ``none``.

    Both arguments are proposition-form statements: elaborations (the tree as written under its
    header, :attr:`transted.pipeline.opt.Normalized.elaboration`) or trees (elaborated with no header);
    ``budget`` is the engines' stage (default: :func:`engine_budget` of ``options``).
    """
    options = options or RefuteOptions()
    budget = budget if budget is not None else engine_budget(options)
    ref, cand = shape_of(reference), shape_of(candidate)
    notes: list[str] = []
    sides: list[tuple[Side, Shape, Shape]] = [("candidate", cand, ref)]
    if not options.assume_reference:
        sides.append(("reference", ref, cand))
    for side, false_shape, true_shape in sides:
        if not false_shape.complete:
            notes.append(f"{side}: " + "; ".join(false_shape.errors))
            continue
        found = falsify(false_shape, budget, options,
                        other=true_shape if true_shape.complete else None, notes=notes)
        if found is None:
            continue
        witness = {k: format_exact(v) for k, v in found.witness.items()}
        aligned = _aligned_body(false_shape, true_shape)
        other_at = _eval_or_none(aligned, found.witness) if aligned is not None else None
        if other_at is False:
            notes.append(f"both statements false at {witness}: suspect encoding or benchmark")
            continue
        if side == "candidate" and options.assume_reference:
            why = "candidate false; reference taken as true"
        elif _statement_valid(true_shape, budget, options):
            why = f"{side} false; the other statement proved valid by z3"
        else:
            notes.append(f"{side} false at {witness}, other side not proved true")
            continue
        return Evidence(kind="refuted", engine=found.engine, witness=witness, failing_side=side,
                        reason=why, ms=budget.elapsed() * 1000)
    reason = "; ".join(notes) or "no counterexample found"
    return Evidence(kind="none", reason=reason, ms=budget.elapsed() * 1000)
