"""The new subterm of a rewrite: the lemma's other side with its casts written, and step 4 of
:mod:`~transted.pipeline.search.lemmas.rewrite` (elaborated alone, it has the lemma's types).

See that module's docstring for why a value goes in ascribed with its own type where the lemma
coerces its variable, why a new subterm in place of a coerced leaf goes in ascribed with the old
type, and why an ascription around a numeral variable's value is left out when the types allow.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from transted.pipeline.opt.elaborate import Elaboration, NodeType, Scope, elaborate
from transted.pipeline.opt.elaborate.operators import is_arithmetic_operator
from transted.pipeline.opt.elaborate.types import Ty, Type_
from transted.pipeline.opt.labels import ASCRIPTION, COE, EQ, FUN, NEG
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import head_name
from transted.pipeline.search.lemmas.instances import substitute_type
from transted.pipeline.search.lemmas.lemma import Direction, Lemma
from transted.pipeline.search.lemmas.typing import TypeAssignment, bind_type, lemma_issue_free
from transted.pipeline.search.pattern import Path
from transted.pipeline.search.scalars import is_numeral

__all__ = ["context_typed", "with_casts", "bare_numerals", "typed_as_lemma", "kept_in_place",
           "elaborated_alone"]


def context_typed(node: Node) -> bool:
    """A term whose type comes from where it stands (an operator tree, a numeral, ``↑x``)."""
    return is_arithmetic_operator(node.label) or is_numeral(node) or node.label in (COE, NEG)


def with_casts(direction: Direction, lemma: Lemma, sigma: Mapping[str, Node],
                theta: TypeAssignment) -> Node | None:
    """The target pattern with each variable the lemma coerces written ``(v : T)`` (``T`` its
    own type) where its value's type would come from the context (see the module docstring),
    and each argument of a variable the match made a function (``?p a'``, a Miller pattern)
    written the same way: the beta-reduction puts it into the pair's own text, where an
    ascription or an operator around the bound variable would elaborate it anew
    (``forall_eq`` with ``a' := 7 - 10`` under the pair's ``(x : ℤ)`` would subtract in ℤ).
    None when such a type cannot be written."""
    unwritable = False

    def ascribed(node: Node, at: Path) -> Node | None:
        info = lemma.node_types.get(direction.target_path + at)
        if info is None or not isinstance(info.type, Ty):
            return None
        own = substitute_type(info.type, theta)
        if own.args:
            return None
        return Node(ASCRIPTION, (node, Node(f"\0{own.head}")))  # `\0`: not a name to replace

    def walk(node: Node, at: Path) -> Node:
        nonlocal unwritable
        if node.is_leaf:
            info = lemma.node_types.get(direction.target_path + at)
            value = sigma.get(node.label)
            if (value is not None and context_typed(value) and info is not None
                    and info.coerced_to is not None and isinstance(info.type, Ty)):
                return ascribed(node, at) or node
            return node
        kids = [walk(c, at + (i,)) for i, c in enumerate(node.children)]
        head = head_name(node.label, len(node.children))
        function = sigma.get(head) if head is not None else None
        if function is not None and function.label == FUN:
            for i, (c, kid) in enumerate(zip(node.children, kids, strict=True)):
                value = sigma.get(c.label, c) if c.is_leaf else c
                # a variable too: its binder may be untyped, its type inferred from the very
                # term rewritten away (`y ∈ {y : ℚ | 2 * y = 1}` → `2 * y = 1` leaves the
                # pair's `∃ y` to default to ℕ: corpus binder-type/01, /03, /11)
                if kid is c and (context_typed(value) or value.is_leaf):
                    wrapped = ascribed(kid, at + (i,))
                    unwritable |= wrapped is None
                    kids[i] = wrapped or kid
        return node.with_children(tuple(kids))

    out = walk(direction.target, ())
    return None if unwritable else out


def bare_numerals(new: Node, direction: Direction, sigma: Mapping[str, Node]) -> Node | None:
    """``new`` without the ascriptions around numeral variables' values (None: there are
    none), to be kept only if its types are still the lemma's."""
    changed = False

    def walk(node: Node, pattern: Node | None) -> Node:
        nonlocal changed
        if (pattern is not None and pattern.label == ASCRIPTION and node.label == ASCRIPTION
                and pattern.children[0].is_leaf and is_numeral(node.children[0])
                and pattern.children[0].label in sigma):
            changed = True
            return node.children[0]
        if node.is_leaf:
            return node
        kids = pattern.children if pattern is not None and len(pattern.children) == len(
            node.children) and pattern.label == node.label else (None,) * len(node.children)
        return node.with_children(tuple(walk(c, p) for c, p in zip(node.children, kids,
                                                                     strict=True)))

    out = walk(new, direction.target)
    return out if changed else None


