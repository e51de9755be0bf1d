"""Command-line interface; each subcommand is a thin call into the library.

Commands are grouped by component: the core ones live here, and ``transted.evaluate``,
``transted.lean`` and ``transted.fol`` each contribute theirs through a ``register(app)``
function in their ``commands`` module, so the CLI mirrors the package layout.
"""

from __future__ import annotations

import importlib
import logging
import sys
from typing import cast

import click
import typer
from rich.console import Console
from rich.markup import escape

from transted import __version__
from transted.errors import TranstedError

__all__ = ["app", "main", "console", "err_console"]

# typer >= 0.20 vendors its own click, whose exceptions are distinct classes from click's.
_ABORT = (click.exceptions.Abort, typer.Abort)
_CLICK_ERROR: tuple[type[Exception], ...] = (click.ClickException,)
_EXIT = (click.exceptions.Exit, typer.Exit)
try:
    from typer._click.exceptions import ClickException as _TyperClickException

    _CLICK_ERROR += (_TyperClickException,)
except ImportError:  # pragma: no cover - older typer uses click itself
    pass


app = typer.Typer(
    name="transted",
    help="Score how close a candidate formal statement is to a reference one.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err_console = Console(stderr=True)

COMMAND_MODULES = (
    "transted.opt.commands",
    "transted.ted.commands",
    "transted.metrics.commands",
    "transted.evaluate.commands",
    "transted.search.commands",
    "transted.lean.commands",
    "transted.fol.commands",
)


def _register_all() -> None:
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:  # a real missing dependency inside the module: surface it
                raise
            continue
        module.register(app)


@app.callback()
def _root(
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log progress to stderr."),
) -> None:
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")


@app.command("version")
def version_command() -> None:
    """Print the transted version."""
    console.print(f"transted {__version__}")


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code (0 ok, 1 input/processing error, 2 usage error)."""
    _register_all()
    command = typer.main.get_command(app)
    try:
        result = command.main(args=argv if argv is not None else sys.argv[1:],
                              prog_name="transted", standalone_mode=False)
    except TranstedError as e:
        err_console.print("[bold red]error:[/] " + escape(str(e)), highlight=False)
        return 1
    except ValueError as e:  # an argument value the library refused (it names the parameter)
        err_console.print("[bold red]error:[/] " + escape(str(e)), highlight=False)
        return 2
    except _ABORT:
        err_console.print("aborted")
        return 130
    except _CLICK_ERROR as e:
        click_error = cast(click.ClickException, e)  # typer's own class shares the interface
        click_error.show()
        return click_error.exit_code
    except _EXIT as e:
        return e.exit_code
    return result if isinstance(result, int) else 0
