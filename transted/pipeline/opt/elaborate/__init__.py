"""Offline elaboration: each node's type as Lean's elaborators compute it (docs/ELABORATION.md).

>>> from transted.pipeline.opt.elaborate import elaborate_statement
>>> e = elaborate_statement("theorem t (x : ℝ) : x = ∑ k ∈ Finset.range 4, k / 2 := sorry")
>>> e.render((1,))
'x = ↑(∑ k ∈ Finset.range 4, k / 2 : ℕ)'

:func:`elaborate` takes a proposition-form or statement-form tree with the names and notations
as written (the parser keeps them; normalisation reads the result) and a :class:`Scope`
(the header's ``open``/``namespace``/``set_option`` lines, :func:`scope_from_header`); it
returns an :class:`Elaboration`: a type per node path, the coercions Lean inserts, the
constant each name resolved to, and the :class:`Issue` s (unknown name, auto-bound implicit,
ambiguous overload, missing instance, …) that make a definite ``proved``/``refuted`` unsafe.
Names come from the bundled Mathlib name table, instances from the instance table
(:data:`BUNDLED`; :func:`tables_version` goes into score signatures).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from transted.errors import ParseError
from transted.pipeline.opt.declaration import (
    Declaration,
    OptOptions,
    declaration_tree,
    header_opens,
    parse_declaration,
)
from transted.pipeline.opt.elaborate.core import Elaborator
from transted.pipeline.opt.elaborate.resolve import auto_bound_types, instance_binder
from transted.pipeline.opt.elaborate.result import (
    GAP_KINDS,
    MEANING_KINDS,
    Elaboration,
    Issue,
    IssueKind,
    NodeType,
    Path,
)
from transted.pipeline.opt.elaborate.state import Env
from transted.pipeline.opt.elaborate.tables import (
    BUNDLED,
    Tables,
    scope_from_header,
    tables_version,
)
from transted.pipeline.opt.elaborate.types import PROP, Ty, Type_, show
from transted.pipeline.opt.header_scope import Scope
from transted.pipeline.opt.labels import ARROW, FORALL
from transted.pipeline.opt.node import Node

__all__ = ["elaborate", "elaborate_statement", "Elaboration", "Issue", "IssueKind", "NodeType",
           "Path", "Scope", "scope_from_header", "Tables", "BUNDLED", "Ty", "show",
           "tables_version", "ELABORATION_VERSION", "MEANING_KINDS", "GAP_KINDS",
           "elaborate_declaration", "elaboration_version"]

ELABORATION_VERSION = "5"
"""Bump when the elaborator's algorithm can type a statement differently (signatures).
5: an overload is settled when every other alternative certainly fails (too many arguments for
a proposition or a type, no coercion; an instance failure no longer counts), ``@f`` names its
constant untyped; 4: bundled morphism notations are types (``G →* H``, ``M →ₗ[R] M₂``); ``‖·‖``, ``ˣ``, ``''``,
``⁻¹'``, ``𝓝``, ``#`` read as their constants; 3: set-builder notation and ``SetLike``
coercions."""


def elaboration_version() -> str:
    """The running elaboration, algorithm and bundled tables (the signatures' ``elab`` field):
    anything judged by an elaboration and stored is valid only under the same one."""
    return f"{ELABORATION_VERSION}-{tables_version()}"


def elaborate(tree: Node, scope: Scope | None = None, *, tables: Tables = BUNDLED,
              locals: Mapping[str, Type_] | None = None,
              proposition: bool = True) -> Elaboration:
    """Types of every node of ``tree`` (a statement) under ``scope``; ``locals`` are variables
    already in context (a search goal's locals). ``proposition=False`` for a ``def``/``abbrev``/
    ``instance``, whose type may be any type (``def e … : CommRing R``): only a theorem's must
    be a proposition ("type of theorem is not a proposition")."""
    el = Elaborator(scope or Scope(), tables)
    goal = PROP if proposition else None
    if tree.label == "theorem":
        _statement_form(el, tree, goal)
    else:
        env = auto_bound_types(el, _spine(tree), dict(locals or {}))
        el.ensure((), el.elab(tree, (), env, goal), goal)
    el.finish_checks()
    return el.result(tree)


def _spine(tree: Node) -> list[tuple[bool, Node]]:
    """The leading ``∀`` binders (True) and ``→`` premises (False) of a proposition."""
    out: list[tuple[bool, Node]] = []
    while len(tree.children) == 2 and tree.label in (FORALL, ARROW):
        out.append((tree.label == FORALL, tree.children[0]))
        tree = tree.children[1]
    return out


def _statement_form(el: Elaborator, tree: Node, goal: Type_ | None) -> None:
    """Root ``theorem``: binders in order (each in scope of the later ones), then the type."""
    env: Env = auto_bound_types(el, [(True, b) for b in tree.children[:-1]], {})
    for i, binder in enumerate(tree.children[:-1]):
        if binder.label.startswith("["):  # an instance argument `[C α]`
            if binder.children:
                instance_binder(el, binder.children[-1], env)
            continue
        env = el.bind(binder, (i,), env)
    last = len(tree.children) - 1
    el.ensure((last,), el.elab(tree.children[last], (last,), env, goal), goal)


def elaborate_declaration(tree: Node, decl: Declaration, header: str | None, *,
                          declared: tuple[str, ...] = (),
                          auto_implicit: bool = True) -> Elaboration:
    """The elaboration of a declaration's tree (names as written) under its header and its
    own ``open … in`` prefixes; ``declared`` are further names declared before the statement
    (its context's definitions, by full name) and ``auto_implicit=False`` a context's
    ``set_option autoImplicit false``. A header whose ``open`` lines Lean would refuse is
    reported as an issue (every name then unopened), not raised."""
    own = tuple(ns for ns in decl.opens if ns not in header_opens(header))
    try:
        scope = scope_from_header(header, extra_opens=own)
    except ParseError as e:
        found = elaborate(tree, Scope(), proposition=_is_theorem(decl))
        issue = Issue("unsupported", (), f"header not read: {e.reason}")
        return Elaboration(found.tree, found.nodes, (issue, *found.issues), found.scope,
                           defaulted=found.defaulted)
    missing = tuple(n for n in declared if n not in scope.declared)
    if missing or not auto_implicit:
        scope = replace(scope, declared=(*scope.declared, *missing),
                        auto_implicit=scope.auto_implicit and auto_implicit)
    return elaborate(tree, scope, proposition=_is_theorem(decl))


def _is_theorem(decl: Declaration) -> bool:
    return decl.keyword in ("theorem", "lemma", "example")


def elaborate_statement(text: str, *, header: str | None = None,
                        tables: Tables = BUNDLED) -> Elaboration:
    """Parse ``text`` (a declaration) with the names as written and elaborate it under the
    scope its ``header`` sets (plus the statement's own ``open … in`` prefixes)."""
    decl = parse_declaration(text, header=header)
    tree = declaration_tree(decl, OptOptions(normalize=False))
    own = tuple(ns for ns in decl.opens if ns not in header_opens(header))
    return elaborate(tree, scope_from_header(header, extra_opens=own), tables=tables,
                     proposition=_is_theorem(decl))
