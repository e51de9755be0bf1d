"""The closure rule for a Lean proof: what must hold before a closed goal counts.

A proof counts only with no error, no ``sorry`` (in the messages or as ``sorryAx``), only the
standard axioms (``propext``, ``Classical.choice``, ``Quot.sound``) plus what was assumed, and
no reference to the statement being proved (USER_NEEDS 10). ``#print axioms`` gives the
axioms; this module reads its answer. Used by the Lean baselines
(:mod:`transted.metrics.lean_baselines`) and the Lean closing moves of the search.
"""

from __future__ import annotations

import re

from transted.pipeline.lean.results import CommandResult

__all__ = ["STANDARD_AXIOMS", "axioms_used", "clean_closure"]

_AXIOMS = re.compile(r"^'(?P<name>[^']+)' (?:depends on axioms: \[(?P<axioms>[^\]]*)\]"
                     r"|does not depend on any axioms)", re.M)

STANDARD_AXIOMS = frozenset({"propext", "Classical.choice", "Quot.sound"})


def axioms_used(result: CommandResult, name: str) -> frozenset[str] | None:
    """The axioms ``#print axioms name`` reported, or None if it printed nothing for it.

    Lean prints ``'n' depends on axioms: [propext, thm_P]`` or
    ``'n' does not depend on any axioms``.
    """
    for info in result.infos():
        for match in _AXIOMS.finditer(info):
            if match.group("name") == name:
                listed = match.group("axioms") or ""
                return frozenset(a.strip() for a in listed.split(",") if a.strip())
    return None


def clean_closure(result: CommandResult, proved: str, assumed: str | None = None) -> bool:
    """The closure rule: no error, no sorry, axioms ⊆ standard ∪ {assumed}, no self-use."""
    if not result.ok or result.uses_sorry:
        return False
    axioms = axioms_used(result, proved)
    allowed = STANDARD_AXIOMS | ({assumed} if assumed else frozenset())
    if axioms is None or not axioms <= allowed:
        return False
    return not any(proved in s for s in result.infos() if s.startswith("Try this"))
