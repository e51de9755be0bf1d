"""The root command group: every subcommand is loaded by its module path only when it runs or
a help page lists it (click's documented "lazily loading subcommands" pattern), so
``transted --version`` imports no command and ``transted score …`` imports what ``score``
uses and nothing else.

A command module has ``register(app)``, which adds its commands to a typer app;
:data:`COMMANDS` names the module of each built-in command. A third-party package adds
commands through the ``transted.commands`` entry-point group (an object with
``register(app)``, or the function itself), read by :data:`PLUGINS` only when a name is not
built in or the commands are listed.
"""

from __future__ import annotations

import importlib
from typing import Any

from transted.cli.group import TranstedGroup, registered_commands
from transted.loading import collector_paused, keep_loaded

__all__ = ["COMMANDS", "PLUGINS", "LazyGroup"]

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
PLUGINS = "transted.cli.plugins"
"""The module that reads the third-party commands (loaded on first need, as a command is)."""


class LazyGroup(TranstedGroup):
    """The root group: :data:`COMMANDS` and the entry points' commands, each module imported
    on first use."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._plugins_loaded = False

    def list_commands(self, ctx: Any) -> list[str]:
        self._load_plugins()
        return list(COMMANDS) + [n for n in self.commands if n not in COMMANDS]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self._load(COMMANDS[cmd_name])
        if cmd_name not in self.commands:
            self._load_plugins()
        if cmd_name not in self.commands:  # unknown: every name known, for the suggestion
            for module in dict.fromkeys(COMMANDS.values()):
                self._load(module)
        return self.commands.get(cmd_name)

    def _load(self, module: str) -> None:
        with collector_paused():
            self.add_loaded(registered_commands(importlib.import_module(module).register))
            keep_loaded()

    def _load_plugins(self) -> None:
        if self._plugins_loaded:
            return
        self._plugins_loaded = True
        for register in importlib.import_module(PLUGINS).plugin_registers():
            self.add_loaded(registered_commands(register))
