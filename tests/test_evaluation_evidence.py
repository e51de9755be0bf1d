"""eval: per-metric evidence counts and precision in summary.json, evidence in disagreements."""

import numpy as np
from eval_helpers import labelled

from transted.studies.evaluation.harness import EvalConfig, MetricEvaluation, evaluate_metric
from transted.studies.evaluation.reports.markdown import evidence_line


def test_summary_counts_and_precision_of_the_definite_kinds():
    labels = np.array([True, False, False, True, True, False])
    evidence = ["proved", "refuted", "refuted", "refuted", None, "none"]
    ev = MetricEvaluation("m", "metric:m", False, np.array([0.9, 0.2, 0.3, 0.4, 0.8, 0.5]), {},
                          evidence=evidence)
    evaluate_metric(ev, labelled(labels), EvalConfig(n_boot=10))
    entry = ev.summary(EvalConfig(n_boot=10))
    # by hand: proved 1 (label true: right), refuted 3 (labels F, F, T: 2 right), none 2
    assert entry["evidence_counts"] == {"proved": 1, "refuted": 3, "none": 2}
    assert entry["evidence_precision"] == {"proved": 1.0, "refuted": 2 / 3}
    assert ev.n_evidence == 4


def test_metric_without_evidence_counts_all_none():
    labels = np.array([True, False])
    ev = MetricEvaluation("m", "metric:m", False, np.array([0.9, 0.2]), {},
                          evidence=[None, None])
    evaluate_metric(ev, labelled(labels), EvalConfig(n_boot=10))
    entry = ev.summary(EvalConfig(n_boot=10))
    assert entry["evidence_counts"] == {"proved": 0, "refuted": 0, "none": 2}
    assert entry["evidence_precision"] == {"proved": None, "refuted": None}


def test_evidence_line_names_witness_and_side():
    line = evidence_line("refuted", {"engine": "eval", "witness": {"p": "2", "k": "0"},
                                     "failing_side": "candidate", "script": [],
                                     "reason": "candidate false; reference taken as true"})
    assert line == ("Evidence: refuted (eval) — candidate false at p = 2, k = 0 — "
                    "candidate false; reference taken as true")
    assert evidence_line(None, None) == "Evidence: none"
