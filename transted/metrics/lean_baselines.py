"""Lean-based baselines of ASSESS §4.2: Typecheck, Definitional Equality, and BEq without
an LLM.

- ``typecheck``: the candidate statement elaborates (no error).
- ``defeq``: ``example : thm_P = thm_Q := by rfl`` succeeds (the paper's exact test; C.3
  explains its false positives: implicit binders get instantiated). ``explicit=True``
  compares ``@thm_P = @thm_Q`` instead, which keeps implicit binders in the types.
- ``beq``: BEq-style mutual provability (Liu et al. 2025a) with fixed tactic scripts instead
  of an LLM: per direction, ``exact?`` with the other statement in scope, then
  ``apply``/``have`` of the other statement followed by ``tauto``, ``simp_all``, ``omega``
  or ``exact?``; both directions must succeed.

Assumed statements are declared as ``axiom`` so that ``#print axioms`` of a proof shows
exactly what it used: a closure counts only with no error, no ``sorry`` (in the messages or
as ``sorryAx``), only the standard axioms plus the other statement, and no reference to the
statement being proved (USER_NEEDS 10; the rule lives in :mod:`transted.pipeline.lean.closure`).
Metrics depend on the ``lean`` package, never the reverse. With no Lean, ``_score`` raises
:class:`~transted.errors.LeanUnavailable` and the result is ``unavailable: ...``.
"""

from __future__ import annotations

from typing import ClassVar

from transted.errors import InputError, LeanTimeout, LeanUnavailable
from transted.metrics.base import Metric, PairScore
from transted.pipeline.lean.backend import ReplBackend
from transted.pipeline.lean.closure import clean_closure
from transted.pipeline.lean.equality import (
    CANDIDATE_NAME,
    REFERENCE_NAME,
    declaration,
    in_section,
    merged_imports,
    split_header,
)
from transted.pipeline.lean.results import CommandResult
from transted.pipeline.lean.server import LeanInteractBackend, ServerConfig
from transted.pipeline.lean.session import ProofSession
from transted.pipeline.lean.versions import read_versions
from transted.reading.pairs import Pair, Statement

__all__ = ["Typecheck", "DefEq", "BEqCheck", "BEQ_CLOSERS"]

BEQ_CLOSERS: tuple[str, ...] = ("tauto", "simp_all", "omega", "exact?")


class _LeanBaseline(Metric):
    """Shared plumbing: a lazily started backend and Lean versions in the signature."""

    binary: ClassVar[bool] = True
    runs_lean: ClassVar[bool] = True

    def __init__(self, *, backend: ReplBackend | None = None, project: str | None = None,
                 timeout: float = 60.0, auto_implicit: bool = True):
        if not timeout > 0:
            raise ValueError(f"`timeout` must be > 0 seconds, got {timeout!r}")
        self._backend = backend
        self._given_backend = backend
        self.project = project
        self.timeout = timeout
        self.auto_implicit = auto_implicit
        self._session: ProofSession | None = None

    def options(self) -> dict[str, object]:
        # Stable for the metric's lifetime (a batch refuses to mix signatures): it depends on
        # the backend given at construction, never on whether the live one has started.
        opts: dict[str, object] = {"timeout": self.timeout, "auto-implicit": self.auto_implicit}
        if self._given_backend is not None:
            return {**opts, **self._given_backend.signature_fields()}
        try:
            versions = read_versions(self.project).signature_fields()
        except (LeanUnavailable, InputError):
            versions = {"lean": "unavailable"}
        return {**opts, "backend": "lean-interact", **versions}

    def session(self) -> ProofSession:
        """The proof session (starts the live backend on first use)."""
        if self._session is None:
            if self._backend is None:

                self._backend = LeanInteractBackend(ServerConfig(project=self.project,
                                                                 timeout=self.timeout))
            self._session = ProofSession(self._backend, auto_implicit=self.auto_implicit,
                                         timeout=self.timeout)
        return self._session

    def _lines(self, stmt: Statement, name: str, *, keyword: str = "theorem",
               body: str = "sorry", source: str) -> list[str]:
        decl = declaration(stmt.statement, name, keyword=keyword, body=body, source=source)
        return in_section(split_header(stmt.header), decl, auto_implicit=self.auto_implicit)

    def _run(self, pair: Pair, lines: list[str]) -> CommandResult:
        imports = merged_imports(split_header(pair.reference.header),
                                 split_header(pair.candidate.header))
        return self.session().run_command(imports, "\n".join(lines))


