"""One residual edit as the verdict rule and the result lines see it (:class:`ResidualEdit`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from transted.pipeline.opt.node import Node
from transted.pipeline.verdict.edit_kinds import load_kind_table

__all__ = ["ResidualEdit", "FinalRole", "Entail"]

FinalRole = Literal["meaning", "presentational", "untrusted"]
Entail = Callable[[Sequence[Node], Node, Mapping[str, str]], object]
"""``entail(premises, goal, variables)``: a proof record (truthy) or None."""


@dataclass(frozen=True)
class ResidualEdit:
    """One residual edit: ``op`` (rename / insert / delete / unmatched), ``where`` (binder k,
    hypothesis k — reference numbering, ``(candidate)`` for a candidate-only part — or
    conclusion), its ``kind`` (``residual.yaml``), the two texts, its ``role`` and why, and
    what discharged it (hypothesis entailment), if anything did."""

    op: str
    where: str
    kind: str
    reference: str | None
    candidate: str | None
    role: FinalRole
    why: str
    cost: float = 0.0
    discharged_by: str | None = None
    partner: int | None = None
    """For an edit inside a matched hypothesis or binder: the candidate's index (0-based)."""

    @property
    def counts(self) -> bool:
        """A meaning edit nothing discharged."""
        return self.role == "meaning" and self.discharged_by is None

    @classmethod
    def from_dict(cls, line: Mapping[str, object]) -> ResidualEdit:
        """An edit as a result line holds it (:meth:`as_dict`; ``why`` null = the kind's own
        reason), read back for the verdict rule: ``cost`` and ``partner`` are not kept there."""
        kind = str(line.get("class"))
        why = line.get("why")
        return cls(op=str(line.get("op")), where=str(line.get("where")), kind=kind,
                   reference=_text(line.get("reference")), candidate=_text(line.get("candidate")),
                   role=str(line.get("role")),  # type: ignore[arg-type]
                   why=str(why) if why else load_kind_table().why.get(kind, ""),
                   discharged_by=_text(line.get("discharged_by") or None))

    def as_dict(self) -> dict[str, object]:
        """The result-line form; ``why`` is null when it is the kind's own reason (the table
        ``residual.yaml``), so lines stay short."""
        why = None if self.why == load_kind_table().why.get(self.kind) else self.why
        return {"op": self.op, "where": self.where, "class": self.kind,
                "reference": self.reference, "candidate": self.candidate,
                "role": self.role, "why": why, "discharged_by": self.discharged_by}

    def __str__(self) -> str:
        if self.op == "rename":
            what = f"{self.reference} → {self.candidate}"
        elif self.reference is not None:
            what = f"{self.reference} only in the reference"
        else:
            what = f"{self.candidate} only in the candidate"
        tail = f"; discharged: {self.discharged_by}" if self.discharged_by else ""
        return f"{self.where}: {self.kind} {self.op}: {what} [{self.role}: {self.why}{tail}]"


def _text(value: object) -> str | None:
    return None if value is None else str(value)
