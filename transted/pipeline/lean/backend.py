"""The seam between transted and a Lean REPL: an abstract backend and the replay backend.

:class:`ReplBackend` sends one REPL request and returns a
:class:`~transted.pipeline.lean.results.CommandResult` or :class:`~transted.pipeline.lean.results.StepResult`.
Two implementations: :class:`transted.pipeline.lean.server.LeanInteractBackend` drives a live Lean
through lean-interact, and :class:`ReplayBackend` answers only from recorded real REPL
transcripts (like httpx's ``MockTransport``): an unrecorded request raises
:class:`UnrecordedRequest`, it never invents Lean's answer.

``generation`` counts process (re)starts: environment and proof-state ids are valid only
in the generation that made them (USER_NEEDS 3), so callers rebuild a proof state by
replaying its tactic path when the generation changed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import deque
from pathlib import Path
from typing import Any

from transted.errors import InputError, LeanUnavailable
from transted.pipeline.lean.responses import canonical_request, parse_response, split_json_stream
from transted.pipeline.lean.results import CommandResult, StepResult

__all__ = ["ReplBackend", "ReplayBackend", "UnrecordedRequest"]


class UnrecordedRequest(LeanUnavailable):
    """The replay backend holds no recorded answer to this request (it never invents one)."""


class ReplBackend(ABC):
    """Abstract REPL backend; a context manager that starts lazily."""

    generation: int = 0

    def command(self, cmd: str, *, env: int | None = None, timeout: float | None = None,
                **options: Any) -> CommandResult:
        """Run Lean source ``cmd`` (in environment ``env``; None = fresh, imports allowed).

        ``options`` are REPL command options by wire name (``allTactics``, ``rootGoals``).
        """
        if not cmd:
            raise ValueError("`cmd` must be non-empty Lean source")
        request: dict[str, Any] = {"cmd": cmd}
        if env is not None:
            request["env"] = env
        request.update(options)
        result = self.send(request, timeout=timeout)
        if not isinstance(result, CommandResult):
            raise TypeError(f"backend answered a command with {type(result).__name__}")
        return result

    def tactic(self, tactic: str, proof_state: int, *, timeout: float | None = None
               ) -> StepResult:
        """Run ``tactic`` on proof state ``proof_state``."""
        if not tactic.strip():
            raise ValueError("`tactic` must be a non-empty tactic")
        result = self.send({"tactic": tactic, "proofState": proof_state}, timeout=timeout)
        if not isinstance(result, StepResult):
            raise TypeError(f"backend answered a tactic with {type(result).__name__}")
        return result

    @abstractmethod
    def send(self, request: dict[str, Any], *, timeout: float | None = None
             ) -> CommandResult | StepResult:
        """Send one raw REPL request (wire field names) and parse the answer.

        Raises
        ------
        LeanTimeout, LeanCrashed
            Transport failures (live backend).
        LeanUnavailable
            No Lean here, or (replay) no recorded answer.
        """

    def signature_fields(self) -> dict[str, str]:
        """What identifies this backend's answers in a signature."""
        return {}

    def close(self) -> None:  # noqa: B027 - optional hook
        """Release the backend's process, if any."""

    def __enter__(self) -> ReplBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ReplayBackend(ReplBackend):
    """Answers from recorded REPL exchanges, keyed by the exact request JSON.

    A request recorded several times is answered with its recordings in order; asking more
    often than it was recorded, or asking anything unrecorded, raises
    :class:`UnrecordedRequest`.

    Parameters
    ----------
    exchanges : ``(request, response)`` pairs as recorded.
    source : name of the recording (goes into the signature).
    """

    def __init__(self, exchanges: list[tuple[dict[str, Any], dict[str, Any]]], *,
                 source: str = "replay"):
        self.source = source
        self._answers: dict[str, deque[dict[str, Any]]] = {}
        for request, response in exchanges:
            self._answers.setdefault(canonical_request(request), deque()).append(response)
        self.requests: list[dict[str, Any]] = []
        """Requests asked so far (tests inspect them)."""

    @classmethod
    def from_transcript(cls, path: str | Path) -> ReplayBackend:
        """Load ``X.in`` (requests) and ``X.expected.out`` (responses) of a REPL test.

        Raises
        ------
        InputError
            If either file is missing or the counts of requests and responses differ.
        """
        path = Path(path)
        stem = path.with_suffix("") if path.suffix == ".in" else path
        inp, out = stem.with_suffix(".in"), Path(f"{stem}.expected.out")
        try:
            requests = split_json_stream(inp.read_text(encoding="utf-8"), source=str(inp))
            responses = split_json_stream(out.read_text(encoding="utf-8"), source=str(out))
        except OSError as e:
            raise InputError(f"{stem}: cannot read transcript: {e.strerror}") from e
        if len(requests) != len(responses):
            raise InputError(f"{stem}: {len(requests)} requests but {len(responses)} responses")
        return cls(list(zip(requests, responses, strict=True)), source=stem.name)

    def send(self, request: dict[str, Any], *, timeout: float | None = None
             ) -> CommandResult | StepResult:
        self.requests.append(request)
        queue = self._answers.get(canonical_request(request))
        if not queue:
            raise UnrecordedRequest(f"replay `{self.source}` has no recorded answer to "
                                    f"{canonical_request(request)}")
        return parse_response(request, queue.popleft())

    def signature_fields(self) -> dict[str, str]:
        return {"backend": f"replay:{self.source}"}
