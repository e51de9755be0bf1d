"""CLI conventions (issue 15 item 4), through typer's CliRunner and ``main``."""

from __future__ import annotations

import json
import os

import pytest
from cli_helpers import write_rows

import transted
from transted.cli import get_app, main
from transted.pipeline.search.engine import SearchConfig
from transted.studies.evaluation.harness import EvalConfig

SAME = "theorem t (x : ℕ) : x = x := sorry"
RENAMED = "theorem t (y : ℕ) : y = y := sorry"
BROKEN = "theorem t (x : ℕ) : x ⋙⋙ x := sorry"  # not our syntax, not recognisably invalid


def test_version(runner, capsys):
    result = runner.invoke(get_app(), ["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"transted {transted.__version__}"
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"transted {transted.__version__}"


def test_stdin_to_stdout_round_trip_then_resume(runner, tmp_path, monkeypatch):
    data = write_rows(tmp_path / "p.jsonl", [("a", SAME, SAME), ("b", SAME, RENAMED)])
    result = runner.invoke(get_app(), ["score", "-", "-m", "ted"], input=data.read_text("utf-8"))
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    # ∀[:[x, ℕ], =[x, x]] has 7 nodes; x→y renames 3 of them: 1 - 3/7
    assert [(r["id"], r["score"]) for r in lines] == [("a", 1.0), ("b", pytest.approx(4 / 7))]
    assert "2 pairs: mean 0.7857 over 2 scored; 2 ok, 0 invalid, 0 errors" in result.stderr
    # stdout's lines are a result file: scoring into it resumes everything
    out = tmp_path / "r.jsonl"
    out.write_text(result.stdout, "utf-8")
    again = runner.invoke(get_app(), ["score", str(data), "-m", "ted", "--out", str(out)])
    assert again.exit_code == 0 and "2 already done" in again.stdout
    # `--out -` is stdout, never a file named '-'
    monkeypatch.chdir(tmp_path)
    dash = runner.invoke(get_app(), ["score", str(data), "--out", "-"])
    assert dash.exit_code == 0 and len(dash.stdout.splitlines()) == 2
    assert not (tmp_path / "-").exists()


def test_aggregate_counts_errors_and_quiet_silences_notes(runner, tmp_path):
    data = write_rows(tmp_path / "p.jsonl", [("a", SAME, SAME), ("b", SAME, BROKEN)])
    result = runner.invoke(get_app(), ["score", str(data), "-m", "ted"])
    assert result.exit_code == 0
    assert "2 pairs: mean 1.0000 over 1 scored; 1 ok, 0 invalid, 1 errors, 0 unavailable" \
        in result.stderr
    quiet = runner.invoke(get_app(), ["--quiet", "score", str(data), "-m", "ted"])
    assert quiet.exit_code == 0 and quiet.stderr == "" and len(quiet.stdout.splitlines()) == 2


def test_metric_lists_repeat_or_comma(runner, capsys):
    a = runner.invoke(get_app(), ["score", SAME, RENAMED, "-m", "ted", "-m", "identity",
                                  "--format", "jsonl"])
    b = runner.invoke(get_app(), ["score", SAME, RENAMED, "-m", "ted,identity",
                                  "--format", "jsonl"])
    assert a.exit_code == b.exit_code == 0 and a.stdout == b.stdout
    assert [json.loads(x)["metric"] for x in a.stdout.splitlines()] == ["ted", "identity"]
    assert main(["score", SAME, RENAMED, "-m", "ted,ted"]) == 2
    assert "ted given more than once" in capsys.readouterr().err


def test_one_format_option(capsys):
    assert main(["ted", SAME, RENAMED, "--format", "jsonl"]) == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 1 and json.loads(out)["distance"] == 3
    assert main(["ted", SAME, RENAMED, "--format", "yaml"]) == 2
    assert "text, json, jsonl" in capsys.readouterr().err


def test_option_typo_gets_the_nearest_name(capsys):
    assert main(["score", SAME, SAME, "-m", "transted", "-O", "max_expanshuns=4"]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert ("unknown option 'max_expanshuns' for metric transted; did you mean max_expansions? "
            "options: ") in err
    listed = err.split("options: ", 1)[1].split(", ")
    assert {"max_expansions", "max_time"} <= set(listed) and "backend" not in listed


def test_metrics_lists_options_defaults_and_signature_fields(capsys):
    assert main(["metrics", "--format", "json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert set(rows) >= {"ted", "transted", "bleu", "identity", "published:<key>"}
    options = {o["name"]: o["default"] for o in rows["transted"]["options"]}
    assert options["max_expansions"] == SearchConfig().max_expansions
    assert rows["ted"]["signature_fields"] == list(
        transted.load_metric("ted").signature.as_dict())
    assert "notation" in rows["transted"]["signature_fields"]
    # DefEq(explicit, **kwargs) passes the rest to its base: those are declared options too
    assert [o["name"] for o in rows["defeq"]["options"]][:4] == ["explicit", "backend",
                                                                "project", "timeout"]


def test_eval_needs_no_out_and_uses_the_library_default_mode(tmp_path, capsys):
    data = tmp_path / "p.jsonl"
    data.write_text("".join(json.dumps({"id": i, "reference": {"statement": SAME},
                                        "candidate": {"statement": c}, "label": lab}) + "\n"
                            for i, c, lab in (("a", SAME, True), ("b", RENAMED, False))), "utf-8")
    assert main(["eval", str(data), "-m", "identity", "--n-boot", "5", "--format", "json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["eval"]["threshold_mode"] == EvalConfig().threshold_mode
    assert summary["metrics"]["identity"]["tp"] == 1 and summary["metrics"]["identity"]["tn"] == 1


def test_search_graph_format_by_suffix(tmp_path, capsys):
    import networkx as nx
    import pydot

    bad = tmp_path / "g.txt"
    assert main(["search", "a + b", "b + a", "--graph", str(bad)]) == 1
    assert "unknown graph format '.txt'" in capsys.readouterr().err and not bad.exists()
    png = tmp_path / "g.png"
    code = main(["search", "a + b", "b + a", "--graph", str(png)])
    if os.system("command -v dot >/dev/null") != 0:  # no Graphviz: refused, nothing written
        assert code == 1 and "Graphviz" in capsys.readouterr().err and not png.exists()
    else:
        assert code == 0 and png.read_bytes()[:4] == b"\x89PNG"
    dot = tmp_path / "g.dot"
    # the search of tests/test_search_engine.py: closed through `and_imp`/`Imp.swap` rewrites
    ref, cand = "(p ∧ q) ∧ r → s", "q → p → r → s"
    assert main(["search", ref, cand, "--graph", str(dot), "--max-expansions", "30"]) == 0
    parsed = pydot.graph_from_dot_data(dot.read_text("utf-8"))[0]
    graph = nx.nx_pydot.from_pydot(parsed)
    gml = tmp_path / "g.graphml"
    assert main(["search", ref, cand, "--graph", str(gml), "--max-expansions", "30"]) == 0
    assert graph.number_of_nodes() == nx.read_graphml(gml).number_of_nodes() >= 2
    # labels with brackets, arrows and spaces survive the DOT round trip (pydot quotes them)
    labels = {d["label"].strip('"') for _, _, d in graph.edges(data=True)}
    assert "rw [← and_imp]" in labels
