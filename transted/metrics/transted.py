"""``transted``: TransTED similarity, TED after transformations (ASSESS §3.3, Algorithm 1).

Both statements become operator trees exactly as for ``ted`` (same parser and options), the
goal ``T1 = T2`` is searched best-first with TED as heuristic, and the score is
``1 - d* / max(|T1|, |T2|)`` on the original trees. Since d* ≤ TED(T1, T2), the score is
never below the ``ted`` score of the same pair.

Providers: ``offline`` (our rule file and congruence moves; no Lean), ``lean`` (``rw?`` and
Table 1 in a Lean REPL, starting from Lean's own elaboration of the equality; if the equality
does not elaborate, Algorithm 1 line 3 falls back to the plain TED), ``both``.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, ClassVar, Literal

from transted.errors import LeanUnavailable
from transted.metrics.base import Metric, PairScore
from transted.metrics.ted import Field, TEDSimilarity
from transted.opt import Node
from transted.pairs import Pair
from transted.search.engine import SearchConfig, SearchResult, search, search_state
from transted.search.explain import Explanation, explain
from transted.search.providers.base import MoveProvider
from transted.search.providers.offline import OfflineProvider
from transted.search.ruleset import load_rules
from transted.ted.distance import similarity_from

__all__ = ["TransTEDSimilarity", "PROVIDERS"]

Provider = Literal["offline", "lean", "both"]
PROVIDERS: tuple[str, ...] = ("offline", "lean", "both")


class TransTEDSimilarity(Metric):
    """TransTED similarity between reference and candidate.

    Parameters
    ----------
    provider : ``offline`` (default), ``lean`` or ``both``
    max_expansions, max_time, queue_cap, max_depth : search budget (:class:`SearchConfig`)
    rules : path of a rule file (default: the packaged ``rules/offline.yaml``)
    field : ``statement`` or ``pretty`` (as for ``ted``)
    project, timeout : Lean project directory and per-request timeout (``lean``/``both``)
    backend : a ready :class:`~transted.lean.backend.ReplBackend` (tests: a replay backend)
    """

    name: ClassVar[str] = "transted"
    version: ClassVar[str] = "1"
    DEFAULTS: ClassVar[SearchConfig] = SearchConfig()

    def __init__(self, *, provider: Provider = "offline",
                 max_expansions: int = DEFAULTS.max_expansions,
                 max_time: float | None = DEFAULTS.max_time,
                 queue_cap: int = DEFAULTS.queue_cap, max_depth: int = DEFAULTS.max_depth,
                 rules: str | None = None, field: Field = "statement",
                 project: str | None = None, timeout: float = 60.0, backend: Any = None):
        if provider not in PROVIDERS:
            raise ValueError(f"`provider` must be one of {', '.join(PROVIDERS)}, got "
                             f"{provider!r}")
        self.provider: Provider = provider
        self.config = SearchConfig(max_expansions=max_expansions, max_time=max_time,
                                   queue_cap=queue_cap, max_depth=max_depth)
        self.ted = TEDSimilarity(field=field)
        self.rules_path = rules
        self._offline = OfflineProvider(load_rules(rules)) if provider != "lean" else None
        self.project, self.timeout, self._backend = project, timeout, backend
        self._session: Any = None

    def options(self) -> dict[str, object]:
        opts: dict[str, object] = {**self.ted.options(), "provider": self.provider,
                                   **{k.replace("_", "-"): v
                                      for k, v in asdict(self.config).items()}}
        if self._offline is not None:
            opts.update(self._offline.options())
        if self.provider != "offline" and self._backend is not None:
            opts.update(self._backend.signature_fields())
        return opts

    def search(self, pair: Pair) -> tuple[SearchResult, int]:
        """The search result for ``pair`` and max(|T1|, |T2|) of its original trees."""
        ref, cand = self.ted.trees(pair)
        size = max(ref.size(), cand.size())
        if self.provider == "offline" and self._offline is not None:
            return search(ref, cand, self._offline, config=self.config, ted=self.ted.ted), size
        return self._lean_search(pair, ref, cand), size

    def _score(self, pair: Pair) -> PairScore:
        result, size = self.search(pair)
        # the same normalisation and clipping as `ted` (Definition 3), with d* for the TED
        similarity = similarity_from(result.distance, size, size)
        return PairScore(similarity, {
            "distance": result.distance, "ted_distance": result.start_distance,
            "status": result.status, "script": result.script,
            "expanded": result.stats["expanded"], "size": size})

    def explain(self, pair: Pair) -> Any:
        """A rich renderable: distance, similarity, Lean script, tree diff of the best goal."""
        return self.explanation(pair).renderable()

    def explanation(self, pair: Pair) -> Explanation:
        result, size = self.search(pair)
        return explain(result, size, self.ted.ted)

    # -- Lean ---------------------------------------------------------------------------
    def _lean_search(self, pair: Pair, ref: Node, cand: Node) -> SearchResult:
        from transted.search.providers.lean import LeanProvider

        session = self._lean_session()
        elaboration = session.elaborate(pair)
        if elaboration.status != "elaborated" or elaboration.node is None:
            # Algorithm 1, line 3: the equality does not compile → plain TED
            return search(ref, cand, [], config=SearchConfig(max_expansions=0), ted=self.ted.ted)
        lean = LeanProvider(session)
        start, _closed = lean.start(elaboration.node)
        if start is None:
            return search(ref, cand, [], config=SearchConfig(max_expansions=0), ted=self.ted.ted)
        providers: list[MoveProvider] = [lean]
        if self._offline is not None:
            providers.append(self._offline)
        from transted.search.distance import tree_distance

        return search_state(start, providers, config=self.config,
                            raw_distance=tree_distance(ref, cand, self.ted.ted), ted=self.ted.ted)

    def _lean_session(self) -> Any:
        if self._session is None:
            from transted.lean.session import ProofSession

            backend = self._backend
            if backend is None:
                try:
                    from transted.lean.server import LeanInteractBackend, ServerConfig
                except ImportError as e:  # pragma: no cover - lean-interact is a dependency
                    raise LeanUnavailable(f"lean-interact is not importable: {e}") from e
                backend = LeanInteractBackend(ServerConfig(project=self.project,
                                                           timeout=self.timeout))
                self._backend = backend
            self._session = ProofSession(backend, timeout=self.timeout)
        return self._session
