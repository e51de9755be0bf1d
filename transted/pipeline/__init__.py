"""The pipeline of one Lean pair: stages that hand typed records forward.

extraction and context → sides (parse, elaborate, normalise) → distance → search → evidence →
residual edits → decision, each returning a frozen record, gathered in one
:class:`PairAnalysis` (:mod:`transted.pipeline.run`). ``ted`` and ``transted``
(:mod:`transted.metrics`) are two configurations (:class:`PipelineConfig`); a result line's
``details`` are made from the analysis in :mod:`transted.pipeline.details`.
"""

from transted.pipeline.config import PipelineConfig, tree_fields
from transted.pipeline.details import distance_details, input_details, search_details
from transted.pipeline.explain import explanation_lines
from transted.pipeline.records import Distance, PairAnalysis
from transted.pipeline.run import PairPipeline
from transted.pipeline.sides import PairSides, SideReading, read_sides

__all__ = ["PairPipeline", "PipelineConfig", "PairAnalysis", "Distance", "PairSides",
           "SideReading", "read_sides", "distance_details", "search_details", "input_details",
           "explanation_lines", "tree_fields"]
