"""Semantic evidence for a pair: refute with counterexamples, close with decision procedures.

Public API: :func:`refute` (counterexample to the candidate, or to either statement),
:func:`decide_components` / :func:`decide_pair` (closing moves named after Lean tactics, with
the vacuity guard), :class:`Evidence`, :func:`pair_evidence` (both, under one budget).
Statements are proposition-form operator trees; see docs/EVIDENCE.md for every encoding.
"""

from transted.evidence.model import EVIDENCE_VERSION, Evidence
from transted.evidence.refute import RefuteOptions, refute

__all__ = ["Evidence", "EVIDENCE_VERSION", "RefuteOptions", "refute"]
