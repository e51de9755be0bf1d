"""Names written alike under two different headers: do they name the same constant?

The trees keep a name as written; the header's ``open``/``namespace`` lines decide which
constant it is (``sqrt`` is ``Real.sqrt`` under ``open Real``, ``Nat.sqrt`` under ``open Nat``).
:class:`Headers` resolves a name under each side's header with the bundled Mathlib name table
(:meth:`transted.pipeline.opt.names.NameTable.resolve`, a port of Lean's ``resolveGlobalName``) and says
when the two resolutions differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from transted.pipeline.opt.header_scope import Scope
from transted.pipeline.opt.names import Ambiguous, Constant, Resolution, load_name_table

__all__ = ["Headers"]


def _shown(r: Resolution) -> str:
    if isinstance(r, Constant):
        return r.name
    if isinstance(r, Ambiguous):
        return "ambiguous (" + ", ".join(sorted(r.names)) + ")"
    return "unknown"


@dataclass(frozen=True)
class Headers:
    reference: str | None
    candidate: str | None

    @cached_property
    def scopes(self) -> tuple[Scope, Scope]:
        table = load_name_table()
        return table.scope(self.reference), table.scope(self.candidate)

    @property
    def differ(self) -> bool:
        """The headers open, scope or declare different things (one name may then be two)."""
        if (self.reference or "") == (self.candidate or ""):
            return False
        return self.scopes[0] != self.scopes[1]

    def resolved_apart(self, name: str) -> str | None:
        """Why ``name`` names different things under the two headers, or None."""
        table = load_name_table()
        try:
            ref, cand = (table.resolve(name, scope=s) for s in self.scopes)
        except ValueError:  # not an identifier the table reads (notation, a `#k` variable)
            return None
        if ref == cand:
            return None
        return (f"{name} is {_shown(ref)} under the reference's header, {_shown(cand)} under "
                "the candidate's")
