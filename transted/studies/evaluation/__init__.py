"""Agreement of metrics with expert labels (ASSESS §4.1–4.3, Table 3, Fig. 3).

The flow of ``transted eval``: :mod:`~transted.studies.evaluation.labels` gives each pair its expert
verdict and problem (:class:`~transted.studies.evaluation.labels.LabelledPairs`, the one home of the
labels), :mod:`~transted.studies.evaluation.run` scores the pairs with each metric (streamed by
:mod:`transted.running.batch`), :mod:`~transted.studies.evaluation.threshold` chooses thresholds (oracle, grouped
cross-validation), :mod:`~transted.studies.evaluation.agreement` measures agreement (scikit-learn,
bootstrap intervals) and :mod:`~transted.studies.evaluation.reports` writes the files. Reading pair files
is the caller's (:func:`transted.api.evaluate`, the CLI).
"""

from transted.studies.evaluation.agreement import Agreement, agreement_score, bootstrap_ci
from transted.studies.evaluation.harness import EvalConfig, MetricEvaluation
from transted.studies.evaluation.labels import (
    EPLA_CATEGORIES,
    LabelledPairs,
    gold_labels,
    parse_positive,
)
from transted.studies.evaluation.outcome import EvalRun
from transted.studies.evaluation.run import run_eval
from transted.studies.evaluation.threshold import cross_validated_predictions, select_threshold

__all__ = [
    "EPLA_CATEGORIES",
    "Agreement",
    "EvalConfig",
    "EvalRun",
    "LabelledPairs",
    "MetricEvaluation",
    "agreement_score",
    "bootstrap_ci",
    "cross_validated_predictions",
    "gold_labels",
    "parse_positive",
    "run_eval",
    "select_threshold",
]
