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
    elaboration_version,
)
from transted.pipeline.opt.elaborate.type_nodes import type_of_node
from transted.pipeline.opt.elaborate.types import SORT, Ty, Type_
from transted.pipeline.opt.labels import ASCRIPTION, COE
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import binder_names, body_index, head_name
from transted.pipeline.search.elaborated import elaborated_side, local_env
from transted.pipeline.search.lemmas.conditions import PathContext, premises_at
from transted.pipeline.search.lemmas.finish import (
    bare_numerals,
    elaborated_alone,
    kept_in_place,
    typed_as_lemma,
    with_casts,
)
from transted.pipeline.search.lemmas.instances import InstanceOracle, LocalInstance
from transted.pipeline.search.lemmas.lemma import Direction, Lemma
from transted.pipeline.search.lemmas.memo import DischargeMemo
from transted.pipeline.search.lemmas.table import LemmaTable
from transted.pipeline.search.lemmas.typing import (
    TypeAssignment,
    check_types,
)
from transted.pipeline.search.lemmas.unify import (
    FreeNames,
    Match,
    instantiate_lemma,
    match_lemma,
)
from transted.pipeline.search.memo import Memo, NodeKey
from transted.pipeline.search.pattern import Path, positions, subtree_hashes

__all__ = ["Rewrite", "SideRewriter", "difference_heights"]

_Syntactic = tuple[Lemma, Direction, bool, Match]
_SYNTACTIC_MAX = 65536
_MEMO_MAX = 65536
_SIDES_MAX = 4096
_ALONE_MAX = 8192
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

    def __init__(self, tree: Node, outer: Mapping[str, Node | None], hashed: int) -> None:
        self.tree = tree
        self.outer = outer
        self.locals = local_env(outer)
        self.elaboration = elaborated_side(tree, outer, hashed)
        self.at: dict[Path, list[Rewrite]] = {}


class _Shared:
    """What the rewrites of one rewriter share: the instance oracle and the per-process
    answers (:mod:`~transted.pipeline.search.lemmas.memo`)."""

    def __init__(self, oracle: InstanceOracle | None = None) -> None:
        self.oracle = oracle
        self.sides: Memo[tuple[NodeKey, tuple], _Side] = Memo(_SIDES_MAX)
        self.instances: Memo[_InstanceKey, _Instance] = Memo(_MEMO_MAX)
        self.finished: Memo[tuple, tuple[Match, Node | None]] = Memo(_MEMO_MAX)
        self.instances_exist: Memo[tuple, bool] = Memo(_MEMO_MAX)
        self.alone: Memo[tuple[NodeKey, tuple], Elaboration] = Memo(_ALONE_MAX)
        self.discharged = DischargeMemo(_MEMO_MAX)

    def elaborated_alone(self, new: Node, scope: Mapping[str, Type_]) -> Elaboration:
        """:func:`~transted.pipeline.search.lemmas.finish.elaborated_alone`, kept (a function
        of the new subterm and the scope: other matches give the same new subterm)."""
        key = (NodeKey(new, hash(new)), tuple(scope.items()))
        return self.alone.get(key, lambda: elaborated_alone(new, scope))


