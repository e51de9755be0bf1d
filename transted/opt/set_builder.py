"""Brace notations: set-builder, subtype, set image, pattern set-builder, structure instances,
set literals.

Mathlib/Data/Set/Defs.lean and Mathlib/Order/SetNotation.lean, read in Lean's priority order:

* ``{x | p}``, ``{x : T | p}``, ``{x ∈ s | p}`` (``binderPred``): ``setOf fun x => p`` (the
  predicate joins ``p`` with ``∧``); ``{x // p}`` is a subtype;
* ``{t | bs}`` where ``bs`` reads as extended binders — ``{(x, f x) | x ∈ E}``,
  ``{n + 1 | n < 3}``: the image ``{x | ∃ᵉ bs, t = x}`` (``macro (priority := low) "{" t:term
  " | " bs:extBinders "}"``), built as that expansion over the fresh name ``x✝``;
* ``{(m, n) : α × β | p}``, and ``{(m, n) | p}`` when ``p`` is not extended binders:
  ``{x : α × β | match x with | (m, n) => p}`` (``macroPattSetBuilder``, priority
  ``low - 1``): the pattern is the binder child, its names bound in ``p``
  (:mod:`transted.opt.patterns`);
* ``{ re := 0, im := 1 }`` (structure instance) and ``{a, b}`` (a literal).
"""

from __future__ import annotations

from transted.errors import ParseError
from transted.opt.binders import (
    BINDER_PREDICATES,
    binder_groups,
    bound_names,
    build_quantifier,
    predicate_node,
)
from transted.opt.brackets import delimited
from transted.opt.cursor import TermCursor
from transted.opt.labels import AND, EQ, SET_BUILDER, SLOT, SUBTYPE, TYPED_BINDER
from transted.opt.node import Node
from transted.opt.pattern_binders import is_pattern, pattern_names
from transted.opt.patterns import MATCH_VARIABLE
from transted.opt.scope import binder_node

__all__ = ["braces"]


def braces(p: TermCursor) -> Node:
    """The brace notation at ``{`` (see the module docstring)."""
    start = p.i
    p.advance()
    if p.accept("}"):
        return Node("∅")
    if p.tok.kind == "ident" and p.peek().text == ":=":
        return _structure_instance(p)
    if p.tok.kind == "ident":
        node = _try_set_builder(p)
        if node is not None:
            return node
    node = _try_image_or_pattern(p)
    if node is not None:
        return node
    p.i = start
    return delimited(p, "{", "}", lambda n: "{" + ", ".join([SLOT] * n) + "}")


def _structure_instance(p: TermCursor) -> Node:
    """``{ re := 0, im := 1 }``: the field names stay in the label."""
    fields, values = [], []
    while True:
        name = p.advance()
        if name.kind != "ident":
            raise p.error("expected a field name", name)
        p.expect(":=")
        fields.append(name.text)
        values.append(p.expr(0))
        if not p.accept(","):
            break
    p.expect("}")
    return Node("{ " + ", ".join(f"{f} := {SLOT}" for f in fields) + " }", tuple(values))


def _try_set_builder(p: TermCursor) -> Node | None:
    """``{x | p}`` / ``{x : T | p}`` / ``{x ∈ s | p}`` / ``{x // p}`` at the name ``x``."""
    save = p.i
    try:
        names, ty, pred = [p.advance().text], None, None
        if p.accept(":"):
            ty = p.expr(0)
        elif p.tok.kind == "sym" and p.tok.text in BINDER_PREDICATES:
            op = p.advance().text
            pred = (op, p.expr(51))
        sep = p.accept("|", "//")
        if sep is None:
            p.i = save
            return None
    except ParseError:  # not a set-builder: the caller tries the other readings
        p.i = save
        return None
    with p.binding(names):
        body = p.expr(0)
    p.expect("}")
    if pred is not None:
        body = Node(AND, (predicate_node(names[0], pred), body))
    label = SET_BUILDER if sep.text == "|" else SUBTYPE
    return Node(label, (binder_node(names, ty), body))


def _try_image_or_pattern(p: TermCursor) -> Node | None:
    """``{t | bs}`` (image) or ``{pat [: T] | p}`` (pattern set-builder), else None."""
    save = p.i
    try:
        head = p.expr(0)
        ty = p.expr(0) if p.accept(":") else None
        if not p.accept("|"):
            p.i = save
            return None
    except ParseError:
        p.i = save
        return None
    after_bar = p.i
    if ty is None:
        image = _try_image(p, save, after_bar)
        if image is not None:
            return image
    if not is_pattern(head):
        raise p.error("unsupported pattern in a set-builder: only (…, …) and ⟨…⟩ over names "
                      "and _", p.tokens[save])
    p.i = after_bar
    with p.binding(pattern_names(head)):
        body = p.expr(0)
    p.expect("}")
    binder = head if ty is None else Node(TYPED_BINDER, (head, ty))
    return Node(SET_BUILDER, (binder, body))


def _try_image(p: TermCursor, term_at: int, binders_at: int) -> Node | None:
    """``{x✝ | ∃ bs, t = x✝}`` when the text after ``|`` is extended binders up to ``}``."""
    p.i = binders_at
    try:
        groups = binder_groups(p)
        if not p.at("}"):
            return None
    except ParseError:
        return None
    end = p.i
    p.i = term_at
    with p.binding(bound_names(groups)):  # re-read `t` with the names it binds in scope
        term = p.expr(0)
    p.i = end
    p.expect("}")
    body = build_quantifier(p, "∃", groups, Node(EQ, (term, Node(MATCH_VARIABLE))))
    return Node(SET_BUILDER, (Node(MATCH_VARIABLE), body))
