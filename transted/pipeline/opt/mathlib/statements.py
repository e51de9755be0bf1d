"""A theorem's binders and type → variables, hypotheses, conclusion and, for ``=``/``↔``, sides.

The type's leading ``∀ x, …`` binders and ``p → …`` antecedents are peeled (Lean's ``∀`` and
``→`` are one Π-type: ``theorem t (x : α) : p x → q x`` and ``theorem t : ∀ x, p x → q x``
state the same). A binder (written or peeled) is a hypothesis when nothing after it mentions
its names — Lean's pretty printer then shows it as ``→`` — and it is not an instance binder;
the others are the statement's variables (a rewrite's pattern variables). The conclusion is
split at its root ``=`` or ``↔`` (``Eq``, ``Iff``: Init/Prelude.lean, Init/Core.lean).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from transted.pipeline.opt.labels import ARROW, EQ, FORALL, IFF
from transted.pipeline.opt.mathlib.records import (
    Binder,
    IndexedDeclaration,
    LemmaHypothesis,
    LemmaStatement,
    Term,
)
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import binder_names, binder_type, free_names

__all__ = ["split_statement", "statement_of"]


@dataclass(frozen=True)
class _Item:
    binder: Binder | None
    """None: an antecedent of ``→`` (a hypothesis without a name)."""
    type: Node | None


def statement_of(declaration: IndexedDeclaration) -> LemmaStatement | None:
    """A theorem's statement, split from its binders and type (a function of the two, so the
    index computes it on reading rather than storing a copy); None for other kinds and for a
    theorem whose type did not parse."""
    ty = declaration.type
    if declaration.kind != "theorem" or ty is None or ty.tree is None:
        return None
    return split_statement(declaration.binders, ty.tree)


def split_statement(binders: tuple[Binder, ...], conclusion: Node) -> LemmaStatement:
    items = [_Item(b, b.type.tree) for b in binders]
    body = conclusion
    while len(body.children) == 2 and body.label in (FORALL, ARROW):
        head, rest = body.children
        if body.label == FORALL:
            ty = binder_type(head)
            items.append(_Item(Binder(tuple(binder_names(head)) or ("_",), "explicit",
                                      Term("", ty)), ty))
        else:
            items.append(_Item(None, head))
        body = rest
    mentioned_after = _suffix_mentions(items, body)
    variables: list[Binder] = []
    hypotheses: list[LemmaHypothesis] = []
    for item, later in zip(items, mentioned_after, strict=True):
        b = item.binder
        if b is None:
            if item.type is not None:
                hypotheses.append(LemmaHypothesis(None, item.type))
            continue
        if b.kind != "instance" and item.type is not None and b.names and not (set(b.names) & later):
            hypotheses.extend(LemmaHypothesis(n if n != "_" else None, item.type) for n in b.names)
        else:
            variables.append(b)
    relation, lhs, rhs = _sides(body)
    return LemmaStatement(tuple(variables), tuple(hypotheses), body, relation, lhs, rhs)


def _suffix_mentions(items: list[_Item], body: Node) -> list[set[str]]:
    """For each item, the names free in every later item's type and in the conclusion."""
    out: list[set[str]] = [set() for _ in items]
    acc = set(free_names(body))
    for i in range(len(items) - 1, -1, -1):
        out[i] = set(acc)
        ty = items[i].type
        if ty is not None:
            acc |= free_names(ty)
    return out


def _sides(body: Node) -> tuple[Literal["=", "↔"] | None, Node | None, Node | None]:
    if body.label == EQ and len(body.children) == 2:
        return "=", body.children[0], body.children[1]
    if body.label == IFF and len(body.children) == 2:
        return "↔", body.children[0], body.children[1]
    return None, None, None
