"""Per-problem figures of sampled outputs (issue 24): equivalent@k, the unbiased pass@k,
best and mean score; in `score`, `regress` (and its `--fail-on equivalent@K`) and the API."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

import transted
from transted.cli import main
from transted.reading.inputs import join_files
from transted.running.samples import pass_at_k, problem_of, problems_path, sample_figures
from transted.studies.regression.compare import compare_runs
from transted.studies.regression.gate import check_regression
from transted.testing import assert_no_regression

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
REFS, OLD, NEW = (EXAMPLES / f for f in ("references.jsonl", "outputs_old.jsonl",
                                          "outputs_new.jsonl"))


def _r(pair_id: str, score: float | None, verdict: str | None) -> SimpleNamespace:
    return SimpleNamespace(id=pair_id, score=score, verdict=verdict)


@pytest.mark.parametrize(("n", "c", "k"), [(n, c, k) for n in range(1, 6)
                                           for c in range(n + 1) for k in range(1, n + 1)])
def test_pass_at_k_is_the_share_of_k_subsets_holding_a_correct_sample(n, c, k):
    """The estimator 1 - C(n-c, k)/C(n, k) against its definition, by enumeration."""
    samples = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(samples, k))
    assert pass_at_k(n, c, k) == pytest.approx(sum(any(s) for s in subsets) / len(subsets))


def test_pass_at_k_edges():
    assert pass_at_k(2, 1, 3) is None  # k > n: the counts do not allow it
    with pytest.raises(ValueError):
        pass_at_k(2, 3, 1)
    assert problem_of("p1#0") == ("p1", 0) and problem_of("a#b#12") == ("a#b", 12)
    assert problem_of("p1") is None and problem_of("p1#x") is None and problem_of("#1") is None
    assert problems_path("runs/new.jsonl") == Path("runs/new.problems.jsonl")


def test_figures_per_problem_and_overall():
    results = [_r("a#0", 0.9, "equivalent"), _r("a#1", 0.5, "not-equivalent"),
               _r("b#1", None, None), _r("b#0", 0.2, "not-equivalent"),  # out of order
               _r("c#0", 0.3, "not-equivalent"), _r("c#1", 0.95, "equivalent"),
               _r("d#0", 0.7, "equivalent"),  # one sample only
               _r("loose", 1.0, "equivalent")]  # not a sample id: left out
    f = sample_figures(results)
    assert f is not None and f.ks == (1, 2)
    rows = {p.problem: p.as_dict() for p in f.problems}
    assert rows["a"]["equivalent@1"] and rows["a"]["equivalent@2"] and rows["a"]["pass@1"] == 0.5
    assert rows["b"]["samples"] == ["b#0", "b#1"] and rows["b"]["scored"] == 1
    assert (rows["b"]["best"], rows["b"]["mean"], rows["b"]["equivalent"]) == (0.2, 0.2, 0)
    assert not rows["c"]["equivalent@1"] and rows["c"]["equivalent@2"]
    assert "pass@2" not in rows["d"] and rows["d"]["equivalent@2"]  # 1 sample: all of them
    o = f.overall()
    assert o["equivalent@1"] == pytest.approx(2 / 4)  # a, d
    assert o["equivalent@2"] == pytest.approx(3 / 4)  # a, c, d
    assert o["pass@1"] == pytest.approx((0.5 + 0 + 0.5 + 1) / 4)
    assert (o["pass@2"], o["pass@2_problems"]) == (pytest.approx(2 / 3), 3)
    assert o["best"] == pytest.approx((0.9 + 0.2 + 0.95 + 0.7) / 4)
    # a threshold instead of the verdicts: 0.6 passes a#0, c#1, d#0 alike
    assert sample_figures(results, threshold=0.6).overall()["equivalent@1"] == 0.5
    no_verdicts = sample_figures([_r("a#0", 0.9, None)])
    assert no_verdicts.overall()["equivalent@1"] is None
    assert "no verdicts" in no_verdicts.summary_line()
    assert sample_figures([_r("x", 1.0, "equivalent")]) is None


def test_score_writes_the_problems_file_and_the_api_returns_them(tmp_path, capsys):
    out = tmp_path / "old.jsonl"
    assert main(["score", "--references", str(REFS), "--candidates", str(OLD), "-m", "ted",
                 "--out", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "per problem (2 problems, 2 samples each): equivalent@1 " in shown
    lines = [json.loads(x) for x in (tmp_path / "old.problems.jsonl").read_text().splitlines()]
    assert [row["problem"] for row in lines] == ["mathd_algebra_478", "mathd_numbertheory_1124"]
    assert lines[0]["samples"] == ["mathd_algebra_478#0", "mathd_algebra_478#1"]
    results = [json.loads(x) for x in out.read_text().splitlines()]
    expected = sample_figures([SimpleNamespace(**r) for r in results])
    assert lines[0]["mean"] == expected.problems[0].mean
    api = transted.sample_figures(transted.score_many(join_files(REFS, OLD).pairs, "ted"))
    assert api.overall() == expected.overall()
    # an unrelated file where the problems file goes is refused before scoring
    (tmp_path / "new.problems.jsonl").write_text("notes\n", "utf-8")
    assert main(["score", "--references", str(REFS), "--candidates", str(NEW), "-m", "ted",
                 "--out", str(tmp_path / "new.jsonl")]) == 2
    assert not (tmp_path / "new.jsonl").exists()


def _drop_first_samples(tmp_path: Path) -> Path:
    """OLD (whose samples 0 are the references' statements) with each problem's right
    statement moved from sample 0 to sample 1, and a wrong one as sample 0."""
    rows = [json.loads(x) for x in OLD.read_text("utf-8").splitlines()]
    first = {row["name"]: row["output"] for row in rows if row["sample"] == 0}
    for row in rows:
        row["output"] = (first[row["name"]].replace(":= by sorry", "∧ False := by sorry")
                         if row["sample"] == 0 else first[row["name"]])
    path = tmp_path / "worse_first.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def test_regress_fails_on_a_drop_of_equivalent_at_1(tmp_path, capsys):
    worse = _drop_first_samples(tmp_path)
    # every sample's verdict from a threshold, so that the figures here follow from TED alone
    regs = compare_runs(join_files(REFS, OLD).pairs, join_files(REFS, worse).pairs, "ted")
    old_f, new_f = regs.sample_figures(threshold=0.99)
    assert old_f.equivalent_at(1) == 1.0 and new_f.equivalent_at(1) == 0.0
    assert new_f.equivalent_at(2) == 1.0  # sample 1 still right
    gate = check_regression(regs, fail_on="equivalent@1", threshold=0.99)
    assert gate.failed and gate.equivalent_at == (1.0, 0.0)
    assert gate.flipped_down == ["mathd_algebra_478", "mathd_numbertheory_1124"]
    assert not check_regression(regs, fail_on="equivalent@2", threshold=0.99).failed
    out = tmp_path / "reg"
    assert main(["regress", "--references", str(REFS), str(OLD), str(worse), "-m", "ted",
                 "--fail-on", "equivalent@1", "--threshold", "0.99", "--out", str(out)]) == 3
    shown = capsys.readouterr().out
    assert "equivalent@1 dropped from 1.0000 to 0.0000 over 2 problems" in shown
    rows = [json.loads(x) for x in (out / "problems.jsonl").read_text().splitlines()]
    assert rows[0]["old"]["equivalent@1"] is True and rows[0]["new"]["equivalent@1"] is False
    summary = json.loads((out / "regress.json").read_text())
    assert summary["problems"]["new"]["equivalent@1"] == 0.0
    with pytest.raises(ValueError, match="needs sampled outputs"):
        check_regression(compare_runs([], [], "ted"), fail_on="equivalent@1", min_matched=0)


def test_one_and_two_sample_versions_compare_on_sample_0(tmp_path):
    """A one-output-per-problem release and a two-sample release share `p#0`; the second's
    extra samples still count in its per-problem figures."""
    one = tmp_path / "one.jsonl"
    rows = [json.loads(x) for x in NEW.read_text("utf-8").splitlines()]
    one.write_text("".join(json.dumps({"name": r["name"], "output": r["output"]},
                                      ensure_ascii=False) + "\n"
                           for r in rows if r["sample"] == 0), "utf-8")
    reg = compare_runs(join_files(REFS, one).pairs, join_files(REFS, NEW).pairs, "ted")
    assert [d.id for d in reg.deltas] == ["mathd_algebra_478#0", "mathd_numbertheory_1124#0"]
    assert reg.only_new == ["mathd_algebra_478#1", "mathd_numbertheory_1124#1"]
    old_f, new_f = reg.sample_figures(threshold=0.99)
    assert [p.n for p in old_f.problems] == [1, 1] and [p.n for p in new_f.problems] == [2, 2]
    assert len(reg.results_new) == 4  # the unmatched samples were scored too


def test_assert_no_regression_refuses_to_pass_on_nothing(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", "utf-8")
    with pytest.raises(AssertionError, match="(?s)cannot be compared with.*< --min-matched 1"):
        assert_no_regression(REFS, OLD, empty, metric="ted")
    assert assert_no_regression(REFS, OLD, NEW, metric="ted", fail_on="mean",
                                max_drop=0.1).outcome == "passed"
    with pytest.raises(ValueError, match="`min_matched` must be an int >= 0"):
        assert_no_regression(REFS, OLD, NEW, metric="ted", min_matched=-1)


def test_both_error_pairs_are_not_compared(tmp_path):
    """Matched pairs that failed in both versions compare nothing: with none left, the gate
    does not judge (`insufficient`), where it used to pass."""
    from transted.reading.pairs import Pair, Statement

    broken = [Pair(id=f"p#{i}", reference=Statement(statement="theorem t : (1 = 1 := rfl"),
                   candidate=Statement(statement="theorem t : 1 = 1 := rfl")) for i in range(2)]
    reg = compare_runs(broken, broken, "ted")
    assert reg.n_compared == 0 and reg.counts()["both-error"] == 2
    gate = check_regression(reg)
    assert gate.insufficient and not gate.failed and gate.outcome == "insufficient"
    assert "0 pair(s) compared" in gate.reasons[0]
    assert not check_regression(reg, min_matched=0).insufficient