@dataclass(slots=True)
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
        # a function of the lemma, the type assignment and the side's own instances (the
        # oracle is the process's): rewrites at position after position ask the same
        key = (self.lemma.row.id, _theta_key(self.theta), self.local_instances)
        return self.shared.instances_exist.get(key, self._instances_hold)

    def _instances_hold(self) -> bool:
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
        for candidate in (bare_numerals(self.new, self.direction, self.sigma), self.new):
            if candidate is not None and typed_as_lemma(candidate, self.lemma, self.direction,
                                                        self.theta, self.scope,
                                                        self.shared.elaborated_alone):
                return kept_in_place(candidate, self.old_type)
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
        self._elaboration = elaboration_version()
        self._judged = table.judged_by(self._elaboration)
        self._shared = _Shared(oracle)
        self.retrieved = 0
        """Candidates the discrimination tree returned (for subterms not seen before), the
        lemmas judged unusable by the running elaboration left out."""

    def lemma(self, lemma_id: int) -> Lemma | None:
        if lemma_id not in self._lemmas:
            row = self.table.row(lemma_id)
            self._lemmas[lemma_id] = Lemma.from_row(row, self._judged) if row is not None \
                else None
        return self._lemmas[lemma_id]

    def rewrites(self, tree: Node, outer: Mapping[str, Node | None], budget: Budget,
                 shared: Mapping[int, Sequence[Node]] | None = None,
                 reach: int | None = None,
                 hashes: dict[int, int] | None = None) -> list[Rewrite] | None:
        """Every candidate rewrite of ``tree`` (steps 1 and 2; :meth:`Rewrite.finished` and
        :meth:`Rewrite.discharged` take steps 3 to 5) at a position whose subterm is not in
        ``shared`` (subterms by their hash, :func:`~transted.pipeline.search.pattern.
        subtree_hashes`) and, with ``reach``, at most ``reach`` levels above a difference
        (:func:`difference_heights`), in position order then retrieval order; None when the
        budget ran out first. ``hashes``: ``subtree_hashes(tree)`` when the caller has them."""
        if hashes is None:
            hashes = subtree_hashes(tree)
        near = None
        inside: set[int] = set()
        if reach is not None:
            near = difference_heights(tree, hashes, shared or {}, budget, inside)
            if near is None:
                return None
        side: _Side | None = None  # elaborated on the first position some lemma matches
        hashed = hashes[id(tree)]
        out: list[Rewrite] = []
        for path, node in (positions(tree) if near is None else _positions_in(tree, inside)):
            if budget.spent():  # at every position walked, as difference_heights checks
                return None
            if near is not None:
                if near.get(id(node), reach + 1) > reach:  # type: ignore[operator]
                    continue
            elif shared and _in(node, hashes, shared):
                continue
            matches = self._matches(NodeKey(node, hashes[id(node)]))
            if not matches:
                continue
            if side is None:
                side = self._shared.sides.get((NodeKey(tree, hashed), tuple(outer.items())),
                                              lambda: _Side(tree, outer, hashed))
            info = side.elaboration.nodes.get(path)
            if info is None or not isinstance(info.type, Ty):
                continue
            found = side.at.get(path)
            if found is None:
                found = side.at[path] = self._at(side, path, node, info, matches)
            out.extend(found)
        return out

    def _at(self, side: _Side, path: Path, node: Node, info: NodeType,
            found: tuple[_Syntactic, ...]) -> list[Rewrite]:
        """The candidate rewrites of ``side`` at ``path`` (``node``, elaborated as ``info``;
        ``found``, the lemma directions matching it)."""
        elaboration = side.elaboration
        if not found or elaboration.issues_under(path):
            return []
        out: list[Rewrite] = []
        # what the position gives every lemma tried there, computed on the first need
        at: tuple[PathContext, tuple[LocalInstance, ...], dict[str, Type_]] | None = None
        for lemma, direction, backward, match in found:
            theta = check_types(lemma.node_types, direction.source_path, elaboration, path,
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
        target = with_casts(direction, lemma, match.sigma, theta)
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
        found = self.table.candidates(node, self._elaboration)
        self.retrieved += len(found)
        out: list[_Syntactic] = []
        free: FreeNames = {}
        for lemma_id, backward in found:  # without those judged unusable by this elaboration
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


def _positions_in(tree: Node, inside: set[int]) -> Iterator[tuple[Path, Node]]:
    """:func:`~transted.pipeline.search.pattern.positions` of ``tree`` in the same order, not
    going below a subterm in ``inside`` (found in the other side by :func:`difference_heights`):
    every subterm below one is in the other side too, so none of them is near a difference (a
    side is mostly the other side's subterms: most of its positions are never visited)."""
    stack: list[tuple[Path, Node]] = [((), tree)]
    while stack:
        path, node = stack.pop()
        yield path, node
        if id(node) not in inside:
            stack.extend((path + (i,), c) for i, c in reversed(list(enumerate(node.children))))


def _in(node: Node, hashes: Mapping[int, int], shared: Mapping[int, Sequence[Node]]) -> bool:
    return any(node == other for other in shared.get(hashes[id(node)], ()))


def difference_heights(tree: Node, hashes: Mapping[int, int],
                       shared: Mapping[int, Sequence[Node]],
                       budget: Budget | None = None,
                       inside: set[int] | None = None) -> dict[int, int] | None:
    """How far above a difference each subterm of ``tree`` not in ``shared`` stands, by the
    subterm's ``id``: 0 for a *difference* (a leaf, or a subterm whose children are all in
    ``shared``), else one more than its nearest child not in ``shared``. A cast or an
    ascription is not a level (``((3 : ℕ) : ℝ)`` stands where ``(3 : ℕ)`` does), one around a
    term in ``shared`` is a difference that its parent does not count (``x ^ (3 : ℝ)`` against
    a side with ``x`` and ``3`` is a difference: ``Real.log (x ^ (3 : ℝ))`` is one level
    above it), and an ascription's type is not a child (it is not a term). The subterms in
    ``shared`` are left out. None when ``budget`` (the pair's work and deadline) ran out.
    ``inside``, when given, receives the ``id`` of each subterm found in ``shared`` (the walk
    does not go below one)."""
    out: dict[int, int] = {}
    inside = set() if inside is None else inside
    stack: list[tuple[Node, bool]] = [(tree, False)]
    while stack:
        if budget is not None and budget.spent():
            return None
        node, ready = stack.pop()
        terms = _terms(node)
        if not ready:
            if id(node) in out or id(node) in inside:
                continue
            if _in(node, hashes, shared):
                inside.add(id(node))
                continue
            stack.append((node, True))
            stack.extend((c, False) for c in terms)
            continue
        below = [out[id(c)] for c in terms
                 if id(c) in out and not (_is_cast(c) and id(c.children[0]) in inside)]
        step = 0 if _is_cast(node) else 1
        out[id(node)] = min(below) + step if below else 0
    return out


def _is_cast(node: Node) -> bool:
    return node.label in (ASCRIPTION, COE) and bool(node.children)


def _terms(node: Node) -> tuple[Node, ...]:
    return node.children[:1] if node.label == ASCRIPTION else node.children


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
