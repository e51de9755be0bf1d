"""``@[…]`` attribute lists and ``attribute [..] names`` commands → typed facts.

Attribute names are kept as written (``simp``, ``norm_cast``, ``ext``, ``simps``, …); a few are
read further: ``deprecated`` (Lean core ``deprecated`` attribute, src/Lean/Linter/Deprecated.lean:
``@[deprecated newName (since := "…")]``), ``to_additive``/``to_dual`` (Mathlib
``Mathlib/Tactic/Translate/Core.lean``: an explicit target name, ``existing``, and
``(attr := a, b)`` — attributes the generated declaration also gets), and the reducibility
attributes (src/Lean/ReducibilityAttrs.lean).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scripts.name_table.declarations import translation_args
from scripts.name_table.lean_source import split_attributes
from transted.pipeline.opt.mathlib.records import Deprecation

__all__ = ["TranslationRequest", "Attributes", "read_attributes", "AttributeCommand",
           "read_attribute_command", "REDUCIBILITY"]

REDUCIBILITY = {"reducible": "reducible", "irreducible": "irreducible",
                "semireducible": "semireducible", "instance_reducible": "implicit_reducible",
                "implicit_reducible": "implicit_reducible"}
_STRING = re.compile(r'"((?:\\.|[^"\\])*)"')
_SINCE = re.compile(r'since\s*:=\s*"([^"]*)"')


@dataclass(frozen=True)
class TranslationRequest:
    """``@[to_additive]``/``@[to_dual]`` on a declaration (``target`` None: guessed)."""

    attribute: str
    target: str | None
    existing: bool
    attributes: tuple[str, ...]
    """``(attr := …)``: attributes the generated declaration gets too."""


@dataclass(frozen=True)
class Attributes:
    names: tuple[str, ...] = ()
    deprecated: Deprecation | None = None
    translations: tuple[TranslationRequest, ...] = ()


def read_attributes(raw: list[str]) -> Attributes:
    """The attributes of a declaration's ``@[…]`` lists (``raw``: their contents)."""
    names: list[str] = []
    deprecated = None
    translations = []
    for text in raw:
        for item in split_attributes(text):
            words = item.split()
            if not words:
                continue
            head = words[0]
            if head in ("local", "scoped") and len(words) > 1:
                continue  # not visible to a file that imports this one (or only when opened)
            if head == "deprecated":
                deprecated = _deprecation(item)
            translation = translation_args(item)
            if translation is not None:
                attr, target, existing = translation
                translations.append(TranslationRequest(attr, target, existing, _attr_list(item)))
            names.append(head.rstrip(","))
    return Attributes(tuple(dict.fromkeys(names)), deprecated, tuple(translations))


def _deprecation(item: str) -> Deprecation:
    since = _SINCE.search(item)
    rest = re.sub(r"\((?:[^()]|\([^()]*\))*\)", " ", item[len("deprecated"):])
    rest = _STRING.sub(" ", rest).split()
    new = rest[0] if rest and re.match(r"^[\w«_]", rest[0]) else None
    return Deprecation(new, since.group(1) if since else None)


def _attr_list(item: str) -> tuple[str, ...]:
    m = re.search(r"\(attr\s*:=\s*([^()]*)\)", item)
    if not m:
        return ()
    return tuple(a.split()[0] for a in split_attributes(m.group(1)) if a.split())


@dataclass(frozen=True)
class AttributeCommand:
    """A global ``attribute [simp, norm_cast] foo bar`` (``[-simp]`` erases: ``erase``)."""

    attributes: tuple[str, ...]
    erase: tuple[str, ...]
    names: tuple[str, ...]
    translations: tuple[TranslationRequest, ...]
    line: int


def read_attribute_command(rest: str, line: int) -> AttributeCommand | None:
    """``rest``: the text after ``attribute``; None for a ``local``/``scoped`` one (it ends with
    its section or needs its namespace opened) or one that does not read."""
    m = re.match(r"\s*\[(.*?)\]\s*(.*)", rest, re.DOTALL)
    if not m or re.search(r"\bin\s*$", rest):
        return None  # `attribute [simp] foo in …` scopes the next command only
    items = split_attributes(m.group(1))
    if any(i.split()[0] in ("local", "scoped") for i in items if i.split()):
        return None
    added, erased, translations = [], [], []
    for item in items:
        head = item.split()[0]
        if head.startswith("-"):
            erased.append(head[1:])
            continue
        translation = translation_args(item)
        if translation is not None:
            attr, target, existing = translation
            translations.append(TranslationRequest(attr, target, existing, _attr_list(item)))
        added.append(head)
    names = tuple(w for w in m.group(2).split() if re.match(r"^[\w«_]", w) and w != "in")
    return AttributeCommand(tuple(added), tuple(erased), names, tuple(translations), line)
