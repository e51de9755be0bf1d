"""Outputs vs references (issue 15 item 1): shapes, Lean-file headers, samples, keys, unmatched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import transted
from transted.cli import get_app
from transted.errors import InputError
from transted.reading.inputs import join, join_files, read_records

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


def test_key_choice_and_line_order_only_when_asked(tmp_path):
    refs = _jsonl(tmp_path / "r.jsonl", [{"id": "a", "name": "x", "formal_statement": "theorem a : 1 = 1 := rfl"},
                                        {"id": "b", "name": "y", "formal_statement": "theorem b : 2 = 2 := rfl"}])
    by_name = _jsonl(tmp_path / "n.jsonl", [{"name": "y", "output": "theorem b : 2 = 2 := rfl"}])
    joined = join_files(refs, by_name)  # `id` is missing on the candidate side: `name` is used
    assert joined.key == "name" and [p.id for p in joined.pairs] == ["y#0"]
    bare = _jsonl(tmp_path / "b.jsonl", [{"output": "theorem a : 1 = 1 := rfl"},
                                        {"output": "theorem b : 2 = 2 := rfl"}])
    # no key in common: an error naming what each side has, never a silent line-order join
    with pytest.raises(InputError, match=r"no key common to both files.*references' lines all "
                                         r"have `id`, `name`.*--by-line-order"):
        join_files(refs, bare)
    joined = join_files(refs, bare, line_order=True)
    assert joined.key == "line" and [p.id for p in joined.pairs] == ["1#0", "2#0"]
    with pytest.raises(InputError, match=r"b\.jsonl:1: no `id` field"):
        join_files(refs, bare, key="id")


def test_each_side_names_its_key(tmp_path):
    """References keyed by `name`, outputs by `problem_id`, listed in another order: joined
    by key, each candidate to its own reference (a line-order join would swap them)."""
    refs = _jsonl(tmp_path / "r.jsonl", [{"name": "a", "formal_statement": "theorem a : 1 = 1 := rfl"},
                                        {"name": "b", "formal_statement": "theorem b : 2 = 2 := rfl"}])
    outs = _jsonl(tmp_path / "o.jsonl", [{"problem_id": "b", "output": "theorem b : 2 = 2 := rfl"},
                                        {"problem_id": "a", "output": "theorem a : 1 = 1 := rfl"}])
    with pytest.raises(InputError, match="candidates' `problem_id`"):
        join_files(refs, outs)
    joined = join_files(refs, outs, candidate_key="problem_id")
    assert joined.key == "name = problem_id"
    assert [(p.id, p.reference.statement == p.candidate.statement) for p in joined.pairs] == \
        [("b#0", True), ("a#0", True)]
    assert join_files(refs, outs, reference_key="name", candidate_key="problem_id").key == \
        "name = problem_id"
    with pytest.raises(InputError, match=r"r\.jsonl:1: no `problem_id` field.*--key"):
        join_files(refs, outs, key="problem_id")
    with pytest.raises(ValueError, match="not both"):
        join_files(refs, outs, key="name", candidate_key="problem_id")


def test_sample_ids_are_positions_so_files_of_any_sample_count_match(tmp_path):
    """One output per problem gets `p#0`, as the first of two does: the ids of a one-sample
    and a two-sample file meet; a `sample` field orders a problem's candidates."""
    refs = _jsonl(tmp_path / "r.jsonl", [{"id": "p", "formal_statement": "theorem p : 1 = 1 := rfl"},
                                        {"id": "q", "formal_statement": "theorem q : 2 = 2 := rfl"}])
    one = _jsonl(tmp_path / "one.jsonl", [{"id": "p", "output": "theorem p : 1 = 1 := rfl"},
                                         {"id": "q", "output": "theorem q : 2 = 2 := rfl"}])
    two = _jsonl(tmp_path / "two.jsonl", [{"id": "p", "sample": 7, "output": "theorem p : 1 = 3 := rfl"},
                                         {"id": "p", "sample": 2, "output": "theorem p : 1 = 2 := rfl"},
                                         {"id": "q", "output": "theorem q : 2 = 2 := rfl"}])
    assert [p.id for p in join_files(refs, one).pairs] == ["p#0", "q#0"]
    pairs = join_files(refs, two).pairs
    assert [(p.id, p.candidate.statement, p.meta.get("sample_field")) for p in pairs] == [
        ("p#0", "theorem p : 1 = 2 := rfl", 2), ("p#1", "theorem p : 1 = 3 := rfl", 7),
        ("q#0", "theorem q : 2 = 2 := rfl", None)]
    dup = _jsonl(tmp_path / "dup.jsonl", [{"id": "p", "sample": 1, "output": "theorem p : 1 = 1 := rfl"},
                                         {"id": "p", "sample": 1, "output": "theorem p : 1 = 1 := rfl"}])
    with pytest.raises(InputError, match=r"dup\.jsonl:2: sample 1 of key 'p' given twice"):
        join_files(refs, dup)


def test_csv_and_tsv_with_named_columns(tmp_path):
    """Outputs and references as CSV/TSV tables (a whole Lean file in a quoted cell), and a
    pair table for `score DATA.csv`; a malformed row names file and line."""
    from transted.api import as_pairs

    refs = tmp_path / "refs.tsv"
    refs.write_text("name\tformal_statement\np\ttheorem p (x : ℕ) : x = x := rfl\n", "utf-8")
    outs = tmp_path / "outs.csv"
    outs.write_text('name,output\np,"import Mathlib\nopen Nat\n\ntheorem p (y : ℕ) : y = y := rfl"\n'
                    'p,"theorem p (x : ℕ) : x = 1 := rfl"\n', "utf-8")
    pairs = join_files(refs, outs).pairs
    assert [p.id for p in pairs] == ["p#0", "p#1"]
    # kept as written: the metrics extract the statement and its header lines (docs/INPUTS.md)
    assert pairs[0].candidate.statement.startswith("import Mathlib\nopen Nat\n\ntheorem p")
    assert pairs[0].meta["candidate_at"] == f"{outs}:2" and pairs[1].meta["candidate_at"] == f"{outs}:6"
    table = tmp_path / "pairs.csv"
    table.write_text("id,reference,candidate,label\na,theorem a : 1 = 1 := rfl,theorem a : 1 = 1 := rfl,true\n",
                     "utf-8")
    (pair,) = as_pairs(table)
    assert pair.id == "a" and pair.label is True and pair.candidate.statement == "theorem a : 1 = 1 := rfl"
    bad = tmp_path / "bad.csv"
    bad.write_text("name,output\np,theorem p : 1 = 1 := rfl,extra\n", "utf-8")
    with pytest.raises(InputError, match=r"bad\.csv:2: 3 cells for 2 columns"):
        read_records(bad, side="candidate")
    extra = tmp_path / "extra.csv"
    extra.write_text("id,reference,candidate,score\na,x,y,1\n", "utf-8")
    # the columns are named on the header row: the error points there
    with pytest.raises(InputError, match=r"extra\.csv:1: unknown column\(s\) score"):
        as_pairs(extra)


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
