"""Statements from translator output as LLMs write it.

:func:`extract` turns a raw output — markdown fences, a "Here is the formalization:" preamble,
trailing explanations, proofs, helper definitions, ``variable`` lines, several theorems — into
the theorem to score, the context declarations in scope at it, and what was left out, as a
typed :class:`Extraction`. An output that is not valid Lean 4 in a way recognised with
confidence (cut off inside a bracket or before its type, Lean 3) is ``invalid``; one with
nothing to score is an ``error``. See docs/INPUTS.md.
"""

from __future__ import annotations

from transted.pipeline.extraction.extract import extract, same_name
from transted.pipeline.extraction.model import (
    ContextDeclaration,
    Extraction,
    Problem,
    ProseSpan,
    Span,
    TheoremDeclaration,
)

__all__ = ["extract", "same_name", "Extraction", "TheoremDeclaration", "ContextDeclaration",
           "ProseSpan", "Problem", "Span"]
