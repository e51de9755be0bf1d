"""The verdict rule in its one home (transted.verdict.rules): result lines, eval predictions
and the regression gate call the same pairs equivalent; evidence overrides; shipped thresholds."""

from __future__ import annotations

import numpy as np

from transted.metrics.registry import get_metric
from transted.pairs import read_pairs
from transted.regression.compare import PairDelta, Regression
from transted.regression.gate import check_regression
from transted.verdict.rules import apply_evidence, load_rules, make_verdict, passes, predict

DEV = "tests/data/gted/proofnet.jsonl"


def test_verdicts_and_evidence_override():
    assert make_verdict(0.8, binary=False, threshold=0.7) == ("equivalent", "threshold")
    assert make_verdict(0.6, binary=False, threshold=0.7) == ("not-equivalent", "threshold")
    assert make_verdict(None, binary=False, threshold=0.7) == (None, None)
    assert make_verdict(0.9, binary=False, threshold=None) == (None, None)
    assert make_verdict(0.0, binary=True, threshold=None) == ("not-equivalent", "binary")
    assert make_verdict(0.1, binary=False, threshold=0.7, evidence="proved") == \
        ("equivalent", "evidence")
    assert make_verdict(0.99, binary=False, threshold=0.7, evidence="refuted") == \
        ("not-equivalent", "evidence")


def test_signature_carries_the_threshold_field():
    for name in ("ted", "bleu", "transted"):
        metric = get_metric(name)
        sig = str(metric.signature)
        # the shipped rule applies only to the computation it was derived for (its signature)
        stored = load_rules().get(name)
        rule = stored if stored and stored.signature == str(metric.base_signature) else None
        assert rule == metric.decision_rule()
        assert f"|threshold:{rule.field()}" in sig if rule else "|threshold:none" in sig
    assert "threshold" not in str(get_metric("identity").signature)  # a verdict metric


def test_result_lines_carry_a_verdict():
    pair = read_pairs(DEV)[0]
    metric = get_metric("ted")
    result = metric.score_pair(pair)
    rule = metric.decision_rule()
    if rule is None:  # no threshold shipped for this computation (its signature changed)
        assert (result.verdict, result.decided_by) == (None, None)
        return
    want = "equivalent" if result.score >= rule.threshold else "not-equivalent"
    assert (result.verdict, result.decided_by) == (want, "threshold")


def test_predict_convention_and_errors() -> None:
    assert predict([0.2, 0.5, 0.7, np.nan], 0.5).tolist() == [False, True, True, False]


def test_every_verdict_path_applies_the_same_rule_at_the_boundary():
    scores = [0.69, 0.7, 0.71, None]
    threshold = 0.7
    # by the rule score >= threshold: below, equal, above, missing
    want = [False, True, True, False]
    lines = [make_verdict(s, binary=False, threshold=threshold)[0] == "equivalent" for s in scores]
    evals = predict([np.nan if s is None else s for s in scores], threshold).tolist()
    reg = Regression("m", "metric:m", "old", "new",
                     [PairDelta(str(i), 1.0, s, "same") for i, s in enumerate(scores)], [], [], [])
    gate = check_regression(reg, fail_on="verdict-flip", threshold=threshold, n_boot=10)
    flipped = {int(i) for i in gate.flipped_down}  # old 1.0 is equivalent: a flip = new is not
    assert lines == evals == [i not in flipped for i in range(4)] == want
    assert passes(0.7, 0.7) and not passes(0.6999, 0.7)


def test_evidence_overrides_predictions_and_is_counted():
    verdicts, n = apply_evidence(np.array([False, True, True, False]),
                                 ["proved", "refuted", None, {"not": "a kind"}])
    assert verdicts.tolist() == [True, False, True, False] and n == 2
