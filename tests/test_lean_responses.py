"""Contract tests: every recorded REPL response goes through our driver's parsing.

The recordings are the leanprover-community/repl test suite (two toolchains) and the
lean-interact fork's extra tests (``tests/data/repl/transcripts``). Every parsed field is
checked against the recorded JSON text, not against our own earlier output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from transted.errors import InputError
from transted.pipeline.lean.backend import ReplayBackend, UnrecordedRequest
from transted.pipeline.lean.responses import (
    canonical_request,
    parse_response,
    request_kind,
    split_json_stream,
    to_request_model,
)
from transted.pipeline.lean.results import CommandResult, StepResult

pytest.importorskip("lean_interact", reason="lean-interact (extra `lean`) is not installed")

TRANSCRIPTS = Path(__file__).parent / "data" / "repl" / "transcripts"
RECORDED = sorted(p for p in TRANSCRIPTS.rglob("*.in")
                  if Path(f"{p.with_suffix('')}.expected.out").exists())


def _exchanges(path: Path) -> list[tuple[dict, dict]]:
    requests = split_json_stream(path.read_text(encoding="utf-8"))
    responses = split_json_stream(Path(f"{path.with_suffix('')}.expected.out")
                                  .read_text(encoding="utf-8"))
    assert len(requests) == len(responses), path
    return list(zip(requests, responses, strict=True))


def _check_messages(parsed, recorded: list[dict]) -> None:
    assert len(parsed) == len(recorded)
    for ours, theirs in zip(parsed, recorded, strict=True):
        assert ours.severity == theirs["severity"]
        assert ours.data == theirs["data"]
        assert (ours.line, ours.column) == (theirs["pos"]["line"], theirs["pos"]["column"])
        end = theirs.get("endPos")
        assert (ours.end_line, ours.end_column) == ((end["line"], end["column"]) if end
                                                    else (None, None))


def _check_sorries(parsed, recorded: list[dict]) -> None:
    assert [(s.goal, s.proof_state) for s in parsed] == [
        (s["goal"], s.get("proofState")) for s in recorded]


def test_transcripts_are_present():
    assert len(RECORDED) >= 100  # 4 recorded suites; see tests/data/repl/README.md


@pytest.mark.parametrize("path", RECORDED, ids=lambda p: str(p.relative_to(TRANSCRIPTS)))
def test_every_recorded_response_parses_to_its_recorded_fields(path: Path):
    for request, response in _exchanges(path):
        result = parse_response(request, response)
        if set(response) == {"message"}:
            assert result.error == response["message"]
            if isinstance(result, StepResult):
                assert result.failed and not result.closed
            continue
        _check_messages(result.messages, response.get("messages", []))
        _check_sorries(result.sorries, response.get("sorries", []))
        if request_kind(request) == "tactic":
            assert isinstance(result, StepResult)
            assert result.proof_state == response["proofState"]
            assert list(result.goals) == response.get("goals", [])
            assert result.status == response["proofStatus"]
            clean = (response["proofStatus"] == "Completed" and not response.get("goals")
                     and not response.get("sorries")
                     and all(m["severity"] != "error" for m in response.get("messages", [])))
            assert result.closed == clean
        else:
            assert isinstance(result, CommandResult)
            assert result.env == response["env"]
            has_error = any(m["severity"] == "error" for m in response.get("messages", []))
            assert result.ok == (not has_error)


def test_requests_round_trip_through_lean_interact_request_models():
    """Our requests are lean-interact models whose wire form is the recorded request."""
    for path in RECORDED:
        for request, _ in _exchanges(path):
            model = to_request_model(request)
            dumped = model.model_dump(exclude_none=True, by_alias=True)
            assert canonical_request(dumped) == canonical_request(request), request


def test_goals_empty_with_kernel_error_is_a_failure():
    """REPL test app_type_mismatch2: proofStatus "Error: kernel type check failed", goals []."""
    path = TRANSCRIPTS / "upstream_repl_test" / "app_type_mismatch2.in"
    results = [parse_response(q, r) for q, r in _exchanges(path)]
    step = next(r for r in results if isinstance(r, StepResult) and r.status
                and r.status.startswith("Error"))
    assert step.goals == () and step.failed and not step.closed


def test_replay_answers_in_recorded_order_and_refuses_the_unrecorded():
    backend = ReplayBackend.from_transcript(TRANSCRIPTS / "upstream_repl_test" / "proof_step.in")
    first = backend.command("def f : Nat := by sorry")
    assert first.env == 0 and first.sorries[0].goal == "⊢ Nat"
    step = backend.tactic("apply Int.natAbs", 0)
    assert step.goals == ("⊢ Int",) and not step.closed
    assert backend.tactic("have t : Nat := 42", 0).goals == ("t : Nat\n⊢ Nat",)
    assert backend.tactic("exact t", 2).closed
    with pytest.raises(UnrecordedRequest, match="no recorded answer"):
        backend.tactic("exact t", 2)  # recorded once, asked twice
    with pytest.raises(UnrecordedRequest):
        backend.tactic("rfl", 0)
    assert backend.signature_fields() == {"backend": "replay:proof_step"}


def test_transcript_with_missing_responses_is_an_input_error(tmp_path: Path):
    (tmp_path / "x.in").write_text('{"cmd": "def a := 1"}\n\n{"env": 0, "cmd": "#eval a"}\n')
    (tmp_path / "x.expected.out").write_text('{"env": 0}\n')
    with pytest.raises(InputError, match="2 requests but 1 responses"):
        ReplayBackend.from_transcript(tmp_path / "x.in")


def test_split_json_stream_reports_offset():
    # the second object starts at 12 (10 chars + 2 newlines); its value is missing 8 later
    with pytest.raises(InputError, match="offset 20"):
        split_json_stream('{"env": 0}\n\n{"env": ', source="s")
    assert split_json_stream(json.dumps({"cmd": "a\tb"}).replace("\\t", "\t")) == [
        {"cmd": "a\tb"}]
