"""REPL wire format → :mod:`transted.pipeline.lean.results`, through lean-interact's pydantic models.

Both backends go through here: the live one receives lean-interact models from
``AutoLeanServer.run``; the replay one validates recorded JSON with the same models and the
same dispatch lean-interact uses (a response whose only key is ``message`` is a
``LeanError``; otherwise the request kind decides between ``CommandResponse`` and
``ProofStepResponse``). The contract tests feed every recorded response through
:func:`parse_response`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Literal

from transted.errors import InputError, LeanUnavailable
from transted.pipeline.lean.results import CommandResult, LeanMessage, SorryGoal, StepResult

if TYPE_CHECKING:
    from lean_interact.interface import BaseREPLQuery

__all__ = ["request_kind", "parse_response", "from_model", "to_request_model",
           "canonical_request", "split_json_stream"]

RequestKind = Literal["command", "tactic"]
_TACTIC_KEYS = ("tactic", "proofState", "unpickleProofStateFrom")


def request_kind(request: dict[str, Any]) -> RequestKind:
    """``tactic`` for proof-state requests (tactic, proof-state pickling), else ``command``."""
    return "tactic" if any(k in request for k in _TACTIC_KEYS) else "command"


def canonical_request(request: dict[str, Any]) -> str:
    """The exact-match key of a request: its JSON with sorted keys."""
    return json.dumps(request, sort_keys=True, ensure_ascii=False)


def _interface() -> Any:
    try:
        from lean_interact import interface
    except ImportError as e:
        raise LeanUnavailable("lean-interact is not installed: pip install 'transted[lean]'") from e
    return interface


def parse_response(request: dict[str, Any], response: dict[str, Any]
                   ) -> CommandResult | StepResult:
    """Validate a raw REPL response to ``request`` and convert it.

    Raises
    ------
    InputError
        If the response does not fit lean-interact's model for that request kind.
    """
    interface = _interface()
    kind = request_kind(request)
    if set(response) == {"message"} or not response:
        model_cls = interface.LeanError
    elif kind == "tactic":
        model_cls = interface.ProofStepResponse
    else:
        model_cls = interface.CommandResponse
    try:
        model = model_cls.model_validate(response)
    except ValueError as e:  # pydantic.ValidationError
        raise InputError(f"REPL response to {canonical_request(request)} does not fit "
                         f"{model_cls.__name__}: {e}") from e
    return from_model(model, kind)


def from_model(model: Any, kind: RequestKind) -> CommandResult | StepResult:
    """Convert a lean-interact response model (``CommandResponse``, ``ProofStepResponse``,
    ``LeanError``) to a transted result."""
    if type(model).__name__ == "LeanError":
        if kind == "tactic":
            return StepResult(proof_state=None, error=model.message)
        return CommandResult(env=None, error=model.message)
    messages = tuple(_message(m) for m in model.messages)
    sorries = tuple(_sorry(s) for s in model.sorries)
    if kind == "tactic":
        return StepResult(proof_state=model.proof_state, goals=tuple(model.goals),
                          messages=messages, sorries=sorries, status=model.proof_status)
    return CommandResult(env=model.env, messages=messages, sorries=sorries)


def _message(m: Any) -> LeanMessage:
    end = m.end_pos
    return LeanMessage(severity=m.severity, data=m.data, line=m.start_pos.line,
                       column=m.start_pos.column, end_line=end.line if end else None,
                       end_column=end.column if end else None)


def _sorry(s: Any) -> SorryGoal:
    pos = s.start_pos
    return SorryGoal(goal=s.goal, proof_state=s.proof_state,
                     line=pos.line if pos else None, column=pos.column if pos else None)


def to_request_model(request: dict[str, Any]) -> BaseREPLQuery:
    """The lean-interact request model for a raw request dict (for the live server)."""
    interface = _interface()
    if "tactic" in request:
        cls = interface.ProofStep
    elif "cmd" in request:
        cls = interface.Command
    elif "path" in request:
        cls = interface.FileCommand
    elif "unpickleProofStateFrom" in request:
        cls = interface.UnpickleProofState
    elif "unpickleEnvFrom" in request:
        cls = interface.UnpickleEnvironment
    elif "pickleTo" in request:
        cls = interface.PickleProofState if "proofState" in request else interface.PickleEnvironment
    else:
        raise InputError(f"not a REPL request: {canonical_request(request)}")
    return cls.model_validate(request)


def split_json_stream(text: str, *, source: str = "<stream>") -> list[dict[str, Any]]:
    """Split a REPL transcript (JSON objects separated by blank lines) into objects.

    Decoding is non-strict because recorded requests contain raw control characters
    (e.g. tabs inside ``cmd`` strings), which Lean's JSON reader accepts.
    """
    decoder = json.JSONDecoder(strict=False)
    out: list[dict[str, Any]] = []
    i = 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return out
        try:
            obj, i = decoder.raw_decode(text, i)
        except json.JSONDecodeError as e:
            raise InputError(f"{source}: invalid JSON at offset {e.pos}: {e.msg}") from e
        if not isinstance(obj, dict):
            raise InputError(f"{source}: expected a JSON object at offset {i}")
        out.append(obj)
