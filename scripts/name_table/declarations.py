"""One Lean file's commands → the names it declares, its exports, notations and translations.

Scoping follows Lean's elaborator: ``namespace A.B`` prefixes later declarations with ``A.B``
(``_root_.x`` escapes it), ``end`` closes the innermost ``namespace``/``section``/``mutual``,
``private`` declarations are file-local (never reachable from another file, so not recorded),
``protected`` ones are recorded with their flag (Lean's ``resolveQualifiedName`` skips them for
atomic identifiers). ``local`` notations are file-local and not recorded either.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from scripts.name_table.lean_source import (
    Command,
    commands,
    declared_name,
    split_attributes,
    strip_universes,
)

__all__ = ["Decl", "Export", "NotationDecl", "Translation", "FileFacts", "read_file_facts",
           "translation_args"]

DECL_KINDS = {
    "def": "def", "abbrev": "def", "irreducible_def": "def", "opaque": "def", "axiom": "axiom",
    "theorem": "theorem", "lemma": "theorem", "instance": "instance", "structure": "structure",
    "class": "class", "class abbrev": "class", "inductive": "inductive",
    "class inductive": "class",
}
NOTATION_KEYWORDS = frozenset({"notation", "notation3", "infix", "infixl", "infixr", "prefix",
                               "postfix", "macro", "syntax"})


@dataclass(frozen=True)
class Decl:
    name: str
    kind: str
    """def | theorem | axiom | instance | structure | class | inductive | constructor | field |
    alias"""
    protected: bool
    line: int


@dataclass(frozen=True)
class Export:
    """``export NS (x)`` inside namespace ``cur``: the alias ``cur.x`` ↦ ``NS.x``."""

    alias: str
    target: str
    line: int


@dataclass(frozen=True)
class NotationDecl:
    keyword: str
    pattern: str
    """The notation's text up to ``=>`` (or the whole ``syntax`` line), whitespace collapsed."""
    expansion: str
    atoms: tuple[str, ...]
    """The string literals of the pattern, in order (``"∑ "``, ``", "``, …)."""
    namespace: str | None
    """None: global. Otherwise the namespace whose opening activates the notation."""
    line: int


@dataclass(frozen=True)
class Translation:
    """A ``@[to_additive]``/``@[to_dual]`` request on ``source``."""

    attribute: str
    source: str
    target: str | None
    """The explicit target name as written, or None when the name is to be guessed."""
    existing: bool
    kind: str
    protected: bool
    fields: tuple[str, ...]
    line: int


@dataclass
class FileFacts:
    decls: list[Decl] = field(default_factory=list)
    exports: list[Export] = field(default_factory=list)
    notations: list[NotationDecl] = field(default_factory=list)
    translations: list[Translation] = field(default_factory=list)
    private: int = 0
    local_notations: int = 0


@dataclass
class _Scope:
    kind: str  # namespace | section | mutual
    name: str


def read_file_facts(text: str) -> FileFacts:
    facts = FileFacts()
    stack: list[_Scope] = []
    for cmd in commands(text):
        _handle(cmd, stack, facts)
    return facts


def _namespace(stack: list[_Scope]) -> str:
    return ".".join(s.name for s in stack if s.kind == "namespace")


def _qualify(namespace: str, name: str) -> str:
    if name.startswith("_root_."):
        return name[len("_root_."):]
    return f"{namespace}.{name}" if namespace else name


def _handle(cmd: Command, stack: list[_Scope], facts: FileFacts) -> None:
    kw = cmd.keyword
    if kw == "namespace":
        name = cmd.rest.split()[0] if cmd.rest.split() else ""
        stack.append(_Scope("namespace", name))
    elif kw == "section":
        words = cmd.rest.split("\n", 1)[0].split()
        stack.append(_Scope("section", words[0] if words else ""))
    elif kw == "mutual":
        stack.append(_Scope("mutual", ""))
    elif kw == "end":
        _close(stack, cmd)
    elif kw == "export":
        _export(cmd, _namespace(stack), facts)
    elif kw in NOTATION_KEYWORDS:
        _notation(cmd, _namespace(stack), facts)
    elif kw == "alias":
        _alias(cmd, _namespace(stack), facts)
    elif kw == "attribute":
        _attribute(cmd, _namespace(stack), facts)
    elif kw in DECL_KINDS:
        _declaration(cmd, _namespace(stack), facts)


