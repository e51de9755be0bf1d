"""The extractor against the hand-derived answers of tests/data/llm_outputs/corpus.jsonl, and
against every statement of the bundled data sets (which must come out unchanged)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from transted.pipeline.extraction import extract

DATA = Path(__file__).parent / "data"
CORPUS = [json.loads(line) for line in
          (DATA / "llm_outputs" / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]


def test_corpus_is_large_and_ids_unique():
    assert len(CORPUS) >= 120
    assert len({c["id"] for c in CORPUS}) == len(CORPUS)
    assert {c["expected"]["status"] for c in CORPUS} == {"ok", "invalid", "error"}


@pytest.mark.parametrize("case", CORPUS, ids=[c["id"] for c in CORPUS])
def test_corpus_case(case):
    want = case["expected"]
    got = extract(case["text"], theorem=case.get("requested"),
                  reference_name=case.get("reference_name"))
    assert got.status == want["status"], got.reason
    assert (got.problem.kind if got.problem else None) == want["invalid_kind"]
    if want["status"] == "error":
        assert got.problem is not None and got.problem.kind is None
        return
    if want["statement"] is None:
        assert got.theorem is None
        return
    assert got.theorem is not None
    assert got.theorem.name == want["theorem"]
    assert got.chosen_by == want["chosen_by"]
    assert got.theorem.statement == want["statement"]
    assert [[d.kind, d.name] for d in got.context] == want["context"]
    span = got.theorem.span
    assert case["text"][span.start:span.end] == got.theorem.statement


@pytest.mark.parametrize("case", [c for c in CORPUS if c["expected"]["status"] != "ok"],
                         ids=lambda c: c["id"])
def test_problem_position_is_consistent(case):
    problem = extract(case["text"], theorem=case.get("requested")).problem
    assert problem is not None
    before = case["text"][:problem.offset]
    assert problem.line == before.count("\n") + 1
    assert problem.column == problem.offset - (before.rfind("\n") + 1) + 1
    error = problem.to_error(case["text"], source="out.jsonl:3 candidate")
    assert (error.line, error.column) == (problem.line, problem.column)
    assert str(error).startswith(f"out.jsonl:3 candidate:{problem.line}:{problem.column}: ")


@pytest.mark.parametrize("case", [c for c in CORPUS if c["expected"]["status"] == "ok"],
                         ids=lambda c: c["id"])
def test_extracting_the_extracted_statement_is_a_fixed_point(case):
    first = extract(case["text"], theorem=case.get("requested"),
                    reference_name=case.get("reference_name"))
    assert first.theorem is not None
    again = extract(first.theorem.statement)
    assert again.status == "ok" and again.theorem is not None
    assert again.theorem.statement == first.theorem.statement


def _release_rows(name: str) -> list[dict]:
    text = (DATA / "statements" / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


@pytest.mark.parametrize("name", ["minif2f.jsonl", "proofnet.jsonl"])
def test_release_statements_come_out_unchanged(name):
    """859 real statements, alone and after their header: never invalid, the same text back."""
    for row in _release_rows(name):
        text = row["formal_statement"]
        want = re.sub(r"\s*:=\s*(by\s*)?$", "", text)
        want = re.sub(r"^noncomputable ", "", want)
        for output in (text, row["header"] + text):
            got = extract(output)
            assert got.status == "ok", (row["name"], got.reason)
            assert got.theorem is not None and got.theorem.statement == want, row["name"]


@pytest.mark.parametrize("name", ["beq_human_dev.jsonl", "proofnet_verified_dev.jsonl"])
def test_strict_dev_sides(name):
    """Every side of the strict dev pairs is ok, except the three BEq candidates cut off inside
    a binder (`(m : ℕ := by sorry`), which are invalid."""
    invalid = []
    for line in (DATA / "strict" / name).read_text(encoding="utf-8").splitlines():
        pair = json.loads(line)
        for side in ("reference", "candidate"):
            got = extract(pair[side]["statement"])
            if got.status != "ok":
                invalid.append((pair["id"], side, got.status, got.problem and got.problem.kind))
    expected = [] if name.startswith("proofnet") else [
        (f"beq/o1-generated/{p}", "candidate", "invalid", "unclosed-bracket")
        for p in ("Herstein.exercise_5_1_8", "Dummit-Foote.exercise_7_2_12",
                  "Dummit-Foote.exercise_9_4_2a")]
    assert invalid == expected
