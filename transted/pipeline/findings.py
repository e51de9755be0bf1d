"""Stage 4 of the pipeline: one pair's evidence, from every source that can show something.

The evidence engines' refutation and decision on the two elaborations
(:func:`transted.pipeline.evidence.pair_evidence`), the providers' definite findings (a Lean provider's
``plausible`` counterexample) and the search's closed goal — ``proved`` only when neither side's
elaboration says Lean rejects or re-reads it (:func:`transted.pipeline.evidence.search_blocking_issues`)
— are merged into one :class:`~transted.pipeline.evidence.model.Evidence`. Definite findings that
contradict each other (a soundness bug somewhere) give ``none`` with both in the reason, never
a definite answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from transted.budget import Budget
from transted.pipeline.evidence import (
    RefuteOptions,
    pair_evidence,
    search_blocking_issues,
    search_evidence,
)
from transted.pipeline.evidence.model import Evidence
from transted.pipeline.search.engine import SearchResult
from transted.pipeline.search.providers.base import MoveProvider, collect_evidence
from transted.pipeline.sides import PairSides

__all__ = ["merged_evidence", "Findings"]


@dataclass(frozen=True)
class Findings:
    """The merged evidence, and whether definite findings contradicted each other (then a
    move of the search may be unsound, and the search's goal is not to be judged)."""

    evidence: Evidence
    conflict: bool = False


def merged_evidence(sides: PairSides, result: SearchResult, providers: Sequence[MoveProvider],
                    engines: RefuteOptions | None, budget: Budget) -> Findings:
    """The pair's evidence (see the module docstring); ``engines`` None: the engines are off."""
    found: list[Evidence] = []
    notes: list[str] = []
    ms = 0.0
    ref, cand = sides.reference.normalized, sides.candidate.normalized
    if engines is not None and budget.remaining_time() == 0:
        notes.append("the pair's deadline (max_time) passed before the evidence engines ran")
    elif engines is not None:
        ev = pair_evidence(ref.elaboration or ref.tree, cand.elaboration or cand.tree, engines,
                           budget)
        ms = ev.ms
        if ev.kind != "none":
            found.append(ev)
        elif ev.reason:
            notes.append(ev.reason)
    found.extend(collect_evidence(providers))
    if result.status == "found":
        blocking = search_blocking_issues(ref, cand)
        if blocking:
            notes.append(f"the search closed the goal, but {blocking}")
        else:
            found.append(search_evidence(result.script))
    kinds = {e.kind for e in found}
    if len(kinds) > 1:
        why = "; ".join(f"{e.kind} by {e.engine}: {e.reason}" for e in found)
        return Findings(Evidence(kind="none", reason=f"conflicting evidence ({why})", ms=ms),
                        conflict=True)
    if found:
        return Findings(found[0].model_copy(update={"ms": ms}))
    return Findings(Evidence(kind="none", reason="; ".join(notes) or
                             ("evidence off" if engines is None else "no evidence"), ms=ms))
