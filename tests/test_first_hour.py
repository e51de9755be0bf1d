"""A new user's first hour (issue 34): each thing that broke or misled, reproduced.

Empty outputs are answers; input files with a BOM or the wrong suffix; the small CLI things
(`-m TED`, `--quiet true`, `<bool>` in help, papers by number); what decided a verdict,
vacuous verdicts; the kappa curve of the verdict rule; the pool decision; one set of run
options shared by the commands and the API.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.main import get_command
from typer.testing import CliRunner

import transted
from transted.cli import get_app, main
from transted.cli.group import registered_commands
from transted.cli.registry import COMMANDS
from transted.cli.runs import aggregate_line, result_text
from transted.errors import InputError
from transted.metrics.base import MetricResult
from transted.reading.inputs import join_files, read_pair_table
from transted.reading.pairs import read_pairs
from transted.running.executors import LocalExecutor, MetricSpec, RunOptions
from transted.running.reasons import VACUOUS_REASON_PREFIX, count_vacuous, is_vacuous, verdict_text
from transted.studies.evaluation.decided import predictions_with
from transted.studies.evaluation.reports.plot import verdict_sweep

ROOT = Path(__file__).resolve().parents[1]
REFS = ROOT / "examples/references.jsonl"
NEW = ROOT / "examples/outputs_new.jsonl"


def _outputs(tmp_path: Path, edits: dict[int, object], field: str = "output") -> Path:
    """examples/outputs_new.jsonl with line ``i``'s text replaced by ``edits[i]``."""
    rows = [json.loads(line) for line in NEW.read_text("utf-8").splitlines()]
    for i, value in edits.items():
        rows[i][field] = value
        if field != "output":
            del rows[i]["output"]
    path = tmp_path / "outs.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


# 1. an empty output is an answer --------------------------------------------------------------

@pytest.mark.parametrize("empty", ["", "   \n", None])
def test_an_empty_output_is_an_invalid_answer_and_the_batch_goes_on(tmp_path, capsys, empty):
    outs = _outputs(tmp_path, {1: empty})
    assert main(["score", "--references", str(REFS), "--candidates", str(outs), "-m", "ted",
                 "--out", str(tmp_path / "r.jsonl")]) == 0
    lines = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text("utf-8").splitlines()]
    empty_line = lines[1]
    assert empty_line["status"] == "invalid" and empty_line["verdict"] == "not-equivalent"
    assert empty_line["details"]["invalid"]["kind"] == "empty"
    assert "the output is empty" in empty_line["error"]
    assert all(r["status"] == "ok" for i, r in enumerate(lines) if i != 1)
    assert "|extract:3|" in empty_line["signature"]  # resume never mixes the behaviours (v2+)


def test_an_empty_sample_in_a_list_is_an_invalid_answer(tmp_path):
    reference = json.loads(REFS.read_text("utf-8").splitlines()[0])
    outs = tmp_path / "outs.jsonl"
    outs.write_text(json.dumps({"name": reference["name"], "output": [
        "", None, reference["formal_statement"] + " sorry"]}) + "\n", "utf-8")
    results = transted.score_many(join_files(REFS, outs).pairs, "ted")
    assert [r.status for r in results] == ["invalid", "invalid", "ok"]


@pytest.mark.parametrize("metric", ["bleu", "identity", "ted"])
def test_every_lean_metric_answers_an_empty_candidate(metric):
    result = transted.score("theorem a : 1 = 1 := rfl", "  ", metric=metric)
    assert (result.status, result.verdict, result.decided_by) == \
        ("invalid", "not-equivalent", "invalid")


def test_an_empty_reference_stays_an_error(tmp_path):
    refs = tmp_path / "refs.jsonl"
    refs.write_text(json.dumps({"name": "a", "formal_statement": " "}) + "\n", "utf-8")
    with pytest.raises(InputError, match=r"refs\.jsonl:1: the reference statement is empty"):
        join_files(refs, NEW)
    assert transted.score("", "theorem a : 1 = 1 := rfl", metric="ted").status == "error"


