"""Whole declarations (``theorem``/``lemma``/``example``) and headers → operator trees.

Two shapes (``OptOptions.proposition``):

* statement form: root ``theorem`` with one child per binder (``<SLOT> : <SLOT>`` explicit,
  ``{<SLOT> : <SLOT>}`` implicit, ``⦃<SLOT> : <SLOT>⦄`` strict implicit, ``[<SLOT>]`` instance)
  then the conclusion; the theorem name is dropped;
* proposition form: the type of the theorem as Lean prints it, ``∀ binders, hyps → conclusion``:
  a binder whose name is used later becomes ``∀``, any other (hypotheses, anonymous instances)
  becomes ``→``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from transted.errors import ParseError
from transted.pipeline.opt.binders import BinderGroup, bracketed_group
from transted.pipeline.opt.labels import (
    ARROW,
    FORALL,
    IMPLICIT_BINDER,
    INSTANCE_BINDER,
    NAMED_INSTANCE_BINDER,
    SLOT,
    STRICT_BINDER,
    THEOREM,
    TYPED_BINDER,
)
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.parser import TermParser
from transted.pipeline.opt.scope import binder_node, free_names

__all__ = ["Declaration", "OptOptions", "parse_declaration", "read_declaration", "header_opens",
           "declaration_tree", "read_declaration_head", "with_variables", "DECL_KEYWORDS"]

DECL_KEYWORDS = ("theorem", "lemma", "example", "def", "abbrev", "instance")
MODIFIERS = ("private", "protected", "noncomputable", "nonrec", "unsafe", "partial")
KIND_LABELS = {"explicit": TYPED_BINDER, "bare": TYPED_BINDER, "implicit": IMPLICIT_BINDER,
               "strict": STRICT_BINDER}


@dataclass(frozen=True)
class OptOptions:
    """How a statement becomes a tree; every field goes into score signatures."""

    proposition: bool = True
    """Use the theorem's type ``∀ binders, hyps → conclusion`` instead of the statement form."""
    split_binders: bool = True
    """One binder per node (``x y : ℝ`` → two binders), as Lean's pretty-printer shows them."""
    canonical_names: bool = False
    """Rename bound variables ``#1, #2, …`` in binding order (alpha-equivalence)."""
    normalize: bool = True
    """Elaboration-faithful normalisation (:mod:`transted.pipeline.opt.normalize`) after parsing."""


@dataclass(frozen=True)
class Declaration:
    keyword: str
    name: str | None
    binders: tuple[BinderGroup, ...]
    conclusion: Node
    opens: tuple[str, ...]
    binder_spans: tuple[tuple[int, int], ...] = ()
    """Character offsets ``[start, end)`` of each binder group, brackets included."""


_OPEN_LINE = re.compile(r"^\s*open\s+(.*?)(\s+in)?\s*$")


def header_opens(header: str | None) -> tuple[str, ...]:
    """Namespaces opened for names by ``open`` lines (``open scoped`` opens notation only)."""
    opens: list[str] = []
    for line in (header or "").splitlines():
        m = _OPEN_LINE.match(line.split("--", 1)[0])
        if not m:
            continue
        words = m.group(1).split()
        if words and words[0] == "scoped":
            continue
        for w in words:
            if w in ("hiding", "renaming") or w.startswith("("):
                break
            opens.append(w)
    return tuple(dict.fromkeys(opens))


def parse_declaration(text: str, *, header: str | None = None, split_binders: bool = True) -> Declaration:
    """Parse one declaration; the proof after ``:=`` is ignored."""
    return read_declaration(TermParser(text, opens=header_opens(header), split_binders=split_binders))


def read_declaration(p: TermParser) -> Declaration:
    """The declaration in ``p``'s text, read with ``p`` (a :class:`TermParser` or a subclass,
    e.g. :class:`transted.pipeline.opt.spans.SpanningParser`)."""
    text = p.text
    kw, name, groups, extents = read_declaration_head(p, DECL_KEYWORDS)
    names = [n for g in groups for n in g.names if n != "_"]
    if not p.accept(":"):
        raise p.error(f"expected ':' before the statement's type, found {p.describe(p.tok)}")
    with p.binding(names):
        conclusion = p.expr(0)
    if not (p.tok.kind == "eof" or p.at(":=", "where", "|")):
        raise p.error(f"unexpected {p.describe(p.tok)} after the statement's type (expected ':=')")
    # The proof is not parsed, but a second declaration in it would be silently dropped.
    second = _SECOND_DECLARATION.search(text, p.tok.end)
    if second is not None:
        raise ParseError(f"a second declaration ({second.group(1)!r}) after the first; give one "
                         "statement per input", text, second.start(1))
    return Declaration(kw, name, tuple(groups), conclusion, p.opens, tuple(extents))


