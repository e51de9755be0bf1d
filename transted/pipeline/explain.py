"""What ``--explain`` shows of a pair the pipeline scored: the costed edits behind its distance
(which relation, numeral, type or hypothesis differs, at what cost), the residual edits the
verdict read, and the implicit names Lean would auto-bind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from transted.errors import escape_control
from transted.pipeline.run import PairPipeline
from transted.pipeline.ted.edits import costed_edits, format_edits
from transted.pipeline.verdict.rules import format_residual
from transted.reading.pairs import Pair

__all__ = ["explanation_lines"]


def explanation_lines(pipeline: PairPipeline, pair: Pair, *, metric: str,
                      details: Mapping[str, Any]) -> list[str]:
    """The lines explaining a result of ``metric`` (on ``pipeline``) for ``pair``, whose
    result line holds ``details``."""
    sides = pipeline.read(pair)
    ref, cand = sides.trees
    edits = costed_edits(ref, cand, pipeline.distance)
    lines = [f"{metric}: costed edits (tree of `ted`, {sum(e.cost for e in edits):g} in all):"]
    lines += [f"  {escape_control(line)}" for line in format_edits(edits)] or ["  none"]
    residual: Sequence[Mapping[str, Any]] | None = details.get("residual")
    if residual is not None:
        what = "best goal after search and evidence" if metric == "transted" else "trees"
        lines.append(f"{metric}: residual edits ({what}; the verdict's input, "
                     "docs/VERDICTS.md):")
        lines += [f"  {escape_control(line)}" for line in format_residual(residual, 40)] or \
            ["  none"]
    auto = details.get("auto_bound") or sides.auto_bound
    for side, names in auto.items():
        lines.append(f"  auto-bound in the {side}: {escape_control(', '.join(names))}")
    return lines
