"""``transted ted REF CAND``: parse both statements, print TED similarity (table or JSON).

Expected trees follow the label conventions of docs/INTERNALS.md (proposition form:
``∀ (x : ℝ), 0 < x → x + 1 > 1``), counted by hand.
"""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from transted.cli import main
from transted.signature import Signature

opt = pytest.importorskip("transted.pipeline.opt")
if not hasattr(opt, "parse_statement"):  # only until the parser lands
    pytest.skip("transted.pipeline.opt.parse_statement does not exist yet", allow_module_level=True)

REF = "theorem t (x : ℝ) (h : 0 < x) : x + 1 > 1 := by sorry"
CAND = "theorem t (x : ℝ) (h : 0 < x) : 1 + x > 1 := by sorry"
# ∀[:[x, ℝ], →[<[0, x], >[+[x, 1], 1]]]: 13 nodes; CAND swaps the operands of + (2 renames)


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ted", REF, CAND, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["distance"], out["size1"], out["size2"]) == (2, 13, 13)
    assert out["similarity"] == pytest.approx(1 - 2 / 13)
    assert out["backend"].startswith("edist-")
    fields = Signature.parse(out["signature"]).as_dict()
    assert fields["parser"] == opt.PARSER_VERSION and fields["backend"] == out["backend"]
    assert fields["proposition"] == "yes" and fields["cost"] == "unit"
    assert out["reference_tree"].startswith("{∀ <SLOT>, <SLOT>{<SLOT> : <SLOT>{x}{ℝ}}")


def test_table_output_and_backend(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ted", REF, REF, "--backend", "zss"]) == 0
    out = capsys.readouterr().out
    assert "similarity" in out and "1.0000" in out and "zss-" in out


def test_statement_form_changes_the_tree_and_the_signature(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ted", REF, CAND, "--json", "--statement-form"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["reference_tree"].startswith("{theorem")
    assert out["distance"] == 2
    assert Signature.parse(out["signature"]).as_dict()["proposition"] == "no"


def test_header_opens_namespaces(capsys: pytest.CaptureFixture[str]) -> None:
    ref = "theorem t (x : ℝ) : Real.log x = 0 := sorry"
    cand = "theorem t (x : ℝ) : log x = 0 := sorry"
    assert main(["ted", ref, cand, "--json", "--header", "import Mathlib\nopen Real"]) == 0
    assert json.loads(capsys.readouterr().out)["distance"] == 0


def test_terms(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ted", "a + b", "b + a", "--term", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["distance"], out["size1"]) == (2, 3)


def test_parse_error_names_the_side_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ted", REF, "theorem t (x : ℝ) : (x > 1"]) == 1
    err = capsys.readouterr().err
    assert "CAND:1:" in err and "^" in err


def test_unknown_backend_is_a_usage_error() -> None:
    from transted.cli.ted import register

    app = typer.Typer()
    register(app)
    app.command("noop")(lambda: None)  # two commands, so `ted` stays a subcommand
    result = CliRunner().invoke(app, ["ted", REF, CAND, "--backend", "nope"])
    assert result.exit_code == 2
    assert "unknown backend 'nope'" in result.output
