"""The sound rewrites of one goal side by the lemma table.

For every position of the side that the elaboration types (terms and propositions, not binders
or types) the discrimination tree gives the lemma directions that can match; each is kept only
if, in this order,

1. its pattern unifies with the subterm (:mod:`~transted.pipeline.search.lemmas.unify`), the subterm
   has no elaboration issue, and the lemma's sides and conditions elaborate with none either;
2. every matched node has the type the lemma gives it under one assignment of its type
   variables (:mod:`~transted.pipeline.search.lemmas.typing`);
3. every instance the lemma assumes exists at those types (:mod:`~transted.pipeline.search.lemmas.
   instances`), the side's own ``[C α]`` antecedents above the position counting;
4. the new subterm, elaborated on its own with the variables in scope, has the lemma's types at
   every node of the lemma's other side, and that side is not cast where the statement has it
   (``Int.abs_eq_natAbs : |a| = natAbs a`` hides a ``↑``) (:meth:`Rewrite.finished`);
5. its side conditions, instantiated, are proved from the premises at the position
   (:mod:`~transted.pipeline.search.lemmas.conditions`).

Steps 3 to 5 run only for the rewrites the provider ranks high enough to try as moves (they
ask the instance index, elaborate and call the engines); the others are ranked without them
(the ranking reads the new subterm only), which leaves the moves taken, and their order, what
they would be with the failures filtered out first.

The new subterm is the lemma's other side instantiated (capture-avoiding). A value put where
the lemma coerces its variable (``x ^ (n : ℝ)`` with ``n := a - b``) goes in ascribed with the
variable's type, ``x ^ ((a - b : ℕ) : ℝ)``: written bare, ``(a - b : ℝ)`` would subtract in ℝ.
Where the old subterm was a leaf Lean coerced (``↑(Nat.choose n 2)`` inside a real ``binop%``
tree) and the new one would not be elaborated alone (an operator, a numeral, a ``↑``), the new
one goes in ascribed with the old type, ``(n * (n - 1) / 2 : ℕ)`` (Lean core
``Elab/Extra.lean``: ``binop%`` leaves are elaborated without expected type; an ascription is
such a leaf). An ascription the lemma writes around a numeral variable (``(ofNat(n) : ℕ)``) is
left out when the numeral has that type without it (step 4 decides).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from transted.budget import Budget
from transted.pipeline.evidence.refute import RefuteOptions
from transted.pipeline.opt.elaborate import (
    Elaboration,
    NodeType,
    Scope,
    elaborate,
    elaboration_version,
)
from transted.pipeline.opt.elaborate.operators import is_arithmetic_operator
from transted.pipeline.opt.elaborate.type_nodes import type_of_node
from transted.pipeline.opt.elaborate.types import SORT, Ty, Type_
from transted.pipeline.opt.labels import ASCRIPTION, COE, EQ, FUN, NEG
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import binder_names, body_index, head_name
from transted.pipeline.search.lemmas.conditions import PathContext, premises_at
from transted.pipeline.search.lemmas.instances import InstanceOracle, LocalInstance, substitute_type
from transted.pipeline.search.lemmas.lemma import Direction, Lemma
from transted.pipeline.search.lemmas.memo import DischargeMemo, Memo, NodeKey
from transted.pipeline.search.lemmas.table import LemmaTable
from transted.pipeline.search.lemmas.typing import (
    TypeAssignment,
    bind_type,
    check_types,
    lemma_issue_free,
)
from transted.pipeline.search.lemmas.unify import (
    FreeNames,
    Match,
    instantiate_lemma,
    match_lemma,
)
from transted.pipeline.search.pattern import Path, positions, subtree_hashes
from transted.pipeline.search.scalars import is_numeral

__all__ = ["Rewrite", "SideRewriter"]

_Syntactic = tuple[Lemma, Direction, bool, Match]
_SYNTACTIC_MAX = 65536
_MEMO_MAX = 65536
_SIDES_MAX = 4096
_InstanceKey = tuple[int, tuple[tuple[str, Ty], ...]]
"""A match (by identity: the match of one lemma direction at one subterm) and a type
assignment."""
_Instance = tuple[Match, Node | None, tuple[Node, ...]]
"""A match, its new subterm under one type assignment (None: a cast cannot be written) and its
instantiated side conditions."""


class _Side:
    """A goal side, its elaboration and its candidate rewrites by position, computed on first
    need: each is a function of the side and the goal's locals alone (a side recurs with other
    goals, whose other side only decides which positions are asked)."""

    def __init__(self, tree: Node, outer: Mapping[str, Node | None]) -> None:
        self.tree = tree
        self.outer = outer
        self.locals = _locals(outer)
        self.elaboration = elaborate(tree, Scope(), locals=self.locals)
        self.at: dict[Path, list[Rewrite]] = {}


class _Shared:
    """What the rewrites of one rewriter share: the instance oracle and the per-process
    answers (:mod:`~transted.pipeline.search.lemmas.memo`)."""

    def __init__(self, oracle: InstanceOracle | None = None) -> None:
        self.oracle = oracle
        self.sides: Memo[tuple[NodeKey, tuple], _Side] = Memo(_SIDES_MAX)
        self.instances: Memo[_InstanceKey, _Instance] = Memo(_MEMO_MAX)
        self.finished: Memo[tuple, tuple[Match, Node | None]] = Memo(_MEMO_MAX)
        self.discharged = DischargeMemo(_MEMO_MAX)


@dataclass
class Rewrite:
    """A lemma instance found at ``path`` of a side: ``old`` becomes ``new``."""

    lemma: Lemma
    backward: bool
    path: Path
    old: Node
    new: Node
    sigma: Mapping[str, Node]
    theta: TypeAssignment
    conditions: tuple[Node, ...]
    context: PathContext
    scope: Mapping[str, Type_]
    """The types of the variables in scope at ``path`` (for elaborating ``new`` alone)."""
    old_type: NodeType
    local_instances: tuple[LocalInstance, ...] = ()
    """The side's own ``[C α]`` antecedents above ``path`` (step 3)."""
    match: Match | None = field(default=None, repr=False, compare=False)
    """The match this instance is of, with ``shared`` (None: nothing is kept across
    rewrites)."""
    shared: _Shared = field(default_factory=_Shared, repr=False, compare=False)
    _final: Node | None | bool = field(default=False, repr=False)
    _proofs: tuple[str, ...] | None | bool = field(default=False, repr=False)

    @property
    def direction(self) -> Direction:
        return self.lemma.directions["backward" if self.backward else "forward"]

    def finished(self) -> Node | None:
        """The new subterm as it goes in, or None when an instance the lemma assumes is not
        known to exist at its types or, elaborated alone, its types are not the lemma's (steps 3
        and 4 of the module docstring); computed once."""
        if self._final is False and not self._instances_exist():
            self._final = None
        if self._final is False:
            # a function of the match, the type assignment, the scope and the old type
            key = None if self.match is None else (
                id(self.match), _theta_key(self.theta), tuple(self.scope.items()), self.old_type)
            kept, hit = self.shared.finished.lookup(key) if key is not None else (False, None)
            if kept and hit is not None and hit[0] is self.match:
                self._final = hit[1]
            else:
                self._final = self._finish()
                if key is not None and self.match is not None:
                    self.shared.finished.put(key, (self.match, self._final))
        return self._final  # type: ignore[return-value]

    def _instances_exist(self) -> bool:
        needs = self.lemma.instance_needs
        if needs is None:
            return False
        for need in needs:
            if need[0] == "Nat.AtLeastTwo":  # a numeral variable: matched only by numerals ≥ 2
                if not (len(need[1]) == 1 and need[1][0].label in self.lemma.numerals):
                    return False
                continue
            args = self.lemma.instance_types(need, self.theta)
            if args is None or self.shared.oracle is None or \
                    not self.shared.oracle.holds(need[0], args, self.local_instances):
                return False
        return True

    def _finish(self) -> Node | None:
        for candidate in (_bare_numerals(self.new, self.direction, self.sigma), self.new):
            if candidate is not None and _typed_as_lemma(candidate, self):
                return _kept_in_place(candidate, self.old_type)
        return None

    def discharged(self, options: RefuteOptions, budget: Budget) -> tuple[str, ...] | None:
        """The tactics proving the side conditions (``()`` for none), or None (not proved);
        computed once."""
        if self._proofs is False:
            self._proofs = (self.shared.discharged.discharge(self.conditions, self.context,
                                                             options, budget)
                            if self.conditions else ())
        return self._proofs  # type: ignore[return-value]


