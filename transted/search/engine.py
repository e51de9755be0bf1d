"""Best-first transformation search with TED as heuristic (ASSESS §3.3.2, Algorithm 1).

Start from the goal ``T1 = T2``; repeatedly expand the open goal with the smallest
TED(lhs, rhs) (ties: fewer moves from the start, then generation order — deterministic);
a goal whose sides are alpha-equivalent is closed by ``rfl`` and the distance is 0.
Otherwise the result is d* = the smallest TED over all visited goals, an upper bound on
the TransTED pseudometric of Theorem 1 because every move yields a goal that implies its
parent (§3.3.1 monotonicity) and TED dominates d* (domination). The raw TED of the
original, uncanonicalised trees also bounds d*, so d* ≤ TED(T1, T2) always.

Budgets: ``max_expansions`` (deterministic), ``max_time`` (wall clock: a safety cap; when
it fires the status says ``timeout`` and the result may vary between runs), ``queue_cap``
(frontier size; the worst open goals are dropped).
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import networkx as nx

from transted.opt.node import Node
from transted.search.distance import UNIT_TED, tree_distance
from transted.search.providers.base import Move, MoveProvider
from transted.search.state import State
from transted.ted.distance import TreeEditDistance

__all__ = ["SearchConfig", "SearchResult", "Step", "search", "search_state", "fill_tactics"]

Status = Literal["found", "exhausted", "timeout"]


@dataclass(frozen=True)
class SearchConfig:
    """Limits of one search. Defaults are the single source of truth (CLI reads them).

    Parameters
    ----------
    max_expansions : goals expanded at most (the deterministic budget)
    max_time : wall-clock seconds at most (None: no limit)
    queue_cap : open goals kept at most; beyond it the worst are dropped
    max_depth : moves from the start at most
    """

    max_expansions: int = 8
    max_time: float | None = 2.0
    queue_cap: int = 2000
    max_depth: int = 16

    def __post_init__(self) -> None:
        for name in ("max_expansions", "queue_cap", "max_depth"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"`{name}` must be a non-negative int, got {value!r}")
        if self.max_time is not None and not (isinstance(self.max_time, (int, float))
                                              and self.max_time > 0):
            raise ValueError(f"`max_time` must be a positive number or None, got "
                             f"{self.max_time!r}")


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
        return lines + ["rfl"] if self.status == "found" else lines

    def to_dict(self) -> dict[str, Any]:
        return {"distance": self.distance, "start_distance": self.start_distance,
                "status": self.status, "script": self.script,
                "steps": [{"name": s.name, "tactic": s.tactic, "distance": s.distance,
                           "approximate": s.approximate} for s in self.path],
                "best": {"lhs": str(self.best.lhs), "rhs": str(self.best.rhs)},
                "stats": {k: v for k, v in self.stats.items() if not k.startswith("_")}}


def search(lhs: Node, rhs: Node, providers: Sequence[MoveProvider] | MoveProvider, *,
           config: SearchConfig = SearchConfig(), ted: TreeEditDistance | None = None
           ) -> SearchResult:
    """Search for the goal ``lhs = rhs`` reachable with the smallest TED (Algorithm 1).

    ``ted`` computes every distance (its backend and cost model); unit-cost edist if None.
    """
    if not isinstance(config, SearchConfig):
        raise TypeError(f"`config` must be a SearchConfig, got {type(config).__name__}")
    ted = _check_ted(ted)
    return search_state(State(lhs, rhs), providers, config=config,
                        raw_distance=tree_distance(lhs, rhs, ted), ted=ted)


def search_state(start: State, providers: Sequence[MoveProvider] | MoveProvider, *,
                 config: SearchConfig = SearchConfig(), raw_distance: float | None = None,
                 ted: TreeEditDistance | None = None) -> SearchResult:
    """:func:`search` from a prepared goal (e.g. one elaborated by Lean, with its handle).

    ``raw_distance`` is the TED of the original trees when known (it also bounds d*).
    """
    if not isinstance(config, SearchConfig):
        raise TypeError(f"`config` must be a SearchConfig, got {type(config).__name__}")
    ted = _check_ted(ted)
    providers = [providers] if isinstance(providers, MoveProvider) else list(providers)
    if raw_distance is None:
        raw_distance = tree_distance(start.lhs, start.rhs, ted)
    return _Search(providers, config, ted).run(start, raw_distance)


def _check_ted(ted: TreeEditDistance | None) -> TreeEditDistance:
    if ted is None:
        return UNIT_TED
    if not isinstance(ted, TreeEditDistance):
        raise TypeError(f"`ted` must be a TreeEditDistance, got {type(ted).__name__}")
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
                 ted: TreeEditDistance):
        self.providers = list(providers)
        self.config = config
        self.distance = ted.flat
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
        node = len(self.states)
        self.ids[key] = node
        self.states.append(state)
        d = self.distance(*state.flat_sides())
        self.dist.append(d)
        self.graph.add_node(node, distance=d)
        return node, True

    def run(self, start: State, raw_distance: float) -> SearchResult:
        t0 = time.perf_counter()
        deadline = None if self.config.max_time is None else t0 + self.config.max_time
        root, _ = self._add(start)
        best = root
        queue: list[tuple[float, int, int, int]] = [(self.dist[root], 0, 0, root)]
        seq, expanded, status = 1, 0, "exhausted"
        while queue and self.dist[best] > 0:
            if expanded >= self.config.max_expansions:
                break
            if deadline is not None and time.perf_counter() > deadline:
                status = "timeout"
                break
            _d, depth, _s, node = heapq.heappop(queue)
            expanded += 1
            if depth >= self.config.max_depth:
                continue
            for move in self._moves(self.states[node]):
                child, new = self._add(move.state)
                if child != node and not self.graph.has_edge(node, child):
                    self.graph.add_edge(node, child, name=move.name)
                    self.moves[(node, child)] = move
                if not new:
                    continue
                self.generated += 1
                d = self.dist[child]
                if d < self.dist[best]:
                    best = child
                if d == 0:
                    break
                heapq.heappush(queue, (d, depth + 1, seq, child))
                seq += 1
            if len(queue) > self.config.queue_cap:
                queue = heapq.nsmallest(self.config.queue_cap, queue)
                heapq.heapify(queue)
        if self.dist[best] == 0:
            status = "found"
        return self._result(root, best, raw_distance, status, expanded, len(queue),
                            time.perf_counter() - t0)

    def _moves(self, state: State) -> Iterable[Move]:
        for provider in self.providers:
            yield from provider.moves(state)

    def _result(self, root: int, best: int, raw: float, status: str, expanded: int,
                frontier: int, elapsed: float) -> SearchResult:
        best_d = self.dist[best]
        nodes = nx.shortest_path(self.graph, root, best)
        steps = []
        for a, b in zip(nodes, nodes[1:], strict=False):
            text, approx = self.moves[(a, b)].tactic_text()
            self.graph.edges[a, b].update(tactic=text, approximate=approx)
            steps.append(Step(self.moves[(a, b)].name, text, self.states[b], self.dist[b],
                              approx))
        if raw < best_d:
            best_d, steps, best = raw, [], root
        stats = {"expanded": expanded, "generated": self.generated, "frontier": frontier,
                 "visited": len(self.states), "time": elapsed,
                 "config": asdict(self.config), "_moves": self.moves,
                 "_states": self.states}
        return SearchResult(distance=best_d, start_distance=raw, best=self.states[best],
                            path=tuple(steps), status=status,  # type: ignore[arg-type]
                            stats=stats, graph=self.graph)
