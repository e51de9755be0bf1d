"""Label conventions: what counts as *equivalent* (docs/VERDICTS.md).

* ``strict`` (the default): mutual provability, as EPLA (ASSESS §4.1, categories a and b), BEq's
  human set and ProofNet-Verified label pairs. The residual edits decide: one undischarged
  meaning edit (another relation, connective, quantifier, operator, value, type, variable, an
  extra or missing hypothesis) makes the pair not equivalent, only presentational edits make
  it equivalent, and untrusted edits fall back to the threshold.
* ``lenient``: what the GTED dev pairs' labels accept besides: number-type changes that keep
  the answer, candidates judged against the informal problem rather than the reference. The
  second is not definable from the two statements, and no edit-based rule we could define
  beat the threshold rule on the lenient dev pairs (docs/VERDICTS.md, "Lenient"), so
  ``lenient`` is the **threshold rule plus evidence**: definite evidence decides, otherwise
  the score against the lenient fallback threshold; the residual edits are still reported.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CONVENTIONS", "ConventionRule", "convention_rule", "DEFAULT_CONVENTION"]

CONVENTIONS: tuple[str, ...] = ("strict", "lenient")
DEFAULT_CONVENTION = "strict"


@dataclass(frozen=True)
class ConventionRule:
    name: str
    edits_decide: bool
    """Whether the residual edits may decide a verdict (else only evidence and threshold)."""


_RULES = {"strict": ConventionRule("strict", edits_decide=True),
          "lenient": ConventionRule("lenient", edits_decide=False)}


def convention_rule(name: str) -> ConventionRule:
    """The rule of convention ``name`` (one of :data:`CONVENTIONS`)."""
    try:
        return _RULES[name]
    except KeyError:
        raise ValueError(f"`convention` must be one of {', '.join(CONVENTIONS)}, got "
                         f"{name!r}") from None
