"""Command-line interface: each command is a thin call into the library (``transted.api`` and the
packages it fronts). The CLI depends on the library, never the reverse.

Layout: ``console`` (stdout/stderr consoles, ``--quiet``, progress bar), ``group`` (the root
group, which loads each command's module only when that command runs or a help page lists it:
``transted --version`` imports no command), ``options`` (``-m``, ``-O``, ``--format``, the run
options as every command spells them), then one module per command group, each with a
``register(app)`` function named in :data:`~transted.cli.group.COMMANDS`. A third-party package
adds commands through the ``transted.commands`` entry-point group (an object with
``register(app)``, or the function itself).
"""

from __future__ import annotations

import logging
import re
import sys
import warnings
from typing import Any

import typer
from rich.markup import escape

from transted.cli.console import FORMATS, SIGNATURE_FORMS, console, err_console, note, state
from transted.cli.exits import TABLE, ExitCode, redeliver_interrupt
from transted.cli.group import switches
from transted.cli.registry import COMMANDS, LazyGroup
from transted.errors import ParseError, TooDeep, TranstedError, caret_excerpt, escape_control
from transted.reading.outputs import OutputPathError, RepairedOutputWarning
from transted.version import __version__

__all__ = ["app", "get_app", "main", "console", "err_console", "COMMANDS"]

try:  # typer >= 0.20 vendors its own click, whose exceptions are distinct classes from click's
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover - older typer uses click itself
    from click import ClickException  # type: ignore[assignment]

_ABORT = (typer.Abort,)  # click's own Abort and Exit in a typer that does not vendor click
_CLICK_ERROR: tuple[type[Exception], ...] = (ClickException,)
_EXIT = (typer.Exit,)


_EXIT_HELP = "Exit codes (every command): " + "; ".join(f"{int(c)} {m}" for c, m in TABLE) + "."

