"""The public names of transted.studies.evaluation and transted.studies.regression are pinned (httpx's
test_exported_members); importing them stays light."""

from __future__ import annotations

import subprocess
import sys

import pytest

import transted
import transted.studies.evaluation as evaluation
import transted.studies.regression as regression


@pytest.mark.parametrize(("package", "names"), [
    (evaluation, ["EPLA_CATEGORIES", "Agreement", "EvalConfig", "EvalRun", "LabelledPairs",
                  "MetricEvaluation", "agreement_score", "bootstrap_ci",
                  "cross_validated_predictions", "gold_labels", "parse_positive", "run_eval",
                  "select_threshold"]),
    (regression, ["GateReport", "PairDelta", "Regression", "check_regression", "compare_runs",
                  "write_regression"]),
])
def test_all_is_pinned_and_importable(package, names) -> None:
    assert sorted(package.__all__) == sorted(names)
    for name in package.__all__:
        assert getattr(package, name) is not None


def test_transted_evaluate_is_the_api_function() -> None:
    from transted.api import evaluate

    assert transted.evaluate is evaluate and callable(transted.evaluate)


@pytest.mark.parametrize("module", ["transted.studies.evaluation", "transted.studies.regression"])
def test_importing_does_not_load_matplotlib(module: str) -> None:
    code = f"import sys, {module}; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
