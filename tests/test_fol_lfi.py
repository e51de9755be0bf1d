"""LFi scoring of paper 003: its Table 1 worked example and its §5 gloss example."""

from __future__ import annotations

import json
import math

import pytest
import typer
from typer.testing import CliRunner

from transted.cli.lfi import register
from transted.errors import InputError, ParseError
from transted.fol.lfi import (
    LFPredicate,
    UndefinedLFiWarning,
    parse_logic_form,
    read_logic_forms,
    score_lfi,
    score_sentence,
)

# paper 003 §5.2: "Correct Output" and "Sample Output"
GOLD = "Earth:n (x1) provide:v (e1, x1, x2) food:n (x2) we(x3) eat:v (e2, x3, x2, x4) day:n (x4)"
SAMPLE = "Earth:n (x1) provide:v (e1, x1, x2) food:n (x2) we(x3) eat:v (e2, x3, x4) day:n (x4)"


def test_table_1_worked_example():
    report = score_lfi({"1": GOLD}, {"1": SAMPLE})
    assert report.arg_precision == pytest.approx(9 / 10)
    assert report.arg_recall == pytest.approx(9 / 11)
    assert report.pred_precision == pytest.approx(5 / 6)
    assert report.pred_recall == pytest.approx(5 / 6)
    # the names are all right, one argument is not
    assert (report.sent_a, report.sent_p, report.sent_ap, report.sent_apsent) == (0, 1, 0, 0)


def test_gloss_example_missing_subject():
    # §5: "rule(e2, , x2)": predicate level 5/6, gloss level 0/1; the empty slot is not an
    # identified argument, so argument precision is 10/10 and recall 10/11
    gold = "abbey(x1) & be(e1, x1, x2) & convent(x2) & rule(e2, x3, x2) & by(e2, x3) & abbess(x3)"
    sys = "abbey(x1) & be(e1, x1, x2) & convent(x2) & rule(e2, , x2) & by(e2, x3) & abbess(x3)"
    report = score_lfi({"g": gold}, {"g": sys})
    assert report.pred_recall == pytest.approx(5 / 6)
    assert report.arg_precision == 1.0 and report.arg_recall == pytest.approx(10 / 11)
    assert report.sent_apsent == 0.0


def test_sentence_level_measures_on_a_small_corpus():
    # s1 perfect; s2 one wrong name but all arguments right; s3 names right, one argument
    # wrong; s4 not attempted. Sent-A = 2/3 (s1, s2), Sent-P = 2/3 (s1, s3),
    # Sent-APSent = 1/3, Sent-AP = 1/2; recall counts s4's 2 arguments and 1 predicate.
    gold = {"1": "a(x1) b(e1, x1)", "2": "c(x1) d(x1)", "3": "e(x1) f(e1, x1)", "4": "g(x1, x2)"}
    sys = {"1": "a(x1) b(e1, x1)", "2": "c(x1) dd(x1)", "3": "e(x1) f(e1, x2)"}
    r = score_lfi(gold, sys)
    assert (r.sent_a, r.sent_p, r.sent_apsent, r.sent_ap) == pytest.approx((2 / 3, 2 / 3,
                                                                             1 / 3, 1 / 2))
    # system slots 3 + 2 + 3 = 8, of which s3's x2 is wrong; gold slots 3 + 2 + 3 + 2 = 10
    assert r.arg_precision == pytest.approx(7 / 8)
    assert r.arg_recall == pytest.approx(7 / 10)
    assert r.pred_precision == pytest.approx(4 / 6)
    assert r.pred_recall == pytest.approx(4 / 7)
    assert (r.n_gold, r.n_attempted) == (4, 3)


def test_repeated_predicate_names_aligned_by_arguments():
    gold = parse_logic_form("of(x1, x2) of(x2, x3)")
    sys = parse_logic_form("of(x2, x3) of(x1, x2)")  # order swapped: still all correct
    c = score_sentence(gold, sys)
    assert c.correct_args == 4 and c.correct_preds == 2 and c.all_args


def test_pos_ignored_unless_kept():
    gold, sys = parse_logic_form("run:v(e1, x1)"), parse_logic_form("run:n(e1, x1)")
    assert score_sentence(gold, sys).correct_preds == 1
    assert score_sentence(gold, sys, keep_pos=True).correct_preds == 0


def test_parse_details():
    preds = parse_logic_form("nn: (x1, x2, x3) logic:n (x2) eat:v (e2, x3, x2; x4) we(x3)")
    assert preds[0] == LFPredicate("nn", "", ("x1", "x2", "x3"))
    assert preds[2].args == ("e2", "x3", "x2", "x4")  # ';' (adjuncts) counts as ','
    assert preds[3] == LFPredicate("we", None, ("x3",))


@pytest.mark.parametrize("text, offset, reason", [
    ("a(x1) b(x2 c(x3)", 8, r"missing '\)'"),
    ("a(x1) b", 7, r"expected '\('"),
    ("a(x1) b (x 2)", 9, "bad argument"),
    ("   ", 0, "empty logic form"),
    ("a(x1) )", 6, "expected a predicate name"),
])
def test_parse_errors_are_positioned(text, offset, reason):
    with pytest.raises(ParseError, match=reason) as info:
        parse_logic_form(text)
    assert info.value.offset == offset


def test_files_ids_and_errors(tmp_path):
    gold = tmp_path / "gold.txt"
    gold.write_text(f"# comment\n7 :: {GOLD}\n\n8 :: a(x1)\n", encoding="utf-8")
    sys = tmp_path / "sys.txt"
    sys.write_text(f"IUSB Y000 7 89.7 :: {SAMPLE}\n", encoding="utf-8")
    assert list(read_logic_forms(gold)) == ["7", "8"]
    assert list(read_logic_forms(sys)) == ["7"]
    bad = tmp_path / "bad.txt"
    bad.write_text("1 :: a(x1)\n2 :: b(x1, x2\n", encoding="utf-8")
    with pytest.raises(ParseError) as info:
        read_logic_forms(bad)
    assert str(info.value).startswith(f"{bad}:2:")
    with pytest.raises(InputError, match="not in gold"):
        score_lfi({"1": "a(x1)"}, {"2": "a(x1)"})


def test_undefined_ratio_warns_and_is_nan():
    with pytest.warns(UndefinedLFiWarning, match="Sent-AP"):
        r = score_lfi({"1": "a(x1)"}, {"1": "b(x1)"})
    assert math.isnan(r.sent_ap)


def test_cli(tmp_path):
    gold, sys = tmp_path / "g.txt", tmp_path / "s.txt"
    gold.write_text(f"1 :: {GOLD}\n", encoding="utf-8")
    sys.write_text(f"1 :: {SAMPLE}\n", encoding="utf-8")
    app = typer.Typer()
    register(app)
    app.command("noop")(lambda: None)  # a second command keeps `lfi` a subcommand
    out = CliRunner().invoke(app, ["lfi", str(gold), str(sys), "--json"])
    assert out.exit_code == 0, out.output
    payload = json.loads(out.output)
    assert payload["scores"]["arg_recall"] == pytest.approx(9 / 11)
    assert payload["signature"].startswith("metric:lfi|")
