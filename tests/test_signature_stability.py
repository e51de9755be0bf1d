"""Signatures that describe the computation, the same on the first pair as on the last (issue
25 item 5): the Lean provider's backend fields, a rule file by content, ``decide``'s memory."""

from __future__ import annotations

import shutil
from functools import partial
from importlib import resources
from pathlib import Path

from transted.metrics.registry import get_metric
from transted.pipeline.lean.backend import ReplayBackend
from transted.reading.pairs import Pair, Statement
from transted.running.batch import score_pairs
from transted.running.executors import LeanWorkerPolicy, MetricSpec

TRANSCRIPT = (Path(__file__).parent / "data" / "repl" / "transcripts" / "upstream_repl_test"
              / "proof_transitivity.in")


def _pairs(n: int) -> list[Pair]:
    return [Pair(id=f"p{i}", reference=Statement(statement="theorem t (x : ℕ) : x + 0 = x := sorry"),
                 candidate=Statement(statement=f"theorem t (x : ℕ) : x + {i} = x := sorry"))
            for i in range(n)]


def test_lean_provider_without_a_backend_keeps_its_signature_after_the_first_pair():
    metric = get_metric("transted", providers="lean")
    before = str(metric.signature)
    results = [metric.score_pair(p) for p in _pairs(2)]
    # here no Lean can start: each pair is unavailable, and says so under one signature
    assert {r.signature for r in results} == {before} == {str(metric.signature)}
    assert "backend:lean-interact" in before


def test_lean_provider_on_the_replay_backend_resumes(tmp_path):
    spec = MetricSpec("transted", {"providers": "lean"},
                      backend_factory=partial(ReplayBackend.from_transcript, TRANSCRIPT),
                      lean_policy=LeanWorkerPolicy(max_commands=2))
    metric = spec.build()
    before = str(metric.signature)
    assert "backend:replay:proof_transitivity" in before
    out = tmp_path / "out.jsonl"
    first = score_pairs(_pairs(2), metric, out, spec=spec)
    assert {r.signature for r in first} == {before}
    # a second run on more pairs resumes the file (a changed signature would be refused)
    again = score_pairs(_pairs(3), spec.build(), out, spec=spec)
    assert [r.id for r in again] == ["p0", "p1", "p2"]
    assert {r.signature for r in again} == {before}


def _rule_file(directory: Path, edit: tuple[str, str] | None = None) -> Path:
    text = resources.files("transted.pipeline.search").joinpath("rules", "offline.yaml").read_text(
        encoding="utf-8")
    if edit is not None:
        assert text.count(edit[0]) == 1
        text = text.replace(*edit)
    directory.mkdir()
    path = directory / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_rule_file_enters_by_content(tmp_path):
    same_a = _rule_file(tmp_path / "a")
    same_b = _rule_file(tmp_path / "b")
    # one rule's direction dropped: the same name, the same number of rules, other moves
    rule = '    lhs: "?a ≥ ?b"\n    rhs: "?b ≤ ?a"\n    params: {a: "?a", b: "?b"}\n'
    edited = _rule_file(tmp_path / "c", (rule, rule + "    reversible: false\n"))
    sig = {name: get_metric("transted", rules=str(path)).signature.as_dict()["rules"]
           for name, path in (("a", same_a), ("b", same_b), ("c", edited))}
    assert sig["a"] == sig["b"] != sig["c"]
    assert sig["a"].startswith("rules.yaml-") and sig["c"].startswith("rules.yaml-")
    assert get_metric("transted").signature.as_dict()["rules"].startswith("bundled-")
    shutil.rmtree(tmp_path / "a")


def test_decide_memory_enters_the_signature():
    default = get_metric("transted").signature.as_dict()["decide"]
    more = get_metric("transted", provider_options={"decide.memory_mb": 512}
                      ).signature.as_dict()["decide"]
    assert default.endswith("/mem:256MB") and more.endswith("/mem:512MB")
