"""Decision tactics as closing moves, and ``plausible`` as a refuter (issue 13, Lean path).

Closing: at a search node, each of ``decide``, ``omega``, ``norm_num``, ``linarith``,
``nlinarith``, ``positivity``, ``ring_nf`` is tried on the goal. A closer counts only after
the post-proof checks: the step itself closed cleanly (``proofStatus: Completed``, no goals,
no error message, no ``sorry``: :attr:`StepResult.closed`), and the whole script, replayed
as a named theorem with the two statements declared as ``axiom`` s, elaborates without error
or ``sorry`` and ``#print axioms`` lists only the standard axioms
(:func:`transted.pipeline.lean.closure.clean_closure`).

Vacuity guard: any two true closed theorems are equal as propositions, so proving the whole
``P = Q`` by proving both sides true says nothing about their closeness. Closers are
therefore tried only on goals with a non-empty local context (an open formula about the
variables that congruence moves introduced, i.e. aligned components) and never on a node
without a tactic path. The statement equality ``⊢ type_of% @thm_P = type_of% @thm_Q`` and
whatever ``norm_num1`` or ``congrArg`` leave of it have no local context, so neither the
root nor any closed sub-statement is ever closed by a decision tactic.

Refuting: ``plausible`` is tried at the root only, after ``apply propext`` (``P = Q`` →
``P ↔ Q``). A move is stronger than its parent, so refuting a child goal says nothing about
the statements; the root goal is the statement equality, and a counterexample to it means
the two statements differ in truth. Plausible reports a counterexample only from a
``TestResult.failure``, which carries a proof of the negation (Plausible/Testable.lean), and
its message is the error ``Found a counter-example!`` (older versions ``Found problems!``)
followed by ``name := value`` lines. Gave-up or passed runs close the goal like ``sorry`` and
are never a closure nor a refutation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from transted.errors import LeanTimeout
from transted.pipeline.lean.closure import clean_closure
from transted.pipeline.lean.equality import CANDIDATE_NAME, REFERENCE_NAME
from transted.pipeline.lean.session import LeanNode, ProofSession

if TYPE_CHECKING:
    from transted.pipeline.lean.results import StepResult

__all__ = ["DECISION_TACTICS", "REFUTER", "CHECK_NAME", "Refutation", "check_command",
           "closure_checked", "has_local_context", "parse_counterexample", "refute_by_plausible"]

DECISION_TACTICS: tuple[str, ...] = ("decide", "omega", "norm_num", "linarith", "nlinarith",
                                     "positivity", "ring_nf")
"""Closing tactics, in the order they are tried (cheapest first, as issue 13 lists them)."""

REFUTER = "apply propext\nplausible"
"""``P = Q`` → ``P ↔ Q``, then Plausible's property test."""

CHECK_NAME = "transted_closed"
_FOUND = ("Found a counter-example!", "Found problems!")
_BINDING = re.compile(r"^\s*(?P<name>[^\s:=][^:=]*?)\s*:=\s*(?P<value>.+?)\s*$")


@dataclass(frozen=True)
class Refutation:
    """A counterexample Lean's ``plausible`` found to the root goal ``P = Q``.

    ``witness`` is the ``name := value`` lines in Lean's order; ``issue`` the ``issue:`` line
    when printed; ``message`` Lean's full text.
    """

    tactic: str
    witness: tuple[tuple[str, str], ...]
    issue: str | None
    message: str

    def as_dict(self) -> dict[str, object]:
        return {"kind": "refuted", "by": "lean", "tactic": self.tactic,
                "witness": dict(self.witness), "issue": self.issue}


def parse_counterexample(text: str) -> tuple[tuple[tuple[str, str], ...], str | None] | None:
    """``(witness, issue)`` from a Plausible message; None if it reports no counterexample."""
    start = next((text.find(m) for m in _FOUND if m in text), -1)
    if start < 0:
        return None
    witness: list[tuple[str, str]] = []
    issue = None
    for line in text[start:].splitlines()[1:]:
        if line.startswith("---"):
            break
        if line.startswith("issue:"):
            issue = line[len("issue:"):].strip()
            continue
        match = _BINDING.match(line)
        if match and not line.startswith(("guard:", "(")):
            witness.append((match.group("name"), match.group("value")))
    return tuple(witness), issue


def has_local_context(goal: str) -> bool:
    """The goal text has hypotheses or variables before ``⊢`` (an open formula)."""
    head, sep, _target = goal.rpartition("⊢")
    return bool(sep) and bool(head.strip())


def _indent(tactics: tuple[str, ...]) -> str:
    return "\n".join("  " + line for t in tactics for line in t.splitlines())


def check_command(node: LeanNode, tactic: str) -> str:
    """The post-proof check: the equality command with both statements as ``axiom`` s and the
    path + ``tactic`` as the proof of a named theorem, then ``#print axioms``."""
    command = node.equality.command
    for name in (REFERENCE_NAME, CANDIDATE_NAME):
        head = command.index(f"theorem {name} ")
        end = command.index("\nend", head)
        decl = command[head:end]
        if not decl.endswith(" := sorry"):
            raise ValueError(f"unexpected equality command: {name} does not end in `:= sorry`")
        command = (command[:head] + "axiom " + decl[len("theorem "):-len(" := sorry")]
                   + command[end:])
    example = f"example : type_of% @{REFERENCE_NAME} = type_of% @{CANDIDATE_NAME} := by sorry"
    if not command.endswith(example):
        raise ValueError("unexpected equality command: it does not end in the example")
    proof = _indent((*node.path, tactic))
    command = (command[:-len(example)]
               + f"theorem {CHECK_NAME} : type_of% @{REFERENCE_NAME} = "
                 f"type_of% @{CANDIDATE_NAME} := by\n{proof}\n#print axioms {CHECK_NAME}")
    return command


def closure_checked(session: ProofSession, node: LeanNode, tactic: str, result: StepResult
                    ) -> str | None:
    """None when ``tactic`` closed ``node`` and passed every post-proof check, else why not."""
    if not result.closed:
        return ("error: " + (result.error or result.status or "error message")
                if result.failed else "did not close the goal cleanly")
    try:
        check = session.run_command(node.equality.imports, check_command(node, tactic))
    except LeanTimeout:
        return "timeout in the post-proof check"
    if not clean_closure(check, CHECK_NAME):
        return "post-proof check failed (error, sorry or non-standard axioms)"
    return None


def refute_by_plausible(session: ProofSession, node: LeanNode, tactic: str = REFUTER
                        ) -> Refutation | None:
    """Run the refuter at the root node; the counterexample Lean printed, if any."""
    try:
        result = session.step(node, tactic)
    except LeanTimeout:
        return None
    texts = ([result.error] if result.error else []) + [m.data for m in result.messages
                                                          if m.severity == "error"]
    for text in texts:
        parsed = parse_counterexample(text)
        if parsed is not None:
            return Refutation(tactic, parsed[0], parsed[1], text)
    return None
