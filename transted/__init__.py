"""transted: how close is a candidate formal statement to a reference one?

Operator trees (``transted.pipeline.opt``), tree edit distance (``transted.pipeline.ted``), the TransTED
transformation search (``transted.pipeline.search``), an optional Lean backend (``transted.pipeline.lean``),
metrics with reproducibility signatures (``transted.metrics``) and their verdicts
(``transted.pipeline.verdict``), where pairs are scored (``transted.running.executors``), agreement with expert
labels (``transted.studies.evaluation``), the sensitivity suite (``transted.studies.sensitivity``), shipped
thresholds (``transted.studies.calibration``), translator regression gates (``transted.studies.regression``) and
first-order-logic metrics (``transted.fol``).

The Python API (:mod:`transted.api`) is exported here: :func:`score`, :func:`score_many`,
:func:`load_metric`, :func:`evaluate`, :func:`sample_figures` (per-problem figures of sampled
outputs), :class:`Result` and :class:`RunOptions` (how a batch runs: jobs, executor, pair
timeout, output, resume); it is imported on first use so that ``import transted`` stays
light.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from transted.api import Result, evaluate, load_metric, sample_figures, score, score_many
    from transted.running.executors.run_options import RunOptions

from transted.version import __version__

__all__ = ["__version__", "Result", "RunOptions", "evaluate", "load_metric", "sample_figures",
           "score", "score_many"]

_API = frozenset({"Result", "evaluate", "load_metric", "sample_figures", "score", "score_many"})


def __getattr__(name: str) -> Any:
    if name == "RunOptions":  # light: no metric, no pool
        return getattr(import_module("transted.running.executors.run_options"), name)
    if name in _API:  # PEP 562: the API module is loaded on first use
        return getattr(import_module("transted.api"), name)
    raise AttributeError(f"module 'transted' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _API | {"RunOptions"})
