"""Operator trees (OPT) of Lean 4 statements, built offline by our own parser.

Public API: :func:`parse_statement` (a declaration + its header), :func:`parse_term` (one term,
e.g. a goal target or a rewrite pattern with ``?a`` metavariables), :class:`OptOptions`,
:class:`Node`; goals in :mod:`transted.opt.goal`.
"""

from __future__ import annotations

from transted.errors import ParseError
from transted.opt.declaration import (
    Declaration,
    OptOptions,
    declaration_tree,
    header_opens,
    parse_declaration,
)
from transted.opt.elaborate import Elaboration, Issue, Scope, elaborate, scope_from_header
from transted.opt.labels import SLOT
from transted.opt.node import Node
from transted.opt.normalize import Normalized, normalize
from transted.opt.parser import TermParser
from transted.opt.scope import canonicalize

__all__ = ["Node", "SLOT", "OptOptions", "PARSER_VERSION", "parse_statement", "parse_term",
           "header_opens", "parse_statement_normalized", "Normalized", "elaborate_declaration"]

PARSER_VERSION = "2"  # 2: names as written (no opened prefix dropped), field notation marked
"""Bump when the trees the parser produces can change (it goes into score signatures)."""


def parse_statement(text: str, *, header: str | None = None, options: OptOptions | None = None) -> Node:
    """OPT of a ``theorem``/``lemma``/``example`` declaration (proof after ``:=`` ignored).

    Raises
    ------
    transted.errors.ParseError
        with the line, column and a caret excerpt of the first unparseable token.
    transted.errors.ResourceLimitError
        for input over the size cap.
    """
    return parse_statement_normalized(text, header=header, options=options).tree


def parse_statement_normalized(text: str, *, header: str | None = None,
                               options: OptOptions | None = None) -> Normalized:
    """:func:`parse_statement` with the normalisation steps applied and the auto-bound names
    (both empty when ``options.normalize`` is off), and the elaboration of the tree as
    written under the header (always: the evidence reads it)."""
    options = options or OptOptions()
    decl = parse_declaration(text, header=header, split_binders=options.split_binders)
    tree = declaration_tree(decl, options)
    elaboration = elaborate_declaration(tree, decl, header)
    if options.normalize:
        result = normalize(tree, elaboration=elaboration)
    else:
        result = Normalized(tree, (), (), elaboration)
    if options.canonical_names:
        result = Normalized(canonicalize(result.tree), result.applied, result.auto_bound)
    return result


def elaborate_declaration(tree: Node, decl: Declaration, header: str | None) -> Elaboration:
    """The elaboration of a declaration's tree (names as written) under its header and its
    own ``open … in`` prefixes; a header whose ``open`` lines Lean would refuse is reported
    as an issue (every name then unopened), not raised."""
    own = tuple(ns for ns in decl.opens if ns not in header_opens(header))
    try:
        scope = scope_from_header(header, extra_opens=own)
    except ParseError as e:
        found = elaborate(tree, Scope())
        issue = Issue("unsupported", (), f"header not read: {e.reason}")
        return Elaboration(found.tree, found.nodes, (issue, *found.issues), found.scope)
    return elaborate(tree, scope)


def parse_term(text: str, *, opens: tuple[str, ...] = (), split_binders: bool = True,
               canonical_names: bool = False) -> Node:
    """OPT of a single Lean term; identifiers ``?a`` become metavariable leaves ``?a``."""
    tree = TermParser(text, opens=opens, split_binders=split_binders).parse()
    return canonicalize(tree) if canonical_names else tree