app = typer.Typer(
    name="transted",
    cls=LazyGroup,
    help="Score how close a candidate formal statement is to a reference one.",
    epilog=_EXIT_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

def get_app() -> typer.Typer:
    """The root app (for typer's ``CliRunner``); its commands load on first use."""
    return app


def _show_version(value: bool) -> None:
    if value:
        console.print(f"transted {__version__}", highlight=False)
        raise typer.Exit(0)


@app.callback()
def _root(
    ctx: typer.Context,
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log progress to stderr."),
    quiet: bool = typer.Option(False, "--quiet", "-q",
                               help="No progress bar or notes on stderr (errors still shown); "
                                    "also accepted after the subcommand."),
    fmt: str | None = typer.Option(None, "--format", metavar="text|json|jsonl",
                                   help="The subcommand's --format, given before it."),
    signature: str | None = typer.Option(None, "--signature", metavar="short|full",
                                         help="The subcommand's --signature, given before it."),
    version: bool = typer.Option(False, "--version", callback=_show_version, is_eager=True,
                                 help="Print the transted version and exit."),
) -> None:
    state.reset()  # a fresh run (typer's CliRunner calls the app again in one process)
    state.quiet = quiet
    if fmt is not None:
        _check_root_value(ctx, "fmt", fmt, FORMATS, "--format")
        state.format = fmt
    if signature is not None:
        _check_root_value(ctx, "signature", signature, SIGNATURE_FORMS, "--signature")
        state.signature = signature
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s", force=verbose)


def _check_root_value(ctx: typer.Context, param: str, value: str, allowed: tuple[str, ...],
                      option: str) -> None:
    """A root option meant for the subcommand: a known value, and a subcommand that takes it
    (a group passes it on to its own subcommands)."""
    if value not in allowed:
        raise typer.BadParameter(f"must be one of {', '.join(allowed)}, got {value!r}",
                                 param_hint=option)
    name = ctx.invoked_subcommand
    command = ctx.command.get_command(ctx, name) if name else None  # type: ignore[attr-defined]
    if command is not None and not hasattr(command, "commands") \
            and not any(p.name == param for p in command.params):
        raise typer.BadParameter(f"`transted {name}` takes no {option}", param_hint=option)


@app.command("version")
def version_command() -> None:
    """Print the transted version."""
    console.print(f"transted {__version__}", highlight=False)


def _error_text(e: TranstedError) -> str:
    """The error's message; a parse error's excerpt is cut to the terminal's width (printed
    unwrapped, so the caret stays under its character)."""
    if isinstance(e, TooDeep):
        e = e.position  # positioned like a parse error
    if isinstance(e, ParseError):
        where = f"{escape_control(e.source, keep_newlines=False)}:" if e.source else ""
        excerpt = caret_excerpt(e.text, e.line, e.column, width=max(err_console.width - 1, 10))
        return f"{where}{e.line}:{e.column}: {escape_control(e.reason)}\n{excerpt}"
    return escape_control(str(e))


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """Library warnings (a repaired result file ...) as notes on stderr, not tracebacks."""
    note(f"note: {escape_control(str(message))}")


def _cli_terms(message: str) -> str:
    """A library message in the command's terms: a backticked parameter name the command
    takes as an option (`` `n_boot` ``) becomes that option (``--n-boot``)."""
    command = state.command
    options = {p.name: p.opts[-1] if p.opts[-1].startswith("--") else p.opts[0]
               for p in getattr(command, "params", []) if getattr(p, "opts", None)}
    return re.sub(r"`([A-Za-z_][A-Za-z0-9_]*)`",
                  lambda m: options.get(m.group(1), m.group(0)), message)


_BOOLEAN_WORDS = frozenset({"true", "false", "yes", "no"})


def _switch_given_a_value(root: Any, argv: list[str]) -> str | None:
    """Why a refused command line failed when it gives a switch a value (``--quiet true``):
    click's own message names the stray word as an argument or a command."""
    names = switches(root)
    sub = next((a for a in argv if not a.startswith("-")), None)
    if sub in COMMANDS:
        names |= switches(root.get_command(None, sub))
    for flag, value in zip(argv, argv[1:], strict=False):
        if flag in names and value.lower() in _BOOLEAN_WORDS:
            return (f"{flag} is a switch and takes no value: drop {value!r} ({flag} alone "
                    "turns it on)")
    return None


def _end_children() -> None:
    """After Ctrl-C: end any worker process still running (they ignore SIGINT), so that
    Python's exit, which joins them, does not wait for their chunks."""
    mp = sys.modules.get("multiprocessing")  # no pool was ever started without it
    for child in mp.active_children() if mp is not None else ():
        child.terminate()


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code (:mod:`transted.cli.exits`: 0 ok, 1 input error,
    2 usage error, 3 regression gate failed, 4 too little scored, 130 interrupted)."""
    state.reset()
    command = typer.main.get_command(app)
    previous_hook = sys.unraisablehook  # a Ctrl-C in a finaliser (z3's) is passed on, not lost
    sys.unraisablehook = redeliver_interrupt(previous_hook)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always", RepairedOutputWarning)
            warnings.showwarning = _show_warning
            result = command.main(args=argv if argv is not None else sys.argv[1:],
                                  prog_name="transted", standalone_mode=False)
    except OutputPathError as e:  # a usage error: the user named an output that cannot be used
        err_console.print("[bold red]error:[/] " + escape(escape_control(str(e), keep_newlines=False)),
                          highlight=False, soft_wrap=True)
        return ExitCode.USAGE
    except TranstedError as e:
        err_console.print("[bold red]error:[/] " + escape(_error_text(e)), highlight=False,
                          soft_wrap=True)
        return ExitCode.INPUT_ERROR
    except ValueError as e:  # an argument value the library refused (it names the parameter)
        err_console.print("[bold red]error:[/] " + escape(_cli_terms(str(e))), highlight=False,
                          soft_wrap=True)
        return ExitCode.USAGE
    except (KeyboardInterrupt, *_ABORT):
        result = ExitCode.INTERRUPTED
    except _CLICK_ERROR as e:
        hint = _switch_given_a_value(command, argv if argv is not None else sys.argv[1:])
        if hint is None:
            e.show()  # type: ignore[attr-defined]
            return int(e.exit_code)  # type: ignore[attr-defined]
        err_console.print("[bold red]error:[/] " + escape(hint), highlight=False,
                          soft_wrap=True)
        return ExitCode.USAGE
    except _EXIT as e:
        result = e.exit_code
    finally:
        sys.unraisablehook = previous_hook
    if result == ExitCode.INTERRUPTED:
        if not state.interrupt_reported:
            err_console.print("interrupted", highlight=False)
        _end_children()
    return int(result) if isinstance(result, int) else 0
