"""The provider protocol: a goal in, the goals one transformation away out.

ASSESS Algorithm 1 takes its moves from ``rw?`` suggestions and the tactics of Table 1; here
any :class:`MoveProvider` supplies them, so the offline rules, a Lean backend and decision
procedures plug into the same engine, several at once. A move must be *sound* in the sense
of §3.3.1: the new goal implies the old one (it is stronger or equal), so d*(old) ≤ d*(new).

Lifecycle of a provider in one metric: ``open()`` once before the first pair (start a
server, load a table), then per pair ``prepare(pair, start, budget)`` (may replace the start
goal, e.g. by Lean's elaboration, and attach the provider's handle) and ``moves(state,
budget)`` per expanded goal, and ``evidence()`` after the search (definite findings such
as a counterexample); ``close()`` at the end. ``name`` and ``version`` and ``options()`` go
into the score signature. Providers are context managers.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from transted.budget import Budget
from transted.pipeline.evidence.model import Evidence
from transted.pipeline.search.state import State

if TYPE_CHECKING:
    from transted.reading.pairs import Pair

__all__ = ["Move", "MoveProvider", "Provider", "ProviderContext", "collect_evidence",
           "prepare_start", "provider_moves", "provider_label"]


@dataclass(frozen=True)
class ProviderContext:
    """What a metric knows that a provider factory may need.

    Parameters
    ----------
    rules : rule file path (None: the packaged ``rules/offline.yaml``)
    project : Lean project directory (Lean providers)
    timeout : per-request seconds for external tools (Lean REPL, solvers)
    backend : a ready REPL backend (tests: a replay backend); None: start one on ``open()``
    extra : further ``provider_options`` of the metric, for third-party providers
    """

    rules: str | None = None
    project: str | None = None
    timeout: float = 60.0
    backend: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Move:
    """One transformation: the lemma that justifies it, its Lean tactic, the new goal.

    ``approximate`` marks a tactic text that does not pin the step exactly (e.g. a rewrite
    under a binder, printed as ``simp only [...]`` which may rewrite more occurrences).
    ``tactic`` may be a zero-argument callable: most generated moves are never printed, and
    pinning the occurrence of a rewrite costs a scan of the goal.
    """

    name: str
    tactic: str | Callable[[], tuple[str, bool]]
    state: State
    approximate: bool = False

    def tactic_text(self) -> tuple[str, bool]:
        """``(tactic, approximate)``, computing the text if it was deferred."""
        if callable(self.tactic):
            return self.tactic()
        return self.tactic, self.approximate


@runtime_checkable
class MoveProvider(Protocol):
    """What the engine and the metric need from a source of moves.

    ``name`` is the registry name (also the key of the provider's slot in
    :attr:`State.handle`); ``version`` changes whenever the moves can change. A provider
    that talks to a Lean REPL sets ``runs_lean = True`` (read with ``getattr``, default
    False; see :attr:`~transted.metrics.base.Metric.runs_lean`).
    """

    name: str
    version: str

    def open(self) -> None:
        """Acquire resources (idempotent). Called before the first ``prepare``/``moves``."""
        ...

    def close(self) -> None:
        """Release resources (idempotent)."""
        ...

    def options(self) -> dict[str, object]:
        """Settings that can change which moves are proposed (for signatures)."""
        ...

    def prepare(self, pair: Pair | None, start: State, budget: Budget) -> State | None:
        """The start goal for ``pair`` (``start``, or a replacement carrying this provider's
        handle); None when the pair is outside the provider's method (the search then gives
        the plain TED, ASSESS Algorithm 1 line 3)."""
        ...

    def moves(self, state: State, budget: Budget) -> Iterator[Move]:
        """The moves applicable to ``state``, in a deterministic order; stop generating
        once ``budget.spent()`` is true (check it between units of work)."""
        ...

    def evidence(self) -> Sequence[Evidence]:
        """Definite findings about the pair last prepared (reset by ``prepare``), beyond the
        moves: ``refuted`` (with the witness and the failing side when known) or ``proved``
        by a procedure outside the move path; usually empty."""
        ...


class Provider:
    """Convenience base: no-op lifecycle, context manager, ``prepare`` passes through."""

    name: str = "provider"
    version: str = "1"
    runs_lean: bool = False

    @classmethod
    def from_context(cls, context: Any) -> Provider:
        """The registry's factory (``ProviderContext`` in); a provider with no settings of
        its own is built without arguments."""
        return cls()

    def open(self) -> None:
        return None

    def close(self) -> None:
        return None

    def __enter__(self) -> Provider:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def options(self) -> dict[str, object]:
        return {}

    def prepare(self, pair: Pair | None, start: State, budget: Budget) -> State | None:
        return start

    def moves(self, state: State, budget: Budget) -> Iterator[Move]:
        raise NotImplementedError

    def evidence(self) -> Sequence[Evidence]:
        return ()


def provider_label(provider: Any) -> str:
    """``name@version`` (``name`` alone for a provider without a version)."""
    version = getattr(provider, "version", None)
    return f"{provider.name}@{version}" if version else str(provider.name)


def provider_moves(provider: Any) -> Callable[[State, Budget], Iterator[Move]]:
    """A ``moves(state, budget)`` callable, also for older providers with ``moves(state)``."""
    method = provider.moves
    try:
        params = inspect.signature(method).parameters.values()
    except (TypeError, ValueError):  # builtins without a signature: assume the protocol
        return method  # type: ignore[no-any-return]
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(positional) >= 2 or any(p.kind == p.VAR_POSITIONAL for p in params):
        return method  # type: ignore[no-any-return]
    return lambda state, budget: method(state)


def prepare_start(providers: Sequence[Any], pair: Pair | None, start: State, budget: Budget
                  ) -> State | None:
    """Run each provider's ``prepare`` in order; None as soon as one refuses the pair."""
    state = start
    for provider in providers:
        prepare = getattr(provider, "prepare", None)
        if prepare is None:
            continue
        prepared = prepare(pair, state, budget)
        if prepared is None:
            return None
        state = prepared
    return state


def collect_evidence(providers: Sequence[Any]) -> list[Evidence]:
    """The findings of every provider for the pair last prepared, in provider order."""
    found: list[Evidence] = []
    for provider in providers:
        report = getattr(provider, "evidence", None)
        if report is not None:
            found.extend(report())
    return found
