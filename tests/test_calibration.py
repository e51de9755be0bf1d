"""The threshold-derivation procedure, the shipped file against it, grouped CV folds, the
default threshold mode with evidence and abstention."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml
from eval_helpers import labelled
from hypothesis import given, settings
from hypothesis import strategies as st

from transted.metrics.registry import get_metric
from transted.pipeline.verdict.rules import THRESHOLDS_FILE
from transted.reading.pairs import read_pairs
from transted.studies.calibration.procedure import (
    data_digest,
    derive_threshold,
    source_balanced_accuracy,
)
from transted.studies.evaluation.labels import problem_group
from transted.studies.evaluation.threshold import cross_validated_predictions, grouped_folds

ROOT = Path(__file__).resolve().parents[1]
DEV = ROOT / "tests/data/gted/proofnet.jsonl"
STRICT = [ROOT / "tests/data/strict/beq_human_dev.jsonl",
          ROOT / "tests/data/strict/proofnet_verified_dev.jsonl"]
LABELLED = {"strict": STRICT, "lenient": [DEV]}
STATEMENTS = [ROOT / "tests/data/statements/minif2f.jsonl",
              ROOT / "tests/data/statements/proofnet.jsonl"]


def test_source_balanced_accuracy_by_hand():
    # source a: pos 0.9, neg 0.1, 0.6 ; source b: pos 0.7, neg 0.2
    s = [0.9, 0.1, 0.6, 0.7, 0.2]
    y = [True, False, False, True, False]
    src = ["a", "a", "a", "b", "b"]
    # t = 0.65: a -> TPR 1, TNR 2/2 = 1 -> 1.0; b -> TPR 1, TNR 1 -> 1.0
    # t = 0.5:  a -> TPR 1, TNR 1/2 -> 0.75; b -> 1.0  => mean 0.875
    got = source_balanced_accuracy(s, y, src, [0.65, 0.5])
    assert got.tolist() == [1.0, 0.875]
    # the best candidates are the midpoints 0.65 and 0.8 (both 1.0); the median of the two
    # tied candidates (lower middle) is taken
    assert derive_threshold(s, y, src) == pytest.approx(0.65)


def test_balanced_accuracy_is_not_decided_by_the_larger_source():
    # source "big" (10 pairs) prefers t in (0.45, 0.5]; source "small" prefers t in (0.5, 0.8]
    big = [0.4] * 5 + [0.5] * 5
    s = big + [0.5, 0.9]
    y = [False] * 5 + [True] * 5 + [False, True]
    src = ["big"] * 10 + ["small"] * 2
    # t = 0.45: big 1.0, small 0.5 -> 0.75 ; t = 0.7: big 0.5, small 1.0 -> 0.75 (tie);
    # both sources weigh the same, so neither wins outright
    value = source_balanced_accuracy(s, y, src, [0.45, 0.7])
    assert value.tolist() == [0.75, 0.75]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 12), st.booleans()), min_size=6, max_size=60),
       st.integers(2, 4), st.integers(0, 5))
def test_grouped_folds_never_split_a_problem(items, folds, seed):
    groups = [f"p{g}" for g, _ in items]
    labels = np.array([y for _, y in items])
    if len(set(groups)) < folds:
        with pytest.raises(ValueError, match="groups"):
            grouped_folds(labels, groups, folds=folds, seed=seed)
        return
    fold_of = grouped_folds(labels, groups, folds=folds, seed=seed)
    for g in set(groups):
        assert len({int(fold_of[i]) for i, x in enumerate(groups) if x == g}) == 1
    assert len(set(fold_of.tolist())) == folds


def test_dev_cv_folds_keep_pairs_of_one_reference_together():
    pairs = read_pairs(DEV)
    groups = [problem_group(p) for p in pairs]
    labels = np.array([bool(p.label) for p in pairs])
    fold_of = grouped_folds(labels, groups, folds=5, seed=0)
    for g in set(groups):
        assert len({int(fold_of[i]) for i, x in enumerate(groups) if x == g}) == 1
    # leave-one-problem-out: a pair is never classified with a threshold chosen on a pair
    # of its own problem -> with two pairs of one problem at scores 0 / 1 and opposite labels,
    # the held-out group is predicted from the others only
    s = np.array([0.1, 0.9, 0.2, 0.8])
    y = np.array([False, True, False, True])
    preds, used = cross_validated_predictions(s, y, groups=["a", "a", "b", "b"])
    assert preds.tolist() == [False, True, False, True]
    assert used.tolist() == [0.5, 0.5, 0.5, 0.5]  # the midpoint learnt from the other group


def test_shipped_rules_match_the_shipped_data_and_metrics():
    """The file was derived from the data in the repository and for today's metrics, one rule
    per shipped metric spec (``transted`` also without the rewrite lemmas) and convention; if this
    fails, re-run `python benchmarks/derive_thresholds.py`."""
    content = yaml.safe_load(THRESHOLDS_FILE.read_text(encoding="utf-8"))
    data = content["data"]
    from transted.studies.sensitivity.lean.perturb import GENERATOR_VERSION

    files = [f for c in ("strict", "lenient") for f in LABELLED[c]]
    assert data["digest"] == data_digest([*files, *STATEMENTS], GENERATOR_VERSION,
                                         str(data["seed"]), str(data["per_kind"]))
    shipped = [("ted", ""), ("bleu", ""), ("transted", ""),
               ("transted", "offline,decide")]
    seen = []
    for entry in content["rules"]:
        name, convention = entry["metric"], entry["convention"]
        signatures = {
            providers: str(get_metric(n, convention=convention,
                                      **({"providers": providers} if providers else {}))
                           .base_signature)
            for n, providers in shipped if n == name}
        matched = [p for p, sig in signatures.items() if sig == entry["signature"]]
        assert len(matched) == 1, (name, convention)
        seen.append((name, matched[0], convention))
        assert entry["data"] == [_sha(f) for f in LABELLED[convention]]
        assert 0 <= entry["cv"]["balanced_accuracy"] <= 1.0
        assert entry["n_fallback"] <= entry["n_labelled"]
    assert sorted(seen) == sorted((n, p, c) for n, p in shipped for c in ("strict", "lenient"))


def _sha(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def test_problem_key_groups_one_exercise_across_files():
    from transted.studies.calibration.problems import problem_key

    keys = {f.name: {problem_key(p) for p in read_pairs(f)} for f in [DEV, *STRICT]}
    # ProofNet-Verified names carry the book (Artin_exercise_10_4_6), GTED's do not
    assert "exercise_10_4_6" in keys["proofnet_verified_dev.jsonl"]
    assert keys["proofnet.jsonl"] & keys["beq_human_dev.jsonl"]
    assert keys["proofnet.jsonl"] & keys["proofnet_verified_dev.jsonl"]
    assert all(k == k.lower() for ks in keys.values() for k in ks)


@pytest.mark.slow
def test_shipped_thresholds_equal_the_procedure(tmp_path):
    """Re-derive ted and bleu (transted is too slow for the test suite) and compare."""
    from transted.studies.calibration.derive import derive_thresholds

    content = yaml.safe_load(THRESHOLDS_FILE.read_text(encoding="utf-8"))
    data = content["data"]
    got = derive_thresholds(["ted", "bleu"], labelled=LABELLED, statements=STATEMENTS,
                            work=tmp_path, seed=data["seed"], per_kind=data["per_kind"])
    shipped = [r for r in content["rules"] if r["metric"] in ("ted", "bleu")]
    assert got["rules"] == shipped


def _evaluation(scores, evidence=None, default=None):
    from transted.studies.evaluation.harness import MetricEvaluation

    s = np.array(scores, dtype=float)
    errors = {str(i): "boom" for i, v in enumerate(scores) if v is None or np.isnan(v)}
    return MetricEvaluation("m", "metric:m", False, s, errors, default_threshold=default,
                            evidence=evidence or [None] * len(scores))


def test_default_mode_evidence_and_abstention():
    from transted.studies.evaluation.harness import EvalConfig, evaluate_metric

    labels = np.array([True, True, False, False, True])
    scores = [0.9, 0.4, 0.3, 0.8, np.nan]
    ev = evaluate_metric(_evaluation(scores, [None, "proved", None, None, None], default=0.5),
                         labelled(labels, groups=["a", "a", "b", "c", "d"]),
                         EvalConfig(threshold_mode="default", n_boot=10))
    # threshold 0.5: T F F T F; evidence flips pair 1 to T; the NaN pair is negative
    assert ev.predictions.tolist() == [True, True, False, True, False]
    assert ev.threshold == 0.5 and ev.n_evidence == 1
    assert (ev.agreement.tp, ev.agreement.fp, ev.agreement.fn) == (2, 1, 1)
    # abstained: 4 of 5 scored; on those, 3 of 4 right
    assert ev.abstain["coverage"] == 0.8 and ev.abstain["n_abstained"] == 1
    assert ev.abstain["accuracy"] == 0.75
    assert set(ev.modes) == {"oracle", "cv", "default"}
    assert ev.modes["default"]["accuracy"] == 0.6


def test_default_mode_without_a_rule_reports_no_numbers():
    from transted.studies.evaluation.harness import EvalConfig, evaluate_metric

    ev = evaluate_metric(_evaluation([0.2, 0.9]), labelled([False, True]),
                         EvalConfig(threshold_mode="default", n_boot=10))
    assert ev.agreement is None and ev.status == "no default threshold"


def test_the_suite_never_moves_the_threshold_and_a_rerun_rescores_nothing(tmp_path):
    """The fast tier's share of the procedure above, on a six-statement suite: the labelled
    files alone choose the threshold and the grouped CV (so both equal the shipped ones), and a
    re-run reads its scores back instead of scoring again."""
    from transted.studies.calibration.derive import derive_thresholds

    shipped = yaml.safe_load(THRESHOLDS_FILE.read_text(encoding="utf-8"))
    small = tmp_path / "six.jsonl"
    small.write_text("".join(STATEMENTS[0].read_text(encoding="utf-8").splitlines(True)[:6]),
                     encoding="utf-8")
    work = tmp_path / "work"
    options = {"labelled": LABELLED, "statements": [small], "seed": shipped["data"]["seed"],
               "per_kind": 2}
    got = derive_thresholds(["bleu"], work=work, **options)
    want = {r["convention"]: r for r in shipped["rules"] if r["metric"] == "bleu"}
    for rule in got["rules"]:
        for field in ("threshold", "signature", "n_labelled", "n_fallback", "in_sample", "cv"):
            assert rule[field] == want[rule["convention"]][field], (rule["convention"], field)

    def scores() -> dict[str, bytes]:  # lock files hold the writer's pid and start time
        return {p.name: p.read_bytes() for p in work.iterdir() if p.suffix != ".lock"}

    stored = scores()
    assert derive_thresholds(["bleu"], work=work, **options) == got
    assert scores() == stored


def test_fallback_threshold_is_chosen_on_the_fallback_pairs_only():
    """Pairs the rule decides by edits do not move the threshold: with two pairs forced, the
    threshold separates the two fallback pairs alone (midpoint 0.5 of 0.4 and 0.6)."""
    from transted.studies.evaluation.decided import fallback_threshold, predictions_with

    scores = np.array([0.95, 0.1, 0.4, 0.6])
    labels = np.array([False, True, False, True])
    forced = [False, True, None, None]  # the edits decided the first two (right)
    t = fallback_threshold(scores, labels, forced, rule="accuracy")
    assert t == pytest.approx(0.5)
    assert predictions_with(scores, forced, t)[0].tolist() == [False, True, False, True]
