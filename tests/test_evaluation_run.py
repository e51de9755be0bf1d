"""End-to-end `transted eval`: files, summary keys, resume, modes, errors, CLI."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
import typer

from transted.api import labelled_pairs
from transted.cli import main
from transted.cli.options import metric_list
from transted.errors import LeanUnavailable
from transted.metrics.base import Metric, PairScore
from transted.metrics.bleu import ProofNetBLEU
from transted.reading.pairs import Pair, read_pairs, write_pairs
from transted.studies.evaluation import run as run_module
from transted.studies.evaluation.agreement import agreement_score
from transted.studies.evaluation.harness import EvalConfig
from transted.studies.evaluation.run import run_eval
from transted.studies.evaluation.threshold import select_threshold

DATA = Path("tests/data/gted/proofnet.jsonl")
REQUIRED = {"threshold", "threshold_mode", "tp", "tn", "fp", "fn", "precision", "recall",
            "accuracy", "kappa", "kappa_ci", "accuracy_ci", "signature"}
FAST = EvalConfig(n_boot=20)


@pytest.fixture(scope="module")
def pairs() -> list[Pair]:
    return read_pairs(DATA)


def test_report_files_and_summary_keys(tmp_path: Path) -> None:
    run = run_eval(labelled_pairs(DATA), ["bleu", "identity"], tmp_path, config=FAST)
    for name in ("summary.json", "summary.md", "pairs.csv", "disagreements.md",
                 "kappa_curve.csv", "kappa_curve.png", "scores/bleu.jsonl",
                 "scores/identity.jsonl"):
        assert (tmp_path / name).is_file(), name
    summary = json.loads((tmp_path / "summary.json").read_text())
    for name in ("bleu", "identity"):
        assert REQUIRED <= set(summary["metrics"][name])
    assert summary["metrics"]["identity"]["precision"] is None  # 0/0, not 0
    assert summary["metrics"]["bleu"]["signature"] == str(ProofNetBLEU().signature)
    assert summary["eval"]["n_boot"] == 20 and summary["eval"]["data"]["n"] == 93
    with (tmp_path / "pairs.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 93 and rows[0]["id"] == run.pairs[0].id
    assert float(rows[0]["bleu:score"]) == pytest.approx(
        run.pairs[0].meta["published_scores"]["bleu"])
    table = (tmp_path / "summary.md").read_text()
    assert "| bleu | 0.2526 | oracle | 34 | 31 | 13 | 15 |" in table
    disagreements = (tmp_path / "disagreements.md").read_text()
    assert "28 wrong verdicts" in disagreements and "```lean" in disagreements
    with (tmp_path / "kappa_curve.csv").open() as f:
        curve = list(csv.DictReader(f))
    assert {row["metric"] for row in curve} == {"bleu"}  # verdict metrics have no curve
    at = {float(row["threshold"]): row for row in curve}
    bleu = summary["metrics"]["bleu"]
    assert float(at[bleu["threshold"]]["kappa"]) == pytest.approx(bleu["kappa"])
    assert len(curve) >= 201 and float(at[0.0]["accuracy"]) == pytest.approx(49 / 93)
    assert (tmp_path / "kappa_curve.png").read_bytes()[:4] == b"\x89PNG"


def test_killed_run_resumes(tmp_path: Path, pairs: list[Pair]) -> None:
    first = run_eval(labelled_pairs(DATA), ["bleu"], tmp_path, config=FAST).summary()
    scores = tmp_path / "scores" / "bleu.jsonl"
    lines = scores.read_text(encoding="utf-8").splitlines(keepends=True)
    scores.write_text("".join(lines[:40]) + lines[40][:25], encoding="utf-8")  # torn write
    scored = []

    def progress(metric: str, split: str, n: int):  # noqa: ANN202
        return lambda result, cached: scored.append(cached)

    again = run_eval(labelled_pairs(DATA), ["bleu"], tmp_path, config=FAST, progress=progress).summary()
    assert scored.count(True) == 40 and scored.count(False) == 53
    assert again["metrics"] == first["metrics"]
    assert len(scores.read_text(encoding="utf-8").splitlines()) == 93


def test_calibrated_threshold_comes_from_dev(tmp_path: Path, pairs: list[Pair]) -> None:
    dev, test = tmp_path / "dev.jsonl", tmp_path / "test.jsonl"
    write_pairs(pairs[:50], dev)
    write_pairs(pairs[50:], test)
    config = EvalConfig(threshold_mode="calibrated", n_boot=20)
    got = run_eval(labelled_pairs(test), ["published:gted"], tmp_path / "out", config=config, dev=labelled_pairs(dev))
    dev_scores = [p.meta["published_scores"]["gted"] for p in pairs[:50]]
    expected = select_threshold(dev_scores, np.array([p.label for p in pairs[:50]]))
    entry = got.summary()["metrics"]["published:gted"]
    assert entry["threshold"] == expected and entry["threshold_mode"] == "calibrated"
    assert (tmp_path / "out" / "scores" / "dev" / "published_gted.jsonl").is_file()


def test_fixed_threshold(tmp_path: Path, pairs: list[Pair]) -> None:
    config = EvalConfig(threshold_mode="fixed", threshold=0.5, n_boot=20)
    entry = run_eval(labelled_pairs(DATA), ["published:gted"], tmp_path, config=config).summary()["metrics"]
    labels = np.array([p.label for p in pairs])
    verdicts = np.array([p.meta["published_scores"]["gted"] >= 0.5 for p in pairs])
    a = agreement_score(labels, verdicts)
    assert (entry["published:gted"]["tp"], entry["published:gted"]["fp"]) == (a.tp, a.fp)


def test_cv_mode_is_not_better_than_oracle(tmp_path: Path) -> None:
    oracle = run_eval(labelled_pairs(DATA), ["bleu"], tmp_path / "o", config=FAST).summary()["metrics"]
    cv = run_eval(labelled_pairs(DATA), ["bleu"], tmp_path / "c",
                  config=EvalConfig(threshold_mode="cv", n_boot=20)).summary()["metrics"]
    assert cv["bleu"]["threshold_mode"] == "cv" and cv["bleu"]["cv_folds"] == "leave-one-problem-out"
    assert cv["bleu"]["accuracy"] <= oracle["bleu"]["accuracy"]
    low, high = cv["bleu"]["threshold_range"]
    assert low <= cv["bleu"]["threshold"] <= high


def test_errors_are_counted_and_negative(tmp_path: Path, pairs: list[Pair]) -> None:
    broken = [p.model_copy(update={"meta": {}}) if i % 10 == 0 else p
              for i, p in enumerate(pairs)]
    data = tmp_path / "broken.jsonl"
    write_pairs(broken, data)
    config = EvalConfig(threshold_mode="fixed", threshold=0.5, n_boot=20)
    entry = run_eval(labelled_pairs(data), ["published:gted"], tmp_path / "out",
                     config=config).summary()["metrics"]["published:gted"]
    assert entry["n_errors"] == 10 and entry["n"] == 93
    labels = np.array([p.label for p in pairs])
    verdicts = np.array([i % 10 != 0 and p.meta["published_scores"]["gted"] >= 0.5
                         for i, p in enumerate(pairs)])
    a = agreement_score(labels, verdicts)
    assert (entry["tp"], entry["tn"], entry["fp"], entry["fn"]) == (a.tp, a.tn, a.fp, a.fn)
    assert "pairs without a score" in (tmp_path / "out" / "disagreements.md").read_text()


class NoLean(Metric):
    name = "nolean"
    binary = True

    def _score(self, pair: Pair) -> PairScore:
        raise LeanUnavailable("no Lean toolchain")


def test_unavailable_metric_has_no_numbers(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    real = run_module.resolve_metric
    monkeypatch.setattr(run_module, "resolve_metric",
                        lambda name: NoLean() if name == "nolean" else real(name))
    summary = run_eval(labelled_pairs(DATA), ["nolean", "identity"], tmp_path, config=FAST).summary()
    entry = summary["metrics"]["nolean"]
    assert entry["status"] == "unavailable" and entry["n_unavailable"] == 93
    assert entry["accuracy"] is None and entry["kappa"] is None and entry["tp"] is None
    assert "unavailable" in (tmp_path / "summary.md").read_text()


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"threshold_mode": "best"}, "threshold_mode"),
    ({"threshold_mode": "fixed"}, "threshold"),
    ({"threshold": 0.3}, "threshold"),
    ({"oracle_rule": "f1"}, "oracle_rule"),
    ({"positive": ("a", "z")}, "positive"),
])
def test_config_checks(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        EvalConfig(**kwargs)


def test_dev_only_with_calibrated(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="`dev`"):
        run_eval(labelled_pairs(DATA), ["bleu"], tmp_path, config=FAST, dev=labelled_pairs(DATA))


@pytest.mark.parametrize(("spec", "ok"), [("ted, bleu", ["ted", "bleu"]), ("", None),
                                          ("bleu,bleu", None)])
def test_metric_list(spec: str, ok: list | None) -> None:
    # the one parser of metric lists is the CLI's (-m / --metrics)
    if ok is None:
        with pytest.raises(typer.BadParameter, match="metric name|more than once"):
            metric_list([spec])
    else:
        assert metric_list([spec]) == ok


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["eval", str(DATA), "--metrics", "bleu,published:beq", "--out",
                 str(tmp_path), "--n-boot", "20", "--threshold-mode", "cv", "--cv-folds", "5"])
    assert code == 0
    shown = capsys.readouterr().out
    assert "| published:beq | – | binary | 8 | 44 | 0 | 41 |" in shown
    assert json.loads((tmp_path / "summary.json").read_text())["metrics"]["bleu"]["cv_folds"] == 5
    assert main(["eval", str(DATA), "--metrics", "nosuch", "--out", str(tmp_path)]) == 2
    assert main(["eval", str(DATA), "--out", str(tmp_path), "--threshold-mode", "x"]) == 2
    assert "--threshold-mode" in capsys.readouterr().err  # CLI terms, not `threshold_mode`
