"""What the regressor sees of a text: its function-word skeleton and a few counts.

Formulaicness is a property of how a text is built, not of what it is about. So the n-grams
are taken over a **skeleton** where every open-class word becomes ``<w>``, a number ``<num>``
and a variable-like letter ``<var>`` (paper 004 App. D finds the letters *x*, *e*, *f* and the
word *case* among the regressor's strongest tokens). Kept are the closed-class words
(:data:`FUNCTION_WORDS`: determiners, pronouns, prepositions, conjunctions, auxiliaries,
quantifier and negation words, and the few nouns of logic talk: *case*, *element*, *thing*).
Without topic words a model cannot memorise FOLIO's topics per split, and it can score texts
about anything ("In case of fire, break glass." reads as ``in case of <w> , <w> <w> .``).

The dense counts (:data:`DENSE_FEATURES`) are the signals the issue names: variable letters,
"not the case", quantifier and bracketing phrases, connective density, commas, repetition
of a subject (Literal texts restate it: "Rina is a student and Rina is tired") and length.
"""

from __future__ import annotations

import math
import re

__all__ = ["FUNCTION_WORDS", "DENSE_FEATURES", "tokens", "skeleton", "skeleton_ngrams",
           "dense_features", "NGRAM_ORDERS"]

NGRAM_ORDERS = (1, 2, 3)
FUNCTION_WORDS = frozenset("""
a an the this that these those some any every each all no none both either neither
another other such what which who whom whose whatever whoever
i you he she it we they me him her us them my your his its our their itself themselves
himself herself oneself one ones someone something everyone everything anyone anything
nobody nothing everybody somebody anybody
and or but nor not if then else iff only unless because since so than as whether while
when where whenever although though also too just
is are was were be been being am has have had having do does did done
can could will would shall should may might must
of in on at by for from to with without into onto about over under between among within
through after before during against per via
case element elements thing things holds hold true false exists exist there here
more most less least many much few several
""".split())
_TOKEN = re.compile(r"[A-Za-z]+(?:['’][a-z]+)?|\d+(?:[.,]\d+)*|[,;:()]")
_QUANTIFIER_PHRASES = ("for all", "for every", "for each", "for some", "there is an element",
                       "there exists", "there is some", "such that")
DENSE_FEATURES = ("log_words", "var_rate", "var_count", "not_the_case", "quantifier_phrases",
                  "bracketing_words", "connective_rate", "comma_rate", "repeat_rate")


def tokens(text: str) -> list[str]:
    """Word, number and punctuation tokens of ``text`` (case kept)."""
    return _TOKEN.findall(text)


def _is_variable(token: str, position: int) -> bool:
    """A letter standing for an object: any single letter but the article *a* and *I*
    (a sentence-initial *A* is read as the article)."""
    if len(token) != 1 or not token.isalpha():
        return False
    if token in ("a", "I"):
        return False
    return not (token == "A" and position == 0)


def skeleton(text: str) -> list[str]:
    """``text`` with open-class words as ``<w>``, numbers ``<num>``, variables ``<var>``."""
    out = []
    for i, token in enumerate(tokens(text)):
        lower = token.lower()
        if _is_variable(token, i):
            out.append("<var>")
        elif token[0].isdigit():
            out.append("<num>")
        elif lower in FUNCTION_WORDS or not token[0].isalpha():
            out.append(lower)
        else:
            out.append("<w>")
    return out


def skeleton_ngrams(text: str) -> list[str]:
    """The skeleton's n-grams of the orders :data:`NGRAM_ORDERS`, joined by spaces."""
    skel = skeleton(text)
    return [" ".join(skel[i:i + n]) for n in NGRAM_ORDERS for i in range(len(skel) - n + 1)]


def _count(phrases: tuple[str, ...], lowered: str) -> int:
    return sum(len(re.findall(rf"\b{re.escape(p)}\b", lowered)) for p in phrases)


def dense_features(text: str) -> list[float]:
    """The counts of :data:`DENSE_FEATURES`, in that order."""
    toks = tokens(text)
    words = [t for t in toks if t[0].isalnum()]
    n = max(len(words), 1)
    lowered = " ".join(t.lower() for t in toks)
    variables = sum(_is_variable(t, i) for i, t in enumerate(toks))
    connectives = sum(t.lower() in ("and", "or", "if", "then", "not", "nor", "iff")
                      for t in words)
    content = [t.lower() for t in words if t.lower() not in FUNCTION_WORDS and len(t) > 1]
    repeats = len(content) - len(set(content))
    return [math.log(n), variables / n, float(variables), float(_count(("not the case",), lowered)),
            float(_count(_QUANTIFIER_PHRASES, lowered)),
            float(_count(("both", "either"), lowered)), connectives / n,
            toks.count(",") / n, repeats / max(len(content), 1)]