def _theta_key(theta: TypeAssignment) -> tuple[tuple[str, Ty], ...]:
    return tuple(sorted(theta.items()))


class SideRewriter:
    """Finds the rewrites of a side (see the module docstring)."""

    def __init__(self, table: LemmaTable, oracle: InstanceOracle) -> None:
        self.table = table
        self.oracle = oracle
        self._lemmas: dict[int, Lemma | None] = {}
        self._syntactic: dict[NodeKey, tuple[_Syntactic, ...]] = {}
        self._unusable = table.unusable(elaboration_version())
        self._shared = _Shared(oracle)
        self.retrieved = 0
        """Candidates the discrimination tree returned (for subterms not seen before)."""

    def lemma(self, lemma_id: int) -> Lemma | None:
        if lemma_id not in self._lemmas:
            row = self.table.row(lemma_id)
            self._lemmas[lemma_id] = Lemma.from_row(row) if row is not None else None
        return self._lemmas[lemma_id]

    def rewrites(self, tree: Node, outer: Mapping[str, Node | None], budget: Budget,
                 shared: Mapping[int, Sequence[Node]] | None = None) -> list[Rewrite] | None:
        """Every candidate rewrite of ``tree`` (steps 1 and 2; :meth:`Rewrite.finished` and
        :meth:`Rewrite.discharged` take steps 3 to 5) at a position whose subterm is not in
        ``shared`` (subterms by their hash, :func:`~transted.pipeline.search.pattern.
        subtree_hashes`), in position order then retrieval order; None when the budget ran out
        first."""
        hashes = subtree_hashes(tree)
        key = (NodeKey(tree, hashes[id(tree)]), tuple(outer.items()))
        side = self._shared.sides.get(key, lambda: _Side(tree, outer))
        out: list[Rewrite] = []
        for path, node in positions(tree):
            if shared and any(node == other for other in shared.get(hashes[id(node)], ())):
                continue
            info = side.elaboration.nodes.get(path)
            if info is None or not isinstance(info.type, Ty):
                continue
            if budget.spent():
                return None
            found = side.at.get(path)
            if found is None:
                found = side.at[path] = self._at(side, path, node, info, hashes)
            out.extend(found)
        return out

    def _at(self, side: _Side, path: Path, node: Node, info: NodeType, hashes: dict[int, int]
            ) -> list[Rewrite]:
        """The candidate rewrites of ``side`` at ``path`` (``node``, elaborated as ``info``)."""
        found = self._matches(NodeKey(node, hashes[id(node)]))
        elaboration = side.elaboration
        if not found or elaboration.issues_under(path):
            return []
        out: list[Rewrite] = []
        # what the position gives every lemma tried there, computed on the first need
        at: tuple[PathContext, tuple[LocalInstance, ...], dict[str, Type_]] | None = None
        for lemma, direction, backward, match in found:
            theta = check_types(lemma.elaboration, direction.source_path, elaboration, path,
                                match.checked, lemma.type_variables, match.sigma)
            if theta is None:
                continue
            if at is None:
                context = premises_at(side.tree, path, elaboration, side.outer)
                at = (context, _local_instances(context, side.outer),
                      _scope(side.tree, path, elaboration, side.locals))
            _, new, conditions = self._instance(lemma, direction, match, theta)
            if new is None or new == node:
                continue
            out.append(Rewrite(lemma, backward, path, node, new, match.sigma, theta, conditions,
                               at[0], at[2], info, at[1], match, self._shared))
        return out

    def _instance(self, lemma: Lemma, direction: Direction, match: Match,
                  theta: TypeAssignment) -> _Instance:
        """The new subterm and side conditions of ``match`` under ``theta`` (a function of the
        two: the match is that of one lemma direction at one subterm, kept by identity)."""
        key = (id(match), _theta_key(theta))
        kept, hit = self._shared.instances.lookup(key)
        if kept and hit is not None and hit[0] is match:
            return hit
        target = _with_casts(direction, lemma, match.sigma, theta)
        new = instantiate_lemma(target, match.sigma) if target is not None else None
        conditions = tuple(instantiate_lemma(h, match.sigma) for h in lemma.parts.hypotheses) \
            if new is not None else ()
        found = (match, new, conditions)
        self._shared.instances.put(key, found)
        return found

    def _matches(self, key: NodeKey) -> tuple[_Syntactic, ...]:
        """The lemma directions whose pattern unifies with the subterm (steps 1's syntactic
        part), in retrieval order: a function of the subterm alone, so kept for the process —
        the search meets the same subterms in state after state."""
        hit = self._syntactic.get(key)
        if hit is not None:
            return hit
        node = key.node
        found = self.table.candidates(node)
        self.retrieved += len(found)
        out: list[_Syntactic] = []
        free: FreeNames = {}
        for lemma_id, backward in found:
            if lemma_id in self._unusable:
                continue  # judged unusable when the table was built, by this elaboration
            lemma = self.lemma(lemma_id)
            direction = None if lemma is None else \
                lemma.directions.get("backward" if backward else "forward")
            if lemma is None or direction is None:
                continue
            match = match_lemma(direction.source, node, lemma.variables, lemma.numerals, free)
            if match is not None and lemma.usable:
                out.append((lemma, direction, backward, match))
        if len(self._syntactic) >= _SYNTACTIC_MAX:
            self._syntactic.clear()
        self._syntactic[key] = hit = tuple(out)
        return hit


