"""What a pair's elaboration says about claims: the issues on the result line, whether the
search's closed goal may become ``proved``, and that ``proved``'s record.

The search closes a goal when the two sides are the same canonical tree (or a decision
procedure closed it). Two trees are the same *statement* only if each is what Lean makes of
its text: a name that is an auto-bound variable, an ambiguous overload, a scoped notation the
header does not open, a missing instance or an unknown constant (the elaboration's
:data:`~transted.pipeline.opt.elaborate.MEANING_KINDS`) means Lean rejects the statement or reads it
otherwise, so the closed goal is reported without a ``proved`` claim.
"""

from __future__ import annotations

from transted.pipeline.evidence.model import Evidence
from transted.pipeline.evidence.scripts import SCRIPT_STATUS
from transted.pipeline.opt import Normalized

__all__ = ["elaboration_details", "overload_details", "search_blocking_issues",
           "search_evidence"]


def elaboration_details(reference: Normalized, candidate: Normalized
                        ) -> dict[str, list[dict[str, object]]]:
    """The elaboration issues of each side (sides without any omitted), for result details."""
    out = {}
    for side, norm in (("reference", reference), ("candidate", candidate)):
        if norm.elaboration is not None and norm.elaboration.issues:
            out[side] = [issue.to_dict() for issue in norm.elaboration.issues]
    return out


def overload_details(reference: Normalized, candidate: Normalized
                     ) -> dict[str, list[dict[str, object]]]:
    """The overloaded names each side's elaboration resolved, and why the other alternatives
    certainly fail (sides without any omitted), for result details."""
    out = {}
    for side, norm in (("reference", reference), ("candidate", candidate)):
        if norm.elaboration is not None and norm.elaboration.overloads:
            out[side] = [choice.to_dict(path)
                         for path, choice in sorted(norm.elaboration.overloads.items())]
    return out


def search_blocking_issues(reference: Normalized, candidate: Normalized) -> str | None:
    """Why a goal the search closed is not a proof (None: it is).

    Any issue that says Lean rejects a side blocks (a statement Lean rejects is neither
    provable nor equal to another). An auto-bound name blocks only when the two sides were
    resolved in different scopes: under one scope, a name the table misses is missed on both
    sides alike, and a goal closed for every value of the variable holds for the constant too.
    """
    same_scope = (reference.elaboration is not None and candidate.elaboration is not None
                  and reference.elaboration.scope == candidate.elaboration.scope)
    for side, norm in (("reference", reference), ("candidate", candidate)):
        issues = norm.elaboration.meaning_issues if norm.elaboration is not None else ()
        issues = tuple(i for i in issues if not (same_scope and i.kind == "auto-bound"))
        if issues:
            return f"the {side} does not elaborate as written (elaboration: {issues[0]})"
    return None


def search_evidence(script: list[str]) -> Evidence:
    """``proved`` by the search: the rewrite path as a Lean script, unverified."""
    procedure = "identical" if script == ["rfl"] else "rewriting"
    return Evidence(kind="proved", engine="search", script=list(script),
                    procedures=[procedure], script_status=SCRIPT_STATUS,
                    reason="the search closed the goal (identical canonical trees)")
