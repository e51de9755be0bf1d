"""The offline providers: congruence moves, definitional reductions, definitional hypotheses
substituted, numerals, the rule file.

Work without Lean. Each source is a provider of its own (``congruence``, ``definitional``,
``subst``, ``numerals``, ``rules``); ``offline`` composes them with ``unfold`` in a fixed order
(congruence, ``dsimp only``, ``subst``, numerals, then rules by side, preorder position, file
order, forward before backward, then unfoldings), so the search is deterministic.

A rewrite changes one occurrence. Its tactic is ``nth_rw k [lemma]`` (``rw`` when the
instance occurs once and is the lemma's first match), with the lemma's arguments given by
name when the first match would be another instance; ``k`` counts occurrences the way
``rw``'s ``kabstract`` does (preorder, left side first, skipping ones that mention a
variable bound there). An instance that mentions a variable bound inside the side cannot be
rewritten by ``rw``; that step prints as ``simp only [lemma]`` and is marked approximate.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from transted.budget import Budget
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.render import to_lean
from transted.pipeline.opt.scope import binder_names, body_index, free_names
from transted.pipeline.search.congruence import congruence_moves
from transted.pipeline.search.numerals import numeral_rewrites
from transted.pipeline.search.pattern import Path, match, positions
from transted.pipeline.search.providers.base import Move, Provider, ProviderContext
from transted.pipeline.search.providers.unfolding import UnfoldProvider
from transted.pipeline.search.reduction import beta_reduce, reduce_definitional
from transted.pipeline.search.ruleset import Rule, RuleSet, load_rules
from transted.pipeline.search.scalars import ScopeAt
from transted.pipeline.search.state import State
from transted.pipeline.search.subst import subst_moves

__all__ = ["OfflineProvider", "CongruenceProvider", "DefinitionalProvider", "NumeralProvider",
           "RuleProvider", "SubstProvider"]


class CongruenceProvider(Provider):
    """Congruence moves of ASSESS Table 1 (:mod:`~transted.pipeline.search.congruence`)."""

    name = "congruence"
    version = "2"  # 2: an antecedent peeled by forall_congr stays in the context

    def moves(self, state: State, budget: Budget) -> Iterator[Move]:
        if state.closed:
            return
        yield from congruence_moves(state)


class DefinitionalProvider(Provider):
    """``dsimp only``: definitional reductions of both sides (:mod:`~.reduction`)."""

    name = "definitional"
    version = "2"  # 2: a `let` reduced only with its value ascribed its written type;
    # `((a, b) : α × β).2` is `(b : β)`

    def moves(self, state: State, budget: Budget) -> Iterator[Move]:
        if state.closed:
            return
        lhs, rhs = reduce_definitional(state.lhs), reduce_definitional(state.rhs)
        if (lhs, rhs) != (state.lhs, state.rhs):
            yield Move("dsimp only", "dsimp only", State(lhs, rhs, state.context))


class SubstProvider(Provider):
    """Definitional hypotheses substituted away (:mod:`~transted.pipeline.search.subst`)."""

    name = "subst"
    version = "1"

    def moves(self, state: State, budget: Budget) -> Iterator[Move]:
        if state.closed:
            return
        yield from subst_moves(state, budget)


class NumeralProvider(Provider):
    """``norm_num`` on closed numeral arithmetic (:mod:`~transted.pipeline.search.numerals`)."""

    name = "numerals"
    version = "1"

    def moves(self, state: State, budget: Budget) -> Iterator[Move]:
        if state.closed:
            return
        env = state.local_types()
        for side in ("lhs", "rhs"):
            tree = getattr(state, side)
            for path, old, new, typ in numeral_rewrites(tree, env):
                if budget.spent():
                    return
                tactic = f"rw [show ({to_lean(old)} : {typ}) = {to_lean(new)} by norm_num]"
                yield Move("norm_num", tactic, state.rewritten(side, path, new))


class RuleProvider(Provider):
    """One-occurrence rewrites with the lemmas of a :class:`RuleSet` (the rule file).

    Parameters
    ----------
    rules : the rule set; default: the packaged ``rules/offline.yaml``
    """

    name = "rules"
    version = "1"

    def __init__(self, rules: RuleSet | None = None):
        self.rules = rules if rules is not None else load_rules()
        # side tree, context -> every position tried and its rewrites: a goal keeps one side
        # of the goal it came from, whose rewrites were found when that goal was expanded
        self._found: dict[tuple[int, int], tuple[Node, tuple, list[_Position]]] = {}

    @classmethod
    def from_context(cls, context: ProviderContext) -> RuleProvider:
        return cls(load_rules(context.rules))

    def options(self) -> dict[str, object]:
        return {"rules": self.rules.signature_value()}

    def moves(self, state: State, budget: Budget) -> Iterator[Move]:
        if state.closed:
            return
        for side in ("lhs", "rhs"):
            yield from self._rewrites(state, side, budget)

    def _rewrites(self, state: State, side: str, budget: Budget) -> Iterator[Move]:
        tree: Node = getattr(state, side)
        key = (id(tree), id(state.context))
        hit = self._found.get(key)
        if hit is not None and hit[0] is tree and hit[1] is state.context:
            for path, node, kept in hit[2]:  # the same positions, budget checks and order
                if budget.spent():
                    return
                for rewrite in kept:
                    yield _rewrite_move(rewrite, node, state, side, path)
            return
        outer = state.local_types()
        tried: list[_Position] = []
        for path, node in positions(tree):
            rules = self.rules.candidates(node.label)
            if not rules:
                continue
            if budget.spent():
                return  # not kept: a later visit finds the rest
            env = ScopeAt(tree, path, outer)
            found: list[_Rewrite] = []
            tried.append((path, node, found))
            for rule in rules:
                for new, sigma, backward in rule.rewrite(node, tree, path, env):
                    # an instantiated `?f ?x` may be a redex `(fun x => b) x`; Lean users
                    # follow such a rewrite with `beta_reduce`, and so do we
                    found.append((rule, sigma, backward, beta_reduce(new), new))
                    yield _rewrite_move(found[-1], node, state, side, path)
        if len(self._found) >= _FOUND_MAX:
            self._found.clear()
        self._found[key] = (tree, state.context, tried)


_Rewrite = tuple[Rule, dict[str, Node], bool, Node, Node]
"""A rule, its match, its direction, the reduced result and the result as instantiated."""
_Position = tuple[Path, Node, list[_Rewrite]]
_FOUND_MAX = 4096


def _rewrite_move(rewrite: _Rewrite, node: Node, state: State, side: str, path: Path) -> Move:
    rule, sigma, backward, reduced, new = rewrite
    tactic = partial(_tactic, rule, backward, sigma, node, state, side, path, reduced != new)
    return Move(rule.lemma, tactic, state.rewritten(side, path, reduced))


class OfflineProvider(Provider):
    """The default offline composition: congruence, ``dsimp only``, ``subst``, numerals, rules,
    and Mathlib definitions unfolded (:mod:`~transted.pipeline.search.providers.unfolding`).

    Parameters
    ----------
    rules : the rule set; default: the packaged ``rules/offline.yaml``

    The order of the parts is the move order of the search (fixed, hence deterministic).
    """

    name = "offline"
    # 4: definitional@2 (a sound `let` reduction); 3: the `subst` part (definitional hypotheses substituted), and congruence@2 keeps an
    # antecedent peeled by forall_congr in the goal's context; 2: Mathlib definitions unfolded
    # (the `unfold` part); 1: four parts
    version = "4"

    def __init__(self, rules: RuleSet | None = None):
        self.rule_provider = RuleProvider(rules)
        self.unfold_provider = UnfoldProvider()
        self.parts: tuple[Provider, ...] = (CongruenceProvider(), DefinitionalProvider(),
                                            SubstProvider(), NumeralProvider(),
                                            self.rule_provider, self.unfold_provider)

    @property
    def rules(self) -> RuleSet:
        return self.rule_provider.rules

    @classmethod
    def from_context(cls, context: ProviderContext) -> OfflineProvider:
        return cls(load_rules(context.rules))

    def options(self) -> dict[str, object]:
        return {**self.rule_provider.options(), **self.unfold_provider.options()}

    def moves(self, state: State, budget: Budget | None = None) -> Iterator[Move]:
        if state.closed:
            return
        budget = budget if budget is not None else Budget()
        for part in self.parts:
            yield from part.moves(state, budget)


def _bound_on_path(tree: Node, path: Path) -> set[str]:
    names: set[str] = set()
    node = tree
    for i in path:
        if i == body_index(node.label) and len(node.children) >= 2:
            names.update(binder_names(node.children[0]))
        node = node.children[i]
    return names


def _tactic(rule: Rule, backward: bool, sigma: dict[str, Node], instance: Node,
            state: State, side: str, path: Path, beta: bool = False) -> tuple[str, bool]:
    text, approximate = _rewrite_tactic(rule, backward, sigma, instance, state, side, path)
    return (f"{text}; beta_reduce" if beta else text), approximate


def _rewrite_tactic(rule: Rule, backward: bool, sigma: dict[str, Node], instance: Node,
                    state: State, side: str, path: Path) -> tuple[str, bool]:
    arrow = "← " if backward else ""
    tree: Node = getattr(state, side)
    if free_names(instance) & _bound_on_path(tree, path):
        return f"simp only [{arrow}{rule.lemma}]", True
    src = rule.rhs if backward else rule.lhs
    occurrences: list[tuple[str, Path]] = []
    first: Node | None = None
    for where in ("lhs", "rhs"):
        goal_side: Node = getattr(state, where)
        for p, sub in positions(goal_side):
            if first is None and match(src, sub) is not None:
                first = sub
            if sub == instance and not free_names(sub) & _bound_on_path(goal_side, p):
                occurrences.append((where, p))
    k = occurrences.index((side, path)) + 1
    lemma = f"{arrow}{rule.lemma}"
    if first != instance:
        named = " ".join(f"({param} := {to_lean(sigma[meta])})" for param, meta in rule.params
                         if meta in sigma)
        lemma = f"{arrow}{rule.lemma} {named}".rstrip()
    if len(occurrences) == 1:
        return f"rw [{lemma}]", False
    return f"nth_rw {k} [{lemma}]", False
