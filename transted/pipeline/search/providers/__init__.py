"""Move providers: where the transformations of the search come from (offline rules, Lean,
third-party providers found through the ``transted.providers`` entry points)."""

from transted.pipeline.search.providers.base import Evidence, Move, MoveProvider, Provider

__all__ = ["Evidence", "Move", "MoveProvider", "Provider"]
