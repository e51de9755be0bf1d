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

from transted.errors import TranstedError

__all__ = ["ENTRY_POINT_GROUP", "plugin_registers"]

ENTRY_POINT_GROUP = "transted.commands"


def plugin_registers() -> list[Any]:
    """The ``register(app)`` function of every installed third-party command package; one that
    cannot be loaded is a :class:`~transted.errors.TranstedError` naming its entry point (the
    CLI prints it and exits 1), never a traceback."""
    found = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = ep.load()
        except Exception as e:  # noqa: BLE001 — any failure of a third party's import
            raise TranstedError(f"the {ENTRY_POINT_GROUP} entry point {ep.name!r} "
                                f"({ep.value}) cannot be loaded: {type(e).__name__}: {e}") from e
        register = getattr(loaded, "register", loaded)
        if not callable(register):
            raise TranstedError(f"the {ENTRY_POINT_GROUP} entry point {ep.name!r} ({ep.value}) "
                                "is neither a register(app) function nor has one")
        found.append(register)
    return found
