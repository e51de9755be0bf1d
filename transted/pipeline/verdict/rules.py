"""The verdict of a result: the one place that says when a pair counts as equivalent.

:func:`decide` turns a result's evidence, residual edits and graded score into ``verdict``
(``equivalent`` / ``not-equivalent``) and ``decided_by``; every verdict in the package comes
from here — result lines (:meth:`transted.metrics.base.Metric.score_pair`), ``transted eval``'s
predictions (:func:`forced_decision` + :func:`predict` for the threshold's share), the
regression gate's ``verdict-flip`` (the result lines' verdicts). In order:

1. ``status == "invalid"`` (a candidate that is confidently not Lean 4), or a candidate whose
   elaboration Lean certainly rejects (``details["rejected"]``,
   :mod:`transted.pipeline.verdict.rejection`): not-equivalent, ``decided_by="invalid"``;
2. definite **evidence** (``details["evidence"]``): ``proved`` → equivalent, ``refuted`` →
   not-equivalent, ``decided_by="evidence"``;
3. the **residual edits** (``details["residual"]``, :mod:`transted.pipeline.verdict.residual`), when the
   convention lets them decide (:mod:`transted.pipeline.verdict.conventions`): a meaning edit that
   nothing discharged → not-equivalent; otherwise, if an untrusted edit is left, the threshold
   decides (a *fallback*, its reason in ``details["verdict_reason"]``); otherwise (no edit, or
   only presentational/discharged ones) → equivalent; ``decided_by="edits"``;
4. the **threshold**: ``score >= threshold`` (:func:`passes`), ``decided_by="threshold"``;
   without a shipped threshold the verdict is null;
5. a **binary** metric (its score is its own verdict: ``identity``, ``beq``, ``published:beq``
   …): equivalent iff its score is 1.0, ``decided_by="binary"`` — as before this rule.

The shipped thresholds are read by :mod:`transted.pipeline.verdict.thresholds` (re-exported here).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from transted.pipeline.evidence.model import VACUOUS_REASON
from transted.pipeline.verdict.conventions import CONVENTIONS, convention_rule
from transted.pipeline.verdict.edit_kinds import load_kind_table
from transted.pipeline.verdict.residual_edit import ResidualEdit
from transted.pipeline.verdict.thresholds import (
    THRESHOLDS_FILE,
    DecisionRule,
    load_decision_rules,
    rule_for,
)

__all__ = ["DecisionRule", "THRESHOLDS_FILE", "load_decision_rules", "rule_for", "make_verdict",
           "Verdict", "DecidedBy", "DECIDED_BY", "Decision", "decide", "decide_result",
           "decide_forced", "with_threshold", "forced_decision",
           "passes", "forced_by_evidence",
           "EVIDENCE_VERDICTS", "BINARY_THRESHOLD", "VERDICT_RULE", "verdict_field",
           "CONVENTIONS", "format_residual"]

Verdict = Literal["equivalent", "not-equivalent"]
DecidedBy = Literal["evidence", "invalid", "edits", "threshold", "binary"]
DECIDED_BY: tuple[str, ...] = ("evidence", "invalid", "edits", "threshold", "binary")

VERDICT_RULE = ("edits", "8")
"""Version 3: a candidate Lean certainly rejects decides as ``invalid`` (:mod:`.rejection`), an
equivalence by contradictory hypotheses says so in its reason, trust of constants from the
Mathlib index (:mod:`.constants`). Version 4: a ``Prop`` class hypothesis only on one side that
the other side's classes provide through the hierarchy is discharged (:mod:`.discharge`).
Version 5: ``⊆``/``⊂`` against ``≤``/``<`` on sets and finsets is one relation (the pinned
Mathlib's ``@[use_set_notation_for_order]``), another on any other type the operands have
(:meth:`~transted.pipeline.verdict.typed_checks.TypedSides.same_order_relation`).
Version 6: an opaque edit taints only its slot; a part that only deletes from one side keeps
its meaning edits. Version 7: a ``fun`` inserted around a term the other side has as it is
(``E`` vs ``fun x => E``, not an η-expansion) is a meaning edit; a bound variable renamed into
a closed constant (``x`` vs ``Real.pi``, ``K`` vs ``⊤``) is a bound-variable edit (a closed
constant cannot name a variable bound in the statement); a conclusion edit is discharged by a
hypothesis written ``x = e`` (``rw [h]``) when the types agree from the root down to the term.
Version 8: after a search, a meaning edit left at the best goal yields to the goal as read when
the edits there leave none (:meth:`transted.pipeline.run.PairPipeline.judged`: every move is
sound, so both goals state the same theorem; moves that bring the sides closer by TED can turn
an added hypothesis that entailment discharges into a changed one, ``0 < x → 0 < y → …`` into
``0 < min x y → …`` by ``and_imp`` and ``lt_min_iff``)."""
"""Name and version of this rule (2: residual edits; 1: threshold and evidence only)."""


def verdict_field(residual: bool) -> str:
    """The ``verdict`` signature field: the rule, its version and (for a metric that reports
    residual edits) the kind table's digest; a metric without residual edits is judged by
    evidence and threshold alone (``threshold@3``)."""
    if not residual:
        return f"threshold@{VERDICT_RULE[1]}"
    return f"{VERDICT_RULE[0]}@{VERDICT_RULE[1]}-{load_kind_table().describe()}"


@dataclass(frozen=True)
class Decision:
    verdict: Verdict | None
    decided_by: DecidedBy | None
    reason: str | None = None


def passes(score: Any, threshold: float) -> Any:
    """The threshold rule: ``score >= threshold`` (equivalent). Elementwise on a numpy array."""
    return score >= threshold


BINARY_THRESHOLD = 1.0
"""A verdict metric's score is 1.0 (equivalent) or 0.0."""

EVIDENCE_VERDICTS: dict[str, bool] = {"proved": True, "refuted": False}
"""Definite evidence and the verdict it forces (True = equivalent)."""


def forced_by_evidence(evidence: object) -> bool | None:
    """The verdict definite evidence forces (True = equivalent), or None (no definite evidence)."""
    return EVIDENCE_VERDICTS.get(evidence) if isinstance(evidence, str) else None


def _word(equivalent: bool) -> Verdict:
    return "equivalent" if equivalent else "not-equivalent"


def _edits_decision(residual: Sequence[ResidualEdit]) -> Decision:
    """Step 3 of the module docstring on the judged residual edits."""
    counting = [e for e in residual if e.counts]
    if counting:
        return Decision("not-equivalent", "edits", _describe(counting[0], "meaning edit"))
    untrusted = [e for e in residual if e.role == "untrusted"]
    if untrusted:
        return Decision(None, None, _describe(untrusted[0], "fallback to the threshold: "
                                              "untrusted edit"))
    return Decision("equivalent", "edits", "no meaning edit left" if residual else "no edit left")


def _describe(edit: ResidualEdit, what: str) -> str:
    ref, cand = edit.reference, edit.candidate
    shown = f"{ref} → {cand}" if ref and cand else (ref or cand or "")
    why = edit.why or load_kind_table().why.get(edit.kind, "")
    return f"{what} ({edit.where}, {edit.kind}: {shown}): {why}"


VACUOUS_REASON_PREFIX = "vacuous: "
"""How a verdict reason starts when the verdict holds only because both sides' hypotheses are
contradictory (evidence by vacuity, :mod:`transted.pipeline.evidence.vacuity`): right under
mutual provability, and surprising, so results say it and summaries count it."""


def decide_forced(evidence: object, residual: Sequence[ResidualEdit] | None, *,
                  status: str = "ok", convention: str = "strict",
                  rejected: Mapping[str, Any] | None = None,
                  evidence_reason: str | None = None) -> Decision:
    """What decides before the threshold (steps 1–3): a :class:`Decision` with a verdict, or
    one with ``verdict=None`` and the reason the threshold must decide. ``rejected`` is the
    elaboration issue that makes Lean reject the candidate
    (:func:`transted.pipeline.verdict.rejection.rejection`; ``details["rejected"]`` of a line)."""
    if status == "invalid":
        return Decision("not-equivalent", "invalid", "the candidate is not valid Lean 4")
    if rejected:
        return Decision("not-equivalent", "invalid",
                        f"the candidate does not elaborate: {rejected.get('kind')} at "
                        f"{rejected.get('path') or 'root'}: {rejected.get('message')}")
    forced = forced_by_evidence(evidence)
    if forced is not None:
        if evidence_reason is not None and evidence_reason.startswith(VACUOUS_REASON):
            return Decision(_word(forced), "evidence", VACUOUS_REASON_PREFIX + evidence_reason)
        return Decision(_word(forced), "evidence", f"evidence: {evidence}")
    if residual is None or not convention_rule(convention).edits_decide:
        return Decision(None, None, None)
    return _edits_decision(residual)


def forced_decision(details: Mapping[str, Any], *, status: str = "ok",
                    convention: str = "strict") -> Decision:
    """:func:`decide_forced` of a result line's ``details`` (as read back from a result file)."""
    residual = details.get("residual")
    edits = None if residual is None else [ResidualEdit.from_dict(e) for e in residual]
    return decide_forced(details.get("evidence"), edits, status=status, convention=convention,
                         rejected=details.get("rejected"),
                         evidence_reason=_evidence_reason(details))


def decide_result(score: float | None, *, evidence: object = None,
                  residual: Sequence[ResidualEdit] | None = None, binary: bool,
                  threshold: float | None, status: str = "ok", convention: str = "strict",
                  rejected: Mapping[str, Any] | None = None,
                  evidence_reason: str | None = None) -> Decision:
    """The verdict of one result and what decided it (see the module docstring)."""
    if convention not in CONVENTIONS:
        raise ValueError(f"`convention` must be one of {', '.join(CONVENTIONS)}, got "
                         f"{convention!r}")
    if binary and status == "ok" and score is not None and math.isfinite(score):
        return Decision(_word(bool(passes(score, BINARY_THRESHOLD))), "binary")
    return with_threshold(decide_forced(evidence, residual, status=status,
                                        convention=convention, rejected=rejected,
                                        evidence_reason=evidence_reason),
                          score, threshold)


def with_threshold(forced: Decision, score: float | None, threshold: float | None) -> Decision:
    """Step 4: ``forced`` when it has a verdict, else the fallback threshold's (None without a
    score or a threshold), keeping ``forced``'s reason for falling back."""
    if forced.verdict is not None:
        return forced
    if score is None or not math.isfinite(score) or threshold is None:
        return Decision(None, None, forced.reason)
    return Decision(_word(bool(passes(score, threshold))), "threshold", forced.reason)


def decide(score: float | None, details: Mapping[str, Any] | None = None, *, binary: bool,
           threshold: float | None, status: str = "ok", convention: str = "strict"
           ) -> Decision:
    """:func:`decide_result` of a result line's ``details`` (evidence, residual edits)."""
    details = details or {}
    residual = details.get("residual")
    edits = None if residual is None else [ResidualEdit.from_dict(e) for e in residual]
    return decide_result(score, evidence=details.get("evidence"), residual=edits, binary=binary,
                         threshold=threshold, status=status, convention=convention,
                         rejected=details.get("rejected"),
                         evidence_reason=_evidence_reason(details))


def _evidence_reason(details: Mapping[str, Any]) -> str | None:
    detail = details.get("evidence_detail")
    reason = detail.get("reason") if isinstance(detail, Mapping) else None
    return str(reason) if reason else None


def make_verdict(score: float | None, *, binary: bool, threshold: float | None,
                 evidence: object = None) -> tuple[Verdict | None, DecidedBy | None]:
    """:func:`decide` for a result with evidence and no residual edits (the threshold rule)."""
    d = decide(score, {"evidence": evidence}, binary=binary, threshold=threshold)
    return d.verdict, d.decided_by


_ROLE_ORDER = {"meaning": 0, "untrusted": 1, "presentational": 2}


def format_residual(residual: Sequence[Mapping[str, Any]], limit: int = 12) -> list[str]:
    """Plain-text lines of a result's residual edits: undischarged meaning edits first, then
    untrusted, discharged and presentational ones (``--explain``, reports)."""
    def order(e: Mapping[str, Any]) -> int:
        return _ROLE_ORDER.get(str(e.get("role")), 3) + (3 if e.get("discharged_by") else 0)

    lines = []
    for e in sorted(residual, key=order)[:limit]:
        ref, cand = e.get("reference"), e.get("candidate")
        what = (f"{ref} → {cand}" if ref is not None and cand is not None else
                f"{ref} only in the reference" if ref is not None else
                f"{cand} only in the candidate")
        tail = f"; discharged: {e['discharged_by']}" if e.get("discharged_by") else ""
        why = f" ({e['why']})" if e.get("why") else ""
        lines.append(f"{e.get('where')}: [{e.get('role')}] {e.get('class')} {e.get('op')}: "
                     f"{what}{why}{tail}")
    if len(residual) > limit:
        lines.append(f"… {len(residual) - limit} more edits")
    return lines
