"""Reference-less naturalness and paper 004's combination with formulaicness (eq. 1).

``M`` is the Flesch Reading Ease (Flesch 1948), one of the paper's five baseline metrics
(App. E, "FRE"): ``206.835 − 1.015 · words/sentences − 84.6 · syllables/words``, mapped to
[0, 1] as ``clip(FRE, 0, 100) / 100`` (Flesch's own scale runs from 0, very difficult, to
100, very easy; the paper min-max normalised over its test set instead, which a per-text
score cannot do). Syllables come from ``pyphen``'s bundled English (en_US) hyphenation
dictionary, one more than the hyphenation points of each word, which is what ``textstat``
does for words outside the CMU dictionary; ``textstat`` itself is not used because for
English it downloads NLTK's CMU dictionary at first use, and nothing may download at run time.

``Combined(t) = (α · M(t) + β · (1 − F(t))) / (α + β)`` with the paper's weights for FRE
(Table 11: α = 0.594, β = 0.406, fitted there by regression on 86 texts' human naturalness
ratings); we have no ratings to fit our own, so these are the defaults.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

__all__ = ["flesch_reading_ease", "naturalness", "combine", "ALPHA", "BETA", "PYPHEN_LANG"]

ALPHA = 0.594
BETA = 0.406
PYPHEN_LANG = "en_US"
_WORD = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)*")
_SENTENCE_END = re.compile(r"[.!?]+(?=\s|$)")


@lru_cache(maxsize=1)
def _hyphenator() -> Any:
    import pyphen

    return pyphen.Pyphen(lang=PYPHEN_LANG)


def _syllables(word: str) -> int:
    return len(_hyphenator().positions(word.lower())) + 1


def flesch_reading_ease(text: str) -> float:
    """Flesch Reading Ease of ``text`` (unbounded; 0.0 for a text without words)."""
    words = _WORD.findall(text)
    if not words:
        return 0.0
    sentences = max(len(_SENTENCE_END.findall(text.strip())), 1)
    syllables = sum(_syllables(w) for w in words)
    return 206.835 - 1.015 * len(words) / sentences - 84.6 * syllables / len(words)


def naturalness(text: str) -> float:
    """``M(t)``: Flesch Reading Ease clipped to [0, 100] and divided by 100."""
    return min(max(flesch_reading_ease(text), 0.0), 100.0) / 100.0


def combine(m: float, f: float, *, alpha: float = ALPHA, beta: float = BETA) -> float:
    """Paper 004 eq. 1: ``(α · m + β · (1 − f)) / (α + β)``.

    Raises ``ValueError`` unless ``m`` and ``f`` lie in [0, 1] and ``α``, ``β`` are
    non-negative with a positive sum."""
    for name, value in (("m", m), ("f", f)):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"`{name}` must lie in [0, 1], got {value!r}")
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not value >= 0.0:
            raise ValueError(f"`{name}` must be a non-negative number, got {value!r}")
    if alpha + beta <= 0.0:
        raise ValueError("`alpha` + `beta` must be positive")
    return (alpha * m + beta * (1.0 - f)) / (alpha + beta)
