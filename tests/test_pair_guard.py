"""Fault injection, one test per stage of a pair: an exception anywhere in it gives that pair an
error line naming the pair and the exception type, and the batch goes on (issue 25 item 1).

Each test makes one stage raise for the middle pair only (its candidate mentions ``boom``) and
scores three pairs through the one scoring path; the worker's side of that path
(:func:`~transted.running.executors.score_chunk`) is exercised in this process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

import transted.metrics.base
import transted.pipeline.findings
import transted.pipeline.opt.in_context
import transted.pipeline.run
import transted.running.batch
from transted.metrics.base import PairScore
from transted.metrics.registry import get_metric
from transted.metrics.ted import TEDSimilarity
from transted.pipeline.opt.node import Node
from transted.pipeline.search.engine import SearchResult
from transted.reading.pairs import Pair, Statement
from transted.running.batch import load_results, score_pairs
from transted.running.executors import MetricSpec, score_chunk, score_stream


def _pair(pid: str, candidate: str) -> Pair:
    return Pair(id=pid, reference=Statement(statement="theorem t (x : ℕ) : x + 0 = x := sorry"),
                candidate=Statement(statement=candidate))


PAIRS = [_pair("a", "theorem t (x : ℕ) : x = x := sorry"),
         _pair("b", "theorem t (x boom : ℕ) : x + boom = x := sorry"),
         _pair("c", "theorem t (x : ℕ) : 0 + x = x := sorry")]


def _mentions_boom(*values: Any) -> bool:
    for value in values:
        if isinstance(value, Node):
            if any(n.label == "boom" for n in value.preorder()):
                return True
        elif "boom" in str(value):
            return True
    return False


def _raising(original: Callable[..., Any], error: BaseException) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if _mentions_boom(*args, *kwargs.values()):
            raise error
        return original(*args, **kwargs)
    return wrapper


def _check(tmp_path, metric, error_type: str) -> None:
    out = tmp_path / "out.jsonl"
    results = score_pairs(PAIRS, metric, out, jobs=1)
    assert [r.status for r in results] == ["ok", "error", "ok"]
    assert [r.id for r in load_results(out)] == ["a", "b", "c"]
    message = results[1].error or ""
    assert message.startswith(f"internal error scoring pair 'b': {error_type} at transted/")
    assert results[1].score is None and results[1].signature == str(metric.signature)


def test_parse(monkeypatch, tmp_path):
    original = transted.pipeline.opt.in_context.read_declaration

    def read(parser: Any) -> Any:  # the parser holds the statement's text
        if "boom" in parser.text:
            raise IndexError("parser bug")
        return original(parser)

    monkeypatch.setattr(transted.pipeline.opt.in_context, "read_declaration", read)
    _check(tmp_path, get_metric("ted"), "IndexError")


def test_normalise(monkeypatch, tmp_path):
    monkeypatch.setattr(transted.pipeline.opt.in_context, "normalize",
                        _raising(transted.pipeline.opt.in_context.normalize, RecursionError("too deep")))
    _check(tmp_path, get_metric("transted"), "RecursionError")


def test_ted(monkeypatch, tmp_path):
    monkeypatch.setattr(transted.pipeline.run, "tree_distance",
                        _raising(transted.pipeline.run.tree_distance, ZeroDivisionError()))
    _check(tmp_path, get_metric("transted"), "ZeroDivisionError")


def test_search(monkeypatch, tmp_path):
    monkeypatch.setattr(transted.pipeline.run, "search_state",
                        _raising(transted.pipeline.run.search_state, KeyError("state")))
    _check(tmp_path, get_metric("transted"), "KeyError")


def test_evidence(monkeypatch, tmp_path):
    monkeypatch.setattr(transted.pipeline.findings, "pair_evidence",
                        _raising(transted.pipeline.findings.pair_evidence, MemoryError()))
    _check(tmp_path, get_metric("transted"), "MemoryError")


def test_verdict(monkeypatch, tmp_path):
    metric = get_metric("transted")
    original = transted.metrics.base.with_threshold
    boom_score = metric.score_pair(PAIRS[1]).score

    def verdict(forced: Any, score: Any, *args: Any, **kwargs: Any) -> Any:
        if score == boom_score:
            raise AttributeError("verdict bug")
        return original(forced, score, *args, **kwargs)

    # the middle pair is the only one with its score
    assert [metric.score_pair(p).score for p in PAIRS].count(boom_score) == 1
    monkeypatch.setattr(transted.metrics.base, "with_threshold", verdict)
    _check(tmp_path, metric, "AttributeError")


def test_render(monkeypatch, tmp_path):
    script = SearchResult.script

    def rendered(self: SearchResult) -> list[str]:
        if _mentions_boom(self.best.lhs, self.best.rhs):
            raise UnicodeError("render bug")
        return script.fget(self)  # type: ignore[attr-defined]

    monkeypatch.setattr(SearchResult, "script", property(rendered))
    _check(tmp_path, get_metric("transted"), "UnicodeError")


def test_serialise_in_the_worker(monkeypatch, tmp_path):
    original = TEDSimilarity._score

    def score(self: TEDSimilarity, pair: Pair) -> PairScore:
        scored = original(self, pair)
        if pair.id == "b":
            scored.details["unwritable"] = object()
        return scored

    monkeypatch.setattr(TEDSimilarity, "_score", score)
    _check(tmp_path, get_metric("ted"), "TypeError")


def test_serialise_in_the_driver(monkeypatch, tmp_path):
    original = transted.running.batch.result_line

    def line(result: Any) -> str:
        if result.id == "b" and result.status == "ok":
            raise OverflowError("driver bug")
        return original(result)

    monkeypatch.setattr(transted.running.batch, "result_line", line)
    _check(tmp_path, get_metric("ted"), "OverflowError")


def test_the_worker_side_guards_each_pair(monkeypatch):
    monkeypatch.setattr(transted.pipeline.opt.in_context, "normalize",
                        _raising(transted.pipeline.opt.in_context.normalize, RecursionError("too deep")))
    metric = get_metric("ted")
    rows = score_chunk(MetricSpec("ted"), str(metric.signature), tuple(enumerate(PAIRS)))
    assert [index for index, _ in rows] == [0, 1, 2]
    assert [row["status"] for _, row in rows] == ["ok", "error", "ok"]
    assert "'b': RecursionError at transted/" in rows[1][1]["error"]
    json.dumps([row for _, row in rows])  # every row travels and writes


def test_stream_without_a_file_is_guarded_too(monkeypatch):
    original = transted.pipeline.opt.in_context.read_declaration

    def read(parser: Any) -> Any:  # the parser holds the statement's text
        if "boom" in parser.text:
            raise IndexError("parser bug")
        return original(parser)

    monkeypatch.setattr(transted.pipeline.opt.in_context, "read_declaration", read)
    results = list(score_stream(PAIRS, get_metric("ted")))
    assert [r.status for r in results] == ["ok", "error", "ok"]


def test_keyboard_interrupt_is_not_swallowed(monkeypatch, tmp_path):
    original = transted.pipeline.opt.in_context.read_declaration

    def read(parser: Any) -> Any:
        if "boom" in parser.text:
            raise KeyboardInterrupt
        return original(parser)

    monkeypatch.setattr(transted.pipeline.opt.in_context, "read_declaration", read)
    with pytest.raises(KeyboardInterrupt):
        score_pairs(PAIRS, get_metric("ted"), tmp_path / "out.jsonl", jobs=1)
    # the run resumes: the first pair's line was written
    assert [r.id for r in load_results(tmp_path / "out.jsonl")] == ["a"]


# ---- issue 25 item 3-4: duplicate ids in memory, stdout, field=pretty ----------------------

def test_duplicate_ids_in_memory_are_refused_before_any_work(tmp_path):
    import transted
    from transted.errors import InputError

    twice = [PAIRS[0], PAIRS[1], PAIRS[0]]
    out = tmp_path / "out.jsonl"
    with pytest.raises(InputError, match=r"pairs\[2\]: id 'a' repeats pairs\[0\]'s"):
        transted.score_many(twice, "ted", out=out)
    with pytest.raises(InputError, match=r"pairs\[2\]: id 'a'"):
        score_pairs(twice, get_metric("ted"), out)
    with pytest.raises(InputError, match=r"pairs\[2\]: id 'a'"):
        transted.score_many(twice, "ted")
    assert not out.exists() or out.read_text() == ""


def test_lone_surrogate_on_stdout_is_a_positioned_error_line(tmp_path):
    bad = Pair(id="bad", reference=Statement(statement="theorem t : x = \ud800 := sorry"),
               candidate=Statement(statement="theorem t : x = 2 := sorry"))
    data = tmp_path / "pairs.jsonl"
    data.write_text("\n".join(json.dumps(p.model_dump(exclude_none=True)) for p in
                              (PAIRS[0], bad, PAIRS[2])) + "\n")
    proc = subprocess.run([sys.executable, "-m", "transted", "score", str(data), "-m", "ted",
                           "--jobs", "1"], capture_output=True, timeout=300,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]
    assert [r["status"] for r in lines] == ["ok", "error", "ok"]
    assert lines[1]["error"] == ("field `reference.statement` is not valid Unicode: lone "
                                 "surrogate U+D800 at character 17")


def test_field_pretty_without_pretty_text_is_an_error_line():
    result = get_metric("ted", field="pretty").score_pair(PAIRS[0])
    assert result.status == "error"
    assert result.error == ("a reference: field=pretty but the statement has no `pretty` text "
                            "(Lean's pretty-printed form); score it with field=statement")


def test_the_collector_is_paused_while_a_batch_scores_a_pair_and_restored(monkeypatch):
    # running/executors/guard.py: a pair's goals are never scanned by the cyclic collector;
    # after the pair (scored, or raising) it is as it was
    import gc

    seen: list[bool] = []
    original = TEDSimilarity.score_pair

    def watched(self, pair):
        seen.append(gc.isenabled())
        if pair.id == "b":
            raise RuntimeError("boom")
        return original(self, pair)

    monkeypatch.setattr(TEDSimilarity, "score_pair", watched)
    was = gc.isenabled()
    gc.enable()
    try:
        lines = [r.model_dump() for r in score_stream(PAIRS, TEDSimilarity())]
        assert gc.isenabled()
        gc.disable()  # a caller that paused it keeps it paused
        list(score_stream(PAIRS[:1], TEDSimilarity()))
        assert not gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
    assert seen == [False, False, False, False]
    assert [line["status"] for line in lines] == ["ok", "error", "ok"]