def _errors(result: CommandResult) -> list[str]:
    return ([result.error] if result.error else []) + [m.data for m in result.errors]


class Typecheck(_LeanBaseline):
    """The candidate statement elaborates without error (ASSESS §4.2 "Typecheck")."""

    name = "typecheck"

    def _score(self, pair: Pair) -> PairScore:
        result = self._run(pair, self._lines(pair.candidate, CANDIDATE_NAME, source="candidate"))
        return PairScore(result.ok, {"errors": _errors(result)})


class DefEq(_LeanBaseline):
    """``example : thm_P = thm_Q := by rfl`` (ASSESS §4.2 "Definitional Equality")."""

    name = "defeq"

    def __init__(self, *, explicit: bool = False, **kwargs: object):
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.explicit = explicit

    def options(self) -> dict[str, object]:
        return {"explicit": self.explicit, **super().options()}

    def _score(self, pair: Pair) -> PairScore:
        at = "@" if self.explicit else ""
        lines = self._lines(pair.reference, REFERENCE_NAME, keyword="axiom", source="reference")
        lines += self._lines(pair.candidate, CANDIDATE_NAME, keyword="axiom", source="candidate")
        lines.append(f"example : {at}{REFERENCE_NAME} = {at}{CANDIDATE_NAME} := by rfl")
        result = self._run(pair, lines)
        return PairScore(result.ok and not result.uses_sorry, {"errors": _errors(result)})


class BEqCheck(_LeanBaseline):
    """Mutual provability with fixed tactic scripts (BEq without an LLM)."""

    name = "beq"

    def scripts(self, assumed: str) -> list[str]:
        """The proof attempts of one direction, in order."""
        out = ["exact?"]
        out += [f"intros\n  apply {assumed} <;> {c}" for c in BEQ_CLOSERS]
        out += [f"intros\n  have h := @{assumed}\n  {c}" for c in BEQ_CLOSERS]
        return out

    def direction(self, pair: Pair, *, forward: bool) -> tuple[str | None, list[str]]:
        """Try to prove one side from the other (``forward``: candidate from reference).

        Returns the first script that closed cleanly (or None) and the failure reasons.
        Raises :class:`~transted.errors.LeanTimeout` only if every attempt that finished
        failed and at least one timed out (then the direction is unknown, not disproved).
        """
        hyp, goal = (pair.reference, pair.candidate) if forward else (pair.candidate,
                                                                      pair.reference)
        hyp_name, goal_name = ((REFERENCE_NAME, CANDIDATE_NAME) if forward
                               else (CANDIDATE_NAME, REFERENCE_NAME))
        reasons: list[str] = []
        timed_out: LeanTimeout | None = None
        for script in self.scripts(hyp_name):
            lines = self._lines(hyp, hyp_name, keyword="axiom", source="assumed")
            lines += self._lines(goal, goal_name, body="by\n  " + script, source="goal")
            lines.append(f"#print axioms {goal_name}")
            try:
                result = self._run(pair, lines)
            except LeanTimeout as e:
                timed_out = e
                continue
            if clean_closure(result, goal_name, hyp_name):
                return script, reasons
            reasons.append(f"{script.splitlines()[-1].strip()}: "
                           + ("; ".join(_errors(result))[:200] or "not a clean closure"))
        if timed_out is not None:
            raise timed_out
        return None, reasons

    def _score(self, pair: Pair) -> PairScore:
        forward, why_f = self.direction(pair, forward=True)
        backward, why_b = (None, ["skipped: forward direction failed"]) if forward is None \
            else self.direction(pair, forward=False)
        proved = forward is not None and backward is not None
        return PairScore(proved, {"outcome": "proved" if proved else "not-proved",
                                  "forward": forward, "backward": backward,
                                  "failures": (why_f + why_b)[:6]})

