"""Batch scoring streams each result, resumes after a kill, and never mixes signatures."""

from __future__ import annotations

import json

import pytest

from transted.errors import InputError
from transted.metrics.registry import get_metric
from transted.running.batch import load_results, score_pairs


def _lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_every_pair_gets_one_line_with_the_required_keys(dev_pairs, tmp_path):
    out = tmp_path / "ted.jsonl"
    results = score_pairs(dev_pairs, get_metric("ted"), out)
    rows = _lines(out)
    assert [r["id"] for r in rows] == [p.id for p in dev_pairs]
    for row in rows:
        assert {"id", "metric", "score", "signature", "error"} <= set(row)
        assert (row["score"] is None) == (row["error"] is not None)
    # the one unparseable dev text is recorded for its pair, and the batch went on
    errors = [r for r in results if r.error]
    assert [r.id for r in errors] == ["proofnet/exercise_1_17/8"]
    assert "reference" in errors[0].error and "1:" in errors[0].error


def test_resume_after_a_killed_run(dev_pairs, tmp_path):
    metric = get_metric("ted")
    out = tmp_path / "ted.jsonl"
    score_pairs(dev_pairs[:10], metric, out)
    # simulate a kill in the middle of writing the 11th line
    with out.open("a", encoding="utf-8") as f:
        f.write('{"id": "proofnet/half')
    calls = []
    score_pairs(dev_pairs, metric, out, on_result=lambda r, cached: calls.append(cached))
    assert calls == [True] * 10 + [False] * (len(dev_pairs) - 10)
    rows = _lines(out)
    assert [r["id"] for r in rows] == [p.id for p in dev_pairs]


def test_results_made_differently_are_not_mixed(dev_pairs, tmp_path):
    out = tmp_path / "ted.jsonl"
    score_pairs(dev_pairs[:3], get_metric("ted"), out)
    with pytest.raises(InputError, match="holds results made with"):
        score_pairs(dev_pairs[:3], get_metric("ted", canonical_names=True), out)
    score_pairs(dev_pairs[:3], get_metric("ted", canonical_names=True), out, resume=False)
    assert len(load_results(out)) == 3


def test_corrupt_result_line_in_the_middle_is_an_error(tmp_path):
    out = tmp_path / "r.jsonl"
    out.write_text("garbage\n{}\n", encoding="utf-8")
    with pytest.raises(InputError, match=":1: not a transted result line"):
        load_results(out)


def test_same_id_with_other_statements_is_refused(dev_pairs, tmp_path):
    out = tmp_path / "ted.jsonl"
    score_pairs(dev_pairs[:2], get_metric("ted"), out)
    changed = dev_pairs[1].model_copy(update={"candidate": dev_pairs[0].candidate})
    with pytest.raises(InputError, match="made from other statements"):
        score_pairs([dev_pairs[0], changed], get_metric("ted"), out)
