"""Which procedure decided a component, and the Lean proof a user would write for it.

One table, :data:`PROCEDURES`: each decision procedure of the engines and the Lean tactic
whose fragment it is. The script of a ``proved`` names the procedure that actually decided it;
where no Lean tactic is known to cover what was decided (z3 on √, floors, quantifiers; a
linear system over ℕ with casts), the script says so rather than naming a tactic that would
fail. Scripts are never replayed here (no Lean toolchain): every one is marked
``unverified`` in the evidence record.

Fragments (checked against the tactics' documentation):

* ``omega`` (Lean core ``src/Init/Tactics.lean``, ``syntax (name := omega)``): ``=``, ``<``,
  ``≤``, ``∣`` by a literal, over ℕ and ℤ, with ``/``/``%`` by literals, ℕ subtraction, casts
  ℕ → ℤ and the connectives; parity first through ``Nat.even_iff``/``Nat.odd_iff``/
  ``Int.even_iff``/``Int.odd_iff`` (Mathlib ``Algebra/Group/Nat/Even.lean``,
  ``Algebra/Group/Int/Even.lean``);
* ``linarith`` (Mathlib ``Tactic/Linarith/Frontend.lean``): a goal ``t R 0`` (``<``, ``≤``,
  ``=``; not ``≠``) over an ordered field from linear hypotheses; it is complete there, so a
  conjunction of such atoms implying another is closed atom by atom (``rintro`` the
  hypotheses' conjuncts, one ``linarith`` per goal conjunct). Only variables of ℚ/ℝ as atoms:
  a cast of a ℕ/ℤ variable brings integrality and signs linarith does not see;
* ``nlinarith``: the same with products of hypotheses (incomplete: a user's first try);
* ``ring_nf``: both sides the same relation between the same ring normal forms;
* congruence: ``and_congr``/``or_congr``/``imp_congr``/``iff_congr``/``not_congr``
  (Lean core ``Init/Core.lean``, ``Init/PropLemmas.lean``) combine the components' proofs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Procedure", "PROCEDURES", "ProofStep", "proof_of", "congruence", "z3_comment",
           "SCRIPT_STATUS", "LINEAR_SYSTEM", "PARITY_SIMP"]

Procedure = Literal["identical", "rewriting", "ring-normal-form", "linear-int", "linear-field",
                    "linear-field-system", "polynomial", "z3", "congruence", "vacuous"]

PROCEDURES: dict[str, str] = {
    "identical": "the same term: Iff.rfl",
    "rewriting": "the search's rewrite path (rw/nth_rw/simp only [lemma]) ending in rfl",
    "ring-normal-form": "ring_nf",
    "linear-int": "omega (ℕ/ℤ linear arithmetic, literal / % ∣)",
    "linear-field": "linarith, both directions (one atom each side)",
    "linear-field-system": "linarith per conjunct, both directions (conjunctions of atoms)",
    "polynomial": "nlinarith, both directions",
    "z3": "decided offline by z3; no Lean tactic claimed",
    "congruence": "and_congr / or_congr / imp_congr / iff_congr / not_congr of the parts",
    "vacuous": "each statement by absurd: its hypotheses are contradictory (z3); no Lean tactic "
               "claimed for the contradiction",
}
"""Procedure → what its script is (the documentation of the mapping)."""

SCRIPT_STATUS: Literal["unverified"] = "unverified"
"""Every offline script: no Lean here to replay it."""
PARITY_SIMP = "simp only [Nat.even_iff, Nat.odd_iff, Int.even_iff, Int.odd_iff]"
LINEAR_SYSTEM = "linear-field-system"


@dataclass(frozen=True)
class ProofStep:
    """How one component ``A ↔ B`` was decided: the procedure and a Lean proof term of
    ``A ↔ B`` (None: no tactic is claimed)."""

    procedure: Procedure
    proof: str | None


def proof_of(procedure: Procedure, *, parity: bool = False,
             conjuncts: tuple[int, int] = (1, 1)) -> str | None:
    """The Lean proof of ``A ↔ B`` for a component decided by ``procedure``.

    ``parity``: ``Even``/``Odd`` occur (unfolded first for ``omega``); ``conjuncts``: how many
    atoms each side's conjunction has (``linear-field-system``)."""
    if procedure == "identical":
        return "Iff.rfl"
    if procedure == "ring-normal-form":
        return "by ring_nf"
    if procedure == "linear-int":
        pre = f"{PARITY_SIMP}; " if parity else ""
        return f"by {pre}constructor <;> intro h <;> omega"
    if procedure == "linear-field":
        return "by constructor <;> intro h <;> linarith"
    if procedure == "linear-field-system":
        forward = _conjunct_step(conjuncts[0], conjuncts[1])
        backward = _conjunct_step(conjuncts[1], conjuncts[0])
        return f"by constructor <;> [{forward}; {backward}]"
    if procedure == "polynomial":
        return "by constructor <;> intro h <;> nlinarith"
    return None  # z3, rewriting, congruence: no single tactic (see congruence/z3_comment)


def _conjunct_step(hypotheses: int, goals: int) -> str:
    names = ", ".join(f"h{i + 1}" for i in range(hypotheses))
    intro = f"rintro ⟨{names}⟩" if hypotheses > 1 else "intro h1"
    parts = ", ".join(["by linarith"] * goals)
    close = f"exact ⟨{parts}⟩" if goals > 1 else "linarith"
    return f"({intro}; {close})"


_CONGRUENCE = {"and": "and_congr", "or": "or_congr", "imp": "imp_congr", "iff": "iff_congr",
               "not": "not_congr"}


def congruence(connective: str, parts: list[str | None]) -> str | None:
    """``and_congr p q`` (…) from the parts' proofs; None when a part has none."""
    if any(p is None for p in parts):
        return None
    lemma = _CONGRUENCE[connective]
    return f"{lemma} " + " ".join(p if p == "Iff.rfl" else f"({p})" for p in parts)  # type: ignore[operator]


def z3_comment(goal: str) -> str:
    return f"-- {goal}: decided offline by z3; no Lean tactic claimed"
