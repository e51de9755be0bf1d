"""Agreement of metrics with expert labels, and regression between translator versions.

The flow of ``transted eval``: :mod:`~transted.evaluate.run` scores the pairs with each metric
(streamed by :mod:`transted.batch`), :mod:`~transted.evaluate.labels` reads the expert verdicts,
:mod:`~transted.evaluate.threshold` turns scores into verdicts, :mod:`~transted.evaluate.agreement`
measures agreement (scikit-learn, bootstrap intervals), and :mod:`~transted.evaluate.report` /
:mod:`~transted.evaluate.plot` write the files. :mod:`~transted.evaluate.regress` compares two
runs of a translator. References: ASSESS §4.1–4.3, Table 3, Fig. 3.
"""

from transted.evaluate.agreement import Agreement, agreement_score, bootstrap_ci
from transted.evaluate.harness import EvalConfig, MetricEvaluation
from transted.evaluate.labels import EPLA_CATEGORIES, gold_labels, parse_positive
from transted.evaluate.outcome import EvalRun
from transted.evaluate.regress import Regression, compare_runs, write_regression
from transted.evaluate.run import run_eval
from transted.evaluate.threshold import cross_validated_predictions, predict, select_threshold

__all__ = [
    "EPLA_CATEGORIES",
    "Agreement",
    "EvalConfig",
    "EvalRun",
    "MetricEvaluation",
    "Regression",
    "agreement_score",
    "bootstrap_ci",
    "compare_runs",
    "cross_validated_predictions",
    "gold_labels",
    "parse_positive",
    "predict",
    "run_eval",
    "select_threshold",
    "write_regression",
]

# `transted.evaluate(pairs, labels=..., metrics=...)` is the API function (transted.api.evaluate)
import sys as _sys  # noqa: E402

from transted.api import CallablePackage as _CallablePackage  # noqa: E402

_sys.modules[__name__].__class__ = _CallablePackage
