"""The names ``@[to_additive]`` and ``@[to_dual]`` give the declarations they generate.

A port of Mathlib's ``Mathlib/Tactic/Translate/GuessName.lean`` (``String.splitCase``,
``applyNameDict``, ``fixAbbreviation``, ``guessName``) and of ``targetName`` in
``Mathlib/Tactic/Translate/Core.lean`` (namespace translation, the explicit-name depth
heuristic). The dictionaries are read from the same snapshot's ``ToAdditive.lean`` and
``ToDual.lean`` (:func:`load_dictionaries`), so they change with the pinned commit.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["GuessData", "load_dictionaries", "parse_dictionaries", "guess_name", "target_name", "split_case"]

# GuessName.lean `endCapitalNames`: names ending in a capital that stay one word.
END_CAPITAL_NAMES = {"LE": [""], "LT": [""], "GE": [""], "GT": [""], "WF": [""],
                     "Coe": ["TC", "T", "HTCT"]}


@dataclass(frozen=True)
class GuessData:
    name_dict: dict[str, list[str]]
    abbreviation_dict: dict[str, str]


_NAME_ENTRY = re.compile(r'\("([^"]+)",\s*\[([^\]]*)\]\)')
_ABBR_ENTRY = re.compile(r'\("([^"]+)",\s*"([^"]*)"\)')


def _section(text: str, header: str) -> str:
    start = text.index(header)
    end = text.index("]\n", start)
    return text[start:end + 1]


def load_dictionaries(source: Path) -> GuessData:
    """``nameDict`` and ``abbreviationDict`` from a ``ToAdditive.lean``/``ToDual.lean``."""
    return parse_dictionaries(source.read_text(encoding="utf-8"), str(source))


def parse_dictionaries(text: str, source: str) -> GuessData:
    """:func:`load_dictionaries` on the file's text (``source`` names it in errors)."""
    names = {k: re.findall(r'"([^"]*)"', v)
             for k, v in _NAME_ENTRY.findall(_section(text, "def nameDict"))}
    abbreviations = dict(_ABBR_ENTRY.findall(_section(text, "def abbreviationDict")))
    if not names or not abbreviations:
        raise ValueError(f"{source}: no nameDict/abbreviationDict found")
    return GuessData(names, abbreviations)


def _is_upper(ch: str) -> bool:  # Lean's Char.isUpper is ASCII-only
    return "A" <= ch <= "Z"


def _lower(s: str) -> str:
    return "".join(chr(ord(c) + 32) if _is_upper(c) else c for c in s)


def split_case(s: str) -> list[str]:
    """``"InvHMulLEConjugate₂SMul_ne_top"`` → ``["Inv", "HMul", "LE", "Conjugate₂", "SMul",
    "_", "ne", "_", "top"]`` (GuessName.lean ``String.splitCase``)."""
    out: list[str] = []
    i0 = 0
    while True:
        i1 = i0 + 1
        if i1 >= len(s):
            out.append(s)
            return out
        if s[i0] == "_" or s[i1] == "_":
            out.append(s[:i1])
            s, i0 = s[i1:], 0
            continue
        if _is_upper(s[i1]):
            suffixes = END_CAPITAL_NAMES.get(s[:i1])
            matched = next((x for x in suffixes or [] if s[i1:].startswith(x)), None)
            if matched is not None:
                out.append(s[:i1] + matched)
                s, i0 = s[i1 + len(matched):], 0
                if not s:
                    out.append(s)
                    return out
                continue
            if not _is_upper(s[i0]):
                out.append(s[:i1])
                s, i0 = s[i1:], 0
                continue
        i0 = i1


def _decapitalize_seq(s: str) -> str:
    i = 0
    while i < len(s) and _is_upper(s[i]):
        i += 1
    return _lower(s[:i]) + s[i:]


def _decapitalize_like(r: str, s: str) -> str:
    # String.get on an empty string is the default char 'A', which is upper-case.
    return s if not r or _is_upper(r[0]) else _decapitalize_seq(s)


def _apply_name_dict(data: GuessData, words: list[str]) -> list[str]:
    out: list[str] = []
    for x in words:
        y = data.name_dict.get(_lower(x))
        if y is None:
            out.append(x)
        else:
            out.extend([_decapitalize_like(x, y[0]), *y[1:]] if y else [])
    return out


def _fix_abbreviation(data: GuessData, words: list[str]) -> str:
    out: list[str] = []
    pending: list[str] = []
    todo = list(words)
    while todo or pending:
        if not todo:
            out.append(pending[0])
            todo, pending = pending[1:], []
            continue
        pre = todo.pop(0)
        pending = [*pending, pre]
        t = "".join(pending)
        if pre == "_" and t and _is_upper(t[0]):
            out.append(pending[0])
            todo, pending = pending[1:] + todo, []
            continue
        post = data.abbreviation_dict.get(_decapitalize_seq(t))
        if post is not None:
            out.append(_decapitalize_like(t, post))
            pending = []
    return "".join(out)


def guess_name(data: GuessData, s: str) -> str:
    """GuessName.lean ``guessName``: translate one name component, ``'``-separated parts
    separately."""
    return "'".join(_fix_abbreviation(data, _apply_name_dict(data, split_case(part)))
                    for part in s.split("'"))


def target_name(data: GuessData, source: str, explicit: str | None,
                translated: Callable[[str], str | None]) -> str:
    """Core.lean ``targetName``: the generated declaration's full name. ``translated`` maps an
    already-translated declaration (a namespace prefix such as ``Monoid``) to its target."""
    prefix, _, last = source.rpartition(".")
    namespace = _map_prefix(prefix, translated)
    if explicit is None:
        guessed = guess_name(data, last)
        return f"{namespace}.{guessed}" if namespace else guessed
    if explicit.startswith("_root_."):
        return explicit[len("_root_."):]
    keep = namespace.split(".") if namespace else []
    drop = len(explicit.split(".")) - 1
    keep = keep[:len(keep) - drop] if drop else keep
    return ".".join([*keep, explicit])


def _map_prefix(name: str, translated: Callable[[str], str | None]) -> str:
    """Lean's ``Name.mapPrefix``: replace the longest translated prefix of ``name``."""
    parts = name.split(".") if name else []
    for cut in range(len(parts), 0, -1):
        hit = translated(".".join(parts[:cut]))
        if hit is not None:
            return ".".join([hit, *parts[cut:]])
    return name