def test_response_field_and_text_field_option(tmp_path, capsys):
    responses = _outputs(tmp_path, {}, field="output")
    rows = [json.loads(x) for x in responses.read_text("utf-8").splitlines()]
    for r in rows:
        r["response"] = r.pop("output")
    responses.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    assert len(join_files(REFS, responses).pairs) == 4  # a common name, read as it is
    for r in rows:
        r["answer_text"] = r.pop("response")
    responses.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    with pytest.raises(InputError, match="--text-field FIELD names another"):
        join_files(REFS, responses)
    assert len(join_files(REFS, responses, text_field="answer_text").pairs) == 4
    assert main(["score", "--references", str(REFS), "--candidates", str(responses),
                 "--text-field", "answer_text", "-m", "ted", "--format", "text"]) == 0
    with pytest.raises(InputError, match=r"outs\.jsonl:1: no `nope` field \(--text-field"):
        join_files(REFS, responses, text_field="nope")


def test_an_empty_csv_cell_is_an_empty_answer(tmp_path):
    refs = tmp_path / "refs.csv"
    refs.write_text("name,formal_statement\na,theorem a : 1 = 1 := rfl\n", "utf-8")
    outs = tmp_path / "outs.csv"
    outs.write_text("name,output\na,\n", "utf-8")
    pairs = join_files(refs, outs).pairs
    assert [p.candidate.statement for p in pairs] == [""]


# 7. input files as editors save them --------------------------------------------------------

def test_a_utf8_bom_is_read_as_nothing(tmp_path):
    table = tmp_path / "pairs.csv"
    table.write_bytes(b"\xef\xbb\xbfid,reference,candidate\n"
                      + b"p,theorem a : 1 = 1 := rfl,theorem b : 1 = 1 := rfl\n")
    assert [p.id for p in read_pair_table(table)] == ["p"]
    lines = tmp_path / "pairs.jsonl"
    lines.write_bytes(b"\xef\xbb\xbf" + json.dumps(
        {"id": "p", "reference": {"statement": "theorem a : 1 = 1 := rfl"},
         "candidate": {"statement": "theorem b : 1 = 1 := rfl"}}).encode() + b"\n")
    assert [p.id for p in read_pairs(lines)] == ["p"]


def test_a_table_named_jsonl_gets_a_hint(tmp_path):
    wrong = tmp_path / "pairs.jsonl"
    wrong.write_text("id,reference,candidate\np,a,b\n", "utf-8")
    with pytest.raises(InputError, match=r"pairs\.jsonl:1:1: invalid JSON: .*looks like a CSV "
                                         r"header row: a table is read as one when its file is "
                                         r"named \*\.csv"):
        read_pairs(wrong)


def test_small_cli_things(capsys):
    assert main(["score", "theorem a : 1 = 1 := rfl", "theorem b : 1 = 1 := rfl",
                 "-m", "TED"]) == 2
    assert "unknown metric 'TED'; did you mean ted?" in capsys.readouterr().err
    for argv in (["score", "--quiet", "true", "x", "y"], ["--quiet", "true", "score", "x"]):
        assert main(argv) == 2
        assert ("--quiet is a switch and takes no value: drop 'true' (--quiet alone turns it "
                "on)") in capsys.readouterr().err


