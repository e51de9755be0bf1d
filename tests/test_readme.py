"""The README cannot go stale: every `transted` command it shows runs on the bundled files, with
the exit code it shows (``; echo "exit $?"``, else 0) and the output it shows (a ```text block
right after a one-command ```bash block; ``…`` lines stand for any lines). Its Python blocks
run too.

Commands run in order, in a temporary folder where ``examples/`` and ``tests/`` are the
repository's (so outputs land in the temporary folder), through :func:`transted.cli.main`.
Two commands are not run, each for a stated reason (:data:`NOT_RUN`). Commands that take
long (the transted search over a whole data set, sensitivity, worker pools, the embedding
model) are in the slow tier; the rest run in every tier.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from transted.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

NOT_RUN = {
    "setup": "builds Mathlib with lake: hours and a Lean toolchain; `doctor` checks the result",
    "--executor ray": "needs a running Ray cluster (`ray start`); the Ray executor is tested "
                      "on a local Ray in tests/test_ray_executor.py",
}
SLOW_MARKS = ("-m transted", "--metrics transted", "--metric transted", "sensitivity", "--pair-timeout", "fol-sim",
              "fol_pairs.jsonl", "eval ", "--jobs")
EXIT_LINE = re.compile(r"^exit (\d+)$")


@dataclass(frozen=True)
class Command:
    line: int
    argv: tuple[str, ...]
    exit_code: int | None  # None: 0, or 1 for `doctor` (no Lean here)
    expected: tuple[str, ...]

    @property
    def slow(self) -> bool:
        text = " ".join(self.argv)
        return any(mark in f"transted {text}" for mark in SLOW_MARKS)

    def not_run(self) -> str | None:
        text = " ".join(self.argv)
        return next((why for key, why in NOT_RUN.items()
                     if (text.split()[0] == key if " " not in key else key in text)), None)


def _blocks(text: str) -> list[tuple[str, str, int]]:
    """``(language, body, first body line)`` of every fenced block."""
    blocks, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        fence = re.match(r"^```(\w*)\s*$", lines[i])
        if fence is None:
            i += 1
            continue
        start, i = i + 1, i + 1
        while i < len(lines) and lines[i].strip() != "```":
            i += 1
        blocks.append((fence.group(1), "\n".join(lines[start:i]), start + 1))
        i += 1
    return blocks


def readme_commands() -> list[Command]:
    blocks = _blocks(README.read_text(encoding="utf-8"))
    commands: list[Command] = []
    for n, (lang, body, first) in enumerate(blocks):
        if lang != "bash":
            continue
        shown = blocks[n + 1][1].splitlines() if n + 1 < len(blocks) and \
            blocks[n + 1][0] == "text" else []
        found = []
        for offset, raw in enumerate(body.replace("\\\n", " ").splitlines()):
            for argv in _segments(shlex.split(raw, comments=True)):
                if argv[0] == "transted":
                    found.append((first + offset, tuple(argv[1:])))
        exit_shown = next((int(m.group(1)) for line in shown
                           if (m := EXIT_LINE.match(line.strip()))), None)
        expected = tuple(line for line in shown if not EXIT_LINE.match(line.strip()))
        for line, argv in found:
            one = len(found) == 1
            commands.append(Command(line, argv, exit_shown if one else None,
                                    expected if one else ()))
    return commands


def _segments(words: list[str]) -> list[list[str]]:
    """The commands of one shell line, split at ``;`` (``a ; b``, ``a; echo …``)."""
    segments: list[list[str]] = [[]]
    for word in words:
        if word == ";":
            segments.append([])
        elif word.endswith(";"):
            segments[-1].append(word[:-1])
            segments.append([])
        else:
            segments[-1].append(word)
    return [s for s in segments if s]


def python_blocks() -> list[tuple[int, str]]:
    return [(line, body) for lang, body, line in _blocks(README.read_text(encoding="utf-8"))
            if lang == "python"]


def _check_output(command: Command, out: str, err: str) -> None:
    """Every shown line is an output line, in order within its stream (stdout or stderr)."""
    streams = {"stdout": out.splitlines(), "stderr": err.splitlines()}
    at = {"stdout": -1, "stderr": -1}
    for line in command.expected:
        if line.strip() in ("…", ""):
            continue
        place = next(((name, i) for name, lines in streams.items()
                      for i, got in enumerate(lines) if got.rstrip() == line.rstrip()
                      and i > at[name]), None)
        assert place is not None, (f"README.md:{command.line}: `transted "
                                   f"{' '.join(command.argv)}` did not print\n{line}\n"
                                   f"stdout:\n{out}\nstderr:\n{err}")
        at[place[0]] = place[1]


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("examples", "tests"):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run_all(commands: list[Command], capsys: pytest.CaptureFixture[str]) -> None:
    for command in commands:
        if command.not_run() is not None:
            continue
        capsys.readouterr()
        code = main(list(command.argv))
        out, err = capsys.readouterr()
        where = f"README.md:{command.line}: transted {' '.join(command.argv)}"
        if command.exit_code is not None:
            assert code == command.exit_code, f"{where}: exit {code}\n{out}\n{err}"
        elif command.argv[0] == "doctor":
            assert code in (0, 1) and "pinned:" in out, f"{where}\n{out}\n{err}"
        else:
            assert code == 0, f"{where}: exit {code}\n{out}\n{err}"
        _check_output(command, out, err)


def test_the_readme_shows_commands_and_checks_them():
    commands = readme_commands()
    assert len(commands) >= 25  # the parser finds the blocks (29 when written)
    skipped = [c for c in commands if c.not_run()]
    assert sorted(c.argv[0] if c.argv[0] == "setup" else "ray" for c in skipped) == \
        ["ray", "setup"]
    # every file a command names exists in the repository, or is made by an earlier command
    made: set[str] = set()
    for c in commands:
        for i, word in enumerate(c.argv):
            if word.startswith(("examples/", "tests/")) and c.argv[i - 1] not in (
                    "--out", "-o", "--pairs-out", "--graph"):
                assert (ROOT / word).exists() or word in made, f"README.md:{c.line}: {word}"
            if i and c.argv[i - 1] in ("--out", "-o", "--pairs-out"):
                made.add(word)
        if c.argv[0] == "score" and "fol_pairs.jsonl" in c.argv:
            assert "fol_pairs.jsonl" in made


def test_readme_fast_commands_run_as_shown(workdir, capsys):
    _run_all([c for c in readme_commands() if not c.slow], capsys)


@pytest.mark.slow
def test_readme_slow_commands_run_as_shown(workdir, capsys):
    _run_all([c for c in readme_commands() if c.slow], capsys)


@pytest.mark.slow
def test_readme_python_blocks_run(workdir):
    for line, body in python_blocks():
        exec(compile(body, f"README.md:{line}", "exec"), {"__name__": "readme"})


def _test_command_installs(text: str) -> list[str]:
    """The ``pip install`` arguments of the README's test command (the line running pytest)."""
    line = next(line for line in text.splitlines()
                if "pytest -q --full" in line and "pip install" in line)
    return [w for part in line.split("&&") if "pip install" in part
            for w in shlex.split(part)[shlex.split(part).index("install") + 1:] if w != "-q"]


def test_ci_installs_what_the_readme_test_command_installs():
    """CI runs the README's test command: the same packages, and no torch (issue 34: torch
    from the plain index is the CUDA build, gigabytes)."""
    readme = _test_command_installs(README.read_text(encoding="utf-8"))
    ci = [line.split("install", 1)[1].split() for line in
          (ROOT / ".ci/run").read_text(encoding="utf-8").splitlines()
          if "pip install" in line and "--upgrade pip" not in line]
    assert readme == ["-e", ".[dev,lean,ray]"]
    assert [[w.strip('"') for w in args if w != "--quiet"] for args in ci] == [readme]
    assert "torch" not in " ".join(readme) and "embed" not in " ".join(readme)
