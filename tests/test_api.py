"""The top-level Python API (issue 15 item 3): exports pinned, values derived by hand."""

from __future__ import annotations

import pytest

import transted
from transted.reading.pairs import Pair, Statement

REF = "theorem t (x : ℕ) (h : 0 < x) : x + 1 > 1 := by sorry"
CAND = "theorem t (x : ℕ) (h : 0 < x) : 1 + x > 1 := by sorry"
# proposition form ∀[:[x, ℕ], →[<[0, x], >[+[x, 1], 1]]] has 13 nodes; CAND swaps the operands
# of + (2 renames): TED similarity 1 - 2/13.


def test_all_is_pinned():
    assert transted.__all__ == ["__version__", "Result", "RunOptions", "evaluate", "load_metric",
                                "sample_figures", "score", "score_many"]
    for name in transted.__all__:
        assert getattr(transted, name) is not None
    with pytest.raises(AttributeError):
        transted.nope  # noqa: B018


def test_score_returns_a_result_model():
    r = transted.score(REF, CAND, metric="ted")
    assert isinstance(r, transted.Result)
    assert r.score == pytest.approx(1 - 2 / 13)
    assert r.details["distance"] == 2
    assert r.signature == str(transted.load_metric("ted").signature)
    assert set(transted.Result.model_fields) >= {"score", "signature", "details", "status"}


def test_score_with_options_and_a_ready_metric():
    renamed = "theorem t (y : ℕ) (h : 0 < y) : y + 1 > 1 := by sorry"
    assert transted.score(REF, renamed, "ted").score < 1.0  # x vs y: two renames
    assert transted.score(REF, renamed, "ted", canonical_names=True).score == 1.0
    metric = transted.load_metric("ted", canonical_names=True)
    assert transted.score(REF, renamed, metric).score == 1.0
    with pytest.raises(ValueError, match="cannot be given with a ready Metric"):
        transted.score(REF, renamed, metric, field="pretty")


def test_unknown_option_names_the_nearest_and_lists_all():
    with pytest.raises(ValueError) as info:
        transted.load_metric("transted", max_expanshuns=4)
    text = str(info.value)
    assert text.startswith("unknown option 'max_expanshuns' for metric transted; "
                           "did you mean max_expansions? options: ")
    assert "max_expansions" in text.split("options: ", 1)[1].split(", ")


def test_parse_error_is_a_result_not_an_exception():
    r = transted.score(REF, "theorem t (x : ℕ) : x ⋙⋙ 1", "ted")
    assert (r.status, r.score, r.verdict) == ("error", None, None) and "1:" in r.error


def test_a_cut_off_candidate_is_an_invalid_answer():
    r = transted.score(REF, "theorem t (x : ℕ) : (x > 1", "ted")
    assert (r.status, r.score, r.verdict, r.decided_by) == (
        "invalid", None, "not-equivalent", "invalid")
    assert r.details == {"invalid": {"kind": "unclosed-bracket", "line": 1, "column": 27}}
    assert r.error.startswith("pair candidate:1:27: the declaration ends inside '('")


def test_an_unparseable_reference_is_an_error_even_against_an_invalid_candidate():
    r = transted.score("theorem t (x : ℕ) : (x > 1", "theorem t (x : ℕ) : (x > 1", "ted")
    assert (r.status, r.verdict) == ("error", None)
    assert r.error.startswith("pair reference:1:27: ")


def test_score_many_accepts_tuples_pairs_and_files(tmp_path):
    pair = Pair(id="a", reference=Statement(statement=REF), candidate=Statement(statement=REF))
    seen = []
    results = transted.score_many([(REF, CAND), pair], "ted",
                                  on_result=lambda r, cached: seen.append((r.id, cached)))
    assert [r.id for r in results] == ["1", "a"]
    assert [r.score for r in results] == [pytest.approx(1 - 2 / 13), 1.0]
    assert seen == [("1", False), ("a", False)]
    out = tmp_path / "r.jsonl"
    first = transted.score_many([pair], "ted", out=out)
    again = transted.score_many([pair], "ted", out=out, on_result=lambda r, c: seen.append(c))
    assert again == first and seen[-1] is True  # resumed from the file
    with pytest.raises(TypeError, match=r"`pairs`\[0\]"):
        transted.score_many([42], "ted")


def test_evaluate_in_memory_with_labels(tmp_path):
    pairs = [(REF, REF), (REF, CAND), (REF, "theorem t (x : ℕ) : x = 0 := sorry")]
    run = transted.evaluate(pairs, labels=[True, True, False], metrics=["identity"],
                            out=tmp_path, n_boot=10)
    summary = run.summary()
    assert summary["eval"]["data"]["n"] == 3 and summary["eval"]["data"]["n_positive"] == 2
    # identity: only the first pair is identical → tp 1, fn 1, tn 1
    m = summary["metrics"]["identity"]
    assert (m["tp"], m["fn"], m["tn"], m["fp"]) == (1, 1, 1, 0)
    with pytest.raises(ValueError, match="`labels` has 2 values for 3 pairs"):
        transted.evaluate(pairs, labels=[True, False], metrics=["identity"], out=tmp_path)


def test_evaluate_takes_pairs_without_writing_them(tmp_path):
    import hashlib

    from transted.api import as_pairs
    from transted.reading.pairs import write_pairs

    items = [p.model_copy(update={"label": y}) for p, y in
             zip(as_pairs([(REF, REF), (REF, CAND)]), [True, False], strict=True)]
    run = transted.evaluate(items, metrics=["identity"], out=tmp_path / "out", n_boot=10)
    assert not (tmp_path / "out" / "pairs.jsonl").exists()
    # the data is named as in memory and digested as the pair file it would be
    write_pairs(items, tmp_path / "same.jsonl")
    digest = hashlib.sha256((tmp_path / "same.jsonl").read_bytes()).hexdigest()[:12]
    data = run.summary()["eval"]["data"]
    assert (data["path"], data["sha256"]) == ("(in memory)", digest)
    from_file = transted.evaluate(tmp_path / "same.jsonl", metrics=["identity"],
                                  out=tmp_path / "file", n_boot=10)
    assert from_file.summary()["eval"]["data"]["sha256"] == digest
    assert from_file.summary()["eval"]["signature"] == run.summary()["eval"]["signature"]


def test_run_eval_refuses_pairs_labelled_with_other_categories(tmp_path):
    from transted.api import labelled_pairs
    from transted.studies.evaluation import EvalConfig, run_eval

    data = labelled_pairs([Pair(id="1", reference=Statement(statement=REF),
                                candidate=Statement(statement=REF), label=True)])
    with pytest.raises(ValueError, match="positive"):
        run_eval(data, ["identity"], tmp_path, config=EvalConfig(positive=("a", "b", "c")))