def _close(stack: list[_Scope], cmd: Command) -> None:
    words = cmd.rest.split("\n", 1)[0].split()
    name = words[0] if words else ""
    if not stack:
        return
    # `end` names the innermost scope; a mismatch means our reading drifted: close to the match.
    for depth in range(len(stack) - 1, -1, -1):
        if stack[depth].name == name:
            del stack[depth:]
            return
    stack.pop()


def _export(cmd: Command, namespace: str, facts: FileFacts) -> None:
    m = re.match(r"\s*([^\s(]+)\s*\(([^)]*)\)", cmd.rest)
    if not m:
        return
    source_ns = m.group(1)
    for name in m.group(2).split():
        facts.exports.append(Export(_qualify(namespace, name), f"{source_ns}.{name}", cmd.line))


_STRING = re.compile(r'"((?:\\.|[^"\\])*)"')


def _notation(cmd: Command, namespace: str, facts: FileFacts) -> None:
    if "local" in cmd.modifiers:
        facts.local_notations += 1
        return
    text = " ".join(cmd.rest.split())
    pattern, _, expansion = text.partition("=>")
    if cmd.keyword == "syntax" and not pattern.rstrip().endswith(": term"):
        return  # tactic/command/category syntax: not term notation
    scope = None
    if "scoped" in cmd.modifiers:
        scope = cmd.scoped_namespace if cmd.scoped_namespace else namespace
    atoms = tuple(_STRING.findall(pattern))
    if not atoms:
        return
    facts.notations.append(NotationDecl(cmd.keyword, pattern.strip(), expansion.strip(), atoms,
                                        scope, cmd.line))


def _alias(cmd: Command, namespace: str, facts: FileFacts) -> None:
    lhs, sep, _ = cmd.rest.partition(":=")
    if not sep:
        return
    lhs = lhs.strip()
    names = [n.strip() for n in lhs.strip("⟨⟩").split(",")] if lhs.startswith("⟨") else [lhs]
    for name in names:
        if name and name != "_" and "private" not in cmd.modifiers:
            facts.decls.append(Decl(_qualify(namespace, strip_universes(name)), "alias",
                                    "protected" in cmd.modifiers, cmd.line))


def _attribute(cmd: Command, namespace: str, facts: FileFacts) -> None:
    """``attribute [to_additive] Foo`` translates existing declarations named after it."""
    m = re.match(r"\s*\[(.*?)\]\s*(.*)", cmd.rest, re.DOTALL)
    if not m:
        return
    names = [w for w in m.group(2).split() if re.match(r"^[\w«_]", w)]
    for item in split_attributes(m.group(1)):
        translation = translation_args(item)
        if translation is None:
            continue
        attr, target, existing = translation
        for name in names:
            facts.translations.append(Translation(attr, _qualify(namespace, name), target, existing,
                                                  "unknown", False, (), cmd.line))


def translation_args(item: str) -> tuple[str, str | None, bool] | None:
    m = re.match(r"^(to_additive|to_dual)\b(.*)$", item, re.DOTALL)
    if not m:
        return None
    rest = re.sub(r"\((?:[^()]|\([^()]*\))*\)", " ", m.group(2))  # (attr := …), (reorder := …)
    rest = _STRING.sub(" ", rest)
    words = rest.split()
    existing = bool(words) and words[0] == "existing"
    if existing:
        words = words[1:]
    if words and words[0] in ("self", "none"):
        return None
    target = words[0] if words and re.match(r"^[\w«_]", words[0]) else None
    return m.group(1), target, existing


