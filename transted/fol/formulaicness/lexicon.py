"""English phrases for FOL symbol names (``HaveWings`` → "has wings"), shared by both verbalisers.

FOLIO names predicates in CamelCase and leaves their part of speech implicit. With no tagger
that works offline (nltk's taggers and WordNet download their data at first use), the word
class is guessed from the name: a leading auxiliary (``IsOlympian``, ``CanFly``), a verb from a
short list of base forms common in such names (``PlayFootball``), a third-person or past
verb (``DrinksCoffee``, ``ScoredGoals``), a common adjective or adjective suffix (``Small``,
``Hardworking``),
else a noun (``Student`` → "is a student"). Both verbalisers use the same guess, so whatever it
gets wrong is wrong in every tier alike and the tiers differ by structure only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from transted.fol.ast import Const, Eq, FolTerm, Pred, Variable

__all__ = ["Phrase", "name_words", "phrase", "constant_text", "article", "term_text", "atom_text"]

_SPLIT = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+|[^\sA-Za-z\d_.\-]+")
_AUX = {"is": "is", "are": "is", "was": "was", "were": "was", "has": "has", "have": "has",
        "had": "had", "can": "can", "could": "could", "will": "will", "would": "would",
        "does": "does", "do": "does", "did": "did", "should": "should", "must": "must",
        "may": "may", "might": "might"}
_NEGATED_AUX = {"is": "is not", "was": "was not", "has": "does not have", "had": "did not have",
                "can": "cannot", "does": "does not", "did": "did not"}
_BASE_VERBS = frozenset(
    "attend become believe buy care come contain cook create do drink drive eat enjoy fly "
    "follow get give go grow hate help hold include invest keep know learn leave like listen "
    "live lose love make need own pay perform play prefer produce provide read receive "
    "regard require run see sell serve sing sleep speak spend stay study support take teach "
    "travel use visit walk want watch wear win work write".split())
_PREPOSITIONS = frozenset("in on at of by for from to with into onto about over under "
                          "between among within without near".split())
_COMMON_ADJECTIVES = frozenset(
    "bad big black blue bright brown busy cheap clean cold cool dark dead deep dry early easy "
    "fair fast fat fine free fresh full good great green happy hard healthy heavy high hot "
    "large late light little long loud low mean new nice old open poor quick quiet rare red "
    "rich round sad safe short sick slow small smart soft strong sweet tall thin tired true "
    "warm weak wet white wide wild wise young".split())
_ADJECTIVE_SUFFIXES = ("ful", "ous", "able", "ible", "ive", "ic", "less", "ish", "ary", "ing",
                       "ed", "ical", "ional", "ual")
_SILENT_E_STEMS = ("v", "c", "g", "z", "u", "bl", "tl", "dl", "ur", "or")


@dataclass(frozen=True)
class Phrase:
    """How a predicate reads after its subject: ``positive`` ("is a student", "plays
    football"), ``negative`` ("is not a student", "does not play football"); ``noun`` is the
    bare noun ("student") when the predicate names a kind, usable as "every student"."""

    kind: Literal["noun", "adjective", "verb", "aux"]
    positive: str
    negative: str
    noun: str | None = None


def name_words(name: str) -> list[str]:
    """The words of a CamelCase / snake_case / hyphenated name, lower-cased."""
    return [w.lower() for w in _SPLIT.findall(name)] or [name.lower()]


def article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def constant_text(name: str) -> str:
    """A constant as a proper name: ``donaldErvinKnuth`` → "Donald Ervin Knuth"."""
    return " ".join(w[:1].upper() + w[1:] for w in name_words(name))


def _third_person(verb: str) -> str:
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _base_form(verb: str) -> str:
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("shes", "ches", "xes", "zes", "oes", "sses")):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") else verb


def _past_base(verb: str) -> str:
    """Base form of a regular past tense: "scored" → "score", "played" → "play"."""
    if verb.endswith("ied"):
        return verb[:-3] + "y"
    stem = verb[:-2]
    return stem + "e" if stem.endswith(_SILENT_E_STEMS) else stem


def _is_comparative(word: str) -> bool:
    """"larger", "smaller", "bigger", "happier": a common adjective plus -er."""
    if not word.endswith("er"):
        return False
    stems = (word[:-1], word[:-2], word[:-3], word[:-3] + "y")
    return any(stem in _COMMON_ADJECTIVES for stem in stems)


def _is_adjective(word: str) -> bool:
    return word in _COMMON_ADJECTIVES or len(word) > 4 and (
        word.endswith(_ADJECTIVE_SUFFIXES) or word.startswith("un"))


def _is_third_person(word: str) -> bool:
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ous"))


def phrase(name: str, arity: int = 1) -> Phrase:
    """The phrase of predicate ``name`` with ``arity`` arguments (objects follow the phrase)."""
    words = name_words(name)
    if name.isupper() and len(name) > 1:  # an acronym (BRICS, AOC) names a kind or a body
        text = " ".join(w.upper() for w in words)
        return Phrase("noun", f"is {article(words[0])} {text}",
                      f"is not {article(words[0])} {text}", text)
    head, rest = words[0], " ".join(words[1:])
    tail = f" {rest}" if rest else ""
    if head in _AUX:
        aux = _AUX[head]
        negative = _NEGATED_AUX.get(aux, f"{aux} not")
        if aux in ("has", "had") and not rest:
            return Phrase("aux", aux, negative)
        return Phrase("aux", aux + tail, negative + tail)
    if head in _BASE_VERBS:
        return Phrase("verb", _third_person(head) + tail, f"does not {head}{tail}")
    if len(words) > 1 and head.endswith("ed") and words[1] not in _PREPOSITIONS:
        return Phrase("verb", " ".join(words), f"did not {_past_base(head)}{tail}")
    if _is_third_person(head):
        return Phrase("verb", " ".join(words), f"does not {_base_form(head)}{tail}")
    text = " ".join(words)
    if arity > 1 and len(words) == 1 and _is_comparative(head):
        return Phrase("adjective", f"is {head} than", f"is not {head} than")
    adjective_head = _is_adjective(head) and (len(words) == 1 or words[1] in _PREPOSITIONS)
    if head in _PREPOSITIONS or adjective_head or _is_adjective(words[-1]) or (
            arity > 1 and words[-1] in _PREPOSITIONS):
        return Phrase("adjective", f"is {text}", f"is not {text}")
    if arity > 1:
        return Phrase("noun", f"is {article(head)} {text} of", f"is not {article(head)} {text} of",
                      None)
    return Phrase("noun", f"is {article(head)} {text}", f"is not {article(head)} {text}", text)


def term_text(term: FolTerm, names: dict[str, str] | None = None) -> str:
    """A term in English: a variable by its name (or what ``names`` maps it to, e.g. "it"), a
    constant as a proper name, ``f(t)`` as "the f of t"."""
    if isinstance(term, Variable):
        return (names or {}).get(term.name, term.name)
    if isinstance(term, Const):
        return constant_text(term.name)
    args = " and ".join(term_text(a, names) for a in term.args)
    words = name_words(term.name)
    return f"the {' '.join(words[:-1] if words[-1] == 'of' else words)} of {args}"


def atom_text(atom: Pred | Eq, *, negated: bool = False, names: dict[str, str] | None = None,
              verb_phrase: bool = False) -> str:
    """An atomic formula as a clause, ``"Rina is a student"`` (``negated``: "is not"). With
    ``verb_phrase`` the clause is returned without its subject ("is a student", for
    aggregation); an object equal to the subject reads "itself"."""
    if isinstance(atom, Eq):
        left, right = term_text(atom.left, names), term_text(atom.right, names)
        same = atom.left == atom.right
        verb = "is not" if negated else "is"
        return _with_subject(verb_phrase, left, f"{verb} {'itself' if same else right}")
    if not atom.args:
        proposition = " ".join(name_words(atom.name))
        return f"{proposition} does not hold" if negated else f"{proposition} holds"
    said = phrase(atom.name, len(atom.args))
    first = atom.args[0]
    objects = [("itself" if arg == first else term_text(arg, names)) for arg in atom.args[1:]]
    verb = said.negative if negated else said.positive
    predicate = " ".join([verb, " and ".join(objects)]) if objects else verb
    return _with_subject(verb_phrase, term_text(first, names), predicate)


def _with_subject(verb_phrase: bool, subject: str, predicate: str) -> str:
    return predicate if verb_phrase else f"{subject} {predicate}"
