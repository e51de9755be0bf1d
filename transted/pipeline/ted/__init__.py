"""Tree edit distance between operator trees (ASSESS §3.2).

Unit-cost Zhang–Shasha TED with interchangeable backends (:mod:`transted.pipeline.ted.backends`:
``edist`` default, ``zss`` reference, ``apted``), cost models as strategy objects
(:mod:`transted.pipeline.ted.cost`) and TED similarity ``1 - d / max(|T1|, |T2|)``
(:mod:`transted.pipeline.ted.distance`).
"""

from transted.pipeline.ted.backends import (
    BACKENDS,
    DEFAULT_BACKEND,
    TEDBackend,
    backend_names,
    get_backend,
)
from transted.pipeline.ted.cost import CostModel, PerOperationCost, UnitCost
from transted.pipeline.ted.distance import (
    TEDResult,
    TreeEditDistance,
    similarity_from,
    ted_similarity,
)

__all__ = [
    "BACKENDS",
    "DEFAULT_BACKEND",
    "CostModel",
    "PerOperationCost",
    "TEDBackend",
    "TEDResult",
    "TreeEditDistance",
    "UnitCost",
    "backend_names",
    "get_backend",
    "similarity_from",
    "ted_similarity",
]
