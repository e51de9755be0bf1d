"""FOL-BLEU as LogicLLaMA (and papers 000 and 001 after it) compute it (issue 6 item 4).

BLEU of one candidate against one reference over the tokens of
:func:`transted.fol.tokens.fol_tokens` (quantifiers included), with maximum n-gram order
``N = min(4, len(candidate), len(reference))``, uniform weights ``1/N``, clipped n-gram counts,
no smoothing (any zero precision gives 0), and brevity penalty ``exp(1 - r/c)`` when
``c <= r``. This is Hugging Face ``evaluate``'s ``bleu`` called with that tokenizer and
``max_order``; it is written out here because sacrebleu tokenises and smooths differently and
neither sacrebleu nor nltk lowers the n-gram order for short formulas. An empty side scores 0
(``evaluate`` divides by zero there).

References
----------
Papineni et al. 2002, BLEU. Yang et al. 2024 (LogicLLaMA), ``metrics.compute_FOL_bleu``.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from transted.fol.tokens import fol_tokens

__all__ = ["BLEUResult", "fol_bleu", "bleu_from_tokens"]


@dataclass(frozen=True)
class BLEUResult:
    """BLEU with its parts: n-gram precisions, brevity penalty, lengths, order used."""

    score: float
    precisions: tuple[float, ...]
    brevity_penalty: float
    candidate_length: int
    reference_length: int
    max_order: int


def _ngrams(tokens: list[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def bleu_from_tokens(reference: list[str], candidate: list[str], *, max_order: int = 4) -> BLEUResult:
    """BLEU of token lists with the order lowered to ``min(max_order, len(c), len(r))``."""
    if not isinstance(max_order, int) or max_order < 1:
        raise ValueError(f"`max_order` must be a positive int, got {max_order!r}")
    c, r = len(candidate), len(reference)
    order = min(max_order, c, r)
    if order == 0:
        return BLEUResult(0.0, (), 0.0, c, r, 0)
    precisions = []
    for n in range(1, order + 1):
        cand, ref = _ngrams(candidate, n), _ngrams(reference, n)
        matches = sum(min(count, ref[gram]) for gram, count in cand.items())
        precisions.append(matches / (c - n + 1))
    penalty = 1.0 if c > r else math.exp(1 - r / c)
    if min(precisions) == 0:
        return BLEUResult(0.0, tuple(precisions), penalty, c, r, order)
    log_mean = sum(math.log(p) for p in precisions) / order
    return BLEUResult(penalty * math.exp(log_mean), tuple(precisions), penalty, c, r, order)


def fol_bleu(reference: str, candidate: str) -> BLEUResult:
    """FOL-BLEU of two formula strings (see the module docstring).

    Examples
    --------
    >>> fol_bleu("∀x (Eel(x) → Fish(x))", "∀x (Eel(x) → Fish(x))").score
    1.0
    """
    return bleu_from_tokens(fol_tokens(reference), fol_tokens(candidate))
