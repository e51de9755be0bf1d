"""Lean 4 source text → the commands that declare names, open scopes or add notation.

Written by hand because no Lean build is available here (no toolchain can be installed, so
Lean's own parser cannot be run over Mathlib): this reads only what name resolution needs —
declaration headers, ``namespace``/``section``/``end``/``mutual`` structure, ``export``,
``alias``, notation commands and their ``scoped``/``local`` kind — and is robust to attributes,
docstrings, modifiers and multi-line commands. It relies on Mathlib's (linted) style that a
command starts at column 0; `tests/test_name_table_generator.py` pins each rule on small inputs.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

__all__ = ["Command", "blank_comments", "commands", "split_attributes", "declared_name",
           "strip_universes"]

MODIFIERS = frozenset({"private", "protected", "noncomputable", "partial", "unsafe", "nonrec",
                       "public", "meta", "scoped", "local"})
_IDENT_CHAR = re.compile(r"[\w'!?₀-₉ₐ-ₜᵢ-ᵪⱼ]", re.UNICODE)
_SPECIAL = re.compile(r"--|/-|\"|'")
_BLOCK = re.compile(r"/-|-/")
_CHAR_LITERAL = re.compile(r"'(?:\\.[^']*|[^\\'\n])'")


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


def blank_comments(text: str) -> str:
    """``text`` with every comment (``--``, nested ``/- -/``, docstrings) replaced by spaces;
    line and column positions are kept, string and character literals are kept."""
    out: list[str] = []
    pos = 0
    while True:
        m = _SPECIAL.search(text, pos)
        if m is None:
            out.append(text[pos:])
            return "".join(out)
        start = m.start()
        token = m.group()
        if token == "--":
            end = text.find("\n", start)
            end = len(text) if end < 0 else end
            out.append(text[pos:start])
            out.append(" " * (end - start))
            pos = end
        elif token == "/-":
            end = _block_end(text, start)
            out.append(text[pos:start])
            out.append(_blank(text[start:end]))
            pos = end
        elif token == '"':
            end = _string_end(text, start)
            out.append(text[pos:end])
            pos = end
        else:  # "'": a character literal unless it ends an identifier (x', foo'')
            lit = _CHAR_LITERAL.match(text, start)
            prev = text[start - 1] if start else " "
            end = lit.end() if lit and not _IDENT_CHAR.match(prev) else start + 1
            out.append(text[pos:end])
            pos = end


def _block_end(text: str, start: int) -> int:
    depth = 0
    pos = start
    while True:
        m = _BLOCK.search(text, pos)
        if m is None:
            return len(text)
        depth += 1 if m.group() == "/-" else -1
        pos = m.end()
        if depth == 0:
            return pos


def _string_end(text: str, start: int) -> int:
    pos = start + 1
    while pos < len(text):
        ch = text[pos]
        if ch == "\\":
            pos += 2
            continue
        if ch == '"':
            return pos + 1
        pos += 1
    return len(text)


@dataclass
class Command:
    """One top-level command: its attributes (raw ``@[…]`` contents), modifiers, keyword and
    the text after the keyword (comments blanked), with the 1-based line of its keyword."""

    line: int
    attributes: list[str] = field(default_factory=list)
    modifiers: list[str] = field(default_factory=list)
    keyword: str = ""
    rest: str = ""
    scoped_namespace: str | None = None
    """``scoped[NS]`` (Mathlib's ScopedNS): the namespace the scoped command belongs to."""
    prefixes: list[str] = field(default_factory=list)
    """``open Foo in`` / ``set_option x y in`` written on the command's first line before it
    (``open Foo``, …): they scope this command only."""


_START = re.compile(r"^(@\[|[A-Za-z_#][\w]*)")
_TOKEN = re.compile(r"\s*(«[^»]*»(?:\.[^\s(){}\[\]:,]+)*|[^\s(){}\[\]:,]+|\S)")
STARTERS = frozenset({
    "def", "abbrev", "theorem", "lemma", "instance", "opaque", "axiom", "structure", "class",
    "inductive", "irreducible_def", "alias", "example", "namespace", "section", "end", "mutual",
    "export", "open", "attribute", "variable", "universe", "set_option", "notation", "notation3",
    "infix", "infixl", "infixr", "prefix", "postfix", "macro", "syntax", "macro_rules", "elab",
    "elab_rules", "binder_predicate", "initialize", "builtin_initialize", "deriving", "include",
    "omit", "add_decl_doc", "assert_not_exists", "register_option", "declare_syntax_cat",
    "module", "import", "unseal", "seal", "compile_inductive", "irreducible", "run_cmd",
    "insert_to_additive_translation", "library_note", "initialize_simps_projections",
    "suppress_compilation", "noncomputable", "private", "protected", "partial", "unsafe",
    "nonrec", "public", "meta", "scoped", "local", "@[",
})


def commands(text: str) -> Iterator[Command]:
    """The commands of a Lean file (comments already blanked or not), in order."""
    clean = blank_comments(text)
    lines = clean.split("\n")
    start: int | None = None
    for i, line in enumerate(lines):
        m = _START.match(line)
        if m and (m.group(1) in STARTERS or m.group(1).startswith("#")):
            if start is not None:
                pending = list(_parse(start, "\n".join(lines[start:i])))
                if pending and not pending[-1].keyword:
                    continue  # `@[simp]` or `protected` on its own line: the command goes on
                yield from pending
            start = i
    if start is not None:
        yield from _parse(start, "\n".join(lines[start:]))


def _parse(index: int, text: str) -> Iterator[Command]:
    cmd = Command(line=index + 1)
    pos = 0
    while True:
        pos = _skip_space(text, pos)
        if text.startswith("@[", pos):
            end = _matching(text, pos + 1)
            cmd.attributes.append(text[pos + 2:end - 1])
            pos = end
            continue
        m = _TOKEN.match(text, pos)
        if m is None:
            yield cmd  # attributes/modifiers only, so far
            return
        word = m.group(1)
        if word == "scoped" and text.startswith("[", m.end()):
            close = text.index("]", m.end())
            cmd.scoped_namespace = text[m.end() + 1:close].strip()
            cmd.modifiers.append("scoped")
            pos = close + 1
            continue
        if word in MODIFIERS:
            cmd.modifiers.append(word)
            pos = m.end()
            continue
        if word == "class" and re.match(r"\s+(inductive|abbrev)\b", text[m.end():]):
            word = "class " + text[m.end():].split(None, 1)[0]
            pos = text.index(word.split()[1], m.end()) + len(word.split()[1])
        else:
            pos = m.end()
        cmd.keyword = word
        cmd.rest = text[pos:]
        cmd.line = index + 1 + text[:pos].count("\n")  # the keyword's line, after attributes
        break
    # `open Foo in theorem …`, `set_option x y in lemma …`: the command after `in` is the one
    # that declares; the prefix only scopes it.
    if cmd.keyword in ("open", "set_option", "include", "omit") and not cmd.attributes:
        inner = re.search(r"\bin\s+(?=\S)", cmd.rest)
        if inner and cmd.rest[:inner.start()].count("\n") == 0:
            tail = cmd.rest[inner.end():]
            if _START.match(tail) and _START.match(tail).group(1) in STARTERS:  # type: ignore[union-attr]
                prefix = f"{cmd.keyword} {cmd.rest[:inner.start()].strip()}"
                for inner_cmd in _parse(cmd.line - 1 + cmd.rest[:inner.end()].count("\n"), tail):
                    inner_cmd.prefixes.insert(0, prefix)
                    yield inner_cmd
                return
    yield cmd


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos].isspace():
        pos += 1
    return pos


