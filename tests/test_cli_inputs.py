"""LLM outputs on the command line (issue 23): `score --references/--candidates` and `regress`
read raw outputs, keep them as written, say which theorem was scored, accept `--theorem`;
an invalid candidate is an answer."""

from __future__ import annotations

import json
from pathlib import Path

from transted.cli import get_app

REFERENCE = "theorem second (x : ℕ) : 0 + x = x"
OUTPUT = ("Here are two attempts.\n\n```lean\ntheorem first (x : ℕ) : x + 0 = x := by simp\n\n"
          "theorem second (x : ℕ) : 0 + x = x := by simp\n```\n")


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def test_references_and_raw_candidates(runner, tmp_path):
    refs = _jsonl(tmp_path / "r.jsonl", [{"id": "a", "formal_statement": REFERENCE}])
    outs = _jsonl(tmp_path / "o.jsonl", [{"id": "a", "output": OUTPUT}])
    out = tmp_path / "res.jsonl"
    result = runner.invoke(get_app(), ["score", "-r", str(refs), "-c", str(outs), "-m", "ted",
                                       "--out", str(out)])
    assert result.exit_code == 0, result.output
    line = json.loads(out.read_text("utf-8"))
    assert line["score"] == 1.0
    chosen = line["details"]["extraction"]["candidate"]
    assert (chosen["theorem"], chosen["chosen_by"]) == ("second", "reference-name")
    asked = tmp_path / "asked.jsonl"
    result = runner.invoke(get_app(), ["score", "-r", str(refs), "-c", str(outs), "-m",
                                       "ted,bleu", "--theorem", "first", "--out", str(asked)])
    assert result.exit_code == 0, result.output
    ted = json.loads((tmp_path / "asked.ted.jsonl").read_text("utf-8"))
    assert ted["score"] < 1.0 and "|theorem:first|" in ted["signature"]
    assert ted["details"]["extraction"]["candidate"]["chosen_by"] == "requested"
    bleu = json.loads((tmp_path / "asked.bleu.jsonl").read_text("utf-8"))
    assert "|theorem:first|" in bleu["signature"]


def test_pair_mode_prints_an_invalid_answer(runner):
    result = runner.invoke(get_app(), ["score", REFERENCE, "theorem second (x : ℕ) : (0 +",
                                       "-m", "ted"])
    assert result.exit_code == 0, result.output  # an answer, not a failure
    assert ("verdict: not-equivalent, decided by the candidate being invalid (not Lean 4, or "
            "empty)") in result.stdout
    assert "invalid: cli candidate:1:30: the declaration ends inside '('" in result.stdout


def test_regress_on_raw_outputs(runner, tmp_path):
    refs = _jsonl(tmp_path / "r.jsonl", [{"id": "a", "formal_statement": REFERENCE}])
    old = _jsonl(tmp_path / "old.jsonl", [{"id": "a", "output": OUTPUT}])
    new = _jsonl(tmp_path / "new.jsonl", [{"id": "a", "output": OUTPUT.replace(
        "theorem second (x : ℕ) : 0 + x = x", "theorem second (x : ℕ) : (0 +")}])
    result = runner.invoke(get_app(), ["regress", str(old), str(new), "-r", str(refs), "-m",
                                       "ted", "--format", "json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert (summary["n_matched"], summary["n_broke"]) == (1, 1)  # the new output is cut off
