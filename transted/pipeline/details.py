"""A result line's ``details``, made from a :class:`~transted.pipeline.records.PairAnalysis`.

``details`` is the on-disk contract of a result line (resume and ``eval`` read it back,
:func:`transted.pipeline.verdict.rules.forced_decision`); it is made here and nowhere else, when a metric
serialises its :class:`~transted.metrics.base.MetricResult`. Key order is part of the bytes
of a line, so each form lists its keys in one place.
"""

from __future__ import annotations

from typing import Any

from transted.pipeline.evidence import elaboration_details, overload_details
from transted.pipeline.extraction.model import Extraction
from transted.pipeline.records import PairAnalysis, rejected_details
from transted.pipeline.sides import PairSides, SideReading

__all__ = ["distance_details", "search_details", "input_details"]


def distance_details(analysis: PairAnalysis) -> dict[str, Any]:
    """``ted``'s details: the distance, the sizes, auto-bound names, the residual edits, and
    what was extracted and read in context."""
    d = analysis.distance
    details: dict[str, Any] = {"distance": float(d.distance), "size_reference": d.size_reference,
                               "size_candidate": d.size_candidate}
    auto = analysis.sides.auto_bound
    if auto:
        details["auto_bound"] = auto
    details["residual"] = [e.as_dict() for e in analysis.residual]
    if analysis.rejected is not None:
        details["rejected"] = rejected_details(analysis.rejected)
    return {**details, **input_details(analysis.sides)}


def search_details(analysis: PairAnalysis) -> dict[str, Any]:
    """``transted``'s details: the search (d*, the plain distance, status, script, goals
    expanded, size), elaboration issues, the graded score, the evidence, the residual edits,
    and what was extracted and read in context."""
    result, evidence, d = analysis.search, analysis.evidence, analysis.distance
    if result is None or evidence is None:
        raise ValueError("`analysis` has no search: use distance_details")
    details: dict[str, Any] = {
        "distance": result.distance, "ted_distance": result.start_distance,
        "status": result.status, "script": result.script,
        "expanded": result.stats["expanded"], "size": max(d.size_reference, d.size_candidate)}
    issues = elaboration_details(analysis.sides.reference.normalized,
                                 analysis.sides.candidate.normalized)
    if issues:
        details["elaboration"] = issues
    overloads = overload_details(analysis.sides.reference.normalized,
                                 analysis.sides.candidate.normalized)
    if overloads:
        details["overloads"] = overloads
    details["graded_score"] = analysis.graded_score
    details["evidence"] = evidence.kind
    # the engines' time stays off the line: a result line is the same bytes on every run
    details["evidence_detail"] = evidence.model_dump(exclude={"ms"})
    details["residual"] = [e.as_dict() for e in analysis.residual]
    if analysis.rejected is not None:
        details["rejected"] = rejected_details(analysis.rejected)
    details.update(input_details(analysis.sides))
    return details


def input_details(sides: PairSides) -> dict[str, Any]:
    """``extraction`` (per side, when the text was more than one bare declaration) and
    ``context`` (definitions unfolded, compared, abstained on; variables joined)."""
    out: dict[str, Any] = {}
    extraction = {key: _extraction(side.extraction,
                                   requested=sides.theorem_requested and key == "candidate")
                  for key, side in (("reference", sides.reference),
                                    ("candidate", sides.candidate))
                  if side.extraction is not None}
    extraction = {k: v for k, v in extraction.items() if v}
    if extraction:
        out["extraction"] = extraction
    context = _context(sides)
    if context:
        out["context"] = context
    return out


def _extraction(ex: Extraction, *, requested: bool) -> dict[str, Any]:
    """What the extractor chose and left out, when the text was more than one declaration."""
    theorem = ex.theorem
    plain = (ex.chosen_by in ("only", "reference-name") and not ex.prose and not ex.fences
             and not ex.context and not ex.other_theorems and not ex.warnings and not requested)
    if plain or theorem is None:
        return {}
    out: dict[str, Any] = {"theorem": theorem.full_name or theorem.keyword,
                           "chosen_by": ex.chosen_by, "reason": ex.reason,
                           "line": theorem.span.line}
    if ex.other_theorems:
        out["other_theorems"] = list(ex.other_theorems)
    if ex.context:
        out["context"] = [f"{c.kind} {c.name}".strip() for c in ex.context]
    if ex.prose:
        out["left_out"] = [f"{p.role} (line {p.span.line})" for p in ex.prose]
    if ex.fences:
        out["fences"] = list(ex.fences)
    if ex.warnings:
        out["warnings"] = list(ex.warnings)
    return out


def _context(sides: PairSides) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, side in (("reference", sides.reference), ("candidate", sides.candidate)):
        part = _side_context(side)
        if part:
            out[key] = part
    if sides.compared:
        out["compared"] = [{"name": c.name, "agree": c.agree, "why_kept": c.why_kept,
                            "defined_in": list(c.defined_in)} for c in sides.compared]
    return out


def _side_context(side: SideReading) -> dict[str, Any]:
    part: dict[str, Any] = {}
    u = side.unfolding
    if u is not None and u.unfolded:
        part["unfolded"] = list(u.unfolded)
    if u is not None and u.abstained:
        part["abstained"] = dict(sorted(u.abstained.items()))
    if side.variables:
        part["variables"] = list(side.variables)
    return part
