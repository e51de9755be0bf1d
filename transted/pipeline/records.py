"""The records the stages of a pair hand forward, gathered in one :class:`PairAnalysis`.

Each stage returns a frozen record; nothing between stages is a dict. Stage 1's record,
:class:`~transted.pipeline.sides.PairSides`, lives with its stage; the search's is
:class:`~transted.pipeline.search.engine.SearchResult`, the evidence's
:class:`~transted.pipeline.evidence.model.Evidence`, the residual's edits
:class:`~transted.pipeline.verdict.residual_edit.ResidualEdit` and the decision
:class:`~transted.pipeline.verdict.rules.Decision`. A result line's ``details`` are made from a
:class:`PairAnalysis` in one place (:mod:`transted.pipeline.details`).
"""

from __future__ import annotations

from dataclasses import dataclass

from transted.pipeline.evidence.model import Evidence
from transted.pipeline.opt.elaborate import Issue
from transted.pipeline.search.engine import SearchResult
from transted.pipeline.sides import PairSides
from transted.pipeline.verdict.residual_edit import ResidualEdit
from transted.pipeline.verdict.rules import Decision

__all__ = ["Distance", "PairAnalysis", "rejected_details"]


@dataclass(frozen=True)
class Distance:
    """Stage 2: the distance between the two trees as read, and the similarity it gives."""

    distance: float
    similarity: float
    norm: float
    """The similarity's normaliser (:meth:`~transted.pipeline.ted.statement_distance.StatementDistance.norm`)."""
    size_reference: int
    size_candidate: int


@dataclass(frozen=True)
class PairAnalysis:
    """Everything the pipeline found about one pair, stage by stage.

    ``search`` and ``evidence`` are None for a configuration without them (``ted``);
    ``score`` is the similarity after the evidence's score rule (the graded score when
    there is no definite evidence); ``residual`` are the judged edits between the best goal's
    two sides (the trees as read when there is no search); ``decision`` the verdict that
    evidence or edits force (``verdict`` None where the fallback threshold must decide, with
    the reason).
    """

    sides: PairSides
    distance: Distance
    search: SearchResult | None
    evidence: Evidence | None
    residual: tuple[ResidualEdit, ...]
    score: float
    graded_score: float
    decision: Decision
    rejected: Issue | None = None
    """The elaboration issue that certainly makes Lean reject the candidate (and not the
    reference), :func:`transted.pipeline.verdict.rejection.rejection`."""


def rejected_details(issue: Issue | None) -> dict[str, object] | None:
    """The ``rejected`` record of a result line (the candidate's issue), or None."""
    return None if issue is None else {"side": "candidate", **issue.to_dict()}
