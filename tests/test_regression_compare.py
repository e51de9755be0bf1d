"""`transted regress`: two translator versions on the same references."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from transted.cli import main
from transted.reading.pairs import Pair, Statement, read_pairs, write_pairs
from transted.studies.regression.compare import compare_runs, write_regression

DATA = Path("tests/data/gted/proofnet.jsonl")


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[Pair]]:
    pairs = read_pairs(DATA)[:12]
    new = []
    for i, p in enumerate(pairs):
        if i < 3:  # the new translator reproduces the reference: BLEU 1.0, improved
            p = p.model_copy(update={"candidate": p.reference})
        elif i == 3:  # a much worse translation
            p = p.model_copy(update={"candidate": Statement(statement="theorem t : True := by sorry")})
        elif i == 4:  # the new version fails to produce anything usable
            p = p.model_copy(update={"candidate": Statement(statement="  ")})
        elif i == 5:
            continue  # dropped in the new run
        elif i == 6:  # a reference that changed between the runs (now equal to the candidate,
            p = p.model_copy(update={"reference": p.candidate})  # so BLEU 1.0: "improved")
        new.append(p)
    new.append(pairs[0].model_copy(update={"id": "extra"}))
    root = tmp_path_factory.mktemp("regress")
    write_pairs(pairs, root / "old.jsonl")
    write_pairs(new, root / "new.jsonl")
    return root / "old.jsonl", root / "new.jsonl", pairs


def test_statuses_and_ids(files: tuple[Path, Path, list[Pair]], tmp_path: Path) -> None:
    old, new, pairs = files
    reg = compare_runs(old, new, "bleu", out=tmp_path)
    by_id = {d.id: d for d in reg.deltas}
    assert len(reg.deltas) == 11
    for p in pairs[:3]:
        assert by_id[p.id].status == "improved" and by_id[p.id].new == pytest.approx(1.0)
    assert by_id[pairs[3].id].status == "worse" and by_id[pairs[3].id].delta < 0
    assert by_id[pairs[4].id].status == "broke" and by_id[pairs[4].id].new is None
    assert reg.only_old == [pairs[5].id] and reg.only_new == ["extra"]
    assert reg.reference_changed == [pairs[6].id]
    assert [d.id for d in reg.worst()] == [pairs[4].id, pairs[3].id]
    counts = reg.counts()
    assert counts["improved"] == 4 and counts["broke"] == 1 and sum(counts.values()) == 11
    s = reg.summary()
    both = [d for d in reg.deltas if d.delta is not None]
    assert s["mean_new"] == pytest.approx(sum(d.new for d in both) / len(both))
    assert (tmp_path / "scores" / "old" / "bleu.jsonl").is_file()


def test_unchanged_rerun_is_all_same(files: tuple[Path, Path, list[Pair]]) -> None:
    old, _, _ = files
    reg = compare_runs(old, old, "identity")
    assert reg.counts()["same"] == 12 and not reg.only_old and not reg.only_new


def test_report_files(files: tuple[Path, Path, list[Pair]], tmp_path: Path) -> None:
    old, new, pairs = files
    paths = write_regression(compare_runs(old, new, "bleu"), tmp_path)
    data = json.loads(paths["regress.json"].read_text())
    assert data["summary"]["n_worse"] == 1 and data["summary"]["n_broke"] == 1
    assert len(data["pairs"]) == 11
    text = paths["regress.md"].read_text()
    assert "Got worse (2" in text and "Old candidate:" in text and "`extra`" in text


def test_cli(files: tuple[Path, Path, list[Pair]], tmp_path: Path,
             capsys: pytest.CaptureFixture[str]) -> None:
    old, new, _ = files
    assert main(["regress", str(old), str(new), "--metric", "bleu", "--out", str(tmp_path),
                 "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["n_improved"] == 4
    assert (tmp_path / "regress.md").is_file()
    assert main(["regress", str(old), str(new), "--metric", "nosuch"]) == 2
