"""A declaration command's text → its parts: signature, value, and where each one ends.

The command text (comments blanked, :mod:`scripts.name_table.lean_source`) is cut where the
signature ends — the first ``:=``, ``where`` or line-initial ``| `` outside brackets and
strings — so a theorem's proof is never tokenized. The signature is parsed by transted's own
parser (:class:`~transted.pipeline.opt.parser.TermParser`, :func:`~transted.pipeline.opt.declaration.read_declaration_head`)
with the file's ``variable`` names bound (``s.card`` on a variable ``s`` is field notation, as
Lean reads it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass

from transted.errors import ParseError, ResourceLimitError
from transted.pipeline.opt.binders import BinderGroup
from transted.pipeline.opt.declaration import read_declaration_head
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.parser import TermParser

__all__ = ["Cut", "cut", "Header", "parse_header", "located", "binder_type_text",
           "top_level_lines", "parse_value", "blank_universes", "PARSE_FAILURES", "TAIL_KEYWORDS"]

TAIL_KEYWORDS = ("termination_by", "decreasing_by", "deriving")
_OPEN = "([{⟨⦃"
_CLOSE = ")]}⟩⦄"
_UNIVERSE_INSTANCE = re.compile(r"(?<=[\w'!?₀-₉»])\.\{[^{}]*\}")


def blank_universes(text: str) -> str:
    """``Rep.{u} k G`` → ``Rep     k G``: explicit universe arguments blanked (positions kept).
    Trees carry no universe levels (the parser drops a declaration's own ``.{u}`` too), and
    the term parser does not read them inside terms."""
    return _UNIVERSE_INSTANCE.sub(lambda m: " " * len(m.group()), text)


@dataclass(frozen=True)
class Cut:
    """``text[:end]`` is the signature; ``separator`` (``:=``, ``where``, ``|`` or ``""``) and
    the value after it (``value_start``), up to a ``termination_by``/``decreasing_by``."""

    signature: str
    separator: str
    value: str
    value_offset: int


_EVENTS = re.compile(r'"|[([{⟨⦃]|[)\]}⟩⦄]|:=|(?<![\w\'!?.₀-₉])(?:where|extends)(?![\w\'!?.₀-₉])'
                     r"|(?<=\n)[ \t]*\|(?=[ \n])")


def cut(text: str, separators: tuple[str, ...] = (":=", "where", "|")) -> Cut:
    depth = 0
    pos = 0
    while True:
        m = _EVENTS.search(text, pos)
        if m is None:
            return Cut(text, "", "", len(text))
        token = m.group()
        pos = m.end()
        if token == '"':
            pos = _string_end(text, m.start())
        elif token in _OPEN:
            depth += 1
        elif token in _CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0:
            sep = token.strip()
            if sep in separators:
                start = m.end()
                return Cut(text[:m.start() + (len(token) - len(token.lstrip()))], sep,
                           _value_text(text[start:]), start)


def _string_end(text: str, start: int) -> int:
    i = start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i + 1
        i += 1
    return len(text)


def _value_text(value: str) -> str:
    """The value without a trailing ``termination_by``/``decreasing_by``/``deriving`` clause."""
    m = re.search(r"^\s*(" + "|".join(TAIL_KEYWORDS) + r")\b", value, re.MULTILINE)
    return value[:m.start()] if m else value


def top_level_lines(text: str) -> Iterator[tuple[int, str]]:
    """``(offset, chunk)`` for each entry of an indented block (a ``where`` body): a new entry
    starts on a line indented as the first one (continuation lines are indented further)."""
    lines = text.split("\n")
    indent: int | None = None
    start, offset, chunk = 0, 0, []
    for line in lines:
        if line.strip():
            lead = len(line) - len(line.lstrip())
            if indent is None:
                indent = lead
            if lead <= indent and chunk and any(c.strip() for c in chunk):
                yield start, "\n".join(chunk)
                chunk, start = [], offset
            if lead < indent:
                indent = lead
        if not chunk:
            start = offset
        chunk.append(line)
        offset += len(line) + 1
    if any(c.strip() for c in chunk):
        yield start, "\n".join(chunk)


@dataclass
class Header:
    """A parsed signature: binder groups (with their texts), the declared type, and for a
    structure/class its ``extends`` parents ``(projection name or None, term, text)``."""

    name: str | None
    groups: list[tuple[BinderGroup, str]]
    type: Node | None
    type_text: str
    parents: list[tuple[str | None, Node, str]]
    parser: TermParser


def located(e: ParseError, first_line: int) -> str:
    """``line:column: reason`` with the line of the source file."""
    return f"{first_line + e.line - 1}:{e.column}: {e.reason}"


def parse_header(keyword: str, text: str, bound: list[str], *, structure: bool = False) -> Header:
    """Parse ``keyword text`` up to the end of its signature (``text`` is :attr:`Cut.signature`;
    a structure's ``extends`` clause is read apart: ``extends`` is no keyword of the term
    parser, so ``Type v extends P`` would read as an application).

    Raises ParseError (positions in ``keyword + text``) or ResourceLimitError."""
    parents_text = ""
    if structure:
        split = cut(text, ("extends",))
        text, parents_text = split.signature, split.value if split.separator else ""
    source = keyword + text
    p = TermParser(blank_universes(source))
    with ExitStack() as stack:
        stack.enter_context(p.binding(bound))
        _kw, name, groups, extents = read_declaration_head(p, (keyword,))
        names = [n for g in groups for n in g.names if n != "_"]
        stack.enter_context(p.binding(names))
        ty, type_text = _type(p, source)
        if p.tok.kind != "eof":
            raise p.error(f"unexpected {p.describe(p.tok)} after the signature")
    parents: list[tuple[str | None, Node, str]] = []
    if parents_text:
        parents, ty2, type_text2 = _parents(parents_text, [*bound, *names])
        if ty is None:
            ty, type_text = ty2, type_text2
    texts = [source[a:b] for a, b in extents]
    return Header(name, list(zip(groups, texts, strict=True)), ty, type_text, parents, p)


def _parents(text: str, bound: list[str]
             ) -> tuple[list[tuple[str | None, Node, str]], Node | None, str]:
    """``P₁ args, label : P₂ args (: Sort)?`` after ``extends``."""
    p = TermParser(blank_universes(text))
    parents: list[tuple[str | None, Node, str]] = []
    with p.binding(bound):
        while True:
            label = None
            if p.tok.kind == "ident" and p.peek().text == ":":
                label = p.advance().text
                p.advance()
            start = p.tok.start
            term = p.expr(0)
            parents.append((label, term, text[start:p.tokens[p.i - 1].end]))
            if not p.accept(","):
                break
        ty, type_text = _type(p, text)
        if p.tok.kind != "eof":
            raise p.error(f"unexpected {p.describe(p.tok)} after the parents")
    return parents, ty, type_text


def _type(p: TermParser, source: str) -> tuple[Node | None, str]:
    if not p.accept(":"):
        return None, ""
    start = p.tok.start
    ty = p.expr(0)
    return ty, source[start:p.tokens[p.i - 1].end]


def binder_type_text(group_text: str) -> str:
    """The type in a binder group's text: ``(a b : Set α)`` → ``Set α``, ``[Group G]`` →
    ``Group G``, ``[inst : C α]`` → ``C α``, ``(x)`` → ``""``."""
    inner = group_text.strip()[1:-1]
    depth = 0
    for i, ch in enumerate(inner):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth -= 1
        elif ch == ":" and depth == 0 and not inner.startswith(":=", i):
            head = inner[:i].split()
            if head and all(re.match(r"^[^\W\d][\w'!?₀-₉.]*$|^_$", w) for w in head):
                return " ".join(inner[i + 1:].split(":=", 1)[0].split())
            break
    return "" if not group_text.strip().startswith("[") else " ".join(inner.split())


def parse_value(text: str, bound: list[str]) -> Node:
    """One term (a definition's value, a field's value) with ``bound`` names bound."""
    p = TermParser(blank_universes(text))
    with p.binding(bound):
        return p.parse()


PARSE_FAILURES = (ParseError, ResourceLimitError)
"""What a text that does not parse raises (a term over the parser's size or depth cap too)."""
