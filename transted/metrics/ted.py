"""``ted``: TED similarity of the two statements' operator trees (ASSESS §3.2).

A configuration of the pair pipeline (:mod:`transted.pipeline`) without search or evidence:
both sides read in their context, ``1 - TED / max(|T1|, |T2|)`` (unit-cost Zhang–Shasha,
:mod:`transted.pipeline.ted`), the residual edits between the trees and the verdict they force.
"""

from __future__ import annotations

from typing import ClassVar

from transted.metrics.base import Metric, MetricResult, PairExplanation, PairScore
from transted.pipeline.config import PipelineConfig
from transted.pipeline.details import distance_details
from transted.pipeline.explain import explanation_lines
from transted.pipeline.opt import Node, OptOptions
from transted.pipeline.run import PairPipeline
from transted.pipeline.sides import Field
from transted.pipeline.ted import DEFAULT_BACKEND
from transted.pipeline.verdict.conventions import DEFAULT_CONVENTION
from transted.pipeline.verdict.rules import verdict_field
from transted.reading.pairs import Pair

__all__ = ["TEDSimilarity"]


class TEDSimilarity(Metric):
    """TED similarity between reference and candidate operator trees.

    Parameters
    ----------
    proposition, split_binders, canonical_names : tree shape, see :class:`~transted.pipeline.opt.OptOptions`
    field : ``"statement"`` (as written, default), ``"pretty"`` (Lean's pretty-printed form) or
        ``"term"`` (each side is one term, e.g. a proposition)
    backend : TED backend name (all give identical distances; ``edist`` is fastest)
    theorem : the theorem to take from each candidate text with several (``--theorem NAME``);
        by default the one named like the reference's, else the last (docs/INPUTS.md)
    normalize : elaboration-faithful normalisation (:mod:`transted.pipeline.opt.normalize`)
    cost : ``"unit"`` (ASSESS) or ``"semantic"`` (:mod:`transted.pipeline.ted.semantic`: the cost
        table and hypotheses/binders aligned as units, :mod:`transted.pipeline.ted.hypotheses`)
    convention : ``"strict"`` (mutual provability, default) or ``"lenient"``: which pairs
        the verdict calls equivalent (:mod:`transted.pipeline.verdict.conventions`; not the score)

    Every result carries ``details["residual"]``: the judged edits between the two trees
    (:mod:`transted.pipeline.verdict.residual`; no search, no hypothesis entailment here).
    """

    name: ClassVar[str] = "ted"
    version: ClassVar[str] = "2"  # 2: normalisation on by default
    DEFAULTS: ClassVar[OptOptions] = OptOptions()

    def __init__(self, *, proposition: bool = DEFAULTS.proposition,
                 split_binders: bool = DEFAULTS.split_binders,
                 canonical_names: bool = DEFAULTS.canonical_names,
                 field: Field = "statement", backend: str = DEFAULT_BACKEND,
                 normalize: bool = DEFAULTS.normalize, cost: str = "unit",
                 theorem: str | None = None, convention: str = DEFAULT_CONVENTION):
        tree = OptOptions(proposition=proposition, split_binders=split_binders,
                          canonical_names=canonical_names, normalize=normalize)
        self.pipeline = PairPipeline(PipelineConfig(
            tree=tree, field=field, theorem=theorem, cost=cost, backend=backend,
            convention=convention))
        self.convention = self.pipeline.config.convention

    def options(self) -> dict[str, object]:
        return {**self.pipeline.computation_options(), "convention": self.convention,
                "verdict": verdict_field(residual=True)}

    def trees(self, pair: Pair, *, sources: tuple[str, str] | None = None) -> tuple[Node, Node]:
        """Both trees as read; a parse error names ``sources`` (default ``<id> reference``/
        ``<id> candidate``)."""
        return self.pipeline.read(pair, sources=sources).trees

    def _score(self, pair: Pair) -> PairScore:
        analysis = self.pipeline.analyse(pair)
        return PairScore(analysis.score, distance_details(analysis), forced=analysis.decision)

    def explain_pair(self, pair: Pair, result: MetricResult) -> PairExplanation:
        return PairExplanation(lines=tuple(explanation_lines(
            self.pipeline, pair, metric=self.name, details=result.details)))