def elaborated_alone(new: Node, scope: Mapping[str, Type_]) -> Elaboration:
    """``new`` elaborated on its own with the variables of ``scope`` (as ``new = new``: the
    elaborator reads a statement), its nodes at ``(0,) + path``."""
    return elaborate(Node(EQ, (new, new)), Scope(), locals=dict(scope))


def typed_as_lemma(new: Node, lemma: Lemma, direction: Direction, theta: TypeAssignment,
                   scope: Mapping[str, Type_],
                   alone: Callable[[Node, Mapping[str, Type_]], Elaboration] = elaborated_alone
                   ) -> bool:
    """Elaborated alone with ``scope`` (by ``alone``: :func:`elaborated_alone` or its kept
    answers), ``new`` has at every node of the lemma's other side the type (and the ``↑``)
    the lemma gives that node under the type assignment ``theta``."""
    new = _cleaned(new)
    el = alone(new, scope)
    if not lemma_issue_free(el, (0,)):  # an undecided instance: the oracle has checked it
        return False
    theta = dict(theta)
    for q, _node in _pattern_positions(direction.target, lemma, new):
        lt = lemma.node_types.get(direction.target_path + q)
        nt = el.nodes.get((0,) + q)
        if lt is None or nt is None:
            if lt is None and nt is None:
                continue
            return False
        if not bind_type(lt.type, nt.type, lemma.type_variables, theta):
            return False
        if not q and lt.coerced_to is not None:
            # the lemma's other side is cast where its statement stands (`|a| = natAbs a`
            # is `|a| = ↑(natAbs a)`): put in bare it would be elaborated at its own type
            return False
        if q and (lt.coerced_to is None) != (nt.coerced_to is None):
            return False
        if q and lt.coerced_to is not None and not bind_type(
                lt.coerced_to, nt.coerced_to, lemma.type_variables, theta):
            return False
    return True


def _pattern_positions(pattern: Node, lemma: Lemma, new: Node | None = None
                       ) -> Iterator[tuple[Path, Node]]:
    """Positions of the pattern whose node the new subterm keeps (not below a variable's
    application: beta reduction reshapes it; not below an ascription around a variable whose
    numeral value ``new`` has left out, :func:`bare_numerals`: the numeral stands at the
    ascription's position and must have its type)."""
    stack: list[tuple[Path, Node, Node | None]] = [((), pattern, new)]
    while stack:
        at, node, here = stack.pop()
        yield at, node
        head = head_name(node.label, len(node.children)) if node.children else None
        if head is not None and head in lemma.variables:
            continue
        if (node.label == ASCRIPTION and node.children[0].is_leaf
                and node.children[0].label in lemma.variables
                and here is not None and here.label != ASCRIPTION):
            continue
        kids = here.children if here is not None and len(here.children) == len(
            node.children) else (None,) * len(node.children)
        stack.extend((at + (i,), c, k) for i, (c, k) in enumerate(zip(node.children, kids,
                                                                        strict=True)))


def _cleaned(new: Node) -> Node:
    """The marker ``\\0T`` of a cast's type written back as ``T``."""
    if new.is_leaf:
        return Node(new.label[1:]) if new.label.startswith("\0") else new
    return new.with_children(tuple(_cleaned(c) for c in new.children))


def kept_in_place(new: Node, old: NodeType) -> Node | None:
    """``new`` ascribed with the old type where the old subterm was a coerced leaf and ``new``
    would not be elaborated on its own (see the module docstring); None when that type cannot
    be written."""
    new = _cleaned(new)
    if old.coerced_to is None or not context_typed(new):
        return new
    if not isinstance(old.type, Ty) or old.type.args:
        return None
    return Node(ASCRIPTION, (new, Node(old.type.head)))
