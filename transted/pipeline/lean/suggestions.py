"""Parse Lean's "Try this" messages (``rw?``, ``exact?``, ``apply?``) into suggestions.

The text format changed across Lean eras; every one recorded in
``tests/data/repl/try_this_messages.json`` is handled:

- ``Try this: rw [@List.map_append]\\n-- "no goals"`` (Mathlib 2023: ``@`` names, quoted
  ``"no goals"``, one message per suggestion, ``at h`` locations, ``←`` rules);
- ``Try this: rw [List.map_append]\\n-- no goals`` (Lean core ``rw?`` up to ~v4.23);
- ``Try this: \\n  rw [Nat.one_mul]\\n  -- no goals`` (2025: suggestion on its own indented
  line, trailing space after the colon);
- ``Try this:\\n  [apply] rw [List.map_append]\\n  -- no goals`` (v4.25+, lean4 PR #10524);
- ``exact?`` in each era, and ``apply?`` with ``-- Remaining subgoals:`` comment lines;
- ``Try these:`` with several suggestions (``[apply]`` or ``•`` items) in one message.

The ``-- goal`` comment after a rewrite is what Lean printed as the goal after that
rewrite; transted still re-runs every suggestion as its own step and trusts only that
step's answer (ASSESS Algorithm 1 line 17: suggestions by ``rw?``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["RewriteRule", "Suggestion", "parse_suggestions", "split_rules"]

_HEADER = re.compile(r"^\s*Try (?:this|these):[ \t]*", re.S)
_ITEM_MARK = re.compile(r"^(?:\[apply\]|•)\s*")
_REWRITE = re.compile(
    r"^(?P<tac>rw|rewrite|rwa|erw|simp_rw|nth_rw \d+|nth_rewrite \d+)\s*\[(?P<rules>.*)\]"
    r"(?:\s+at\s+(?P<loc>.+))?$", re.S)
_NAME = re.compile(r"^@?([^\s()\[\]{}⟨⟩,@]+)")
_NO_GOALS = ("no goals", '"no goals"')


@dataclass(frozen=True)
class RewriteRule:
    """One rule of a ``rw [...]`` list: the term as written, its direction, its head name."""

    term: str
    reverse: bool
    name: str | None
    """Head identifier without ``@`` (``Nat.le_iff_lt_or_eq``, ``h₁``), None for a
    non-identifier term such as ``(foo x)``."""


@dataclass(frozen=True)
class Suggestion:
    """One suggested tactic.

    Attributes
    ----------
    tactic : the tactic text to run (marker ``[apply]``/``•`` removed, lines re-joined).
    comment : the ``--`` comment lines after it, without ``--`` (None if there were none).
    closes : the comment says the tactic leaves no goals.
    goal_after : for a one-line comment that is not "no goals", the goal Lean printed
        after the tactic (display only; never used as Lean's answer for a step).
    remaining : ``apply?`` partial suggestions: the ``⊢ ...`` subgoals listed.
    rules, location : for rewrites, the parsed rules and the ``at`` location.
    """

    tactic: str
    comment: str | None = None
    closes: bool = False
    goal_after: str | None = None
    remaining: tuple[str, ...] = ()
    rules: tuple[RewriteRule, ...] = ()
    location: str | None = None

    @property
    def kind(self) -> str:
        """The tactic's first word (``rw``, ``exact``, ``refine`` ...)."""
        return self.tactic.split(None, 1)[0] if self.tactic else ""

    @property
    def lemma(self) -> str | None:
        """The rewritten-with name of a one-rule rewrite, else None."""
        return self.rules[0].name if len(self.rules) == 1 else None


def split_rules(text: str) -> list[str]:
    """Split a rewrite-rule list at top-level commas (not inside brackets)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{⟨":
            depth += 1
        elif ch in ")]}⟩":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _rule(text: str) -> RewriteRule:
    reverse = text.startswith(("←", "<-"))
    term = text[1:].strip() if text.startswith("←") else text[2:].strip() if reverse else text
    match = _NAME.match(term)
    return RewriteRule(term=term, reverse=reverse, name=match.group(1) if match else None)


def _finish(lines: list[str], comments: list[str]) -> Suggestion:
    tactic = "\n".join(lines).strip()
    comment = "\n".join(comments) if comments else None
    closes = comment is not None and comment.strip() in _NO_GOALS
    remaining: tuple[str, ...] = ()
    goal_after = None
    if comments and comments[0].strip().startswith("Remaining subgoals"):
        remaining = tuple(c.strip() for c in comments[1:])
    elif comment is not None and not closes:
        goal_after = comment.strip()
    rules: tuple[RewriteRule, ...] = ()
    location = None
    match = _REWRITE.match(tactic)
    if match:
        rules = tuple(_rule(r) for r in split_rules(match.group("rules")))
        location = match.group("loc").strip() if match.group("loc") else None
    return Suggestion(tactic, comment, closes, goal_after, remaining, rules, location)


def parse_suggestions(text: str) -> list[Suggestion]:
    """All suggestions in one message text; ``[]`` if it is not a "Try this" message."""
    header = _HEADER.match(text)
    if header is None:
        return []
    body = text[header.end():].splitlines()
    items: list[tuple[list[str], list[str]]] = []
    for raw in body:
        line = raw.strip()
        if not line:
            continue
        if line.startswith("--"):
            if items:
                items[-1][1].append(line[2:].strip())
            continue
        marked = _ITEM_MARK.match(line)
        if marked or not items or items[-1][1] or not raw[:1].isspace() and items[-1][0]:
            items.append(([line[marked.end():] if marked else line], []))
        else:
            items[-1][0].append(raw.rstrip())
    return [_finish(lines, comments) for lines, comments in items if "".join(lines).strip()]