def _matching(text: str, open_pos: int) -> int:
    """Index after the bracket closing the one at ``open_pos`` (strings skipped)."""
    pairs = {"[": "]", "(": ")", "{": "}", "⟨": "⟩"}
    stack = [pairs[text[open_pos]]]
    pos = open_pos + 1
    while pos < len(text) and stack:
        ch = text[pos]
        if ch == '"':
            pos = _string_end(text, pos)
            continue
        if ch in pairs:
            stack.append(pairs[ch])
        elif ch == stack[-1]:
            stack.pop()
        pos += 1
    return pos


def split_attributes(attribute_text: str) -> list[str]:
    """``simp, to_additive (attr := simp) foo`` → ``["simp", "to_additive (attr := simp) foo"]``
    (commas inside brackets or strings do not split)."""
    items: list[str] = []
    depth = 0
    current: list[str] = []
    pos = 0
    while pos < len(attribute_text):
        ch = attribute_text[pos]
        if ch == '"':
            end = _string_end(attribute_text, pos)
            current.append(attribute_text[pos:end])
            pos = end
            continue
        if ch in "([{⟨":
            depth += 1
        elif ch in ")]}⟩":
            depth -= 1
        if ch == "," and depth == 0:
            items.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
        pos += 1
    items.append("".join(current).strip())
    return [item for item in items if item]


def strip_universes(name: str) -> str:
    """``foo.{u, v}`` → ``foo``."""
    return re.sub(r"\.\{[^}]*\}$", "", name)


def declared_name(rest: str) -> str | None:
    """The identifier right after a declaration keyword (``Foo.bar``, ``«x y»``, ``_root_.z``),
    or None when the declaration is anonymous (``instance : …``, ``example``)."""
    m = _TOKEN.match(rest)
    if m is None:
        return None
    word = m.group(1)
    if not (word[0].isalpha() or word[0] in "_«") or word in ("fun", "by"):
        return None
    return strip_universes(word)
