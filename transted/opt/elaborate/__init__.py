"""Offline elaboration: each node's type as Lean's elaborators compute it (docs/ELABORATION.md).

>>> from transted.opt.elaborate import elaborate_statement
>>> e = elaborate_statement("theorem t (x : ℝ) : x = ∑ k in Finset.range 4, k / 2 := sorry")
>>> e.render((1,))
'x = ↑(∑ k ∈ Finset.range 4, k / 2 : ℕ)'

:func:`elaborate` takes a proposition-form or statement-form tree **before normalisation**
(``OptOptions(normalize=False)``: the notations and names as written, so that scoped notations
and names can be checked against the header) and a :class:`Scope`; it returns an
:class:`Elaboration`: a type per node path, the coercions Lean inserts, the constant each name
resolved to, and the issues (unknown name, ambiguous overload, missing instance, …) that make a
definite ``proved``/``refuted`` unsafe. It does not depend on the evidence engines.
"""

from __future__ import annotations

from transted.opt.declaration import OptOptions
from transted.opt.elaborate.core import Elaborator, Env
from transted.opt.elaborate.header import Scope, scope_from_header
from transted.opt.elaborate.result import Elaboration, Issue, NodeType, Path
from transted.opt.elaborate.tables import PROTOTYPE, Tables
from transted.opt.elaborate.type_nodes import type_of_node
from transted.opt.elaborate.types import PROP, Ty, show
from transted.opt.node import Node
from transted.opt.scope import head_name

__all__ = ["elaborate", "elaborate_statement", "Elaboration", "Issue", "NodeType", "Path",
           "Scope", "scope_from_header", "Tables", "PROTOTYPE", "Ty", "show"]


def elaborate(tree: Node, scope: Scope | None = None, *, tables: Tables = PROTOTYPE
              ) -> Elaboration:
    """Types of every node of ``tree`` (a statement) under ``scope``."""
    el = Elaborator(scope or Scope(), tables)
    if tree.label == "theorem":
        _statement_form(el, tree)
    else:
        el.ensure((), el.elab(tree, (), {}, PROP), PROP)
    el.finish_checks()
    return el.result(tree)


def _statement_form(el: Elaborator, tree: Node) -> None:
    """Root ``theorem``: binders in order (each in scope of the later ones), then the type."""
    env: Env = {}
    for i, binder in enumerate(tree.children[:-1]):
        if binder.label.startswith("["):  # an instance argument `[C α]`
            cls = binder.children[-1]
            name = head_name(cls.label, len(cls.children))
            arg = type_of_node(cls.children[0], env) if cls.children else None
            if name is not None and arg is not None:
                el.local_instances.append((name, arg))
            continue
        env = el.bind(binder, (i,), env)
    last = len(tree.children) - 1
    el.ensure((last,), el.elab(tree.children[last], (last,), env, PROP), PROP)


def elaborate_statement(text: str, *, header: str | None = None,
                        tables: Tables = PROTOTYPE) -> Elaboration:
    """Parse ``text`` (a declaration) without normalisation and elaborate it under the scope
    its ``header`` sets. The names stay as written (the parser is not given the header's
    ``open`` lines, which would drop opened prefixes: ``Real.sqrt`` and ``Nat.sqrt`` would
    both become ``sqrt`` under ``open Nat Real``); the scope resolves them."""
    from transted.opt import parse_statement

    tree = parse_statement(text, options=OptOptions(normalize=False))
    return elaborate(tree, scope_from_header(header), tables=tables)
