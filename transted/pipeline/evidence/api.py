"""One pair's evidence under one budget: refutation first, then decision."""

from __future__ import annotations

from collections.abc import Sequence

from transted.budget import Budget
from transted.pipeline.evidence.decide import decide_pair
from transted.pipeline.evidence.model import EVIDENCE_VERSION, Evidence, format_exact
from transted.pipeline.evidence.refute import RefuteOptions, engine_budget, falsify, refute
from transted.pipeline.evidence.translate import shape_of
from transted.pipeline.evidence.vacuity import vacuous_pair
from transted.pipeline.opt.elaborate import Elaboration
from transted.pipeline.opt.node import Node

__all__ = ["pair_evidence", "statement_evidence", "evidence_signature", "REFUTED_SCORE_CAP",
           "apply_score_rule", "evidence_summary"]

REFUTED_SCORE_CAP = 0.0
"""Score of a refuted pair: ``min(score, REFUTED_SCORE_CAP)`` (docs/EVIDENCE.md)."""


def evidence_signature(options: RefuteOptions) -> str:
    return f"evidence:{EVIDENCE_VERSION}|{options.signature()}|refuted-cap:{REFUTED_SCORE_CAP:g}"


def pair_evidence(reference: Node | Elaboration, candidate: Node | Elaboration,
                  options: RefuteOptions | None = None, budget: Budget | None = None) -> Evidence:
    """``refuted`` / ``proved`` / ``none`` for two proposition-form statements, within the
    budget. A statement is its elaboration (the tree as written under its header: the
    metric's case) or a tree (elaborated with no header); any elaboration issue of either
    makes the engines abstain with the issue as the reason.

    The engines run under :func:`~transted.pipeline.evidence.refute.engine_budget` (the safety net
    ``options.budget_ms``, ended earlier by the pair's ``budget``). Refutation gets the first
    half of it, decision the rest (and any time left over).
    """
    options = options or RefuteOptions()
    stage = engine_budget(options, budget)
    safety_net = stage.max_time or 0.0
    ev = refute(reference, candidate, options, stage.within(safety_net / 2))
    if ev.kind == "refuted":
        return ev.model_copy(update={"ms": stage.elapsed() * 1000})
    proved = decide_pair(reference, candidate, options, stage)
    if proved.kind == "proved":
        return proved.model_copy(update={"ms": stage.elapsed() * 1000})
    vacuous = vacuous_pair(shape_of(reference), shape_of(candidate), stage, options)
    if vacuous is not None:
        return vacuous.model_copy(update={"ms": stage.elapsed() * 1000})
    reason = f"refute: {ev.reason}; decide: {proved.reason}"
    if stage.remaining_time() == 0:
        reason = f"timeout (safety net {safety_net * 1000:g} ms); " + reason
    return Evidence(kind="none", reason=reason, ms=stage.elapsed() * 1000)


def statement_evidence(statement: Node | Elaboration,
                       options: RefuteOptions | None = None) -> Evidence:
    """Is one statement false? ``refuted`` with a witness (failing side ``candidate``), else none.

    Run on benchmark theorems this must never answer ``refuted``: each such answer is an
    encoding bug or a false benchmark statement.
    """
    options = options or RefuteOptions()
    budget = engine_budget(options)
    shape = shape_of(statement)
    if not shape.complete:
        return Evidence(kind="none", reason="; ".join(shape.errors), ms=budget.elapsed() * 1000)
    notes: list[str] = []
    found = falsify(shape, budget, options, notes=notes)
    if found is None:
        return Evidence(kind="none", reason="; ".join(notes) or "no counterexample found",
                        ms=budget.elapsed() * 1000)
    return Evidence(kind="refuted", engine=found.engine, failing_side="candidate",
                    witness={k: format_exact(v) for k, v in found.witness.items()},
                    reason="statement false at the witness", ms=budget.elapsed() * 1000)


def apply_score_rule(score: float | None, evidence: Evidence) -> float | None:
    """The documented rule: ``refuted`` → ``min(score, REFUTED_SCORE_CAP)``; ``proved`` → 1
    (a closed goal has distance 0); ``none`` → the graded score unchanged."""
    if evidence.kind == "refuted":
        return REFUTED_SCORE_CAP if score is None else min(score, REFUTED_SCORE_CAP)
    if evidence.kind == "proved":
        return 1.0
    return score


def evidence_summary(kinds: Sequence[str], labels: Sequence[bool | None]) -> dict[str, dict]:
    """``evidence_counts`` per kind and ``evidence_precision`` of the definite kinds against
    the labels (``proved`` correct when the label is true, ``refuted`` when it is false;
    None when no labelled pair has that kind)."""
    if len(kinds) != len(labels):
        raise ValueError(f"kinds ({len(kinds)}) and labels ({len(labels)}) differ in length")
    counts = {k: 0 for k in ("proved", "refuted", "none")}
    right = {"proved": 0, "refuted": 0}
    labelled = {"proved": 0, "refuted": 0}
    for kind, label in zip(kinds, labels, strict=True):
        if kind not in counts:
            raise ValueError(f"unknown evidence kind {kind!r}")
        counts[kind] += 1
        if kind in right and label is not None:
            labelled[kind] += 1
            right[kind] += int(label == (kind == "proved"))
    precision = {k: (right[k] / labelled[k] if labelled[k] else None) for k in right}
    return {"evidence_counts": counts, "evidence_precision": precision}
