"""The root command group: every subcommand loaded by its module path only when it runs or a
help page lists it (click's documented "lazily loading subcommands" pattern), so
``transted --version`` and ``transted score …`` import what they use and nothing else.

A command module has ``register(app)``, which adds its commands to a typer app;
:data:`COMMANDS` names the module of each built-in command. A third-party package adds
commands through the ``transted.commands`` entry-point group (an object with ``register(app)``,
or the function itself), read only when a name is not built in or the commands are listed.
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any

import typer
from typer.core import TyperGroup

from transted.cli.console import state

__all__ = ["COMMANDS", "ENTRY_POINT_GROUP", "FORMATS", "SIGNATURE_FORMS", "TranstedGroup",
           "registered_commands", "plain_flags", "switches"]

COMMANDS: dict[str, str] = {
    "tree": "transted.cli.tree",
    "ted": "transted.cli.ted",
    "score": "transted.cli.score",
    "metrics": "transted.cli.metrics",
    "search": "transted.cli.search",
    "eval": "transted.cli.eval",
    "regress": "transted.cli.regress",
    "sensitivity": "transted.cli.sensitivity",
    "setup": "transted.cli.lean",
    "doctor": "transted.cli.lean",
    "fol": "transted.cli.fol",
    "lfi": "transted.cli.lfi",
}
"""Each built-in command and the module whose ``register(app)`` adds it."""
ENTRY_POINT_GROUP = "transted.commands"
FORMATS = ("text", "json", "jsonl")
SIGNATURE_FORMS = ("short", "full")


def registered_commands(register: Any) -> dict[str, Any]:
    """The click commands a ``register(app)`` function adds to a typer app."""
    probe = typer.Typer()
    register(probe)
    return dict(typer.main.get_group(probe).commands)


class TranstedGroup(TyperGroup):
    """A command group whose commands are loaded on first use (:data:`COMMANDS`, then the
    entry points), whose every command also takes ``--quiet/-q`` (the root's switch, spelled
    after the subcommand too), third-party commands included, and whose commands return their
    exit code (an int: :class:`~transted.cli.exits.ExitCode`), which click would otherwise
    drop when it runs standalone."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._plugins_loaded = False
        plain_flags(self)
        for command in self.commands.values():
            _add_quiet(command)

    def list_commands(self, ctx: Any) -> list[str]:
        self._load_plugins()
        names = list(COMMANDS) + [n for n in self.commands if n not in COMMANDS]
        return names

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self._add_all(registered_commands(importlib.import_module(COMMANDS[cmd_name])
                                              .register))
        if cmd_name not in self.commands:
            self._load_plugins()
        if cmd_name not in self.commands:  # unknown: every name known for the suggestion
            for module in dict.fromkeys(COMMANDS.values()):
                self._add_all(registered_commands(importlib.import_module(module).register))
        return self.commands.get(cmd_name)

    def _load_plugins(self) -> None:
        if self._plugins_loaded:
            return
        self._plugins_loaded = True
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            loaded = ep.load()
            self._add_all(registered_commands(getattr(loaded, "register", loaded)))

    def _add_all(self, commands: dict[str, Any]) -> None:
        for name, command in commands.items():
            if name not in self.commands:
                _add_quiet(command)
                plain_flags(command)
                self.add_command(command, name)

    def invoke(self, ctx: Any) -> Any:
        result = super().invoke(ctx)
        if isinstance(result, int) and not isinstance(result, bool) and result != 0:
            raise typer.Exit(int(result))
        return result


def plain_flags(command: Any) -> None:
    """Show switches (``--quiet``, ``--explain``, ``--help``) in help without a value type:
    typer prints ``<bool>`` beside them, which reads as if they took ``true``/``false``."""
    for param in command.params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    original = command.get_help_option

    def get_help_option(ctx: Any) -> Any:
        option = original(ctx)
        if option is not None and option.metavar is None:
            option.metavar = ""
        return option

    command.get_help_option = get_help_option
    for sub in getattr(command, "commands", {}).values():
        plain_flags(sub)


def switches(command: Any) -> set[str]:
    """Every spelling of ``command``'s switches (flags that take no value)."""
    return {opt for p in command.params if getattr(p, "is_flag", False)
            for opt in (*p.opts, *p.secondary_opts)}


def _add_quiet(command: Any) -> None:
    if isinstance(command, TyperGroup) or any(p.name == "quiet" for p in command.params):
        return
    quiet = _quiet_param()
    quiet.metavar = ""
    command.params.append(quiet)


def _set_quiet(ctx: Any, param: Any, value: bool) -> bool:
    state.command = ctx.command  # called for every command run, given or not
    if value:
        state.quiet = True
    return value


def _quiet_param() -> Any:
    """``--quiet/-q`` as a parameter of the click that typer uses (typer >= 0.20 vendors its
    own), made by typer itself; not passed to the command function."""
    probe = typer.Typer()

    @probe.command()
    def _probe(quiet: bool = typer.Option(False, "--quiet", "-q", callback=_set_quiet,
                                          is_eager=True, help="No progress bar or notes on "
                                          "stderr (errors still shown).")) -> None:
        """Never run: its one parameter is taken."""

    param = next(p for p in typer.main.get_command(probe).params if p.name == "quiet")
    param.expose_value = False
    return param
