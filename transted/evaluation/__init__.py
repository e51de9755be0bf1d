"""Agreement of metrics with expert labels (ASSESS §4.1–4.3, Table 3, Fig. 3).

The flow of ``transted eval``: :mod:`~transted.evaluation.labels` gives each pair its expert
verdict and problem (:class:`~transted.evaluation.labels.LabelledPairs`, the one home of the
labels), :mod:`~transted.evaluation.run` scores the pairs with each metric (streamed by
:mod:`transted.batch`), :mod:`~transted.evaluation.threshold` chooses thresholds (oracle, grouped
cross-validation), :mod:`~transted.evaluation.agreement` measures agreement (scikit-learn,
bootstrap intervals) and :mod:`~transted.evaluation.reports` writes the files. Reading pair files
is the caller's (:func:`transted.api.evaluate`, the CLI).
"""

from transted.evaluation.agreement import Agreement, agreement_score, bootstrap_ci
from transted.evaluation.harness import EvalConfig, MetricEvaluation
from transted.evaluation.labels import EPLA_CATEGORIES, LabelledPairs, gold_labels, parse_positive
from transted.evaluation.outcome import EvalRun
from transted.evaluation.run import run_eval
from transted.evaluation.threshold import cross_validated_predictions, select_threshold

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
