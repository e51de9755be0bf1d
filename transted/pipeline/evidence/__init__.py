"""Semantic evidence for a pair: refute with counterexamples, close with decision procedures.

Public API: :func:`pair_evidence` (refutation then decision under one budget),
:func:`refute`, :func:`decide_pair`, :func:`decide_trees` (one search goal ``lhs = rhs``,
for a move provider), :func:`statement_evidence` (is one statement false?),
:class:`Evidence`, :class:`RefuteOptions`; :mod:`~transted.pipeline.evidence.closing` turns a pair's
elaboration into result details and gates the search's closed goal; :mod:`~transted.pipeline.evidence.
scripts` maps each decision procedure to its Lean script. Statements are proposition-form
elaborations (:mod:`transted.pipeline.opt.elaborate`, the tree as written under its header) or trees;
docs/EVIDENCE.md gives every encoding with its Lean/Mathlib source, the vacuity rule and the
abstention rules.
"""

from transted.pipeline.evidence.api import (
    REFUTED_SCORE_CAP,
    apply_score_rule,
    evidence_signature,
    evidence_summary,
    pair_evidence,
    statement_evidence,
)
from transted.pipeline.evidence.closing import (
    elaboration_details,
    overload_details,
    search_blocking_issues,
    search_evidence,
)
from transted.pipeline.evidence.decide import Closing, decide_pair, decide_terms, decide_trees
from transted.pipeline.evidence.model import EVIDENCE_VERSION, Evidence
from transted.pipeline.evidence.refute import RefuteOptions, refute

__all__ = ["Evidence", "EVIDENCE_VERSION", "RefuteOptions", "refute", "pair_evidence",
           "statement_evidence", "evidence_signature", "REFUTED_SCORE_CAP", "Closing",
           "decide_pair", "decide_terms", "decide_trees", "apply_score_rule", "evidence_summary",
           "elaboration_details", "overload_details", "search_blocking_issues",
           "search_evidence"]
