"""``lemmas``: Mathlib's rewrite lemmas as moves, the offline stand-in for Lean's ``rw?``.

At each goal the provider finds, on both sides, every sound rewrite by a lemma of the table
(:mod:`transted.pipeline.search.lemmas.rewrite`: discrimination-tree retrieval, unification, types,
instances, side conditions) at a subterm near a difference between the two sides, and yields the
:attr:`LemmaProvider.per_state` best of them as moves. A subterm both sides contain is left
alone: rewriting it on one side mostly makes the two sides differ there (Lean's ``rw?`` offers
such moves too; the search would only have to undo them), and skipping it is what keeps the
search's cost near the default's on near-miss pairs, whose sides share most subterms. Of the
subterms the other side lacks, only the *differences* (those whose children it has, and leaves)
and their parents are rewritten (:data:`REACH`): the ones further up are the statement's
skeleton — binders, implications, conjunctions — where every lemma about ``→`` or ``∀``
matches (``imp_iff_not_or``, ``not_imp_not``: a third of the moves taken when every subterm was
asked, and half the provider's time) while the rewrite that brings two near-miss sides together
sits at the difference (``Nat.choose n 2`` against ``n * (n - 1) / 2``), one level above it
(``(Finset.range n).card`` against ``n``: the difference is ``Finset.range n``) or, on the
other side, at the other side's difference. *Best* is a fixed, label-free order: first the rewrites whose new subterm shares more
labels with the other side of the goal than the old one did (the move that brings the sides
together, as the TED heuristic will judge it), then the smaller result, then the forward
(``simp``-normal) direction, ``@[simp]`` lemmas, position and lemma id. So the branching per
goal is at most ``per_state`` however many lemmas match, and each move counts one work unit of
the search's deterministic budget (engine.py); a side's rewrites are found once and reused by
every goal that keeps that side. Only the first :attr:`LemmaProvider.expansions` goals a
search expands (its most promising, by the TED heuristic) get lemma moves; the goals after
them get the other providers' moves only (the provider's cost is per goal it is asked at).

A move prints as ``rw [lemma]`` (``nth_rw k`` when the instance is not the first occurrence,
named arguments when the lemma's first match would be another instance, ``←`` backward, the side
conditions as ``(by tactic)`` arguments), or ``simp only [lemma]`` (approximate) when the
instance mentions a variable bound inside the side (``rw`` cannot rewrite under a binder).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from transted.budget import Budget
from transted.pipeline.evidence.refute import RefuteOptions
from transted.pipeline.opt.mathlib import load_index
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.render import to_lean
from transted.pipeline.opt.scope import free_names
from transted.pipeline.search.lemmas.instances import InstanceOracle
from transted.pipeline.search.lemmas.rewrite import Rewrite, SideRewriter
from transted.pipeline.search.lemmas.table import LemmaTable, load_table
from transted.pipeline.search.lemmas.unify import match_lemma
from transted.pipeline.search.pattern import Path, positions, subtree_hashes
from transted.pipeline.search.providers.base import Move, Provider, ProviderContext
from transted.pipeline.search.providers.offline import _bound_on_path
from transted.pipeline.search.state import State

if TYPE_CHECKING:
    from transted.reading.pairs import Pair

__all__ = ["EXPANSIONS", "LemmaProvider", "PER_STATE", "REACH"]

PER_STATE = 16
"""Lemma moves per goal at most (the branching the lemmas add to the search)."""
EXPANSIONS = 4
"""Goals of a search that get lemma moves at most: the first ones it expands (half the default
search's eight). The provider's cost is per goal it is asked at (both sides' rewrites found,
typed and ranked), and the goals expanded first are the search's most promising: with lemma
moves at every goal the lemma metric cost 1.55-1.67x the default at the median dev pair."""
REACH = 1
"""How far above a difference between the sides a lemma may rewrite: a difference itself (a
subterm the other side lacks whose children it has) or its parent (see the module
docstring)."""
_MEMO_MAX = 4096


_Change = tuple[tuple[tuple[str, int, int], ...], int]
"""What the ranking reads of a rewrite: each label whose count it changes (label, count in the
new subterm, in the old: the shared-label gain reads only these, an unchanged count adding as
much as it takes away), and the size change."""


@dataclass(frozen=True, slots=True)
class _Ranked:
    key: tuple
    side: str
    rewrite: Rewrite


class LemmaProvider(Provider):
    """Rewrites by the Mathlib lemma table (registry name ``lemmas``).

    Parameters
    ----------
    per_state : lemma moves per goal at most
    expansions : goals of a search that get lemma moves at most, the first ones it expands
    table : the lemma table (default: the tables of the bundled Mathlib index)
    engines : the evidence engines' options, for side conditions
    """

    name = "lemmas"
    version = "6"
    """2: instances over a coerced term or with unread section instances never fire (a wrong
    ``proved`` by ``Finite.injective_iff_surjective`` at ℕ); global instance answers per
    process. 3: a value beta-reduced into the pair's text keeps its type (``forall_eq`` put
    ``7 - 10`` under the pair's ``(x : ℤ)``: a wrong closure); a side is rewritten only at
    subterms the goal's other side does not also contain. 4: a variable beta-reduced into the
    pair's text is ascribed its type too (``Set.mem_setOf_eq`` on ``y ∈ {y : ℚ | …}`` left the
    pair's untyped ``∃ y`` to default to ℕ: a wrong ``proved`` once set-builder was typed).
    5: rewrites only at a difference between the sides or its parent (:data:`REACH`).
    6: lemma moves at the first :data:`EXPANSIONS` goals a search expands only; a numeral's
    ascription the lemma writes (``x ^ (n : ℕ)``) is left out when the bare numeral has its
    type (the check looked for the ascription's children in the bare numeral: never left out
    before, so ``rw [Real.rpow_ofNat]`` left ``2 ^ (3 : ℕ)`` against a pair's ``2 ^ 3``)."""

    def __init__(self, *, per_state: int = PER_STATE, expansions: int = EXPANSIONS,
                 table: LemmaTable | None = None, engines: RefuteOptions | None = None) -> None:
        for name, value in (("per_state", per_state), ("expansions", expansions)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"`lemmas.{name}` must be a non-negative int, got {value!r}")
        self.per_state = per_state
        self.expansions = expansions
        self._asked = 0
        self._budget: Budget | None = None
        self.engines = engines if engines is not None else RefuteOptions()
        self._table = table
        self._rewriter: SideRewriter | None = None
        self._sides: dict[tuple[int, int, int], tuple[Node, Node, tuple, list[Rewrite]]] = {}
        self._shared: dict[int, tuple[Node, dict[int, int], dict[int, list[Node]]]] = {}
        self._labels: dict[int, tuple[Node, Counter[str]]] = {}
        self._olds: dict[int, tuple[Node, Counter[str], int]] = {}
        self._changes: dict[tuple[int, int], tuple[Node, Node, _Change]] = {}
        self.usage: Counter[str] = Counter()
        """Moves yielded per lemma name, over the provider's life (for reports)."""

    @classmethod
    def from_context(cls, context: ProviderContext) -> LemmaProvider:
        extra: dict[str, Any] = context.extra
        return cls(per_state=_count(extra.get("lemmas.per_state", PER_STATE)),
                   expansions=_count(extra.get("lemmas.expansions", EXPANSIONS)))

    @property
    def table(self) -> LemmaTable:
        if self._table is None:
            self._table = load_table()
        return self._table

    @property
    def rewriter(self) -> SideRewriter:
        if self._rewriter is None:
            self._rewriter = SideRewriter(self.table, InstanceOracle(load_index()))
        return self._rewriter

    def options(self) -> dict[str, object]:
        o = self.engines
        return {"lemmas": f"{self.table.version}|per-state:{self.per_state}"
                          f"|expansions:{self.expansions}"
                          f"|discharge:rlimit:{o.rlimit}/samples:{o.samples}/seed:{o.seed}"}

    def prepare(self, pair: Pair | None, start: State, budget: Budget) -> State | None:
        self._sides.clear()
        self._labels.clear()
        self._shared.clear()
        self._asked, self._budget = 0, budget
        return start

    def moves(self, state: State, budget: Budget) -> Iterator[Move]:
        if budget is not self._budget:  # a search started without prepare: its own budget
            self._asked, self._budget = 0, budget
        self._asked += 1
        if state.closed or self.per_state == 0 or self._asked > self.expansions:
            return
        ranked: list[_Ranked] = []
        for side, other in (("lhs", state.rhs), ("rhs", state.lhs)):
            found = self._side_rewrites(state, side, budget)
            if found is None:
                return
            wanted = self._label_counts(other)
            for order, rewrite in enumerate(found):
                change = self._change(rewrite.old, rewrite.new)
                ranked.append(_Ranked(_rank(rewrite, change, wanted, side, order), side,
                                      rewrite))
        ranked.sort(key=lambda r: r.key)
        taken = 0
        for item in ranked:
            if taken >= self.per_state or budget.spent():
                return
            new = item.rewrite.finished()
            if new is None:
                continue
            proofs = item.rewrite.discharged(self.engines, budget)
            if proofs is None:
                continue
            taken += 1
            self.usage[item.rewrite.lemma.name] += 1
            tactic = partial(_tactic, item.rewrite, proofs, state, item.side)
            yield Move(item.rewrite.lemma.name, tactic,
                       state.rewritten(item.side, item.rewrite.path, new))

    def _side_rewrites(self, state: State, side: str, budget: Budget) -> list[Rewrite] | None:
        tree: Node = getattr(state, side)
        other: Node = state.rhs if side == "lhs" else state.lhs
        key = (id(tree), id(other), id(state.context))
        hit = self._sides.get(key)
        if hit is not None and hit[0] is tree and hit[1] is other and hit[2] is state.context:
            return hit[3]
        found = self.rewriter.rewrites(tree, state.local_types(), budget,
                                       shared=self._subterms(other)[1], reach=REACH,
                                       hashes=self._subterms(tree)[0])
        if found is None:
            return None  # not kept: a later visit with budget left finds them all
        if len(self._sides) >= _MEMO_MAX:
            self._sides.clear()
        self._sides[key] = (tree, other, state.context, found)
        return found

    def _subterms(self, tree: Node) -> tuple[dict[int, int], dict[int, list[Node]]]:
        """The hashes of ``tree``'s subterms by their ``id``, and its subterms by their hash
        (each hashed once, bottom-up; a side recurs in many goals, on either side)."""
        hit = self._shared.get(id(tree))
        if hit is not None and hit[0] is tree:
            return hit[1], hit[2]
        found: dict[int, list[Node]] = {}
        hashes = subtree_hashes(tree, found)
        if len(self._shared) >= _MEMO_MAX:
            self._shared.clear()
        self._shared[id(tree)] = (tree, hashes, found)
        return hashes, found

    def _change(self, old: Node, new: Node) -> _Change:
        """The labels whose count ``old`` → ``new`` changes, and the size change, counted once
        (a function of the two subterms: a side's rewrites are ranked again at every goal that
        keeps the side, and the rewrites of one match share their ``new`` wherever the subterm
        stands)."""
        key = (id(old), id(new))
        hit = self._changes.get(key)
        if hit is not None and hit[0] is old and hit[1] is new:
            return hit[2]
        if len(self._changes) >= _MEMO_MAX:
            self._changes.clear()
        old_labels, old_size = self._old_measure(old)
        new_labels = Counter(new.labels())
        old_count = old_labels.get
        changed = [(label, n, old_count(label, 0)) for label, n in new_labels.items()
                   if n != old_count(label, 0)]
        changed.extend((label, 0, n) for label, n in old_labels.items()
                       if label not in new_labels)
        found: _Change = (tuple(changed), new.size() - old_size)
        self._changes[key] = (old, new, found)
        return found

    def _old_measure(self, old: Node) -> tuple[Counter[str], int]:
        """The label counts and size of a rewritten subterm (one per position, shared by
        every rewrite there)."""
        hit = self._olds.get(id(old))
        if hit is not None and hit[0] is old:
            return hit[1], hit[2]
        if len(self._olds) >= _MEMO_MAX:
            self._olds.clear()
        counts, size = Counter(old.labels()), old.size()
        self._olds[id(old)] = (old, counts, size)
        return counts, size

    def _label_counts(self, tree: Node) -> Counter[str]:
        hit = self._labels.get(id(tree))
        if hit is not None and hit[0] is tree:
            return hit[1]
        counts = Counter(tree.labels())
        self._labels[id(tree)] = (tree, counts)
        return counts


def _count(value: Any) -> Any:
    """A count given as text (``"4"``, from a command line) read as the int; anything else is
    left for the constructor's check, which names the option."""
    return int(value) if isinstance(value, str) and value.strip().isdigit() else value


def _rank(rewrite: Rewrite, change: _Change, wanted: Counter[str], side: str, order: int
          ) -> tuple:
    """Shared labels gained with the other side (more first), size change (smaller first),
    forward before backward, ``@[simp]`` first, then side and discovery order."""
    get = wanted.get  # not ``wanted[label]``: a missing label would call Counter.__missing__
    changed, growth = change
    gain = 0
    for label, new, old in changed:
        w = get(label, 0)
        gain += min(new, w) - min(old, w)
    return (-gain, growth, rewrite.backward, not rewrite.lemma.row.simp, side, order)


def _tactic(rewrite: Rewrite, proofs: tuple[str, ...], state: State, side: str
            ) -> tuple[str, bool]:
    arrow = "← " if rewrite.backward else ""
    lemma = rewrite.lemma
    args = "".join(f" (by {p})" for p in proofs)
    tree: Node = getattr(state, side)
    if free_names(rewrite.old) & _bound_on_path(tree, rewrite.path):
        return f"simp only [{arrow}{lemma.name}{args}]", True
    direction = lemma.directions["backward" if rewrite.backward else "forward"]
    occurrences: list[tuple[str, Path]] = []
    first: Node | None = None
    for where in ("lhs", "rhs"):
        goal_side: Node = getattr(state, where)
        for p, sub in positions(goal_side):
            if first is None and match_lemma(direction.source, sub, lemma.variables,
                                             lemma.numerals) is not None:
                first = sub
            if sub == rewrite.old and not free_names(sub) & _bound_on_path(goal_side, p):
                occurrences.append((where, p))
    named = ""
    if first != rewrite.old:
        named = "".join(f" ({name} := {to_lean(value)})"
                        for name, value in sorted(rewrite.sigma.items())
                        if name not in lemma.type_variables)
    text = f"{arrow}{lemma.name}{named}{args}"
    # a conditional lemma's hypotheses are given in order after the named variables: exact
    # when its explicit arguments are exactly those hypotheses (the usual Mathlib form)
    approximate = bool(proofs)
    if len(occurrences) <= 1:
        return f"rw [{text}]", approximate
    k = occurrences.index((side, rewrite.path)) + 1
    return f"nth_rw {k} [{text}]", approximate