def _declaration(cmd: Command, namespace: str, facts: FileFacts) -> None:
    kind = DECL_KINDS[cmd.keyword]
    rest = cmd.rest
    if cmd.keyword == "instance":
        rest = re.sub(r"^\s*\(priority\s*:=[^)]*\)", "", rest)
    name = declared_name(rest)
    if name is None:
        return
    name = name.rstrip(".")
    if "private" in cmd.modifiers:
        facts.private += 1
        return
    full = _qualify(namespace, name)
    protected = "protected" in cmd.modifiers
    facts.decls.append(Decl(full, kind, protected, cmd.line))
    members: list[str] = []
    if kind in ("structure", "class") and cmd.keyword != "class abbrev":
        members = list(_structure_members(full, rest, cmd.line, facts))
    elif kind == "inductive" or cmd.keyword == "class inductive":
        members = list(_constructors(full, rest, cmd.line, facts))
    elif cmd.keyword == "irreducible_def":
        facts.decls.append(Decl(f"{full}_def", "theorem", protected, cmd.line))
    for attr_text in cmd.attributes:
        for item in split_attributes(attr_text):
            translation = translation_args(item)
            if translation is not None:
                attr, target, existing = translation
                facts.translations.append(Translation(attr, full, target, existing, kind,
                                                      protected, tuple(members), cmd.line))


_FIELD = re.compile(r"^(\s+)((?:(?:protected|private)\s+)?[^\s:(){}\[\]|⦃]+(?:\s+[^\s:(){}\[\]|⦃]+)*)"
                    r"\s*(?=:(?!=)|\(|\{|\[|⦃)")


def _structure_members(full: str, rest: str, line: int, facts: FileFacts) -> Iterator[str]:
    header, sep, body = _split_where(rest)
    ctor = "mk"
    parents = re.search(r"\bextends\b(.*)", header, re.DOTALL)
    if parents:
        for parent in _top_level_commas(parents.group(1)):
            head = parent.split()[0] if parent.split() else ""
            if "::" in head or not head:
                continue
            head = strip_universes(head.split(":")[0])
            last = head.split(".")[-1]
            if re.fullmatch(r"[^\W\d][\w'.]*", head) and last:
                yield from _member(full, "to" + last[0].upper() + last[1:], "field", False, line, facts)
    if not sep:
        yield from _member(full, ctor, "constructor", False, line, facts)
        return
    indent: int | None = None
    for text in body.split("\n"):
        if not text.strip():
            continue
        m_ctor = re.match(r"^\s*(?:(?:private|protected)\s+)?([^\s:]+)\s*::", text)
        if m_ctor:
            ctor = m_ctor.group(1)
            continue
        lead = len(text) - len(text.lstrip())
        if indent is None:
            indent = lead
        if lead != indent or text.lstrip().startswith(("|", "deriving", "@[")):
            continue
        m = _FIELD.match(text)
        if not m:
            continue
        words = m.group(2).split()
        protected = words[0] == "protected"
        if words[0] in ("protected", "private"):
            if words[0] == "private":
                continue
            words = words[1:]
        for word in words:
            yield from _member(full, word, "field", protected, line, facts)
    yield from _member(full, ctor, "constructor", False, line, facts)


def _member(full: str, name: str, kind: str, protected: bool, line: int,
            facts: FileFacts) -> Iterator[str]:
    name = strip_universes(name)
    if not re.match(r"^[^\W\d]|^«", name) or name in ("where", "extends", "with", "deriving"):
        return
    facts.decls.append(Decl(f"{full}.{name}", kind, protected, line))
    yield name


def _constructors(full: str, rest: str, line: int, facts: FileFacts) -> Iterator[str]:
    for m in re.finditer(r"(?:^|\n)\s*\|\s*(?:(?:protected|private)\s+)?([^\s:(){}\[\]]+)", rest):
        yield from _member(full, m.group(1), "constructor", False, line, facts)


def _split_where(rest: str) -> tuple[str, str, str]:
    m = re.search(r"\bwhere\b", rest)
    if not m:
        return rest, "", ""
    return rest[:m.start()], "where", rest[m.end():]


def _top_level_commas(text: str) -> list[str]:
    items, depth, current = [], 0, []
    for ch in text:
        if ch in "([{⟨":
            depth += 1
        elif ch in ")]}⟩":
            depth -= 1
        if ch == "," and depth == 0:
            items.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    items.append("".join(current).strip())
    return items
