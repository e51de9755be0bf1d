"""CLI wiring of library features: sensitivity, -m name:key=value, verdicts and statuses,
output-path safety, positioned input errors, --explain edits, search --max-work."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
import typer
from cli_helpers import write_rows

from transted.cli import get_app, main
from transted.cli.options import metric_specs
from transted.cli.score import aggregate_line
from transted.reading.outputs import OutputLock

SAME = "theorem t (x : ℕ) : x = x := sorry"
BROKEN = "theorem t (x : ℕ) : (x = x := sorry"
ONE = "theorem t (x : ℕ) (h : 0 < x) : x + 1 > 1 := sorry"
TWO = "theorem t (x : ℕ) (h : 0 < x) : x + 2 > 1 := sorry"
STATEMENTS = Path(__file__).parent / "data" / "statements" / "minif2f.jsonl"


# -m name:key=value ---------------------------------------------------------------------------

def test_metric_specs_split_name_and_options():
    assert metric_specs(["ted:cost=semantic,normalize=false", "bleu,published:gted"]) == [
        ("ted", {"cost": "semantic", "normalize": False}), ("bleu", {}), ("published:gted", {})]
    assert metric_specs(["published:gted:x=1"]) == [("published:gted", {"x": 1})]
    with pytest.raises(typer.BadParameter):
        metric_specs(["cost=semantic"])  # an option without a metric


def test_metric_options_reach_the_signature_and_are_validated(runner, capsys):
    plain = runner.invoke(get_app(), ["score", SAME, SAME, "-m", "ted", "--format", "json"])
    semantic = runner.invoke(get_app(), ["score", SAME, SAME, "-m", "ted:cost=semantic",
                                         "--format", "json"])
    assert "|cost:unit|" in json.loads(plain.stdout)["signature"]
    assert "|cost:semantic-" in json.loads(semantic.stdout)["signature"]
    # a misspelt option is refused by the registry's validation, naming it: usage error
    assert main(["score", SAME, SAME, "-m", "ted:cots=semantic"]) == 2
    assert "unknown option 'cots' for metric ted; did you mean cost?" in capsys.readouterr().err


# score: verdicts and every status -------------------------------------------------------------

def test_score_text_prints_the_verdict(runner):
    result = runner.invoke(get_app(), ["score", SAME, SAME, "-m", "bleu,ted",
                                       "-m", "bleu:smoothing=0"])
    assert result.exit_code == 0, result.output
    bleu, ted, unshipped = result.stdout.split("signature:")[:3]
    # above bleu's shipped threshold
    assert "verdict: equivalent, decided by the score against the metric's threshold" in bleu
    # ted decides by its residual edits: the same statement leaves none
    assert ("verdict: equivalent, decided by the edits left between the trees: no edit left"
            in ted)
    # bleu has no residual edits, and no threshold is shipped for another smoothing
    assert "verdict: none (no shipped threshold)" in unshipped


def test_aggregate_counts_every_status_and_verdict(runner, tmp_path):
    data = write_rows(tmp_path / "p.jsonl", [("a", SAME, SAME), ("b", SAME, BROKEN)])
    result = runner.invoke(get_app(), ["score", str(data), "-m", "ted"])
    # BROKEN is cut off inside `(`: an invalid candidate, an answer (not-equivalent)
    assert ("2 pairs: mean 1.0000 over 1 scored; 1 ok, 1 invalid, 0 errors, 0 unavailable, "
            "0 too_large, 0 timeout; "
            "verdicts: 1 equivalent, 1 not-equivalent, 0 none; "
            # identical sides: no edit left, so the edits decide without any threshold
            "decided by 1 invalid, 1 edits, 0 bare threshold; 0 already done") in result.stderr
    rows = [SimpleNamespace(score=None, status="timeout", verdict=None),
            SimpleNamespace(score=0.5, status="ok", verdict="not-equivalent")]
    line = aggregate_line(rows)
    assert "1 ok, 0 invalid, 0 errors, 0 unavailable, 0 too_large, 1 timeout;" in line
    assert "verdicts: 0 equivalent, 1 not-equivalent, 1 none" in line
    # a verdict without a route counts nowhere; the bare threshold is always named
    assert "decided by 0 bare threshold;" in line
    routed = [SimpleNamespace(score=0.9, status="ok", verdict="equivalent", decided_by="threshold"),
              SimpleNamespace(score=1.0, status="ok", verdict="equivalent", decided_by="edits"),
              SimpleNamespace(score=1.0, status="ok", verdict="equivalent", decided_by="edits"),
              SimpleNamespace(score=0.2, status="ok", verdict=None, decided_by=None)]
    assert "decided by 2 edits, 1 bare threshold;" in aggregate_line(routed)


# output-path safety ---------------------------------------------------------------------------

def test_concurrent_writer_refused(tmp_path, capsys):
    data = write_rows(tmp_path / "p.jsonl", [("a", SAME, SAME)])
    out = tmp_path / "r.jsonl"
    with OutputLock(out):
        assert main(["score", str(data), "-m", "ted", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "another transted run is writing it" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert not out.exists() or out.read_text() == ""


def test_out_equal_to_input_refused_and_input_unchanged(tmp_path, capsys):
    data = write_rows(tmp_path / "p.jsonl", [("a", SAME, SAME)])
    before = data.read_bytes()
    assert main(["score", str(data), "-m", "ted", "--out", str(data)]) == 2
    assert data.read_bytes() == before
    assert "is the input file" in capsys.readouterr().err
    refs = write_rows(tmp_path / "refs.jsonl", [("a", SAME, SAME)])
    assert main(["score", "-r", str(refs), "-c", str(data), "--out", str(refs)]) == 2
    assert refs.read_bytes() == before


def test_tree_out_equal_to_its_file_refused(tmp_path, capsys):
    data = write_rows(tmp_path / "p.jsonl", [("a", SAME, SAME)])
    before = data.read_bytes()
    assert main(["tree", "--file", str(data), "--out", str(data)]) == 2
    assert data.read_bytes() == before and "is the input file" in capsys.readouterr().err


def test_directory_as_out_is_one_line(tmp_path, capsys):
    data = write_rows(tmp_path / "p.jsonl", [("a", SAME, SAME)])
    assert main(["score", str(data), "-m", "ted", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [f"error: {tmp_path}: is a directory; give a file path "
                                        "for the results"]
    a_file = tmp_path / "taken.txt"
    a_file.write_text("x")
    assert main(["eval", str(data), "-m", "ted", "--out", str(a_file)]) == 2
    assert main(["sensitivity", str(STATEMENTS), "--out", str(a_file)]) == 2
    err = capsys.readouterr().err
    assert err.count("exists and is not a directory") == 2 and "Traceback" not in err


def test_repaired_output_shown_as_note(tmp_path, capsys):
    data = write_rows(tmp_path / "p.jsonl", [("a", SAME, SAME), ("b", SAME, SAME.replace("x", "y"))])
    out = tmp_path / "r.jsonl"
    assert main(["score", str(data), "-m", "ted", "--out", str(out)]) == 0
    first = out.read_text().splitlines()[0]
    out.write_text(first + "\nnot json\n", "utf-8")  # a result file with a damaged line
    capsys.readouterr()
    assert main(["score", str(data), "-m", "ted", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("note: ") and "dropped 1 bad line(s), kept 1" in err
    assert [json.loads(x)["id"] for x in out.read_text().splitlines()] == ["a", "b"]


def test_out_refuses_a_file_that_is_not_a_result_file(tmp_path, capsys):
    """`--out notes.txt` naming an unrelated file: refused before anything is scored, the
    file left as it was (it used to be backed up and replaced, exit 0)."""
    data = write_rows(tmp_path / "p.jsonl", [("a", SAME, SAME)])
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes, not results\n", "utf-8")
    for resume in ("--resume", "--no-resume"):
        assert main(["score", str(data), "-m", "ted", "--out", str(notes), resume]) == 2
        assert "exists and is not a transted result file" in capsys.readouterr().err
    assert notes.read_text("utf-8") == "my notes, not results\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "p.jsonl"]
    # an empty file, and a run killed during its first line, are ours to write
    notes.write_text("", "utf-8")
    assert main(["score", str(data), "-m", "ted", "--out", str(notes)]) == 0
    half = tmp_path / "half.jsonl"
    half.write_text('{"id": "a", "metr', "utf-8")
    assert main(["score", str(data), "-m", "ted", "--out", str(half)]) == 0


# positioned, escaped input errors ----------------------------------------------------------

def test_tree_file_names_file_line_and_field(tmp_path, capsys):
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps({"id": "a", "reference": {"statement": SAME}}) + "\n", "utf-8")
    assert main(["tree", "--file", str(path)]) == 1
    assert f"{path}:1: field `candidate`: Field required" in capsys.readouterr().err


def test_fol_parse_file_names_bad_bytes(tmp_path, capsys):
    path = tmp_path / "f.txt"
    path.write_bytes("P(a)\nQ(\xff)\n".encode("latin-1"))
    assert main(["fol", "parse", "--file", str(path)]) == 1
    assert f"{path}:2:3: invalid UTF-8 (byte 0xff)" in capsys.readouterr().err


def test_control_characters_are_escaped(capsys):
    assert main(["tree", "theorem t : \x1b[2J (x = := sorry"]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\\x1b" in err


def test_parse_error_excerpt_fits_the_terminal(capsys):
    from transted.cli.console import err_console

    long = "theorem t : f " + " ".join(f"x{i}" for i in range(200)) + " = ) := sorry"
    assert main(["tree", long]) == 1
    lines = capsys.readouterr().err.splitlines()
    caret = lines[-1]
    assert caret.strip() == "^" and all(len(x) < err_console.width for x in lines[-2:])
    assert lines[-2][len(caret) - 1] == ")"  # the caret sits under the offending token


# --explain, --max-work ------------------------------------------------------------------------

def test_explain_shows_costed_edits_and_auto_bound(runner):
    result = runner.invoke(get_app(), ["score", ONE, TWO, "-m", "ted,transted", "--explain"])
    assert result.exit_code == 0, result.output
    # one numeral differs: the only edit is 1 → 2, cost 1 (unit cost) for both metrics
    assert result.stdout.count("rename: 1 → 2 (cost 1)") == 2
    auto = runner.invoke(get_app(), ["score", "theorem t (h : 0 < n) : n = n := sorry",
                                     "theorem t (n : ℕ) (h : 0 < n) : n = n := sorry",
                                     "-m", "ted", "--explain"])
    assert "auto-bound in the reference: n" in auto.stdout
    assert "auto-bound in the candidate" not in auto.stdout


def test_search_max_work(runner):
    args = ["search", "theorem t (x : ℕ) : x + 0 = x := sorry", SAME, "--format", "json"]
    seven = json.loads(runner.invoke(get_app(), [*args, "--max-work", "7"]).stdout)
    unbounded = json.loads(runner.invoke(get_app(), [*args, "--max-work", "0"]).stdout)
    assert "|max-work:7|" in seven["signature"] and "|max-work:none|" in unbounded["signature"]
    assert runner.invoke(get_app(), [*args, "--max-work", "-1"]).exit_code == 2


# eval --threshold-mode default, disagreements, sensitivity ------------------------------------

def test_eval_default_mode_and_costed_edits_in_disagreements(runner, tmp_path):
    rows = [("a", ONE, ONE, True), ("b", ONE, TWO, False), ("c", SAME, SAME, True),
            ("d", ONE, TWO, True)]
    data = tmp_path / "labelled.jsonl"
    data.write_text("".join(json.dumps({"id": i, "reference": {"statement": r},
                                        "candidate": {"statement": c}, "label": y}) + "\n"
                            for i, r, c, y in rows), "utf-8")
    assert "default" in runner.invoke(get_app(), ["eval", "--help"]).stdout
    out = tmp_path / "out"
    result = runner.invoke(get_app(), ["eval", str(data), "-m", "ted", "--out", str(out),
                                       "--threshold-mode", "oracle", "--n-boot", "10"])
    assert result.exit_code == 0, result.output
    text = (out / "disagreements.md").read_text("utf-8")
    assert "Costed edits" in text and "1 → 2" in text
    default = runner.invoke(get_app(), ["eval", str(data), "-m", "bleu", "--out",
                                        str(tmp_path / "d"), "--threshold-mode", "default",
                                        "--n-boot", "10", "--format", "json"])
    assert default.exit_code == 0, default.output
    assert json.loads(default.stdout)["eval"]["threshold_mode"] == "default"


def test_sensitivity_command(runner, tmp_path):
    statements = tmp_path / "s.jsonl"
    statements.write_text(STATEMENTS.read_text("utf-8").splitlines()[0] + "\n", "utf-8")
    out, pairs = tmp_path / "sens", tmp_path / "pairs.jsonl"
    result = runner.invoke(get_app(), ["sensitivity", str(statements), "-m", "ted:cost=semantic",
                                       "-m", "bleu", "--out", str(out), "--pairs-out", str(pairs),
                                       "--per-kind", "1"])
    assert result.exit_code == 0, result.output
    md = (out / "sensitivity.md").read_text("utf-8")
    assert result.stdout.strip() == md.strip()
    # an identical pair has TED 0 (similarity 1; ted's residual edits: none → equivalent) and
    # bleu 1.0, above bleu's shipped threshold
    assert "| identical | equivalent | 1 | 1.000 / 1.00 | 1.000 / 1.00 |" in md
    assert "|cost:semantic-" in md and pairs.stat().st_size > 0
    assert (out / "scores" / "ted.jsonl").exists() and (out / "scores" / "bleu.jsonl").exists()
    twice = runner.invoke(get_app(), ["sensitivity", str(statements), "-m", "ted,ted:cost=unit",
                                      "--out", str(out)])
    assert twice.exit_code == 2


# parallel scoring through the CLI -----------------------------------------------------------

@pytest.mark.slow
def test_jobs_two_writes_the_same_file_as_one(tmp_path):
    dev = Path(__file__).parent / "data" / "gted" / "proofnet.jsonl"
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert main(["score", str(dev), "-m", "ted", "--out", str(one)]) == 0
    assert main(["score", str(dev), "-m", "ted", "--out", str(two), "--jobs", "2"]) == 0
    assert one.read_bytes() == two.read_bytes() and len(one.read_text().splitlines()) == 93


def test_jobs_and_executor_are_checked(tmp_path, capsys):
    data = write_rows(tmp_path / "p.jsonl", [("a", SAME, SAME)])
    assert main(["score", str(data), "-m", "ted", "--jobs", "-1"]) == 2
    assert main(["score", str(data), "-m", "ted", "--executor", "slurm", "--jobs", "2"]) == 2
    assert "executor" in capsys.readouterr().err


@pytest.mark.slow
def test_sensitivity_jobs_two_writes_the_same_scores_as_one(runner, tmp_path):
    statements = tmp_path / "s.jsonl"
    statements.write_text("".join(STATEMENTS.read_text("utf-8").splitlines(True)[:3]), "utf-8")
    for jobs in ("1", "2"):
        result = runner.invoke(get_app(), ["sensitivity", str(statements), "-m", "ted",
                                           "--out", str(tmp_path / jobs), "--jobs", jobs])
        assert result.exit_code == 0, result.output
    one, two = (tmp_path / j / "scores" / "ted.jsonl" for j in ("1", "2"))
    assert one.read_bytes() == two.read_bytes() and one.read_bytes().count(b"\n") > 10


def test_default_jobs_is_every_core_with_a_pool_only_when_worth_it(monkeypatch, runner):
    import transted.running.executors.placement as placement
    from transted.running.executors import RunOptions, executor_of
    from transted.running.executors.run_options import POOL_PAYS_OFF_SECONDS

    monkeypatch.setattr(placement, "default_jobs", lambda: 2)
    with executor_of(RunOptions()) as pool:
        assert pool.workers == 2 and pool.min_parallel_seconds == POOL_PAYS_OFF_SECONDS
    with executor_of(RunOptions(jobs=0)) as pool:  # 0: every core from the start
        assert pool.workers == 2 and pool.min_parallel_seconds is None
    with executor_of(RunOptions(jobs=1)) as pool:
        assert pool is None
    monkeypatch.setattr(placement, "default_jobs", lambda: 1)
    with executor_of(RunOptions()) as pool:  # one core: this process
        assert pool is None
    with pytest.raises(ValueError, match="ray_address"):
        RunOptions(ray_address="auto")
    result = runner.invoke(get_app(), ["score", "x.jsonl", "--ray-address", "auto"])
    assert result.exit_code == 2 and "--ray-address" in result.output
