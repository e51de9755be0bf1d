"""Regression gate (issue 15 item 2): paired figures, criteria, CLI exit code, pytest helper.

The bundled examples, scored with ``ted`` (new = outputs_new, old = outputs_old), give the
per-pair deltas (new - old): 478#0 0, 478#1 +1/47, 1124#0 -2/19, 1124#1 +4/19 (the old sample
drops h₀: 15/19 → 1; the new sample 0 turns ``374 * 10`` into ``374``: 1 → 17/19).
Swapping old and new negates them. Hand-derived figures for the swapped run (2 worse, 1
better, |deltas| ranked 1/47 < 2/19 < 4/19): Wilcoxon W+ = 2 (only rank 2 positive), exact
one-sided P(W+ <= 2) = 3/8 over the 8 sign patterns; sign test P(X >= 2 | n=3) = 4/8.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from transted.cli import get_app, main
from transted.cli.regress import EXIT_REGRESSION
from transted.studies.regression.compare import PairDelta, Regression
from transted.studies.regression.gate import check_regression, paired_significance
from transted.testing import assert_no_regression

EX = Path(__file__).resolve().parents[1] / "examples"
REFS, OLD, NEW = str(EX / "references.jsonl"), str(EX / "outputs_old.jsonl"), \
    str(EX / "outputs_new.jsonl")
SWAPPED_DELTAS = [0.0, -1 / 47, 2 / 19, -4 / 19]


def test_paired_significance_hand_derived():
    s = paired_significance(SWAPPED_DELTAS, n_boot=2000, seed=7)
    assert s.n == 4 and (s.n_worse, s.n_improved) == (2, 1)
    assert s.mean_delta == pytest.approx(sum(SWAPPED_DELTAS) / 4)
    assert s.p_wilcoxon == pytest.approx(3 / 8)
    assert s.p_sign == pytest.approx(4 / 8)
    assert s.seed == 7 and s.n_boot == 2000
    assert s.ci_low < s.mean_delta < s.ci_high  # type: ignore[operator]
    # Bounds of any resampled mean: all-min and all-max resamples.
    assert s.ci_low >= -4 / 19 - 1e-12 and s.ci_high <= 2 / 19 + 1e-12  # type: ignore[operator]


def test_bootstrap_seeded_and_matches_scipy():
    from scipy.stats import bootstrap

    rng = np.random.default_rng(1)
    d = list(rng.normal(-0.05, 0.2, size=200))
    a = paired_significance(d, n_boot=4000, seed=3)
    assert a == paired_significance(d, n_boot=4000, seed=3)
    assert a != paired_significance(d, n_boot=4000, seed=4)
    ref = bootstrap((np.array(d),), np.mean, n_resamples=4000, method="percentile",
                    random_state=np.random.default_rng(11)).confidence_interval
    assert a.ci_low == pytest.approx(ref.low, abs=0.01)
    assert a.ci_high == pytest.approx(ref.high, abs=0.01)


def test_constant_drop_and_no_change():
    s = paired_significance([-0.1] * 5, n_boot=100)
    assert (s.ci_low, s.ci_high, s.p_bootstrap) == pytest.approx((-0.1, -0.1, 0.0))
    assert s.p_sign == pytest.approx(1 / 32)  # 5 of 5 worse
    z = paired_significance([0.0] * 3, n_boot=100)
    assert (z.p_wilcoxon, z.p_sign, z.p_bootstrap) == (1.0, 1.0, 1.0)


def _reg(deltas: list[PairDelta]) -> Regression:
    return Regression("m", "sig", "old", "new", deltas, [], [], [])


def test_mean_bound_and_broke():
    reg = _reg([PairDelta("a", 0.9, 0.8, "worse"), PairDelta("b", 0.5, 0.5, "same")])
    assert check_regression(reg, fail_on="mean", max_drop=0.04).failed  # mean drop 0.05
    assert not check_regression(reg, fail_on="mean", max_drop=0.06).failed
    # 1 pair: p = 1/2
    assert not check_regression(reg, fail_on="mean", max_drop=0.0, alpha=0.05).failed
    broke = _reg([PairDelta("a", 0.9, 0.9, "same"), PairDelta("b", 0.5, None, "broke",
                                                               new_error="parse")])
    rep = check_regression(broke, fail_on="mean", max_drop=0.5)
    assert rep.failed and any("b (parse)" in r for r in rep.reasons)


def test_worse_judges_each_pair_whatever_the_mean():
    """Issue 34: two pairs worse, one fixed by more: the mean rose, and `worse` used to pass."""
    deltas = [PairDelta("const", 1.0, 0.9, "worse"), PairDelta("bound", 1.0, 0.95, "worse"),
              PairDelta("fixed", 0.5, 1.0, "improved"), PairDelta("same", 0.7, 0.7, "same")]
    rep = check_regression(_reg(deltas), fail_on="worse")
    assert rep.significance.mean_delta == pytest.approx(0.35 / 4)  # the mean rose
    assert rep.failed and rep.max_pair_drop == 0
    assert rep.reasons[0].startswith("2 pair(s) got worse by more than max-pair-drop 0: "
                                     "const (1.0000 → 0.9000), bound (1.0000 → 0.9500)")
    assert "fail-on worse, max-pair-drop 0)" in rep.message()
    assert not check_regression(_reg(deltas), fail_on="mean").failed  # the old judgement
    # a per-pair bound: 0.1 lets through `bound` (0.05) but not `const` (0.1 is not > 0.1)
    assert not check_regression(_reg(deltas), fail_on="worse", max_pair_drop=0.1).failed
    assert check_regression(_reg(deltas), fail_on="worse", max_pair_drop=0.06).failed
    # a pair with no score in the new version (a timeout here) fails `worse` too
    timed = [PairDelta("t", 0.8, None, "broke", new_error="timeout: pair exceeded 5 s")]
    rep = check_regression(_reg(timed + deltas[2:]), fail_on="worse")
    assert rep.failed and "t (timeout: pair exceeded 5 s)" in rep.reasons[0]
    assert "a timeout counts as broken" in rep.reasons[0]


def test_bounds_of_another_criterion_are_refused():
    reg = _reg([PairDelta("a", 0.9, 0.8, "worse")])
    with pytest.raises(ValueError, match="give `max_pair_drop`"):
        check_regression(reg, fail_on="worse", max_drop=0.1)
    with pytest.raises(ValueError, match="`alpha` tests a mean"):
        check_regression(reg, fail_on="worse", alpha=0.05)
    with pytest.raises(ValueError, match="`max_pair_drop` bounds each pair"):
        check_regression(reg, fail_on="mean", max_pair_drop=0.1)
    with pytest.raises(ValueError, match="`max_pair_drop` must be a number >= 0"):
        check_regression(reg, fail_on="worse", max_pair_drop=-1)


def test_verdict_flip_metric_verdicts_threshold_and_refusal():
    deltas = [PairDelta("a", 0.9, 0.7, "worse", old_verdict="equivalent",
                        new_verdict="not-equivalent"),
              PairDelta("b", 0.6, 0.8, "improved", old_verdict="not-equivalent",
                        new_verdict="equivalent"),
              PairDelta("c", 0.9, 0.9, "same", old_verdict="equivalent",
                        new_verdict="equivalent")]
    rep = check_regression(_reg(deltas), fail_on="verdict-flip")
    assert rep.failed and rep.verdict_source == "metric"
    assert (rep.flipped_down, rep.flipped_up) == (["a"], ["b"])
    assert rep.p_flip == pytest.approx(3 / 4)
    assert not check_regression(_reg(deltas), fail_on="verdict-flip", max_drop=0.34).failed
    # An explicit threshold overrides the metric's verdicts: at 0.95 nobody is equivalent.
    rep = check_regression(_reg(deltas), fail_on="verdict-flip", threshold=0.95)
    assert not rep.failed and rep.verdict_source == "the verdict rule with fallback threshold 0.95"
    bare = [PairDelta("a", 0.9, 0.7, "worse")]
    with pytest.raises(ValueError, match="needs verdicts.*--threshold"):
        check_regression(_reg(bare), fail_on="verdict-flip")
    with pytest.raises(ValueError, match="fail_on"):
        check_regression(_reg(bare), fail_on="better")


def test_cli_gate_on_examples(tmp_path):
    runner = CliRunner()
    args = ["regress", "--references", REFS, "-m", "ted", "--fail-on", "worse"]
    # OLD → NEW: the mean rises (+0.0316) but 1124#0 drops 1.0 → 0.8947: the gate fails
    worse = runner.invoke(get_app(), [*args, OLD, NEW])
    assert worse.exit_code == EXIT_REGRESSION == 3, worse.output
    assert ("1 pair(s) got worse by more than max-pair-drop 0: mathd_numbertheory_1124#0 "
            "(1.0000 → 0.8947)") in worse.stdout
    assert main([*args, OLD, NEW, "--max-pair-drop", "0.11"]) == 0  # the drop is 0.1053
    mean = [*args[:-1], "mean"]
    ok = runner.invoke(get_app(), [*mean, OLD, NEW])
    assert ok.exit_code == 0 and "regression gate passed" in ok.stdout, ok.output
    bad = runner.invoke(get_app(), [*mean, NEW, OLD, "--out", str(tmp_path / "r")])
    assert bad.exit_code == 3
    assert "regression gate FAILED" in bad.stdout
    assert "Wilcoxon p = 0.375" in bad.stdout and "sign test p = 0.5" in bad.stdout
    assert "seed 0" in bad.stdout and "mathd_numbertheory_1124#1" in bad.stdout
    assert (tmp_path / "r" / "gate.json").exists()
    assert main([*mean, NEW, OLD, "--max-drop", "0.04"]) == 0  # drop is 0.0316
    # ted decides every one of these pairs by its residual edits (no threshold needed): going
    # from NEW to OLD, 478#1 (65 → 56, a numeral) and 1124#1 (h₀ dropped, a hypothesis) turn
    # not-equivalent, 1124#0 (374 → 374 * 10) the other way → 2 of 4 flip down: exit 3
    assert main(["regress", "--references", REFS, "-m", "ted:cost=semantic", "--fail-on",
                 "verdict-flip", NEW, OLD]) == 3
    # bleu has no residual edits and no shipped threshold for this computation: no verdicts,
    # so verdict-flip without --threshold is a usage error (2)
    assert main(["regress", "--references", REFS, "-m", "bleu:smoothing=0", "--fail-on",
                 "verdict-flip", NEW, OLD]) == 2
    assert main(["regress", "--references", REFS, "-m", "ted", "--max-drop", "0.1", NEW,
                 OLD]) == 2  # a bound without --fail-on is refused, not ignored
    # --threshold is the fallback threshold: the edits still decide these four pairs
    flip = runner.invoke(get_app(), ["regress", "--references", REFS, "-m", "ted", "--fail-on",
                                     "verdict-flip", "--threshold", "0.95", NEW, OLD])
    assert flip.exit_code == 3 and "2 of 4 pairs" in flip.stdout


def test_assert_no_regression_helper():
    with pytest.raises(AssertionError) as e:  # a pair got worse, though the mean rose
        assert_no_regression(REFS, OLD, NEW, metric="ted")
    assert "mathd_numbertheory_1124#0: 1.0000 → 0.8947" in str(e.value)
    rep = assert_no_regression(REFS, OLD, NEW, metric="ted", max_pair_drop=0.11)
    assert not rep.failed and rep.significance.mean_delta > 0  # type: ignore[operator]
    with pytest.raises(AssertionError) as e:
        assert_no_regression(REFS, NEW, OLD, metric="ted", fail_on="mean")
    text = str(e.value)
    assert "mathd_numbertheory_1124#1: 1.0000 → 0.7895" in text
    assert "mathd_algebra_478#1" in text and "mean score dropped by 0.0316" in text
    assert_no_regression(REFS, NEW, OLD, metric="ted", fail_on="mean", max_drop=0.05)
    with pytest.raises(ValueError, match="max_pair_drop"):  # the old spelling is refused
        assert_no_regression(REFS, NEW, OLD, metric="ted", max_drop=0.05)


def test_verdict_flip_uses_the_metrics_shipped_verdicts():
    """End to end with a metric that ships a threshold: the gate's flips are exactly the pairs
    crossing that threshold downwards (recomputed here from the scores)."""
    from transted.api import load_metric
    from transted.reading.inputs import join_files
    from transted.studies.regression.compare import compare_runs

    candidates = [name for name in ("bleu", "ted", "transted")
                  if load_metric(name).decision_rule() is not None]
    if not candidates:
        pytest.skip("no metric ships a decision threshold in this checkout")
    metric = load_metric(candidates[0])
    t = metric.decision_rule().threshold
    reg = compare_runs(join_files(REFS, NEW).pairs, join_files(REFS, OLD).pairs, metric)
    rep = check_regression(reg, fail_on="verdict-flip")
    assert rep.verdict_source == "metric"
    expected = [d.id for d in reg.deltas
                if d.old is not None and d.old >= t and (d.new is None or d.new < t)]
    assert rep.flipped_down == expected
    assert rep.failed == bool(expected)
