"""Best-first transformation search with TED as heuristic (ASSESS §3.3.2, Algorithm 1).

Start from the goal ``T1 = T2``; repeatedly expand the open goal with the smallest
TED(lhs, rhs) (ties: fewer moves from the start, then generation order — deterministic);
a goal is closed only when its two sides are the same canonical tree (alpha-equivalent:
``rfl``) or a provider's move closed it (a decision procedure), and the distance is then 0.
A distance of 0 alone is not a closed goal: a cost model may price some relabelings at 0
(``cost=semantic`` renames ``2`` and ``2.0`` for free, yet ``7 / 2 = 3`` is about ℕ and
``7 / 2.0 = 3`` about Float).
Otherwise the result is d* = the smallest TED over all visited goals, an upper bound on
the TransTED pseudometric of Theorem 1 because every move yields a goal that implies its
parent (§3.3.1 monotonicity) and TED dominates d* (domination). The raw TED of the
original, uncanonicalised trees also bounds d*, so d* ≤ TED(T1, T2) always.

Budgets (:class:`~transted.budget.Budget`): ``max_expansions`` and ``max_work``
(moves generated; checked after every move, inside an expansion) are deterministic: the
same pair gives the same ``expanded`` and distance on an idle or a loaded machine.
``max_time`` is a hard per-pair deadline, a safety net checked after every move and by the
providers inside their generation loops: when it fires the status says ``timeout``, the
distance is the best seen so far, and the result may vary between runs. ``queue_cap``
bounds the frontier (the worst open goals are dropped).
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from transted.budget import Budget, BudgetExceeded
from transted.pipeline.engine_libraries import load_engine_libraries
from transted.pipeline.opt.node import Node
from transted.pipeline.search.distance import UNIT_TED, sides_distance, tree_distance
from transted.pipeline.search.providers.base import Move, MoveProvider, provider_moves
from transted.pipeline.search.state import State
from transted.pipeline.ted.distance import TreeEditDistance
from transted.pipeline.ted.hypotheses import HypothesisAlignedDistance
from transted.pipeline.ted.statement_distance import GoalDistance

__all__ = ["SearchConfig", "SearchResult", "Step", "search", "search_state", "fill_tactics",
           "is_closed"]

Status = Literal["found", "exhausted", "timeout"]


@dataclass(frozen=True)
class SearchConfig:
    """Limits of one search. Defaults are the single source of truth (CLI reads them).

    Parameters
    ----------
    max_expansions : goals expanded at most (the deterministic budget)
    max_time : wall-clock seconds at most per pair, a hard deadline (None: no limit)
    max_work : moves generated at most, counted inside expansions (None: no limit; the
        second deterministic budget)

    The deterministic limits bound the normal work (on the dev set at most 460 moves at the
    default 8 expansions); ``max_time`` is set far above the normal run time so that it
    fires only on pathological input, never changing a result under ordinary machine load.
    queue_cap : open goals kept at most; beyond it the worst are dropped
    max_depth : moves from the start at most
    """

    max_expansions: int = 8
    max_time: float | None = 10.0
    queue_cap: int = 2000
    max_depth: int = 16
    max_work: int | None = 20_000

    def __post_init__(self) -> None:
        if self.max_work is not None and (not isinstance(self.max_work, int)
                                          or isinstance(self.max_work, bool)
                                          or self.max_work < 0):
            raise ValueError(f"`max_work` must be a non-negative int or None, got "
                             f"{self.max_work!r}")
        for name in ("max_expansions", "queue_cap", "max_depth"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"`{name}` must be a non-negative int, got {value!r}")
        if self.max_time is not None and not (isinstance(self.max_time, (int, float))
                                              and self.max_time > 0):
            raise ValueError(f"`max_time` must be a positive number or None, got "
                             f"{self.max_time!r}")

    def budget(self) -> Budget:
        """A fresh per-pair budget with this config's ``max_work`` and ``max_time`` (the
        search's libraries loaded first: their import is not the pair's time)."""
        load_engine_libraries()
        return Budget(self.max_work, self.max_time)


@dataclass(frozen=True)
class Step:
    """One move on the path: lemma name, Lean tactic, and the goal it produced."""

    name: str
    tactic: str
    state: State
    distance: float
    approximate: bool = False


@dataclass(frozen=True)
class SearchResult:
    """Outcome of :func:`search`.

    ``distance`` is d*; ``best`` the goal attaining it (the start goal when the raw TED of
    the original trees was smallest); ``path`` the moves from the start to ``best``, a
    shortest path in ``graph`` (nodes: canonical goal keys; edges carry ``name``/``tactic``).
    """

    distance: float
    start_distance: float
    best: State
    path: tuple[Step, ...]
    status: Status
    stats: dict[str, Any] = field(default_factory=dict)
    graph: Any = field(default=None, repr=False, compare=False)

    @property
    def script(self) -> list[str]:
        """The path as Lean tactic lines (``rfl`` appended when the goal was closed)."""
        lines = [step.tactic for step in self.path]
        closed_by_move = bool(self.path) and self.best.closed  # a closing tactic ends it
        return lines + ["rfl"] if self.status == "found" and not closed_by_move else lines

    def to_dict(self) -> dict[str, Any]:
        return {"distance": self.distance, "start_distance": self.start_distance,
                "status": self.status, "script": self.script,
                "steps": [{"name": s.name, "tactic": s.tactic, "distance": s.distance,
                           "approximate": s.approximate} for s in self.path],
                "best": {"lhs": str(self.best.lhs), "rhs": str(self.best.rhs)},
                "stats": {k: v for k, v in self.stats.items() if not k.startswith("_")}}


def search(lhs: Node, rhs: Node, providers: Sequence[MoveProvider] | MoveProvider, *,
           config: SearchConfig = SearchConfig(), budget: Budget | None = None,
           ted: GoalDistance | None = None) -> SearchResult:
    """Search for the goal ``lhs = rhs`` reachable with the smallest TED (Algorithm 1).

    ``providers`` are opened already (see :mod:`~transted.pipeline.search.providers.base`); their
    moves are tried in the given order. ``budget`` defaults to one made from ``config``
    (pass one to count work done before the search, e.g. parsing, against the deadline).
    ``ted`` computes every distance (its backend and cost model); unit-cost edist if None.
    """
    if not isinstance(config, SearchConfig):
        raise TypeError(f"`config` must be a SearchConfig, got {type(config).__name__}")
    ted = _check_ted(ted)
    return search_state(State(lhs, rhs), providers, config=config,
                        raw_distance=tree_distance(lhs, rhs, ted), budget=budget, ted=ted)


def search_state(start: State, providers: Sequence[MoveProvider] | MoveProvider, *,
                 config: SearchConfig = SearchConfig(), raw_distance: float | None = None,
                 budget: Budget | None = None, ted: GoalDistance | None = None
                 ) -> SearchResult:
    """:func:`search` from a prepared goal (e.g. one elaborated by Lean, with its handle).

    ``raw_distance`` is the TED of the original trees when known (it also bounds d*).
    """
    if not isinstance(config, SearchConfig):
        raise TypeError(f"`config` must be a SearchConfig, got {type(config).__name__}")
    ted = _check_ted(ted)
    # one provider or several (``hasattr``: providers written before the protocol gained
    # ``version``/``open``/``prepare`` are still accepted, see ``provider_moves``)
    providers = ([providers] if hasattr(providers, "moves")  # type: ignore[list-item]
                 else list(providers))  # type: ignore[arg-type]
    if budget is None:
        budget = config.budget()
    if raw_distance is None:
        raw_distance = tree_distance(start.lhs, start.rhs, ted)
    return _Search(providers, config, ted).run(start, raw_distance, budget)


def is_closed(state: State) -> bool:
    """The closing rule: a provider closed the goal, or its sides are the same canonical tree
    (``rfl``; identical after renaming bound variables and locals to de Bruijn levels)."""
    if state.closed:
        return True
    lhs, rhs = state.flat_sides()
    return lhs == rhs


def _check_ted(ted: GoalDistance | None) -> GoalDistance:
    if ted is None:
        return UNIT_TED
    if not isinstance(ted, (TreeEditDistance, HypothesisAlignedDistance)):
        raise TypeError(f"`ted` must be a TreeEditDistance or a HypothesisAlignedDistance, "
                        f"got {type(ted).__name__}")
    return ted


def fill_tactics(result: SearchResult) -> Any:
    """The explored graph with a ``tactic`` text on every edge (for GraphML/DOT export)."""
    graph = result.graph
    moves = result.stats.get("_moves", {})
    states = result.stats.get("_states", [])
    for node, data in graph.nodes(data=True):
        if "lhs" not in data and node < len(states):
            data.update(lhs=str(states[node].lhs), rhs=str(states[node].rhs))
    for a, b, data in graph.edges(data=True):
        if "tactic" not in data and (a, b) in moves:
            data["tactic"], data["approximate"] = moves[(a, b)].tactic_text()
    return graph


class _Search:
    def __init__(self, providers: Iterable[MoveProvider], config: SearchConfig,
                 ted: GoalDistance):
        self.providers = list(providers)
        self._generators = [provider_moves(p) for p in self.providers]
        self.config = config
        self.distance = sides_distance(ted)
        import networkx as nx  # heavy to import (~0.3 s): only when a search runs
        self.graph = nx.DiGraph()
        self.ids: dict[tuple, int] = {}
        self.dist: list[float] = []
        self.states: list[State] = []
        self.moves: dict[tuple[int, int], Move] = {}
        self.generated = 0

    def _add(self, state: State) -> tuple[int, bool]:
        key = state.key
        node = self.ids.get(key)
        if node is not None:
            return node, False
        d = self.distance(*state.flat_sides(), state.lhs, state.rhs)  # first: a BudgetExceeded here leaves no trace
        node = len(self.states)
        self.ids[key] = node
        self.states.append(state)
        self.dist.append(d)
        self.graph.add_node(node, distance=d)
        return node, True

    def run(self, start: State, raw_distance: float, budget: Budget) -> SearchResult:
        t0 = time.perf_counter()
        root, _ = self._add(start)
        best = root
        closed = root if is_closed(start) else None
        queue: list[tuple[float, int, int, int]] = [(self.dist[root], 0, 0, root)]
        seq, expanded = 1, 0
        try:  # a long computation inside a move may stop with BudgetExceeded (deadline)
            while queue and closed is None:
                if expanded >= self.config.max_expansions or budget.spent():
                    break
                _d, depth, _s, node = heapq.heappop(queue)
                expanded += 1
                if depth >= self.config.max_depth:
                    continue
                for move in self._moves(self.states[node], budget):
                    spent = budget.charge()
                    child, new = self._add(move.state)
                    if child != node and not self.graph.has_edge(node, child):
                        self.graph.add_edge(node, child, name=move.name)
                        self.moves[(node, child)] = move
                    if new:
                        self.generated += 1
                        d = self.dist[child]
                        if d < self.dist[best]:
                            best = child
                        if is_closed(move.state):
                            best = closed = child
                            break
                        heapq.heappush(queue, (d, depth + 1, seq, child))
                        seq += 1
                    if spent:  # checked inside the expansion: one move past the budget at most
                        break
                if len(queue) > self.config.queue_cap:
                    queue = heapq.nsmallest(self.config.queue_cap, queue)
                    heapq.heapify(queue)
        except BudgetExceeded:
            pass  # the budget records why; the best goal so far stands
        status = ("found" if closed is not None else
                  "timeout" if budget.timed_out else "exhausted")
        result = self._result(root, best, raw_distance, status, expanded, len(queue),
                              time.perf_counter() - t0)
        result.stats["work"] = budget.work
        return result

    def _moves(self, state: State, budget: Budget) -> Iterable[Move]:
        for generate in self._generators:
            if budget.spent():
                return
            yield from generate(state, budget)

    def _result(self, root: int, best: int, raw: float, status: str, expanded: int,
                frontier: int, elapsed: float) -> SearchResult:
        best_d = self.dist[best]
        import networkx as nx  # heavy to import (~0.3 s): only when a search runs
        nodes = nx.shortest_path(self.graph, root, best)
        steps = []
        for a, b in zip(nodes, nodes[1:], strict=False):
            text, approx = self.moves[(a, b)].tactic_text()
            self.graph.edges[a, b].update(tactic=text, approximate=approx)
            steps.append(Step(self.moves[(a, b)].name, text, self.states[b], self.dist[b],
                              approx))
        if status == "found":
            best_d = 0.0
        elif raw < best_d:
            best_d, steps, best = raw, [], root
        stats = {"expanded": expanded, "generated": self.generated, "frontier": frontier,
                 "visited": len(self.states), "time": elapsed,
                 "config": asdict(self.config), "_moves": self.moves,
                 "_states": self.states}
        return SearchResult(distance=best_d, start_distance=raw, best=self.states[best],
                            path=tuple(steps), status=status,  # type: ignore[arg-type]
                            stats=stats, graph=self.graph)