def _help(*argv: str) -> str:
    result = CliRunner().invoke(get_app(), [*argv, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output


def test_help_shows_switches_as_switches_and_names_papers():
    pages = [_help(), _help("fol")] + [_help(name) for name in COMMANDS if name != "fol"]
    pages += [_help("fol", sub) for sub in ("parse", "perturb", "formulaicness")]
    for page in pages:
        assert "<bool>" not in page and "paper 00" not in page
    assert "formulaicness" in pages[1]


def test_pass_at_k_says_over_how_many_problems():
    from transted.running.samples import sample_figures

    results = [MetricResult(id=f"{p}#{i}", metric="m", score=1.0 if i == 0 else 0.0,
                            signature="s", verdict="equivalent" if i == 0 else "not-equivalent")
               for p, n in (("a", 3), ("b", 1)) for i in range(n)]
    line = sample_figures(results).summary_line()
    assert "equivalent@3 1.0000;" in line  # over both problems, as the line's count says
    assert "pass@3 1.0000 (over 1 problem with >= 3 samples)" in line


# 5. what decided a verdict, and vacuous verdicts --------------------------------------------

def _result(reason: str | None, verdict: str = "equivalent") -> MetricResult:
    details = {"verdict_reason": reason} if reason else {}
    return MetricResult(id="p", metric="ted", score=0.4, signature="s", verdict=verdict,
                        decided_by="edits", details=details)


def test_a_vacuous_verdict_is_shown_and_counted():
    vacuous = _result(VACUOUS_REASON_PREFIX + "h₀ : x < 0 and h₁ : 0 < x on both sides")
    plain = _result("no meaning edit left")
    assert is_vacuous(vacuous) and not is_vacuous(plain) and count_vacuous([vacuous, plain]) == 1
    text = verdict_text(vacuous)
    assert text.startswith("equivalent, decided by the edits left between the trees: "
                           "vacuously: both sides' hypotheses are contradictory")
    assert text.endswith("; h₀ : x < 0 and h₁ : 0 < x on both sides")
    assert "vacuously" in result_text(vacuous)
    line = aggregate_line([vacuous, plain])
    assert "verdicts: 2 equivalent, 0 not-equivalent, 0 none (1 equivalent only vacuously: " \
           "contradictory hypotheses)" in line
    assert "vacuous" not in aggregate_line([plain])


def test_the_kappa_curve_is_the_verdict_rule_so_each_dot_is_on_its_curve():
    rng = np.random.default_rng(0)
    scores = rng.random(40)
    labels = rng.random(40) < 0.5
    forced: list[bool | None] = [None] * 40
    for i in range(0, 40, 3):
        forced[i] = bool(labels[i]) if i % 2 else not labels[i]  # right and wrong decisions
    thresholds = np.linspace(0, 1, 21)
    sw = verdict_sweep(scores, labels, forced, thresholds)
    for j, t in enumerate(thresholds):
        predicted = predictions_with(scores, forced, float(t))[0]
        assert sw.tp[j] == int((predicted & labels).sum())
        assert sw.fp[j] == int((predicted & ~labels).sum())
        assert sw.fn[j] == int((~predicted & labels).sum())
    every = [bool(y) for y in labels]  # all decided before the threshold: a flat curve
    flat = verdict_sweep(scores, labels, every, thresholds)
    assert set(flat.tp) == {int(labels.sum())} and set(flat.fp) == {0}


# 6. the pool decision ---------------------------------------------------------------------------

def test_a_slow_first_pair_does_not_start_the_pool(dev_pairs, tmp_path):
    """The first pair pays the process's one-time loads: projecting from it started two
    workers for a 200-pair ted batch that takes 2 s in one process."""
    from transted.running.batch import score_pairs

    spec = MetricSpec("scale_helpers:ColdStartTED", {"cold": 1.0, "delay": 0.005})
    # projected from the first pair: 29 x 1 s > 10 s, the pool started at once; from the
    # pairs after it: 28 x (5 ms + the ted pair itself) is far below 10 s
    pool = LocalExecutor(2, min_parallel_seconds=10.0)
    with pool:
        score_pairs(dev_pairs[:30], spec.build(), tmp_path / "r.jsonl", executor=pool,
                    spec=spec)
        assert pool.scored_in_driver == 30 and pool._pool is None


# issue 30: one set of run options --------------------------------------------------------------

RUN_COMMANDS = ("score", "eval", "regress", "sensitivity")


def test_the_commands_take_the_run_options_with_the_records_defaults():
    defaults = RunOptions()
    root = get_command(get_app())
    for name in RUN_COMMANDS:
        click_command = root.get_command(None, name)
        params = {p.name: p for p in click_command.params}
        for field in dataclasses.fields(RunOptions):
            assert field.name in params, (name, field.name)
            if not (name == "sensitivity" and field.name == "out"):  # required there
                assert params[field.name].default == getattr(defaults, field.name), \
                    (name, field.name)


def test_run_options_are_checked():
    for bad in ({"jobs": -1}, {"jobs": True}, {"executor": "dask"}, {"pair_timeout": 0},
                {"ray_address": "auto"}, {"resume": "yes"}):
        with pytest.raises(ValueError):
            RunOptions(**bad)  # type: ignore[arg-type]
    assert transted.RunOptions is RunOptions
    assert main(["score", "x.jsonl", "--ray-address", "auto"]) == 2


def test_the_api_takes_run_options_or_the_old_keywords(tmp_path, dev_pairs):
    pairs = dev_pairs[:5]
    old = transted.score_many(pairs, "ted", out=tmp_path / "old.jsonl", resume=False)
    new = transted.score_many(pairs, "ted", run=RunOptions(out=tmp_path / "new.jsonl",
                                                           resume=False))
    assert old == new
    assert (tmp_path / "old.jsonl").read_bytes() == (tmp_path / "new.jsonl").read_bytes()
    on_two = transted.score_many(pairs, "ted", run=RunOptions(jobs=2))  # 5 pairs: a pool
    assert on_two == transted.score_many(pairs, "ted")
    with pytest.raises(ValueError, match="`out` given twice"):
        transted.score_many(pairs, "ted", out=tmp_path / "a.jsonl",
                            run=RunOptions(out=tmp_path / "b.jsonl"))
    with pytest.raises(TypeError, match="RunOptions"):
        transted.score_many(pairs, "ted", run={"jobs": 2})  # type: ignore[arg-type]
    labelled = ROOT / "tests/data/gted/proofnet.jsonl"
    a = transted.evaluate(labelled, metrics=["bleu"], out=tmp_path / "ea")
    b = transted.evaluate(labelled, metrics=["bleu"], run=RunOptions(out=tmp_path / "eb"))
    assert a.summary()["metrics"] == b.summary()["metrics"]


# 6. start-up: what `--version` and one command import -------------------------------------------

def _imported(*argv: str) -> set[str]:
    """The modules a fresh process has loaded after running ``transted argv``."""
    script = ("import sys\nfrom transted.cli import main\ncode = main(sys.argv[1:])\n"
              "print('\\n'.join(sorted(sys.modules)))\nsys.exit(code)")
    done = subprocess.run([sys.executable, "-c", script, *argv], capture_output=True,
                          text=True, cwd=ROOT, timeout=120,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    return set(done.stdout.splitlines())


def test_version_imports_no_command_and_no_metric():
    modules = _imported("--version")
    assert not {m for m in modules if m.startswith(("transted.cli.", "transted.metrics",
                                                    "transted.running.executors", "transted.pipeline.opt"))
                } - {"transted.cli.console", "transted.cli.exits", "transted.cli.group",
                     "transted.cli.registry"}
    assert not {"numpy", "scipy", "pydantic", "sympy", "z3"} & modules


def test_one_command_imports_only_its_own_module():
    modules = _imported("ted", "theorem a : 1 = 1 := rfl", "theorem b : 1 = 1 := rfl")
    commands = {m for m in modules if m.startswith("transted.cli.")} - {
        "transted.cli.console", "transted.cli.exits", "transted.cli.group",
        "transted.cli.registry", "transted.cli.options"}
    assert commands == {"transted.cli.ted"}
    # what the CLI itself adds nothing of: the evaluation, the plots, the API's module (which
    # loads the evaluation). sympy and z3 come with the pair pipeline's evidence stage.
    assert not {"matplotlib", "sklearn", "transted.studies.evaluation", "transted.api"} & modules


def test_every_registered_module_adds_the_command_named_for_it():
    for name, module in COMMANDS.items():
        assert name in registered_commands(importlib.import_module(module).register)
