"""Identity match: the ASSESS string baseline (Liu et al. 2025, ASSESS §4.2).

A candidate is correct iff, after removing all whitespace, it is identical to the reference,
with the declared theorem names of both renamed to ``thm`` (the paper's convention for
string-based metrics). :func:`rename_theorem` is shared with :mod:`transted.metrics.bleu`.

References
----------
ASSESS: A Semantic and Structural Evaluation Framework for Statement Similarity, §4.2
"Baselines" (Identity Match; theorem names standardised to ``thm``).
"""

from __future__ import annotations

import re

from transted.errors import InputError
from transted.metrics.base import Metric, PairScore
from transted.pipeline.extraction.statement import (
    EXTRACTION_VERSION,
    declaration_text,
    empty_answer,
)
from transted.reading.pairs import Pair

__all__ = ["IdentityMatch", "declared_name", "rename_theorem", "chosen_declaration"]

# `theorem foo`, `lemma foo`, `protected theorem Foo.bar`, `@[simp] theorem foo`; the name runs
# up to whitespace or the first binder / colon, which Lean does not allow inside a name.
_DECLARATION = re.compile(
    r"^(?P<prefix>(?:\s*@\[[^\]]*\])?\s*(?:(?:private|protected|nonrec)\s+)*"
    r"(?:theorem|lemma)\s+)(?P<name>[^\s:({\[⦃]+)"
)
_WHITESPACE = re.compile(r"\s+")


def declared_name(statement: str) -> str | None:
    """The name a ``theorem``/``lemma`` statement declares, or None (e.g. for ``example``)."""
    match = _DECLARATION.match(statement)
    return match.group("name") if match else None


def rename_theorem(statement: str, new: str = "thm") -> str:
    """Replace the declared theorem name with ``new``; other text is left untouched.

    Only the declaration is renamed (a statement cannot mention itself), so an identifier
    that merely contains the name as a substring is never changed.
    """
    return _DECLARATION.sub(lambda m: m.group("prefix") + new, statement, count=1)


def chosen_declaration(pair: Pair, side: str, theorem: str | None = None) -> str:
    """The declaration the string metrics compare on ``side``: the one extracted from the
    text (:func:`transted.pipeline.extraction.statement.declaration_text`; the candidate's is
    ``theorem``, else the one named like the reference's), its proof as written included."""
    if side == "reference":
        return declaration_text(pair.reference.statement)
    empty = empty_answer(pair.candidate.statement)
    if empty is not None:
        raise empty
    reference = declared_name(declaration_text(pair.reference.statement))
    return declaration_text(pair.candidate.statement, theorem=theorem, reference_name=reference)


class IdentityMatch(Metric):
    """1.0 iff the statements are equal up to whitespace and the declared theorem name.

    Parameters
    ----------
    rename : str, default="thm"
        What both declared theorem names are renamed to before comparing; ``""`` keeps names.
    theorem : str, optional
        The theorem to take from a candidate text with several (``--theorem NAME``).
    """

    name = "identity"
    version = "1"
    binary = True
    RENAME = "thm"

    def __init__(self, *, rename: str = RENAME, theorem: str | None = None):
        if not isinstance(rename, str):
            raise TypeError(f"IdentityMatch: `rename` must be a str, got {type(rename).__name__}")
        self.rename = rename
        self.theorem = theorem

    def options(self) -> dict[str, object]:
        chosen = {"theorem": self.theorem} if self.theorem is not None else {}
        return {"extract": EXTRACTION_VERSION, **chosen, "whitespace": "removed",
                "rename": self.rename or "no"}

    def normalise(self, statement: str) -> str:
        """The form compared: theorem name renamed, then every whitespace character removed."""
        if self.rename:
            statement = rename_theorem(statement, self.rename)
        return _WHITESPACE.sub("", statement)

    def _score(self, pair: Pair) -> PairScore:
        ref = self.normalise(chosen_declaration(pair, "reference"))
        cand = self.normalise(chosen_declaration(pair, "candidate", self.theorem))
        if not ref or not cand:
            side = "reference" if not ref else "candidate"
            raise InputError(f"pair {pair.id!r}: {side} statement is empty")
        return PairScore(ref == cand)