def _locals(outer: Mapping[str, Node | None]) -> dict[str, Type_]:
    env: dict[str, Type_] = {}
    for name, typ in outer.items():
        ty = type_of_node(typ, env) if typ is not None else None
        if ty is not None:
            env[name] = ty
    return env


def _scope(tree: Node, path: Path, elaboration: Elaboration, outer: dict[str, Type_]
           ) -> dict[str, Type_]:
    """The types of the variables in scope at ``path``: the goal's locals and every binder
    above (its name node's elaborated type)."""
    env = dict(outer)
    node: Node = tree
    here: Path = ()
    for i in path:
        if i == body_index(node.label) and len(node.children) >= 2:
            binder = node.children[0]
            name_path = here + ((0,) if binder.is_leaf else (0, 0))
            info = elaboration.nodes.get(name_path)
            for name in binder_names(binder):
                env.pop(name, None)
                if info is not None:
                    env[name] = info.type
        node, here = node.children[i], here + (i,)
    return env


def _local_instances(context: PathContext, outer: Mapping[str, Node | None]
                     ) -> tuple[LocalInstance, ...]:
    sorts: dict[str, Type_] = {n: SORT for n, t in outer.items()
                               if t is not None and type_of_node(t, {}) == SORT}
    sorts.update(dict.fromkeys(context.type_variables, SORT))
    out: list[LocalInstance] = []
    for antecedent, _path in context.instances:
        cls = head_name(antecedent.label, len(antecedent.children)) if antecedent.children \
            else None
        args = [type_of_node(a, sorts) for a in antecedent.children]
        if cls is not None and all(a is not None for a in args):
            out.append((cls, tuple(a for a in args if a is not None)))
    return tuple(out)


