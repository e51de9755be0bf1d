"""A result's verdict told to people: what decided it and why, in one line, the same in
``score --format text``, ``report.html`` and the summaries that count verdicts.

A verdict the rule makes because both sides' hypotheses are contradictory (so both statements
hold, whatever their conclusions) is right under mutual provability but surprising; such a
result carries a ``details["verdict_reason"]`` that starts with :data:`VACUOUS_REASON_PREFIX`,
and is shown and counted as *vacuous* (:func:`is_vacuous`). Light on purpose (no numpy, no
metric): the CLI imports it to print one pair.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from transted.errors import escape_control
from transted.pipeline.verdict.rules import VACUOUS_REASON_PREFIX

__all__ = ["VACUOUS_REASON_PREFIX", "VACUOUS_NOTE", "DECIDED_BY_TEXT", "is_vacuous",
           "count_vacuous", "verdict_text", "details_text"]

VACUOUS_NOTE = ("vacuously: both sides' hypotheses are contradictory, so both statements hold "
                "(equivalent under mutual provability; their conclusions were not compared)")
"""What a vacuous verdict's line adds, whatever its reason says after the prefix."""

DECIDED_BY_TEXT = {
    "evidence": "decided by evidence (a proof or a counterexample)",
    "invalid": "decided by the candidate being invalid (not Lean 4, or empty)",
    "edits": "decided by the edits left between the trees",
    "threshold": "decided by the score against the metric's threshold",
    "binary": "decided by the metric's own yes/no score",
}
"""Each ``decided_by`` of :func:`transted.pipeline.verdict.rules.decide`, in words."""


def _reason(details: Mapping[str, Any] | None) -> str | None:
    reason = (details or {}).get("verdict_reason")
    return str(reason) if reason else None


def is_vacuous(result: Any) -> bool:
    """The result's verdict holds only because both sides' hypotheses are contradictory."""
    reason = _reason(getattr(result, "details", None))
    return reason is not None and reason.startswith(VACUOUS_REASON_PREFIX)


def count_vacuous(results: Iterable[Any]) -> int:
    """How many of ``results`` are vacuous verdicts (:func:`is_vacuous`)."""
    return sum(is_vacuous(r) for r in results)


def verdict_text(result: Any) -> str:
    """``not-equivalent, decided by the edits left between the trees: meaning edit (…)``: the
    verdict (``none`` without one), what decided it and its reason, terminal controls
    escaped; a vacuous verdict says so."""
    verdict = getattr(result, "verdict", None) or "none (no shipped threshold)"
    decided = getattr(result, "decided_by", None)
    parts = [verdict]
    if decided:
        parts.append(DECIDED_BY_TEXT.get(decided, f"decided by {decided}"))
    reason = _reason(getattr(result, "details", None))
    if reason is not None and reason.startswith(VACUOUS_REASON_PREFIX):
        rest = reason[len(VACUOUS_REASON_PREFIX):]
        reason = VACUOUS_NOTE + (f"; {rest}" if rest else "")
    text = ", ".join(parts) + (f": {reason}" if reason else "")
    return escape_control(text, keep_newlines=False)


def details_text(value: Any, indent: int = 0) -> list[str]:
    """A result's ``details`` as indented ``key: value`` lines (lists one item a line),
    for people rather than as a Python or JSON dict."""
    pad = "  " * indent
    if isinstance(value, Mapping):
        lines: list[str] = []
        for key, item in value.items():
            if isinstance(item, (Mapping, list, tuple)) and item:
                lines.append(f"{pad}{key}:")
                lines += details_text(item, indent + 1)
            else:
                lines.append(f"{pad}{key}: {_scalar(item)}")
        return lines
    if isinstance(value, (list, tuple)):
        lines = []
        for item in value:
            if isinstance(item, Mapping) and item:
                inner = details_text(item, indent + 1)
                lines.append(f"{pad}- {inner[0].strip()}")
                lines += inner[1:]
            else:
                lines.append(f"{pad}- {_scalar(item)}")
        return lines
    return [f"{pad}{_scalar(value)}"]


def _scalar(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (Mapping, list, tuple)):  # empty
        return "none"
    return escape_control(str(value), keep_newlines=False)
