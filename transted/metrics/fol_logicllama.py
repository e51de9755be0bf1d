"""LogicLLaMA's FOL metrics: ``fol-le`` (logical equivalence) and ``fol-bleu``.

The computations live in :mod:`transted.fol.le` and :mod:`transted.fol.bleu`; these classes
make them metrics (options, signature, the policy for unparseable sides).
"""

from __future__ import annotations

from typing import ClassVar

from transted.errors import ParseError
from transted.fol.bleu import fol_bleu
from transted.fol.le import ATOM_CEILING, logical_equivalence, parse_le
from transted.metrics.base import Metric, PairScore
from transted.reading.pairs import Pair

__all__ = ["FOLLogicalEquivalence", "FOLBLEU"]


class FOLLogicalEquivalence(Metric):
    """``fol-le``: LogicLLaMA's logical-equivalence score of a candidate FOL formula.

    An unparseable candidate scores 0 (LogicLLaMA's rule) with the parse error in
    ``details["candidate_error"]``; an unparseable reference is an error (score null).

    Parameters
    ----------
    top_n : int, default=1000
        Complete atom bindings tried.
    max_atoms : int, default=20
        Most atoms (after padding) accepted; at most :data:`ATOM_CEILING`.
    timeout : float, default=10.0
        Wall-clock seconds per pair (not in the signature: it never changes a score, only
        whether one is produced).
    """

    name: ClassVar[str] = "fol-le"
    version: ClassVar[str] = "1"

    def __init__(self, *, top_n: int = 1000, max_atoms: int = 20, timeout: float = 10.0):
        if not isinstance(top_n, int) or top_n < 1:
            raise ValueError(f"`top_n` must be a positive int, got {top_n!r}")
        if not isinstance(max_atoms, int) or not 1 <= max_atoms <= ATOM_CEILING:
            raise ValueError(f"`max_atoms` must be an int in [1, {ATOM_CEILING}], got {max_atoms!r}")
        if not isinstance(timeout, (int, float)) or timeout <= 0:
            raise ValueError(f"`timeout` must be a positive number, got {timeout!r}")
        self.top_n, self.max_atoms, self.timeout = top_n, max_atoms, float(timeout)

    def options(self) -> dict[str, object]:
        return {"top_n": self.top_n, "max_atoms": self.max_atoms, "tok": "logicllama"}

    def _score(self, pair: Pair) -> PairScore:
        try:
            reference = parse_le(pair.reference.statement)
        except ParseError as e:
            raise e.with_source(f"{pair.id} reference") from e
        try:
            candidate = parse_le(pair.candidate.statement)
        except ParseError as e:
            return PairScore(0.0, {"candidate_error": str(e.with_source(f"{pair.id} candidate"))})
        result = logical_equivalence(reference, candidate, top_n=self.top_n,
                                     max_atoms=self.max_atoms, timeout=self.timeout)
        return PairScore(result.score, {"reference_atoms": result.reference_atoms,
                                        "bound_candidate_atoms": result.bound_candidate_atoms,
                                        "bindings_tried": result.bindings_tried})


class FOLBLEU(Metric):
    """``fol-bleu``: LogicLLaMA's FOL-BLEU (no parse needed: any text is tokenised)."""

    name: ClassVar[str] = "fol-bleu"
    version: ClassVar[str] = "1"

    def options(self) -> dict[str, object]:
        return {"tok": "logicllama", "order": "min4", "smooth": "none"}

    def _score(self, pair: Pair) -> PairScore:
        result = fol_bleu(pair.reference.statement, pair.candidate.statement)
        return PairScore(result.score, {
            "precisions": list(result.precisions), "brevity_penalty": result.brevity_penalty,
            "max_order": result.max_order, "candidate_length": result.candidate_length,
            "reference_length": result.reference_length})
