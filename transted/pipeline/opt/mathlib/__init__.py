"""The Mathlib declaration index: what the pinned Mathlib, Batteries and (curated) Lean core
declare — kinds, attributes, binders, types, values, parents, instances, theorem statements —
parsed by transted's own parser and bundled as a read-only SQLite file
(docs/MATHLIB_INDEX.md). :func:`load_index` opens it lazily.
"""

from __future__ import annotations

from transted.pipeline.opt.mathlib.index import SIZE_CAP_BYTES, MathlibIndex, index_path, load_index
from transted.pipeline.opt.mathlib.records import (
    Binder,
    Body,
    Coverage,
    HierarchyEdge,
    IndexedDeclaration,
    IndexVersion,
    LemmaStatement,
    RewriteLemma,
)

__all__ = ["MathlibIndex", "load_index", "index_path", "SIZE_CAP_BYTES", "Binder", "Body",
           "Coverage", "IndexedDeclaration", "HierarchyEdge", "IndexVersion", "RewriteLemma",
           "LemmaStatement"]
