"""Outputs vs references (issue 15 item 1): shapes, Lean-file headers, samples, keys, unmatched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import transted
from transted.cli import get_app
from transted.errors import InputError
from transted.inputs import join, join_files, read_records

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
REFS, OLD, NEW = (EXAMPLES / f for f in ("references.jsonl", "outputs_old.jsonl",
                                          "outputs_new.jsonl"))


def _jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def test_a_whole_output_is_kept_as_written_and_scored_as_its_statement(tmp_path):
    text = ("Here is the formalization:\n\n```lean\nimport Mathlib\nopen Real\n\n"
            "/-- doc -/\ntheorem t : (2 : ℝ) + 2 = 4 := by\n  sorry\n```\n"
            "The proof is omitted.")
    refs = _jsonl(tmp_path / "r.jsonl", [{"id": "a", "formal_statement": "theorem t : 2 + 2 = 4"}])
    outs = _jsonl(tmp_path / "o.jsonl", [{"id": "a", "output": text}])
    pair = join_files(refs, outs).pairs[0]
    assert pair.candidate.statement == text and pair.candidate.header is None
    direct = transted.score("theorem t : 2 + 2 = 4", "theorem t : (2 : ℝ) + 2 = 4", "ted")
    scored = transted.score_many([pair], "ted")[0]
    assert scored.score == direct.score < 1.0
    assert scored.details["extraction"]["candidate"]["left_out"] == [
        "preamble (line 1)", "trailing (line 11)"]


def test_bundled_samples_join_by_name_with_samples_and_unmatched():
    joined = join_files(REFS, OLD)
    assert joined.key == "name"
    assert [p.id for p in joined.pairs] == ["mathd_algebra_478#0", "mathd_algebra_478#1",
                                            "mathd_numbertheory_1124#0",
                                            "mathd_numbertheory_1124#1"]
    assert joined.unmatched_references == ["mathd_algebra_141"]
    assert joined.unmatched_candidates == ["mathd_algebra_999"]
    cand = joined.pairs[0].candidate
    assert cand.statement.startswith("import Mathlib\nimport Aesop")  # kept as written
    assert "open BigOperators" in cand.statement and "theorem mathd_algebra_478" in cand.statement
    # the joined pair scores exactly as the two statement texts typed by hand
    ref_text = json.loads(REFS.read_text("utf-8").splitlines()[1])["formal_statement"]
    cand_text = ("theorem mathd_numbertheory_1124 (n : ℕ) (h₁ : 18 ∣ 374 * 10 + n) : n = 4 "
                 ":= by sorry")
    direct = transted.score(ref_text, cand_text, "ted").score
    assert transted.score_many(joined.pairs, "ted")[3].score == direct < 1.0


def test_key_choice_and_line_order_warning(tmp_path):
    refs = _jsonl(tmp_path / "r.jsonl", [{"id": "a", "name": "x", "formal_statement": "theorem a : 1 = 1 := rfl"},
                                        {"id": "b", "name": "y", "formal_statement": "theorem b : 2 = 2 := rfl"}])
    by_name = _jsonl(tmp_path / "n.jsonl", [{"name": "y", "output": "theorem b : 2 = 2 := rfl"}])
    joined = join_files(refs, by_name)  # `id` is missing on the candidate side: `name` is used
    assert joined.key == "name" and [p.id for p in joined.pairs] == ["y"]
    bare = _jsonl(tmp_path / "b.jsonl", [{"output": "theorem a : 1 = 1 := rfl"},
                                        {"output": "theorem b : 2 = 2 := rfl"}])
    joined = join_files(refs, bare)
    assert joined.key == "line" and joined.warnings and [p.id for p in joined.pairs] == ["1", "2"]
    with pytest.raises(InputError, match=r"b\.jsonl:1: no `id` field"):
        join_files(refs, bare, key="id")


def test_list_of_samples_and_bad_lines(tmp_path):
    refs = _jsonl(tmp_path / "r.jsonl", [{"id": "a", "formal_statement": "theorem a : 1 = 1 := rfl"}])
    outs = _jsonl(tmp_path / "o.jsonl", [{"id": "a", "candidate": ["theorem a : 1 = 1 := rfl",
                                                                 "theorem a : 1 = 2 := rfl"]}])
    pairs = join_files(refs, outs).pairs
    assert [(p.id, p.meta["sample"]) for p in pairs] == [("a#0", 0), ("a#1", 1)]
    bad = _jsonl(tmp_path / "bad.jsonl", [{"id": "a", "text": "x"}])
    with pytest.raises(InputError, match=r"bad\.jsonl:1: no statement field"):
        read_records(bad, side="candidate")
    dup = read_records(refs, side="reference") * 2
    with pytest.raises(InputError, match="duplicate reference key 'a'"):
        join(dup, read_records(outs, side="candidate"))


def test_cli_score_and_regress_with_references(tmp_path):
    runner = CliRunner()
    result = runner.invoke(get_app(), ["score", "--references", str(REFS), "--candidates",
                                       str(OLD), "-m", "ted"])
    assert result.exit_code == 0, result.output
    ids = [json.loads(x)["id"] for x in result.stdout.splitlines()]
    assert ids == [p.id for p in join_files(REFS, OLD).pairs]
    assert "1 references without a match (by name): mathd_algebra_141" in result.stderr
    assert "1 candidates without a match (by name): mathd_algebra_999" in result.stderr
    reg = runner.invoke(get_app(), ["regress", "--references", str(REFS), str(OLD), str(NEW),
                                    "-m", "ted", "--format", "json"])
    assert reg.exit_code == 0, reg.output
    summary = json.loads(reg.stdout)
    # new fixes 478#1 (56 → 65) and 1124#1 (h₀ back), breaks 1124#0 (374 * 10 → 374)
    assert (summary["n_worse"], summary["n_improved"], summary["n_same"]) == (1, 2, 1)
    assert summary["n_matched"] == 4
    half = runner.invoke(get_app(), ["score", "--references", str(REFS)])
    assert half.exit_code == 2
