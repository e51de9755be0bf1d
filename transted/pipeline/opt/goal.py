"""Goals as Lean prints them (REPL ``goals``, ``sorries[].goal``, "unsolved goals" messages).

::

    case succ                      ← optional case tag
    x y : ℕ                        ← hypotheses: names : type  (or  name : type := value)
    inst✝ : Group G                ← inaccessible names keep their ✝
    h : a very long hypothesis that
        Lean wrapped onto an indented line
    ⊢ target                       ← the target (may wrap too)

Several goals are separated by blank lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from transted.errors import ParseError
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.parser import TermParser

__all__ = ["Goal", "Hypothesis", "parse_goal", "parse_goals"]


@dataclass(frozen=True)
class Hypothesis:
    names: tuple[str, ...]
    type: Node
    value: Node | None = None


@dataclass(frozen=True)
class Goal:
    case: str | None
    hypotheses: tuple[Hypothesis, ...]
    target: Node


_HYP_NAMES = re.compile(r"([^\s:]+(?: [^\s:]+)*) :(?:\s|$)")


def _entries(text: str) -> list[tuple[int, str]]:
    """Logical lines (a line plus its indented continuations) with their offsets."""
    entries: list[tuple[int, str]] = []
    offset = 0
    for line in text.splitlines(keepends=True):
        if line.strip() and line[0] in " \t" and entries:
            start, body = entries[-1]
            entries[-1] = (start, body + line)
        elif line.strip():
            entries.append((offset, line))
        offset += len(line)
    return entries


def _term(text: str, source: str, offset: int, opens: tuple[str, ...], *, allow_value: bool = False):
    try:
        p = TermParser(text, opens=opens)
        node = p.expr(0)
        value = None
        if allow_value and p.accept(":="):
            value = p.expr(0)
        if p.tok.kind != "eof":
            raise p.error(f"unexpected {p.describe(p.tok)} after a complete term")
    except ParseError as e:
        raise ParseError(e.reason, source, offset + e.offset) from None
    return node, value


def parse_goal(text: str, *, opens: tuple[str, ...] = ()) -> Goal:
    """Parse one goal; errors carry the line and column within ``text``."""
    case, target = None, None
    hyps: list[Hypothesis] = []
    for offset, entry in _entries(text):
        stripped = entry.strip()
        if stripped.startswith("case ") and not hyps and target is None:
            case = stripped[5:].strip()
        elif stripped.startswith("⊢"):
            start = offset + entry.index("⊢") + 1
            target, _ = _term(text[start:offset + len(entry)], text, start, opens)
        else:
            m = _HYP_NAMES.match(entry)
            if m is None:
                raise ParseError("expected 'names : type' or '⊢ target'", text, offset)
            names = tuple(m.group(1).split())
            start = offset + m.end()
            ty, value = _term(text[start:offset + len(entry)], text, start, opens, allow_value=True)
            hyps.append(Hypothesis(names, ty, value))
    if target is None:
        raise ParseError("goal has no '⊢' target", text, len(text))
    return Goal(case, tuple(hyps), target)


def parse_goals(text: str, *, opens: tuple[str, ...] = ()) -> list[Goal]:
    """Parse blank-line-separated goals; a leading ``unsolved goals`` line is skipped."""
    body = text
    if body.strip() == "no goals":
        return []
    if body.startswith("unsolved goals"):
        body = body.split("\n", 1)[1] if "\n" in body else ""
    base = len(text) - len(body)
    goals, offset = [], 0
    for chunk in body.split("\n\n"):
        if chunk.strip():
            try:
                goals.append(parse_goal(chunk, opens=opens))
            except ParseError as e:
                raise ParseError(e.reason, text, base + offset + e.offset) from None
        offset += len(chunk) + 2
    return goals
