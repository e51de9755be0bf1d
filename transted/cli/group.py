"""The command groups of the CLI: every command of a :class:`TranstedGroup` also takes
``--quiet/-q`` (the root's switch, spelled after the subcommand too), shows its switches
without a value type, and returns its exit code; the root group loads its commands lazily
(:mod:`transted.cli.registry`)."""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperGroup

from transted.cli.console import state

__all__ = ["TranstedGroup", "registered_commands", "plain_flags", "switches", "add_quiet"]


def registered_commands(register: Any) -> dict[str, Any]:
    """The click commands a ``register(app)`` function adds to a typer app."""
    probe = typer.Typer()
    register(probe)
    return dict(typer.main.get_group(probe).commands)


class TranstedGroup(TyperGroup):
    """A command group whose every command also takes ``--quiet/-q``, third-party commands
    included, shows its switches without a value type (:func:`plain_flags`), and returns
    its exit code (an int: :class:`~transted.cli.exits.ExitCode`), which click would
    otherwise drop when it runs standalone."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        plain_flags(self)
        for command in self.commands.values():
            add_quiet(command)

    def add_loaded(self, commands: dict[str, Any]) -> None:
        """Add commands made elsewhere (a lazily loaded module), as the group's own."""
        for name, command in commands.items():
            if name not in self.commands:
                add_quiet(command)
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


def add_quiet(command: Any) -> None:
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
