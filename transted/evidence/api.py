"""One pair's evidence under one budget: refutation first, then decision."""

from __future__ import annotations

from dataclasses import replace

from transted.evidence.decide import decide_pair
from transted.evidence.model import EVIDENCE_VERSION, Evidence, format_value
from transted.evidence.refute import Budget, RefuteOptions, falsify, refute
from transted.evidence.translate import shape_of
from transted.opt.node import Node

__all__ = ["pair_evidence", "statement_evidence", "evidence_signature", "REFUTED_SCORE_CAP"]

REFUTED_SCORE_CAP = 0.0
"""Score of a refuted pair: ``min(score, REFUTED_SCORE_CAP)`` (docs/EVIDENCE.md)."""


def evidence_signature(options: RefuteOptions) -> str:
    return f"evidence:{EVIDENCE_VERSION}|{options.signature()}|refuted-cap:{REFUTED_SCORE_CAP:g}"


def pair_evidence(reference: Node, candidate: Node,
                  options: RefuteOptions | None = None) -> Evidence:
    """``refuted`` / ``proved`` / ``none`` for two proposition-form trees, within the budget.

    Refutation gets the first half of the budget, decision the rest (and any time left over).
    """
    options = options or RefuteOptions()
    budget = Budget(options.budget_ms)
    ev = refute(reference, candidate, replace(options, budget_ms=options.budget_ms / 2))
    if ev.kind == "refuted":
        return ev.model_copy(update={"ms": budget.spent_ms()})
    proved = decide_pair(reference, candidate, options, budget)
    if proved.kind == "proved":
        return proved.model_copy(update={"ms": budget.spent_ms()})
    reason = f"refute: {ev.reason}; decide: {proved.reason}"
    if budget.left_ms() <= 0:
        reason = f"budget {options.budget_ms:g} ms exhausted; " + reason
    return Evidence(kind="none", reason=reason, ms=budget.spent_ms())


def statement_evidence(statement: Node, options: RefuteOptions | None = None) -> Evidence:
    """Is one statement false? ``refuted`` with a witness (failing side ``candidate``), else none.

    Run on benchmark theorems this must never answer ``refuted``: each such answer is an
    encoding bug or a false benchmark statement.
    """
    options = options or RefuteOptions()
    budget = Budget(options.budget_ms)
    shape = shape_of(statement)
    if not shape.complete:
        return Evidence(kind="none", reason="; ".join(shape.errors), ms=budget.spent_ms())
    notes: list[str] = []
    found = falsify(shape, budget, options, notes=notes)
    if found is None:
        return Evidence(kind="none", reason="; ".join(notes) or "no counterexample found",
                        ms=budget.spent_ms())
    return Evidence(kind="refuted", engine=found.engine, failing_side="candidate",
                    witness={k: format_value(v) for k, v in found.witness.items()},
                    reason="statement false at the witness", ms=budget.spent_ms())
