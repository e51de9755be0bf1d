"""Which lines of an LLM's output are Lean: markdown fences, preambles, trailing prose.

The result is the output with every non-Lean character blanked (newlines kept), so the Lean
lexer runs on it and every token offset is an offset into the raw output.

* Fenced blocks (```` ``` ```` or ``~~~``, CommonMark) tagged ``lean``/``lean4``/``lean3`` are
  code; untagged ones are code when they hold a Lean command; other languages are left out.
  With no such block the whole output is one region.
* Inside a region, lines before the first Lean command line are a preamble. A column-0 line
  that reads as prose (after a blank line: a markdown marker or a capitalised sentence; right
  after code: a capitalised English sentence ending in '.', '!' or '?', which no Lean term
  does) starts prose that lasts until the next Lean command line. Lines inside a ``/- … -/``
  comment are never prose. This rule only decides what is left out around declarations: a
  command line always resumes the code, and a proof (dropped anyway) cannot hide a later
  declaration.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Regions", "Fence", "find_regions", "COMMAND_LINE", "LEAN_FENCE_LANGS"]

LEAN_FENCE_LANGS = ("lean", "lean4", "lean3")
_FENCE_OPEN = re.compile(r"^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([^`\s]*)[^`\n]*$")
COMMAND_LINE = re.compile(
    r"^[ \t]*(?:@\[|/-|--|#(?:check|eval|print|reduce|exit|lint|synth)\b"
    r"|(?:private|protected|noncomputable|nonrec|partial|unsafe|local|scoped)\s"
    r"|(?:theorem|lemma|example|def|abbrev|instance|axiom|opaque|structure|class|inductive"
    r"|import|open|namespace|section|end|variable|universe|set_option|attribute|notation"
    r"|infixl?|infixr|prefix|postfix|macro|syntax|export|mutual|include|omit|open_locale"
    r"|universes)\b)")
"""A line that starts a Lean command (Lean 4 src/Lean/Parser/Command.lean; ``lemma`` is
Mathlib's; ``open_locale``/``universes`` are Lean 3's, kept so the recogniser sees them)."""
_MARKDOWN = re.compile(r"^(?:#{1,6}\s|\*\*|__|[-*+]\s|>\s?|\d+[.)]\s|\|)")
_SENTENCE_START = re.compile(r"^[A-Z][a-z']*[,:.]?$")
_LOWER_WORD = re.compile(r"^[a-z][a-z']+[,.;:]?$")


@dataclass(frozen=True)
class Fence:
    lang: str
    start: int
    """Offset of the opening fence line."""
    closed: bool


@dataclass
class Regions:
    code: str
    """The raw output with every character outside Lean code blanked (newlines kept)."""
    prose: list[tuple[str, int, int]] = field(default_factory=list)
    """``(role, start, end)``: preamble | between | trailing | other-fence."""
    fences: list[Fence] = field(default_factory=list)


def looks_like_prose(line: str) -> bool:
    """A column-0 line after a blank line that reads as markdown or an English sentence."""
    s = line.strip()
    if _MARKDOWN.match(s):
        return True
    words = s.split()
    if not words or not _SENTENCE_START.match(words[0]) or ":=" in s or "=>" in s or "↦" in s:
        return False
    if s.endswith((".", ":", "!", "?")):
        return True
    return len(words) >= 4 and sum(bool(_LOWER_WORD.match(w)) for w in words[1:]) >= 2


def is_sentence(line: str) -> bool:
    """A capitalised English sentence ending in '.', '!' or '?' (prose even without a blank
    line before it: no Lean term ends so)."""
    s = line.strip()
    return looks_like_prose(s) and s.endswith((".", "!", "?")) and not _MARKDOWN.match(s) and \
        sum(bool(_LOWER_WORD.match(w)) for w in s.split()[1:]) >= 2


def _lines(text: str, start: int, end: int) -> list[tuple[int, str]]:
    out, pos = [], start
    for line in text[start:end].split("\n"):
        out.append((pos, line))
        pos += len(line) + 1
    return out


def _comment_depth(line: str, depth: int) -> int:
    """Block-comment depth after ``line`` (a ``--`` outside comments ends the scan)."""
    i = 0
    while i < len(line):
        if line.startswith("/-", i):
            depth, i = depth + 1, i + 2
        elif depth and line.startswith("-/", i):
            depth, i = depth - 1, i + 2
        elif not depth and line.startswith("--", i):
            break
        else:
            i += 1
    return depth


def _scan_region(text: str, start: int, end: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """``(code line ranges, prose line ranges)`` of ``text[start:end]``."""
    code: list[tuple[int, int]] = []
    prose: list[tuple[int, int]] = []
    state, blank_before, depth = "before", False, 0
    for pos, line in _lines(text, start, end):
        stripped = line.strip()
        span = (pos, pos + len(line))
        if depth:
            code.append(span)
            depth = _comment_depth(line, depth)
            continue
        if COMMAND_LINE.match(line):
            state = "code"
        elif (stripped and state == "code" and not line[:1].isspace()
              and (looks_like_prose(line) if blank_before else is_sentence(line))):
            state = "prose"
        if stripped and state == "code":
            code.append(span)
            depth = _comment_depth(line, depth)
        elif stripped:
            prose.append(span)
        blank_before = not stripped
    return code, prose


def _fenced_blocks(text: str) -> list[tuple[str, int, int, int, bool]]:
    """``(lang, fence_line_start, content_start, content_end, closed)`` for each block."""
    blocks, pos = [], 0
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = _FENCE_OPEN.match(lines[i])
        if m is None:
            pos += len(lines[i]) + 1
            i += 1
            continue
        marker, lang = m.group(1), m.group(2).lower()
        fence_start, content_start = pos, pos + len(lines[i]) + 1
        pos, i = content_start, i + 1
        closer = re.compile(rf"^[ \t]{{0,3}}{re.escape(marker[0])}{{{len(marker)},}}[ \t]*$")
        while i < len(lines) and not closer.match(lines[i]):
            pos += len(lines[i]) + 1
            i += 1
        closed = i < len(lines)
        blocks.append((lang, fence_start, content_start, min(pos, len(text)), closed))
        if closed:
            pos += len(lines[i]) + 1
            i += 1
    return blocks


def _is_code_block(text: str, lang: str, start: int, end: int) -> bool:
    if lang in LEAN_FENCE_LANGS:
        return True
    return lang == "" and any(COMMAND_LINE.match(line) for _, line in _lines(text, start, end))


def find_regions(text: str) -> Regions:
    """The Lean code of ``text`` and the prose left out (see the module docstring)."""
    text = text.replace("\ufeff", " ")  # a byte-order mark is not part of a line's content
    blocks = _fenced_blocks(text)
    lean_blocks = [b for b in blocks if _is_code_block(text, b[0], b[2], b[3])]
    windows = [(b[2], b[3]) for b in lean_blocks] if lean_blocks else _unfenced(text, blocks)
    keep = bytearray(len(text))
    prose_lines: list[tuple[int, int]] = []
    for start, end in windows:
        code, prose = _scan_region(text, start, end)
        for a, b in code:
            keep[a:b] = b"\x01" * (b - a)
        prose_lines += prose
    if lean_blocks:
        prose_lines += _outside(text, lean_blocks)
    else:
        prose_lines += [(pos, pos + len(line)) for b in blocks if b[0]
                        for pos, line in _lines(text, b[2], b[3]) if line.strip()]
    masked = "".join(c if keep[i] or c == "\n" else " " for i, c in enumerate(text))
    regions = Regions(masked, fences=[Fence(b[0], b[1], b[4]) for b in blocks])
    regions.prose = _roles(keep, prose_lines, text, blocks, lean_blocks)
    return regions


def _unfenced(text: str, blocks: list) -> list[tuple[int, int]]:
    """The text around blocks tagged with another language (``python``, ``text``…)."""
    windows, pos = [], 0
    for lang, fence_start, _, content_end, closed in blocks:
        if lang:
            windows.append((pos, fence_start))
            close_end = text.find("\n", content_end)
            pos = len(text) if not closed or close_end < 0 else close_end + 1
    windows.append((pos, len(text)))
    return [(a, b) for a, b in windows if a < b]


def _outside(text: str, lean_blocks: list) -> list[tuple[int, int]]:
    """Non-blank lines outside the Lean blocks and their fence lines."""
    inside = [(b[1], b[3]) for b in lean_blocks]
    out = []
    for pos, line in _lines(text, 0, len(text)):
        if line.strip() and not any(a <= pos <= b for a, b in inside):
            if not _FENCE_OPEN.match(line) and not re.match(r"^[ \t]{0,3}(`{3,}|~{3,})[ \t]*$", line):
                out.append((pos, pos + len(line)))
    return out


def _roles(keep: bytearray, prose_lines: list[tuple[int, int]], text: str, blocks: list,
           lean_blocks: list) -> list[tuple[str, int, int]]:
    code_at = [i for i in range(len(keep)) if keep[i]]
    first, last = (code_at[0], code_at[-1]) if code_at else (len(text), -1)
    other = [(b[2], b[3]) for b in blocks if b not in lean_blocks]
    merged: list[tuple[str, int, int]] = []
    for a, b in sorted(set(prose_lines)):
        if any(x <= a < max(y, x + 1) for x, y in other):
            role = "other-fence"
        else:
            role = "preamble" if b <= first else "trailing" if a > last else "between"
        if merged and merged[-1][0] == role and text[merged[-1][2]:a].strip() == "":
            merged[-1] = (role, merged[-1][1], b)
        else:
            merged.append((role, a, b))
    return merged
