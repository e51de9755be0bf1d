"""A lemma's types against the elaboration of the subterm it would rewrite.

Two trees that look alike can be different terms: ``(∑ i ∈ range n, i) * 2`` is a product in ℕ
as a lemma states it, and a product in ℝ where the pair's ``binop%`` tree has a real leaf
beside it (its sum is cast, its ``*`` is real). So a syntactic match is used only when the
lemma's own elaboration and the pair side's elaboration give every matched node the same type,
under one assignment of the lemma's type variables (θ: ``α := ℝ``):

* every pattern node is compared with its term node: the type, and the type a coercion takes
  it to (a ``↑`` at the same places) — except the root's coercion, which is the context's;
* the lemma's side must not itself be coerced in its statement (a heterogeneous ``↑lhs = rhs``
  would rewrite a term of another type);
* every type on both sides must be known (no metavariable, no elaboration issue touching the
  matched nodes): unknown means *no*;
* a type variable the pattern binds syntactically (``(m : R)``'s ``R``) must agree with θ.

The lemma's elaboration is that of its normalised statement (names in full) with no header.
"""

from __future__ import annotations

from collections.abc import Mapping

from transted.pipeline.opt.elaborate import Elaboration, NodeType
from transted.pipeline.opt.elaborate.type_nodes import type_of_node
from transted.pipeline.opt.elaborate.types import Meta, Ty, Type_
from transted.pipeline.opt.node import Node
from transted.pipeline.search.lemmas.unify import TypedPairs
from transted.pipeline.search.pattern import Path

__all__ = ["TypeAssignment", "check_types", "bind_type", "lemma_issue_free"]

TypeAssignment = dict[str, Ty]


def bind_type(lemma: Type_ | None, term: Type_ | None, variables: frozenset[str],
              theta: TypeAssignment) -> bool:
    """Extend ``theta`` so that ``lemma`` (over the type ``variables``) is ``term``."""
    if lemma is None or term is None or isinstance(lemma, Meta) or isinstance(term, Meta):
        return False
    if not lemma.args and lemma.head in variables:
        old = theta.get(lemma.head)
        if old is None:
            if not _closed(term):
                return False
            theta[lemma.head] = term
            return True
        return old == term
    if lemma.head != term.head or len(lemma.args) != len(term.args):
        return False
    return all(bind_type(a, b, variables, theta)
               for a, b in zip(lemma.args, term.args, strict=True))


def _closed(t: Type_) -> bool:
    return isinstance(t, Ty) and all(_closed(a) for a in t.args)


def lemma_issue_free(elaboration: Elaboration, path: Path) -> bool:
    """No issue of the lemma's elaboration other than an undecided instance touches ``path``
    (the lemma's own instances are assumed by its binders: the model's instance table need
    not know them)."""
    return all(i.kind == "undecided-instance" for i in elaboration.issues_under(path))


def check_types(lemma: Mapping[Path, NodeType], source: Path, term: Elaboration, at: Path,
                pairs: TypedPairs, type_variables: frozenset[str],
                sigma: Mapping[str, Node]) -> TypeAssignment | None:
    """θ making every matched node's type agree, or None (see the module docstring);
    ``lemma``: the types of the lemma's nodes (:attr:`~transted.pipeline.search.lemmas.lemma.
    Lemma.node_types`)."""
    theta: TypeAssignment = {}
    for p, t in pairs:
        lt, tt = lemma.get(source + p), term.nodes.get(at + t)
        if lt is None or tt is None:
            if lt is None and tt is None:
                continue  # a type expression (an ascription's or a binder's type): syntactic
            return None
        if not _agree(lt, tt, root=not p, variables=type_variables, theta=theta):
            return None
    for name in type_variables & set(sigma):
        written = type_of_node(sigma[name], {})
        if written is None or not bind_type(Ty(name), written, type_variables, theta):
            return None
    return theta


def _agree(lt: NodeType, tt: NodeType, *, root: bool, variables: frozenset[str],
           theta: TypeAssignment) -> bool:
    if not bind_type(lt.type, tt.type, variables, theta):
        return False
    if root:
        return lt.coerced_to is None
    if lt.coerced_to is None or tt.coerced_to is None:
        return lt.coerced_to is None and tt.coerced_to is None
    return bind_type(lt.coerced_to, tt.coerced_to, variables, theta)
