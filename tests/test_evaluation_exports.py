"""The public names of transted.evaluate are pinned (httpx's test_exported_members)."""

from __future__ import annotations

import subprocess
import sys

import transted.evaluate as evaluate


def test_all_is_pinned_and_importable() -> None:
    assert sorted(evaluate.__all__) == sorted([
        "EPLA_CATEGORIES", "Agreement", "EvalConfig", "EvalRun", "MetricEvaluation",
        "Regression", "agreement_score", "bootstrap_ci", "compare_runs",
        "cross_validated_predictions", "gold_labels", "parse_positive", "predict", "run_eval",
        "select_threshold", "write_regression"])
    for name in evaluate.__all__:
        assert getattr(evaluate, name) is not None


def test_importing_does_not_load_matplotlib() -> None:
    code = "import sys, transted.evaluate; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
