"""BLEU between formal statements, in the setting the published baselines used.

ProofNet (Azerbayev et al. 2023) scores a statement with NLTK's ``sentence_bleu`` on
whitespace tokens; ASSESS/GTED (§4.2) add smoothing ``method4`` (Chen & Cherry 2014) and rename
the declared theorem names of both statements to a common placeholder. The statement is taken
as written, including ``:= by sorry`` and without its header: with this setting the 93
published per-pair BLEU scores of the GTED ProofNet dev set are reproduced to 1e-6
(``tests/test_metrics_bleu.py``). From a translator's raw output the chosen declaration is
taken, proof included (:func:`transted.pipeline.extraction.statement.declaration_text`): a bare
statement is unchanged.

References
----------
Papineni et al. 2002, BLEU; Chen & Cherry 2014, smoothing method 4; Azerbayev et al. 2023,
ProofNet; ASSESS §4.2 "Baselines".
"""

from __future__ import annotations

import warnings

from transted.errors import InputError
from transted.metrics.base import Metric, PairScore
from transted.metrics.identity import chosen_declaration, rename_theorem
from transted.pipeline.extraction.statement import EXTRACTION_VERSION
from transted.pipeline.verdict.conventions import convention_rule
from transted.pipeline.verdict.rules import verdict_field
from transted.reading.pairs import Pair

__all__ = ["ProofNetBLEU"]


class ProofNetBLEU(Metric):
    """Sentence BLEU (4-gram, uniform weights) of the candidate against the reference.

    Parameters
    ----------
    source : {"statement", "pretty"}, default="statement"
        Which form of each side is tokenised: as written, or as Lean pretty-printed it.
    rename : str, default="thm"
        Placeholder for both declared theorem names; ``""`` keeps the names.
    smoothing : int, default=4
        NLTK ``SmoothingFunction`` method number (0 = none, ProofNet's own script).
    theorem : str, optional
        The theorem to take from a candidate text with several (``--theorem NAME``).
    convention : {"strict", "lenient"}, default="strict"
        The label convention of the verdict's fallback threshold (the score does not change;
        :mod:`transted.pipeline.verdict.conventions`).
    """

    name = "bleu"
    version = "1"
    binary = False
    SOURCES = ("statement", "pretty")
    RENAME = "thm"
    SMOOTHING = 4

    def __init__(self, *, source: str = "statement", rename: str = RENAME,
                 smoothing: int = SMOOTHING, theorem: str | None = None,
                 convention: str = "strict"):

        self.convention = convention_rule(convention).name
        if source not in self.SOURCES:
            raise ValueError(f"ProofNetBLEU: `source` must be one of {self.SOURCES}, got {source!r}")
        if not isinstance(smoothing, int) or not 0 <= smoothing <= 7:
            raise ValueError(f"ProofNetBLEU: `smoothing` must be an int in [0, 7], got {smoothing!r}")
        self.source = source
        self.rename = rename
        self.smoothing = smoothing
        self.theorem = theorem

    def options(self) -> dict[str, object]:
        import nltk


        chosen = {"theorem": self.theorem} if self.theorem is not None else {}
        return {"extract": EXTRACTION_VERSION, **chosen, "source": self.source,
                "tok": "whitespace", "rename": self.rename or "no",
                "smooth": f"method{self.smoothing}", "nltk": nltk.__version__,
                "convention": self.convention, "verdict": verdict_field(residual=False)}

    def tokens(self, pair: Pair, side: str) -> list[str]:
        """Whitespace tokens of one side (``"reference"`` or ``"candidate"``)."""
        statement = getattr(pair, side)
        text = statement.statement if self.source == "statement" else statement.pretty
        if text is None:
            raise InputError(f"pair {pair.id!r}: {side} has no `{self.source}` field")
        if self.source == "statement":
            text = chosen_declaration(pair, side, self.theorem)
        if self.rename:
            text = rename_theorem(text, self.rename)
        tokens = text.split()
        if not tokens:
            raise InputError(f"pair {pair.id!r}: {side} {self.source} is empty")
        return tokens

    def _score(self, pair: Pair) -> PairScore:
        from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

        reference = self.tokens(pair, "reference")
        candidate = self.tokens(pair, "candidate")
        smoother = getattr(SmoothingFunction(), f"method{self.smoothing}")
        with warnings.catch_warnings():
            # NLTK warns when an n-gram order has no overlap; the score is still defined.
            warnings.filterwarnings("ignore", message=r"\s*The hypothesis contains 0 counts")
            value = sentence_bleu([reference], candidate, smoothing_function=smoother)
        return PairScore(float(value))
