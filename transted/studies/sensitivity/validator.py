"""The semantic-evidence engine as a validator of the sensitivity suite.

Plugged into :func:`transted.studies.sensitivity.lean.perturb.generate_suite` (``validators=``). A
generator's label is an argument over the text; the evidence engine checks it where it can:

* a *meaning change* the engine **proves** equivalent (``proved``) did not change the meaning
  (e.g. a dropped hypothesis the others imply): the pair is discarded, counted with the reason;
* a *faithful* pair the engine **refutes** (a witness at which the candidate is false while
  the reference is a theorem) is a **generator bug**: discarded and counted in
  :attr:`EvidenceValidator.generator_bugs` with the witness, so it can be fixed.

Everything else is kept. The engine's own options (deterministic ``rlimit``/samples) apply.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from transted.errors import TranstedError
from transted.pipeline.evidence import Evidence, RefuteOptions, pair_evidence
from transted.pipeline.opt import parse_statement
from transted.reading.pairs import Pair

__all__ = ["EvidenceValidator"]


def _kind(pair: Pair) -> str:
    pert = pair.meta.get("perturbation")
    return str(pert.get("kind")) if isinstance(pert, dict) else "?"


@dataclass
class EvidenceValidator:
    """``validator(pair) -> (keep, reason)``; counts what it discards.

    Parameters
    ----------
    options : the evidence engines' options (default :class:`RefuteOptions`)
    """

    options: RefuteOptions = field(default_factory=RefuteOptions)
    checked: Counter[str] = field(default_factory=Counter)
    """kind → pairs checked."""
    discarded: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(kind, reason) → pairs discarded."""
    generator_bugs: list[dict[str, object]] = field(default_factory=list)
    """Faithful pairs refuted: id, candidate, witness, reason (each one a generator bug)."""

    def evidence(self, pair: Pair) -> Evidence:
        try:
            ref = parse_statement(pair.reference.statement, header=pair.reference.header)
            cand = parse_statement(pair.candidate.statement, header=pair.candidate.header)
        except TranstedError as e:
            return Evidence(kind="none", reason=f"not parsed: {e}")
        return pair_evidence(ref, cand, self.options)

    def __call__(self, pair: Pair) -> tuple[bool, str]:
        if pair.label is None:
            raise ValueError(f"pair {pair.id!r}: the validator needs a labelled pair")
        kind = _kind(pair)
        self.checked[kind] += 1
        ev = self.evidence(pair)
        if not pair.label and ev.kind == "proved":
            reason = "evidence: meaning change proved equivalent (" + "+".join(ev.tactics) + ")"
            self.discarded[(kind, reason)] += 1
            return False, reason
        if pair.label and ev.kind == "refuted":
            reason = "evidence: faithful pair refuted (generator bug)"
            self.discarded[(kind, reason)] += 1
            self.generator_bugs.append({"id": pair.id, "candidate": pair.candidate.statement,
                                        "witness": ev.witness, "reason": ev.reason})
            return False, reason
        return True, ""

    def counts(self) -> dict[str, object]:
        """Checked per kind, discards per (kind, reason), generator bugs: for a report."""
        return {"checked": dict(self.checked),
                "discarded": [{"kind": k, "reason": r, "n": n}
                              for (k, r), n in sorted(self.discarded.items())],
                "generator_bugs": list(self.generator_bugs)}
