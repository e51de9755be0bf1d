"""Vacuous pairs: both statements' hypotheses are contradictory, so both statements hold.

A theorem ``∀ x, H x → C x`` whose hypotheses ``H`` no value satisfies is provable (``absurd``:
from ``H x`` anything follows), whatever its conclusion. When the hypotheses of *both* sides
are contradictory, both statements are provable, and the pair is equivalent under mutual
provability (docs/VERDICTS.md: the strict convention) even though the conclusions differ —
correct, and surprising, so the evidence says so in its reason (:data:`VACUOUS_REASON`).
When only one side's hypotheses are contradictory, vacuity decides nothing: the other side
may be false.

Proof only: each side's contradiction is z3's unsatisfiability of the conjunction of the
hypotheses the engines can model (a subset of them: if a subset is contradictory, so is the
whole), under the deterministic rlimit. Never sampling (sampling can only fail to find a
satisfying point). A side with any elaboration issue, or with no modelled hypothesis,
abstains. This is the one place the decision's vacuity guard (docs/EVIDENCE.md) is turned
around: the guard refuses to close two vacuous components as equal; this rule closes the
pair only when each side is shown vacuous on its own.
"""

from __future__ import annotations

from transted.budget import Budget
from transted.pipeline.evidence.lean_text import term_to_lean
from transted.pipeline.evidence.model import VACUOUS_REASON, Evidence
from transted.pipeline.evidence.refute import RefuteOptions, solve
from transted.pipeline.evidence.scripts import SCRIPT_STATUS
from transted.pipeline.evidence.smt import Encoder
from transted.pipeline.evidence.terms import Op, Term, Unsupported
from transted.pipeline.evidence.translate import Shape

__all__ = ["vacuous_pair", "contradictory", "VACUOUS_REASON"]



def contradictory(shape: Shape, budget: Budget, options: RefuteOptions) -> list[Term] | None:
    """The modelled hypotheses of ``shape`` when z3 proves them jointly unsatisfiable (over the
    statement's number variables), else None."""
    import z3  # heavy to import (~0.3 s): only when a term reaches the solver
    if shape.errors and not shape.hyps:  # an elaboration issue: nothing was lowered
        return None
    hyps = [h for h in shape.hyps if h is not None]
    if not hyps:
        return None
    conj: Term = hyps[0]
    for h in hyps[1:]:
        conj = Op("and", (conj, h), "Prop")
    try:
        enc = Encoder()
        formula = z3.Not(enc.encode(conj))
    except Unsupported:
        return None
    return hyps if solve(enc, formula, budget, options, valid=True).status == "unsat" else None


def vacuous_pair(reference: Shape, candidate: Shape, budget: Budget,
                 options: RefuteOptions) -> Evidence | None:
    """``proved`` when both sides' hypotheses are shown contradictory, else None."""
    ref = contradictory(reference, budget, options)
    if ref is None:
        return None
    cand = contradictory(candidate, budget, options)
    if cand is None:
        return None
    script = [f"-- the reference's hypotheses are contradictory: {_conj(ref)} has no solution "
              "(decided offline by z3)",
              f"-- the candidate's hypotheses are contradictory: {_conj(cand)} has no solution "
              "(decided offline by z3)",
              "-- each statement: intro the variables and hypotheses, then exact absurd …"]
    return Evidence(kind="proved", engine="z3", tactics=["absurd", "absurd"],
                    procedures=["vacuous", "vacuous"], script=script,
                    script_status=SCRIPT_STATUS, reason=VACUOUS_REASON,
                    ms=budget.elapsed() * 1000)


def _conj(hyps: list[Term]) -> str:
    return " ∧ ".join(term_to_lean(h) for h in hyps)
