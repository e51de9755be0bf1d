"""A proof session over a backend: import once, elaborate a pair's equality, run tactics,
and rebuild a search node after the REPL restarted.

Proof-state ids die with the REPL process (USER_NEEDS 3: never persist proof states), so a
search node is identified by what rebuilds it: the pair's :class:`EqualityCommand` plus the
tactic path from the equality goal. :meth:`ProofSession.ensure` returns the node unchanged
while its generation is current, and otherwise re-elaborates the equality and replays the
path step by step.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from tenacity import Retrying, retry_if_exception_type, stop_after_attempt

from transted.errors import LeanCrashed
from transted.lean.backend import ReplBackend
from transted.lean.equality import EqualityCommand, equality_command
from transted.lean.results import CommandResult, LeanMessage, StepResult
from transted.pairs import Pair

__all__ = ["LeanNode", "LeanElaboration", "ProofSession", "ReplayBroken"]


@dataclass(frozen=True)
class LeanNode:
    """A search node in Lean: the equality, the tactic path to here, and (while valid) the
    REPL's proof-state id and the goal text there."""

    equality: EqualityCommand
    path: tuple[str, ...]
    proof_state: int
    goal: str
    generation: int


@dataclass(frozen=True)
class LeanElaboration:
    """The result of putting a pair's equality in front of Lean.

    ``status`` is ``elaborated`` (``node`` is the start of the search) or
    ``elaboration-failed`` (Algorithm 1 line 3: the caller falls back to the offline TED);
    ``messages`` are Lean's errors in the latter case.
    """

    status: Literal["elaborated", "elaboration-failed"]
    node: LeanNode | None
    messages: tuple[LeanMessage, ...] = ()
    error: str | None = None


class ReplayBroken(LeanCrashed):
    """A tactic path that worked before a restart failed when replayed."""


class ProofSession:
    """Elaborate equalities and run tactics on one backend.

    Parameters
    ----------
    backend : where requests go (live or replay).
    auto_implicit : passed to :func:`~transted.lean.equality.equality_command`.
    timeout : per-request seconds, None = the backend's default.
    rebuilds : how many times a node is rebuilt after a crash before giving up.
    """

    def __init__(self, backend: ReplBackend, *, auto_implicit: bool = False,
                 timeout: float | None = None, rebuilds: int = 1):
        self.backend = backend
        self.auto_implicit = auto_implicit
        self.timeout = timeout
        self.rebuilds = rebuilds
        self._import_envs: dict[tuple[int, str], int] = {}

    # -- environments -----------------------------------------------------------------
    def imports_env(self, imports: str) -> CommandResult:
        """Run the import lines once per process generation; cached by their text."""
        key = (self.backend.generation, imports)
        if key in self._import_envs:
            return CommandResult(env=self._import_envs[key])
        result = self.backend.command(imports, timeout=self.timeout)
        if result.ok and result.env is not None:
            self._import_envs[(self.backend.generation, imports)] = result.env
        return result

    def run_command(self, imports: str, command: str) -> CommandResult:
        """Run ``command`` on top of the environment made by ``imports``."""
        env = self.imports_env(imports)
        if not env.ok or env.env is None:
            return env
        return self.backend.command(command, env=env.env, timeout=self.timeout)

    # -- the equality goal ------------------------------------------------------------
    def elaborate(self, pair: Pair) -> LeanElaboration:
        """Elaborate ``reference = candidate`` for ``pair`` (ASSESS Algorithm 1, lines 2-3)."""
        equality = equality_command(pair.reference, pair.candidate,
                                    auto_implicit=self.auto_implicit)
        return self.elaborate_equality(equality)

    def elaborate_equality(self, equality: EqualityCommand) -> LeanElaboration:
        result = self.run_command(equality.imports, equality.command)
        if not result.ok:
            return LeanElaboration("elaboration-failed", None, result.errors, result.error)
        goal = next((s for s in result.sorries
                     if s.line == equality.goal_line and s.proof_state is not None), None)
        if goal is None or goal.proof_state is None:
            return LeanElaboration("elaboration-failed", None, result.messages,
                               "Lean returned no proof state for the equality goal")
        node = LeanNode(equality, (), goal.proof_state, goal.goal, self.backend.generation)
        return LeanElaboration("elaborated", node)

    # -- tactics ----------------------------------------------------------------------
    def step(self, node: LeanNode, tactic: str) -> StepResult:
        """Run ``tactic`` at ``node``, rebuilding the node first if the REPL restarted, and
        once more after a crash during the step itself."""
        retrying = Retrying(stop=stop_after_attempt(1 + self.rebuilds), reraise=True,
                            retry=retry_if_exception_type(LeanCrashed))
        for attempt in retrying:
            with attempt:
                current = self.ensure(node)
                return self.backend.tactic(tactic, current.proof_state, timeout=self.timeout)
        raise LeanCrashed("unreachable: tenacity returned without a result")  # pragma: no cover

    def child(self, node: LeanNode, tactic: str, result: StepResult) -> LeanNode | None:
        """The node after ``tactic`` when ``result`` left exactly one goal cleanly (no
        error, no ``sorry`` slipped in), else None."""
        if (result.failed or result.sorries or len(result.goals) != 1
                or result.proof_state is None):
            return None
        return LeanNode(node.equality, node.path + (tactic,), result.proof_state,
                        result.goals[0], self.backend.generation)

    def ensure(self, node: LeanNode) -> LeanNode:
        """``node`` with a proof-state id valid in the current REPL generation.

        Raises
        ------
        ReplayBroken
            If the equality no longer elaborates or a step of the path fails on replay.
        """
        if node.generation == self.backend.generation:
            return node
        start = self.elaborate_equality(node.equality)
        if start.node is None:
            raise ReplayBroken(f"rebuilding a node: the equality no longer elaborates "
                               f"({start.error or [m.data for m in start.messages]})")
        current = start.node
        for i, tactic in enumerate(node.path):
            result = self.backend.tactic(tactic, current.proof_state, timeout=self.timeout)
            nxt = self.child(current, tactic, result)
            if nxt is None:
                raise ReplayBroken(f"rebuilding a node: step {i + 1} `{tactic}` failed on replay")
            current = nxt
        return replace(current, path=node.path)
