"""Third-party commands: the ``transted.commands`` entry-point group, each an object with
``register(app)`` or the function itself.

Its own module because reading entry points imports :mod:`importlib.metadata` (~30 ms), which
``transted --version`` and every built-in command would otherwise pay: the root group
(:mod:`transted.cli.registry`) loads this module by name, as it loads its commands, only when a
name is not built in or the commands are listed.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any

__all__ = ["ENTRY_POINT_GROUP", "plugin_registers"]

ENTRY_POINT_GROUP = "transted.commands"


def plugin_registers() -> list[Any]:
    """The ``register(app)`` function of every installed third-party command package."""
    found = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        loaded = ep.load()
        found.append(getattr(loaded, "register", loaded))
    return found
