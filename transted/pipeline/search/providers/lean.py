"""Lean moves behind the provider interface: ``rw?`` suggestions and ASSESS Table 1.

Adapts :class:`transted.pipeline.lean.moves.LeanMoveProvider` (which speaks Lean proof states) to
:class:`~transted.pipeline.search.providers.base.MoveProvider` (which speaks :class:`State`): a Lean
goal ``⊢ lhs = rhs`` is parsed into trees (the OPT goal parser) and the Lean node rides in
``State.handle["lean"]``. Only states that carry a handle get Lean moves; offline moves from
them produce states without one (``providers="lean,offline"``), which later only offline
moves extend. The Lean start-up (server, session, elaboration of the pair's equality, the
``norm_num1``/``rfl`` shortcut) happens here, in :meth:`LeanProvider.open` and
:meth:`LeanProvider.prepare`, not in the metric.
Lean's answers are never invented: without a backend nothing here runs.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from transted.budget import Budget
from transted.errors import LeanUnavailable, ParseError
from transted.pipeline.evidence.model import Evidence
from transted.pipeline.lean.moves import LeanMoveProvider
from transted.pipeline.lean.server import LeanInteractBackend, ServerConfig
from transted.pipeline.lean.session import ProofSession
from transted.pipeline.opt.goal import parse_goal
from transted.pipeline.opt.labels import EQ
from transted.pipeline.search.providers.base import Move, Provider, ProviderContext
from transted.pipeline.search.state import CLOSED, Local, State

if TYPE_CHECKING:
    from transted.pipeline.lean.moves import LeanMoveProvider
    from transted.pipeline.lean.session import LeanNode, ProofSession
    from transted.reading.pairs import Pair

__all__ = ["LeanProvider", "state_from_goal"]



def state_from_goal(goal: str, handle: object = None) -> State | None:
    """The search state of a Lean goal text ``hyps ⊢ lhs = rhs`` (None if not an equality);
    ``handle`` (the Lean node) rides in the state's ``"lean"`` slot."""

    try:
        parsed = parse_goal(goal)
    except ParseError:
        return None
    if parsed.target.label != EQ:
        return None
    context = tuple(Local(name, hyp.type) for hyp in parsed.hypotheses for name in hyp.names)
    lhs, rhs = parsed.target.children
    return State(lhs, rhs, context, handle={} if handle is None else {"lean": handle})


class LeanProvider(Provider):
    """Moves from a live (or replayed) Lean session; the Lean start-up lives here.

    Parameters
    ----------
    session : a ready proof session (else one is made on :meth:`open` from ``backend``,
        or from a new lean-interact server for ``project``)
    moves : the Lean move generator (default: ``rw?`` + Table 1)
    backend, project, timeout : how to make the session when none is given
    """

    name = "lean"
    version = "1"
    runs_lean = True

    def __init__(self, session: ProofSession | None = None,
                 moves: LeanMoveProvider | None = None, *, backend: Any = None,
                 project: str | None = None, timeout: float = 60.0):

        self.session = session
        self.backend = backend if backend is not None else (
            session.backend if session is not None else None)
        self.project, self.timeout = project, timeout
        self.lean_moves = moves if moves is not None else LeanMoveProvider()
        self._owns_backend = False
        self._evidence: list[Evidence] = []

    @classmethod
    def from_context(cls, context: ProviderContext) -> LeanProvider:
        return cls(backend=context.backend, project=context.project, timeout=context.timeout)

    def options(self) -> dict[str, object]:
        """The moves' options and the backend's fields (Lean, Mathlib, REPL versions). They are
        the same before the first pair as after it: without a given backend, the one
        :meth:`open` will use is made here (reading the project's versions starts no server),
        and a project that cannot be found is named ``lean:unavailable`` on every pair."""
        opts: dict[str, object] = dict(self.lean_moves.options())
        try:
            opts.update(self._backend().signature_fields())
        except LeanUnavailable:
            opts.update({"backend": "lean-interact", "lean": "unavailable"})
        return opts

    def _backend(self) -> Any:
        """The given backend, or the lean-interact backend of ``project`` (made, not started)."""
        if self.backend is None:
            self.backend = LeanInteractBackend(ServerConfig(project=self.project,
                                                            timeout=self.timeout))
            self._owns_backend = True
        return self.backend

    def open(self) -> None:
        """Make the proof session (its Lean server starts on the first request)."""
        if self.session is not None:
            return

        self.session = ProofSession(self._backend(), timeout=self.timeout)

    def close(self) -> None:
        """Stop the server this provider started (a backend passed in stays open)."""
        if self._owns_backend and self.backend is not None:
            self.backend.close()
            self.backend, self.session, self._owns_backend = None, None, False

    def _session(self) -> ProofSession:
        self.open()
        assert self.session is not None
        return self.session

    def prepare(self, pair: Pair | None, start: State, budget: Budget) -> State | None:
        """Lean's elaboration of the pair's equality, after ``norm_num1``/``rfl``
        (Algorithm 1 lines 3 and 10-12); None when the equality does not elaborate."""
        if pair is None:
            raise ValueError("the lean provider needs the pair (its headers) to elaborate")
        self._evidence = []
        session = self._session()
        elaboration = session.elaborate(pair)
        if elaboration.status != "elaborated" or elaboration.node is None:
            return None  # Algorithm 1, line 3: the equality does not compile → plain TED
        root, closed = self.lean_moves.shortcut(session, elaboration.node)
        if closed:
            return CLOSED
        if not budget.spent():
            refutation = self.lean_moves.refute(session, root)
            if refutation is not None:
                self._evidence.append(Evidence(
                    kind="refuted", engine=self.name,
                    witness={str(k): str(v) for k, v in refutation.witness},
                    script=[refutation.tactic] if refutation.tactic else [],
                    reason=refutation.issue or f"reported by the {self.name} provider"))
        return state_from_goal(root.goal, root)

    def evidence(self) -> list[Evidence]:
        """The counterexample ``plausible`` found at the root of the last pair, if any."""
        return list(self._evidence)

    def start(self, node: LeanNode) -> tuple[State | None, bool]:
        """Algorithm 1 lines 10-12 at the elaborated goal: ``(start state, closed?)``."""
        start, closed = self.lean_moves.shortcut(self._session(), node)
        if closed:
            return CLOSED, True
        return state_from_goal(start.goal, start), False

    def moves(self, state: State, budget: Budget | None = None) -> Iterator[Move]:
        node = state.handle.get(self.name)
        if node is None:
            return
        budget = budget if budget is not None else Budget()
        for move in self.lean_moves.moves(self._session(), node,  # type: ignore[arg-type]
                                          budget=budget):
            if move.outcome == "closed":
                yield Move(move.lemma or move.tactic, move.tactic, CLOSED)
                continue
            child = state_from_goal(move.outcome.goal, move.outcome.node)
            if child is not None:
                yield Move(move.lemma or move.tactic, move.tactic, child)