def read_declaration_head(p: TermParser, keywords: tuple[str, ...]
                          ) -> tuple[str, str | None, list[BinderGroup], list[tuple[int, int]]]:
    """``(keyword, name, binder groups, their extents)`` of a declaration up to its ``:``
    (modifiers, attributes and ``open … in`` skipped; universe parameters dropped)."""
    _skip_preamble(p)
    kw = p.expect(*keywords).text
    name = None
    if kw not in ("example", "instance") or (p.tok.kind == "ident" and not p.at(":")):
        if p.tok.kind != "ident":
            raise p.error(f"expected a name after {kw!r}")
        name = p.advance().text
        if p.at(".") and p.peek().text == "{":
            while not p.at("}"):
                p.advance()
            p.advance()
    groups: list[BinderGroup] = []
    extents: list[tuple[int, int]] = []
    names: list[str] = []
    while p.at("(", "{", "⦃", "["):
        start = p.tok.start
        with p.binding(names):
            group = bracketed_group(p)
        extents.append((start, p.tokens[p.i - 1].end))
        if group.type is None:
            group.type = Node("_")
        groups.append(group)
        names.extend(n for n in group.names if n != "_")
    return kw, name, groups, extents


def with_variables(decl: Declaration, variables: tuple[BinderGroup, ...], *,
                   included: frozenset[str] = frozenset(),
                   omitted: tuple[Node, ...] = ()) -> Declaration:
    """``decl`` with the ``variable`` binders Lean adds to a theorem's header.

    Lean 4 (the ``variable`` docstring, src/Lean/Parser/Command.lean; Lean.Elab.Command
    ``sectionVars``; the ``include``/``omit`` commands): a variable is included when the
    theorem's header (binders and type) mentions it or an ``include`` names it (``included``),
    transitively through the types of included variables, and an instance-implicit variable
    (``[Group G]``) when every variable it mentions is included, unless an ``omit [Group G]``
    dropped it (``omitted``: their types). Included variables come first, in declaration order,
    with their binder kinds.
    """
    if not variables:
        return decl
    declared = {n for g in variables for n in g.names}
    used: set[str] = set()
    pending: set[str] = set(included) & declared
    for g in decl.binders:
        pending |= free_names(g.type) if g.type is not None else set()
    pending |= free_names(decl.conclusion)
    pending -= {n for g in decl.binders for n in g.names}
    pending &= declared
    while pending:
        name = pending.pop()
        used.add(name)
        for g in variables:
            if name in g.names and g.type is not None:
                pending |= (free_names(g.type) & declared) - used
    kept = []
    for g in variables:
        if g.kind == "instance":
            mentioned = free_names(g.type) & declared if g.type is not None else set()
            named = bool(set(g.names) & included)
            if (named or (mentioned and mentioned <= used)) and g.type not in omitted:
                kept.append(g)
            continue
        names = [n for n in g.names if n in used]
        if names:
            kept.append(BinderGroup(names, g.type, g.kind))
    return replace(decl, binders=(*kept, *decl.binders), binder_spans=())


# A command keyword at the start of a line (after optional modifiers/attributes) in the proof.
_SECOND_DECLARATION = re.compile(
    r"^[ \t]*(?:@\[[^\]\n]*\][ \t]*)?(?:(?:private|protected|noncomputable)[ \t]+)*"
    r"(theorem|lemma|example)\b", re.MULTILINE)


def _skip_preamble(p: TermParser) -> None:
    while True:
        if p.at("@") and p.peek().text == "[":
            while not p.at("]") and p.tok.kind != "eof":
                p.advance()
            p.expect("]")
        elif p.tok.kind == "ident" and p.tok.text in MODIFIERS:
            p.advance()
        elif p.at("open"):
            p.advance()
            extra = []
            while p.tok.kind == "ident" and p.tok.text != "in" and p.tok.text not in DECL_KEYWORDS:
                extra.append(p.advance().text)
            p.accept("in")
            p.opens = tuple(sorted(set(p.opens) | set(extra), key=len, reverse=True))
        else:
            return


def _statement_binder(group: BinderGroup, name: str | None, split: bool) -> Node:
    if group.kind == "instance":
        if group.names:
            return Node(NAMED_INSTANCE_BINDER, (Node(group.names[0]), group.type or Node("_")))
        return Node(INSTANCE_BINDER, (group.type or Node("_"),))
    names = [name] if split and name is not None else (group.names or ["_"])
    inner = binder_node(names, group.type)
    label = KIND_LABELS.get(group.kind, KIND_LABELS["explicit"])
    if len(names) > 1:
        label = label.replace(f"{SLOT} :", " ".join([SLOT] * len(names)) + " :", 1)
    return Node(label, inner.children)


def declaration_tree(decl: Declaration, options: OptOptions) -> Node:
    """The OPT of a parsed declaration in the shape ``options`` asks for."""
    if not options.proposition:
        kids: list[Node] = []
        for g in decl.binders:
            if options.split_binders and g.kind != "instance":
                kids.extend(_statement_binder(g, n, True) for n in (g.names or ["_"]))
            else:
                kids.append(_statement_binder(g, None, False))
        return Node(THEOREM, (*kids, decl.conclusion))
    body = decl.conclusion
    for g in reversed(decl.binders):
        names = g.names or ["_"]
        ty = g.type or Node("_")
        if not options.split_binders and len(names) > 1 and all(n in free_names(body) for n in names):
            body = Node(FORALL, (binder_node(names, ty), body))
            continue
        for n in reversed(names):
            if n != "_" and n in free_names(body):
                body = Node(FORALL, (binder_node([n], ty), body))
            else:
                body = Node(ARROW, (ty, body))
    return body


def parse_error_with_source(e: ParseError, source: str | None) -> ParseError:
    return e.with_source(source) if source else e
