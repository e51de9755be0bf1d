"""The CLI mirrors the library: exit codes, positioned errors, streamed batch output."""

from __future__ import annotations

import json

from transted.cli import main


def test_tree_prints_the_operator_tree(capsys):
    assert main(["tree", "theorem t (x : ℝ) : x ≤ x := by sorry", "--format", "bracket"]) == 0
    assert capsys.readouterr().out.strip() == "{∀ <SLOT>, <SLOT>{<SLOT> : <SLOT>{x}{ℝ}}{<SLOT> ≤ <SLOT>{x}{x}}}"


def test_tree_parse_error_exits_nonzero_with_caret(capsys):
    assert main(["tree", "theorem t (x : ℝ) : x ≤ := by sorry"]) == 1
    err = capsys.readouterr().err
    assert "1:25" in err and "expected a term" in err and "^" in err


def test_tree_file_records_errors_and_goes_on(data_dir, tmp_path, capsys):
    out = tmp_path / "trees.jsonl"
    assert main(["tree", "--file", str(data_dir / "gted" / "proofnet.jsonl"), "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 186
    assert [r["name"] for r in rows if r["error"]] == ["proofnet/exercise_1_17/8 reference"]


def test_score_batch_then_resume(data_dir, tmp_path, capsys):
    out = tmp_path / "scores.jsonl"
    args = ["score", str(data_dir / "gted" / "proofnet.jsonl"), "--metric", "ted", "--out", str(out)]
    assert main(args) == 0
    first = out.read_text(encoding="utf-8")
    assert main(args) == 0
    assert out.read_text(encoding="utf-8") == first
    assert "93 already done" in capsys.readouterr().out


def test_score_pair_mode_json(capsys):
    assert main(["score", "theorem a (x : ℕ) : x = x := sorry", "theorem b (x : ℕ) : x = x := by sorry", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["score"] == 1.0 and result["metric"] == "ted"


def test_unknown_metric_is_a_usage_error(capsys):
    assert main(["score", "a", "b", "--metric", "nope"]) == 2
    assert "unknown metric 'nope'" in capsys.readouterr().err


def test_a_third_party_command_from_the_entry_point_group_runs(monkeypatch, capsys):
    import typer

    from transted.cli import plugins

    def register(app: typer.Typer) -> None:
        @app.command("hello")
        def hello(name: str = typer.Argument("world")) -> None:
            print(f"hello {name}")

    class EntryPoint:
        def load(self):
            return register

    groups = []
    monkeypatch.setattr(plugins, "entry_points",
                        lambda group: groups.append(group) or [EntryPoint()])
    assert main(["hello", "lean"]) == 0
    assert capsys.readouterr().out == "hello lean\n"
    assert groups == ["transted.commands"]


def test_version_reads_no_entry_point_and_loads_no_command():
    import subprocess
    import sys

    probe = ("import sys\nfrom transted.cli import main\nmain(['--version'])\n"
             "print([m for m in sys.modules if m == 'importlib.metadata' or "
             "m.startswith(('transted.cli.score', 'transted.cli.plugins', 'transted.metrics'))])")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_a_third_party_command_that_cannot_load_is_a_clear_error(monkeypatch, capsys):
    from transted.cli import plugins

    class Broken:
        name, value = "hello", "hello_pkg.cli:register"

        def load(self):
            raise ImportError("No module named 'hello_pkg'")

    monkeypatch.setattr(plugins, "entry_points", lambda group: [Broken()])
    assert main(["hello"]) == 1
    err = capsys.readouterr().err
    assert "transted.commands entry point 'hello' (hello_pkg.cli:register) cannot be loaded" \
        in err and "Traceback" not in err
