"""Operator trees (OPT) of Lean 4 statements, built offline by our own parser.

Public API: :func:`parse_statement` (a declaration + its header), :func:`parse_term` (one term,
e.g. a goal target or a rewrite pattern with ``?a`` metavariables), :class:`OptOptions`,
:class:`Node`; goals in :mod:`transted.pipeline.opt.goal`.
"""

from __future__ import annotations

from transted.errors import TooDeep
from transted.pipeline.opt.canonical import canonicalize
from transted.pipeline.opt.declaration import (
    Declaration,
    OptOptions,
    declaration_tree,
    header_opens,
    parse_declaration,
)
from transted.pipeline.opt.elaborate import elaborate_declaration
from transted.pipeline.opt.labels import SLOT
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.normalize import Normalized, normalize
from transted.pipeline.opt.parser import MAX_TREE_DEPTH, TermParser

__all__ = ["Node", "SLOT", "OptOptions", "PARSER_VERSION", "parse_statement", "parse_term",
           "header_opens", "parse_statement_normalized", "Normalized", "elaborate_declaration"]

PARSER_VERSION = "6"
"""Bump when the trees the parser produces can change (it goes into score signatures).
2: pattern binders, set-builder readings, binder groups; 3: names as written (no opened
prefix dropped), generalized field notation marked; 4: `f $ a`, `f <| a`, `a |> f` are
applications (Lean core Init/Prelude.lean macro_rules), `(· + 1)` is `fun x✝ => x✝ + 1`
(``expandCDot?``); 5: a free name written with ``@`` keeps the mark (``@Normal G hG H``:
every binder explicit, never ``Normal G hG H``); 6: `x.f a` on a variable `x : C …` unfolds
the context's definition `C.f` (generalized field notation, Lean.Elab.App ``addLValArg``)."""


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
    check_declaration_depth(tree, decl, text)  # before elaboration and normalisation
    elaboration = elaborate_declaration(tree, decl, header)
    if options.normalize:
        result = normalize(tree, elaboration=elaboration)
    else:
        result = Normalized(tree, (), (), elaboration)
    if options.canonical_names:
        result = Normalized(canonicalize(result.tree), result.applied, result.auto_bound,
                            result.elaboration)
    return result


def check_declaration_depth(tree: Node, decl: Declaration, text: str) -> None:
    """Refuse a declaration whose binders nest the tree past :data:`MAX_TREE_DEPTH` (each
    binder and hypothesis is one level of the proposition form; the parser bounds each term
    itself), with a :class:`~transted.errors.TooDeep` at the binder group that passes it."""
    depth = tree.depth()
    if depth <= MAX_TREE_DEPTH:
        return
    room, offset = MAX_TREE_DEPTH - decl.conclusion.depth(), 0
    for group, (start, _end) in zip(decl.binders, decl.binder_spans, strict=False):
        offset = start
        room -= max(1, len(group.names))
        if room < 0:
            break
    raise TooDeep(depth, MAX_TREE_DEPTH, text, offset)


def parse_term(text: str, *, opens: tuple[str, ...] = (), split_binders: bool = True,
               canonical_names: bool = False) -> Node:
    """OPT of a single Lean term; identifiers ``?a`` become metavariable leaves ``?a``."""
    tree = TermParser(text, opens=opens, split_binders=split_binders).parse()
    return canonicalize(tree) if canonical_names else tree
