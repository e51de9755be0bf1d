"""A statement read in its context: notations declared, ``variable`` binders joined, the
context's definitions unfolded (:mod:`transted.pipeline.opt.unfold`), elaborated under the header's
scope (:mod:`transted.pipeline.opt.elaborate`; the context's definitions are its declared names), then
normalised from that elaboration.

This is :func:`transted.pipeline.opt.parse_statement_normalized` for a statement that comes with
declarations before it (:mod:`transted.pipeline.opt.context`); with an empty context both give the
same tree.
"""

from __future__ import annotations

from dataclasses import dataclass

from transted.errors import ParseError
from transted.pipeline.opt.canonical import canonicalize
from transted.pipeline.opt.context import Context
from transted.pipeline.opt.declaration import (
    Declaration,
    OptOptions,
    declaration_tree,
    header_opens,
    read_declaration,
    with_variables,
)
from transted.pipeline.opt.elaborate import Elaboration, elaborate_declaration
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.normalize import Normalized, normalize
from transted.pipeline.opt.parser import TermParser
from transted.pipeline.opt.scope import free_names
from transted.pipeline.opt.unfold import Unfolding, make_resolver, unfold

__all__ = ["InContext", "parse_in_context"]


@dataclass(frozen=True)
class InContext:
    tree: Node
    auto_bound: tuple[str, ...]
    unfolding: Unfolding
    variables: tuple[str, ...]
    """The ``variable`` names joined to the statement's binders."""
    elaboration: Elaboration | None = None
    """The elaboration of the unfolded tree (names as written) the tree was normalised from
    (the evidence and the search's closing rule read its issues)."""


def parse_in_context(text: str, *, header: str | None = None, context: Context | None = None,
                     options: OptOptions | None = None,
                     keep: frozenset[str] = frozenset()) -> InContext:
    """The tree of the declaration ``text`` under ``header`` and ``context``; the definitions
    named (by full name) in ``keep`` are not unfolded.

    Raises
    ------
    transted.errors.ParseError
        positioned in ``text``; a statement that uses a notation of the context that is not
        modelled names that notation.
    """
    options = options or OptOptions()
    context = context or Context()
    _check_notations(text, context)
    p = TermParser(text, opens=header_opens(header), split_binders=options.split_binders,
                   table=context.table(), atoms=context.atoms)
    p.bound.extend(context.variable_names)
    decl = read_declaration(p)
    _check_variables(decl, context)
    own = len(decl.binders)
    decl = with_variables(decl, context.variables, included=context.included,
                          omitted=context.omitted)
    joined = tuple(n for g in decl.binders[:len(decl.binders) - own] for n in g.names)
    tree = declaration_tree(decl, options)
    tree, unfolding = unfold(tree, context, make_resolver(context, header), keep=keep)
    elaboration = elaborate_declaration(tree, decl, header, declared=tuple(context.definitions),
                                        auto_implicit=context.auto_implicit)
    if options.normalize:
        result = normalize(tree, elaboration=elaboration)
    else:
        result = Normalized(tree, (), (), elaboration)
    out = canonicalize(result.tree) if options.canonical_names else result.tree
    return InContext(out, result.auto_bound, unfolding, joined, elaboration)


def _check_variables(decl: Declaration, context: Context) -> None:
    """A ``variable`` command we could not read is an error once the statement uses one of its
    names (Lean would bind it; auto-binding it instead would change the statement)."""
    if not context.unread_variables:
        return
    used = set(free_names(decl.conclusion))
    for g in decl.binders:
        used |= free_names(g.type) if g.type is not None else set()
    for names, error in context.unread_variables:
        if used & set(names):
            raise error


def _check_notations(text: str, context: Context) -> None:
    for notation in context.notations:
        at = text.find(notation.atom) if notation.atom else -1
        if not notation.supported and at >= 0:
            raise ParseError(f"the statement uses the notation {notation.atom!r} declared "
                             f"before it ({notation.text.strip()!r}), whose shape is not "
                             "modelled offline", text, at)
