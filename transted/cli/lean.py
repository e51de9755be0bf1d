"""CLI commands of the Lean backend: ``transted setup`` and ``transted doctor``."""

from __future__ import annotations

import typer
from rich.markup import escape
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from transted.cli.console import console, err_console, print_json, print_line
from transted.cli.exits import ExitCode
from transted.cli.options import FormatOption, JsonAlias, output_format
from transted.errors import InputError
from transted.pipeline.lean.project import SETUP_STEPS, LeanProject
from transted.pipeline.lean.versions import read_versions

__all__ = ["register"]

_PROJECT_HELP = "Lean project directory (default: $TRANSTED_LEAN_PROJECT or this checkout)."


def setup_command(
    project: str = typer.Option(None, "--project", help=_PROJECT_HELP),
) -> int:
    """Fetch Mathlib's build cache and build the Lean project and the pinned REPL."""
    lean = LeanProject(project)
    console.print(f"Lean project: {lean.directory}")
    lean.require_lake()  # fail before drawing the progress display
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=err_console, transient=False) as progress:
        tasks = {s.label: progress.add_task(s.label, total=1, start=False) for s in SETUP_STEPS}
        current: list[str] = []

        def on_line(step, line: str) -> None:
            if not current or current[-1] != step.label:
                current.append(step.label)
                progress.start_task(tasks[step.label])
            progress.update(tasks[step.label], description=f"{step.label}: {line[-70:]}")

        def on_step(step, code: int) -> None:
            mark = "[green]done[/]" if code == 0 else (
                "[red]failed[/]" if step.required else "[yellow]skipped (optional)[/]")
            progress.update(tasks[step.label], completed=1, description=f"{step.label}: {mark}")

        lean.setup(on_line=on_line, on_step=on_step)  # LeanUnavailable -> exit code 1
    console.print("[green]Lean backend ready.[/] Check with `transted doctor`.")
    return 0


def doctor_command(
    project: str = typer.Option(None, "--project", help=_PROJECT_HELP),
    fmt: str | None = FormatOption(),
    as_json: bool = JsonAlias(),
) -> int:
    """Check elan, lake, the built project and the REPL; print the pinned versions."""
    fmt = output_format(fmt, as_json)
    lean = LeanProject(project)
    checks = lean.checks()
    try:
        versions = read_versions(lean.directory).signature_fields()
    except InputError as e:
        versions = {"error": str(e)}
    if fmt != "text":
        print_json({"checks": [c.__dict__ for c in checks], "versions": versions},
                   indent=fmt == "json")
    else:
        table = Table("check", "status", "detail")
        for c in checks:
            table.add_row(escape(c.name), "[green]ok[/]" if c.ok else "[red]missing[/]",
                          escape(c.detail))
        console.print(table)
        # fixes are commands to copy: printed verbatim, never wrapped, cut or read as markup
        fixes = list(dict.fromkeys(c.fix for c in checks if not c.ok and c.fix))
        if fixes:
            print_line("to fix:")
            for fix in fixes:
                for line in fix.splitlines():
                    print_line(f"  {line}")
        print_line("pinned: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    return ExitCode.OK if all(c.ok for c in checks) else ExitCode.INPUT_ERROR


def register(app: typer.Typer) -> None:
    """Add the Lean commands to the transted CLI."""
    app.command("setup")(setup_command)
    app.command("doctor")(doctor_command)