def _context_typed(node: Node) -> bool:
    """A term whose type comes from where it stands (an operator tree, a numeral, ``↑x``)."""
    return is_arithmetic_operator(node.label) or is_numeral(node) or node.label in (COE, NEG)


def _with_casts(direction: Direction, lemma: Lemma, sigma: Mapping[str, Node],
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
        info = lemma.elaboration.nodes.get(direction.target_path + at)
        if info is None or not isinstance(info.type, Ty):
            return None
        own = substitute_type(info.type, theta)
        if own.args:
            return None
        return Node(ASCRIPTION, (node, Node(f"\0{own.head}")))  # `\0`: not a name to replace

    def walk(node: Node, at: Path) -> Node:
        nonlocal unwritable
        if node.is_leaf:
            info = lemma.elaboration.nodes.get(direction.target_path + at)
            value = sigma.get(node.label)
            if (value is not None and _context_typed(value) and info is not None
                    and info.coerced_to is not None and isinstance(info.type, Ty)):
                return ascribed(node, at) or node
            return node
        kids = [walk(c, at + (i,)) for i, c in enumerate(node.children)]
        head = head_name(node.label, len(node.children))
        function = sigma.get(head) if head is not None else None
        if function is not None and function.label == FUN:
            for i, (c, kid) in enumerate(zip(node.children, kids, strict=True)):
                value = sigma.get(c.label, c) if c.is_leaf else c
                if kid is c and _context_typed(value):
                    wrapped = ascribed(kid, at + (i,))
                    unwritable |= wrapped is None
                    kids[i] = wrapped or kid
        return node.with_children(tuple(kids))

    out = walk(direction.target, ())
    return None if unwritable else out


def _bare_numerals(new: Node, direction: Direction, sigma: Mapping[str, Node]) -> Node | None:
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


def _typed_as_lemma(new: Node, rewrite: Rewrite) -> bool:
    """Elaborated alone, ``new`` has at every node of the lemma's other side the type (and
    the ``↑``) the lemma gives that node under the rewrite's type assignment."""
    new = _cleaned(new)
    el = elaborate(Node(EQ, (new, new)), Scope(), locals=dict(rewrite.scope))
    if not lemma_issue_free(el, (0,)):  # an undecided instance: the oracle has checked it
        return False
    lemma, direction = rewrite.lemma, rewrite.direction
    theta = dict(rewrite.theta)
    for q, _node in _pattern_positions(direction.target, lemma):
        lt = lemma.elaboration.nodes.get(direction.target_path + q)
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


def _pattern_positions(pattern: Node, lemma: Lemma) -> Iterator[tuple[Path, Node]]:
    """Positions of the pattern whose node the new subterm keeps (not below a variable's
    application: beta reduction reshapes it)."""
    stack: list[tuple[Path, Node]] = [((), pattern)]
    while stack:
        at, node = stack.pop()
        yield at, node
        head = head_name(node.label, len(node.children)) if node.children else None
        if head is not None and head in lemma.variables:
            continue
        stack.extend((at + (i,), c) for i, c in enumerate(node.children))


def _cleaned(new: Node) -> Node:
    """The marker ``\\0T`` of a cast's type written back as ``T``."""
    if new.is_leaf:
        return Node(new.label[1:]) if new.label.startswith("\0") else new
    return new.with_children(tuple(_cleaned(c) for c in new.children))


def _kept_in_place(new: Node, old: NodeType) -> Node | None:
    """``new`` ascribed with the old type where the old subterm was a coerced leaf and ``new``
    would not be elaborated on its own (see the module docstring); None when that type cannot
    be written."""
    new = _cleaned(new)
    if old.coerced_to is None or not _context_typed(new):
        return new
    if not isinstance(old.type, Ty) or old.type.args:
        return None
    return Node(ASCRIPTION, (new, Node(old.type.head)))
