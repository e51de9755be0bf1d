"""A lemma's pattern against a subterm: the assignment of its variables, and the instance.

Lean's ``rw`` unifies the lemma's left-hand side with each subterm (``kabstract``); here the
trees are already in normal form, so unification is first-order on labels, with what binders
need:

* a variable bound *inside* the pattern (``∑ x ∈ s, f x``'s ``x``) matches the term's bound
  variable at the same place, whatever its name (alpha-equivalence);
* a lemma variable may not take a value that mentions a variable bound inside the matched
  subterm (that value would escape its binder);
* ``?f x₁ … xₙ`` with distinct pattern-bound ``xᵢ`` (a *Miller pattern*, the only
  higher-order case Lean's unifier solves without guessing) matches any body ``t`` whose bound
  variables among the ``xᵢ``'s are the only ones it uses: ``?f := fun x₁ … xₙ => t``;
* an application ``?f a`` of a lemma variable to other arguments is first-order: the term
  must be an application of one function to as many arguments;
* a numeral variable (``ofNat(n)``, :mod:`~transted.pipeline.search.lemmas.compile`) matches a numeral
  literal ≥ 2 only.

Instantiating the other side (:func:`instantiate_lemma`) is capture-avoiding: the values are put in
for the variables by :func:`transted.pipeline.opt.substitution.substitute`, which renames a binder of the
lemma's other side when a value's free name would be captured, and the ``fun`` a Miller
variable took is beta-reduced away.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from transted.pipeline.opt.labels import FUN, SLOT
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import (
    binder_names,
    binder_type,
    body_index,
    bound_name,
    free_names,
    head_name,
    is_binding,
    relabel_head,
)
from transted.pipeline.opt.substitution import substitute
from transted.pipeline.search.pattern import Path
from transted.pipeline.search.reduction import beta_reduce

__all__ = ["Match", "match_lemma", "instantiate_lemma", "TypedPairs", "FreeNames"]

_NUMERAL = re.compile(r"^[0-9]+$")
_APP_PREFIX = f"{SLOT} {SLOT}"

TypedPairs = tuple[tuple[Path, Path], ...]
"""``(pattern path, term path)``, relative, of the nodes that must have the same type: every
pattern node but binders (their bound name's node instead) and a Miller application's
arguments."""


@dataclass(frozen=True, slots=True)
class Match:
    """A solution: the variables' values and the node pairs to type-check."""

    sigma: Mapping[str, Node]
    checked: TypedPairs


class _Fail(Exception):
    pass


FreeNames = dict[int, tuple[Node, frozenset[str]]]
"""Free names of the term's subterms by identity, shared by the matches of one term against
many lemmas (each entry keeps its node, so an id is never reused while the table lives)."""


def match_lemma(pattern: Node, term: Node, variables: frozenset[str],
                numerals: frozenset[str] = frozenset(), free: FreeNames | None = None
                ) -> Match | None:
    """The assignment making ``pattern`` the term ``term`` (see the module docstring), or None."""
    state = _Matcher(variables, numerals, {} if free is None else free)
    try:
        state.run(pattern, term, ((), ()), {}, frozenset())
    except _Fail:
        return None
    return Match(dict(state.sigma), tuple(state.checked))


class _Matcher:
    def __init__(self, variables: frozenset[str], numerals: frozenset[str], free: FreeNames):
        self.variables = variables
        self.numerals = numerals
        self.free_table = free
        self.sigma: dict[str, Node] = {}
        self.checked: list[tuple[Path, Path]] = []

    def free(self, t: Node) -> frozenset[str]:
        hit = self.free_table.get(id(t))
        if hit is not None and hit[0] is t:
            return hit[1]
        names = frozenset(free_names(t))
        self.free_table[id(t)] = (t, names)
        return names

    def bind(self, var: str, value: Node) -> None:
        old = self.sigma.get(var)
        if old is None:
            self.sigma[var] = value
        elif old != value:
            raise _Fail

    def run(self, p: Node, t: Node, path: tuple[Path, Path], renamed: dict[str, str],
            inner: frozenset[str]) -> None:
        """Match ``p`` (its pattern-bound names renamed by ``renamed`` to the term's) against
        ``t``; ``inner``: the term's variables bound inside the matched subterm."""
        if p.is_leaf:
            self.checked.append(path)
            self.leaf(p, t, renamed, inner)
            return
        head = _head(p.label, len(p.children))
        if head is not None and head in self.variables:
            self.checked.append(path)
            self.variable_application(head, p, t, path, renamed, inner)
            return
        if p.label != t.label or len(p.children) != len(t.children):
            raise _Fail
        self.checked.append(path)
        if not is_binding(p):
            for i, (pc, tc) in enumerate(zip(p.children, t.children, strict=True)):
                self.run(pc, tc, _down(path, i, i), renamed, inner)
            return
        self.binding(p, t, path, renamed, inner)

    def leaf(self, p: Node, t: Node, renamed: dict[str, str], inner: frozenset[str]) -> None:
        label = p.label
        if label in renamed:
            if not (t.is_leaf and t.label == renamed[label]):
                raise _Fail
            return
        if label in self.numerals:
            if not (t.is_leaf and _NUMERAL.match(t.label) and int(t.label) >= 2):
                raise _Fail
            self.bind(label, t)
            return
        if label in self.variables:
            if inner and self.free(t) & inner:
                raise _Fail  # the value would mention a variable bound inside the subterm
            self.bind(label, t)
            return
        if not t.is_leaf or t.label != label or label in inner:
            raise _Fail

    def variable_application(self, head: str, p: Node, t: Node, path: tuple[Path, Path],
                             renamed: dict[str, str], inner: frozenset[str]) -> None:
        args = [c.label for c in p.children if c.is_leaf and c.label in renamed]
        if len(args) == len(p.children) and len(set(args)) == len(args):
            names = [renamed[a] for a in args]
            if inner and (self.free(t) & inner) - set(names):
                raise _Fail
            value = t
            for name in reversed(names):
                value = Node(FUN, (Node(name), value))
            self.bind(head, value)
            return
        n = len(p.children)
        if t.label == " ".join([SLOT] * (n + 1)) and len(t.children) == n + 1:
            fn, targs, shift = t.children[0], t.children[1:], 1
        elif head_name(t.label, len(t.children)) is not None and len(t.children) == n:
            fn, targs, shift = Node(head_name(t.label, n) or ""), t.children, 0
        else:
            raise _Fail
        if inner and self.free(fn) & inner:
            raise _Fail
        self.bind(head, fn)
        for i, (pc, tc) in enumerate(zip(p.children, targs, strict=True)):
            self.run(pc, tc, _down(path, i, i + shift), renamed, inner)

    def binding(self, p: Node, t: Node, path: tuple[Path, Path], renamed: dict[str, str],
                inner: frozenset[str]) -> None:
        body = body_index(p.label)
        assert body is not None
        pb, tb = p.children[0], t.children[0]
        pname, tname = _bound_name(pb), _bound_name(tb)
        if pname is None or tname is None:
            if pb != tb or binder_names(pb):
                raise _Fail  # patterns and groups: only identical `_` binders
        else:
            ptype, ttype = binder_type(pb), binder_type(tb)
            if ptype is not None:
                if ttype is None:
                    raise _Fail
                self.run(ptype, ttype, _down(_down(path, 0, 0), len(pb.children) - 1,
                                             len(tb.children) - 1), renamed, inner)
            self.checked.append((path[0] + ((0,) if pb.is_leaf else (0, 0)),
                                 path[1] + ((0,) if tb.is_leaf else (0, 0))))
        for i in range(1, body):
            self.run(p.children[i], t.children[i], _down(path, i, i), renamed, inner)
        inside = dict(renamed)
        scope = inner
        if pname is not None and tname is not None:
            inside[pname] = tname
            scope = inner | {tname}
        self.run(p.children[body], t.children[body], _down(path, body, body), inside, scope)
        for i in range(body + 1, len(p.children)):
            self.run(p.children[i], t.children[i], _down(path, i, i), renamed, inner)


@lru_cache(maxsize=16384)
def _head(label: str, arity: int) -> str | None:
    """:func:`~transted.pipeline.opt.scope.head_name` of a pattern's label (a lemma's labels
    meet every subterm they are matched with)."""
    return head_name(label, arity)


_BOUND: dict[int, tuple[Node, str | None]] = {}
_BOUND_MAX = 65536


def _bound_name(binder: Node) -> str | None:
    """:func:`~transted.pipeline.opt.scope.bound_name`, kept by the binder's identity: a
    lemma's binders meet every subterm, a subterm's binders every lemma (each entry keeps its
    node, so an id is not reused while it is kept)."""
    hit = _BOUND.get(id(binder))
    if hit is not None and hit[0] is binder:
        return hit[1]
    name = bound_name(binder)
    if len(_BOUND) >= _BOUND_MAX:
        _BOUND.clear()
    _BOUND[id(binder)] = (binder, name)
    return name


def _down(path: tuple[Path, Path], i: int, j: int) -> tuple[Path, Path]:
    return path[0] + (i,), path[1] + (j,)


def instantiate_lemma(pattern: Node, sigma: Mapping[str, Node]) -> Node:
    """``pattern`` with every variable replaced by its value, capture-avoiding, beta-reduced
    where a Miller variable's ``fun`` was applied."""
    plain = _without_binders(pattern, sigma)
    return beta_reduce(plain if plain is not None else _substituted(pattern, sigma))


def _substituted(pattern: Node, sigma: Mapping[str, Node]) -> Node:
    """The values put in one name at a time, capture-avoiding (the general path)."""
    marked = {name: f"?{name}" for name in sigma}
    out = pattern
    for name, mark in marked.items():  # first out of the way of the values' names
        out = substitute(out, name, Node(mark))
    for name, mark in marked.items():
        out = substitute(out, mark, sigma[name])
    return out


def _without_binders(pattern: Node, sigma: Mapping[str, Node]) -> Node | None:
    """The values put in in one pass, when nothing can be captured: ``pattern`` binds no name,
    and no name or value holds a ``?`` (the marks of the general path, which would otherwise
    be read inside an inserted value). None otherwise. The result is the general path's:
    with no binder, substitution replaces the leaves and heads named, one name at a time or
    all at once alike."""
    if any(name.startswith("?") for name in sigma) or any(
            "?" in n.label for value in sigma.values() for n in value.preorder()):
        return None
    if any(node.children and is_binding(node) for node in pattern.preorder()):
        return None
    return _put_in(pattern, sigma)


def _put_in(node: Node, sigma: Mapping[str, Node]) -> Node:
    if node.is_leaf:
        return sigma.get(node.label, node)
    kids = tuple(_put_in(c, sigma) for c in node.children)
    head = head_name(node.label, len(kids))
    value = sigma.get(head) if head is not None else None
    if value is not None:  # as `substitute` puts a value in at a head
        if value.is_leaf:
            return relabel_head(Node(node.label, kids), value.label)
        return Node(" ".join([SLOT] * (len(kids) + 1)), (value,) + kids)
    return node if kids == node.children else node.with_children(kids)
