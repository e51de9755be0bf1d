"""Every command that prints a signature prints the metric object's signature for the same
options (issue 10 item 4); a user notation table enters every tree-based signature."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import transted
from transted.cli import main
from transted.pipeline.opt.notation import notation_fields
from transted.signature import Signature, signature_hash

REF = "theorem t (x : ℕ) (h : 0 < x) : x + 1 > 1 := by sorry"
CAND = "theorem t (x : ℕ) (h : 0 < x) : 1 + x > 1 := by sorry"


def _pairs(tmp_path: Path, n: int = 3, *, labelled: bool = True) -> Path:
    rows = [{"id": f"p{i}", "reference": {"statement": REF},
             "candidate": {"statement": CAND if i % 2 else REF},
             **({"label": bool(i % 2 == 0)} if labelled else {})} for i in range(n)]
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def _json(capsys: pytest.CaptureFixture[str]) -> object:
    return json.loads(capsys.readouterr().out)


def test_ted_command_and_score_print_the_metric_signature(capsys, tmp_path):
    for flags, options in (([], {}), (["--statement-form", "--keep-names"],
                                      {"proposition": False, "canonical_names": False}),
                           (["--canonical-names", "-b", "zss"],
                            {"canonical_names": True, "backend": "zss"})):
        expected = str(transted.load_metric("ted", **options).signature)
        assert main(["ted", REF, CAND, "--format", "json", *flags]) == 0
        assert _json(capsys)["signature"] == expected
        o_flags = [f"-O{k}={json.dumps(v)}" for k, v in options.items()]
        assert main(["score", REF, CAND, "-m", "ted", "--format", "json", *o_flags]) == 0
        assert _json(capsys)["signature"] == expected
        assert transted.score(REF, CAND, "ted", **options).signature == expected
    sig = Signature.parse(expected).as_dict()
    assert (sig["canonical-names"], sig["backend"].split("-")[0]) == ("yes", "zss")


def test_term_input_is_a_field_of_the_same_signature(capsys):
    assert main(["ted", "a + b", "b + a", "--term", "--format", "json"]) == 0
    assert _json(capsys)["signature"] == str(transted.load_metric("ted", field="term").signature)


def test_batch_search_eval_regress_carry_the_metric_signature(capsys, tmp_path):
    data = _pairs(tmp_path)
    out = tmp_path / "scores.jsonl"
    assert main(["score", str(data), "-m", "ted", "--out", str(out)]) == 0
    ted_sig = str(transted.load_metric("ted").signature)
    lines = [json.loads(x) for x in out.read_text("utf-8").splitlines()]
    assert {r["signature"] for r in lines} == {ted_sig}  # files: always the full one
    # printed: the short form (default options: none shown) naming the full one by its hash
    short = f"metric:ted|transted:{transted.__version__}|hash:{signature_hash(ted_sig)}"
    assert f"signature: {short}\n" in capsys.readouterr().out
    assert main(["score", str(data), "-m", "ted", "--out", str(out), "--signature", "full"]) == 0
    assert f"signature: {ted_sig}\n" in capsys.readouterr().out

    assert main(["search", REF, CAND, "--format", "json", "--max-expansions", "3"]) == 0
    expected = transted.load_metric("transted", max_expansions=3).signature
    assert _json(capsys)["signature"] == str(expected)

    assert main(["eval", str(data), "-m", "ted", "-m", "bleu", "--out", str(tmp_path / "ev"),
                 "--n-boot", "10", "--format", "json"]) == 0
    summary = _json(capsys)
    assert summary["metrics"]["ted"]["signature"] == ted_sig
    assert summary["metrics"]["bleu"]["signature"] == str(transted.load_metric("bleu").signature)

    assert main(["regress", str(data), str(data), "-m", "ted", "--format", "json"]) == 0
    assert _json(capsys)["signature"] == ted_sig


def test_short_signature_shows_the_options_that_differ_and_a_hash(capsys):
    """sacrebleu-style short form: only what differs from the metric's defaults, and the hash
    of the full string (so it names exactly one computation)."""
    full = str(transted.load_metric("ted", cost="semantic").signature)
    assert main(["score", REF, CAND, "-m", "ted:cost=semantic"]) == 0
    shown = [line for line in capsys.readouterr().out.splitlines()
             if line.startswith("signature: ")]
    # cost differs (the semantic table, with its hash), and so does the threshold field (no
    # shipped threshold for these options); nothing else
    cost = Signature.parse(full).as_dict()["cost"]
    assert cost.startswith("semantic")
    assert shown == [f"signature: metric:ted|transted:{transted.__version__}|cost:{cost}|"
                     f"threshold:none|hash:{signature_hash(full)}"]
    assert len(shown[0]) < len(full) / 2
    assert main(["--signature", "full", "score", REF, CAND, "-m", "ted:cost=semantic"]) == 0
    assert f"signature: {full}" in capsys.readouterr().out
    assert main(["score", REF, CAND, "--signature", "long"]) == 2
    # a signature this build does not know (no default to compare with): the hash stays
    other = Signature.parse("metric:x|transted:9|a:b")
    assert other.short(None) == f"metric:x|transted:9|options:see-full|hash:{signature_hash(str(other))}"


def test_user_notation_table_enters_tree_signatures(tmp_path, monkeypatch):
    plain = str(transted.load_metric("ted").signature)
    extra = tmp_path / "mine.yaml"
    extra.write_text("infix: []\n", "utf-8")
    monkeypatch.setenv("TRANSTED_NOTATION", str(extra))
    first = Signature.parse(str(transted.load_metric("ted").signature)).as_dict()["notation"]
    bundled = Signature.parse(plain).as_dict()["notation"]
    assert first.startswith(bundled + "+mine.yaml-")
    assert first in str(transted.load_metric("transted").signature)
    extra.write_text("infix: []\nprefix: []\n", "utf-8")  # other content, other hash
    assert notation_fields()["notation"] != first
