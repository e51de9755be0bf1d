"""The two token streams of FOL text: the parser's lexer and LogicLLaMA's tokenisation.

:func:`lex_formula` is the lexer of :func:`transted.fol.syntax.parse_formula` (FOLIO identifiers,
``⟷`` read as ``↔``; each token keeps its offset). :func:`fol_tokens` is LogicLLaMA's
tokenisation, shared by FOL-BLEU and LE (issue 6 item 3(b)):

1. put spaces around each of ``⊕ ∨ ∧ → ↔ ∀ ∃ ¬ ( ) ,`` and split on whitespace;
2. delete apostrophes (ASCII ``'`` only, as LogicLLaMA's ``msplit`` does: it strips them
   because nltk's CFG reader chokes on them; FOLIO's typographic ``’`` is kept);
3. join each run of consecutive multi-character tokens into one token, each word with its
   first letter upper-cased (``dc universe`` → ``DcUniverse``, ``Drinks`` stays, ``rina`` →
   ``Rina``); a one-character token (``x``, an operator, a bracket) ends a run.

Quantifiers are kept (FOL-BLEU counts them; LE removes them itself).

References
----------
Yang et al. 2024, "Harnessing the Power of Large Language Models for Natural Language to
First-Order Logic Translation" (LogicLLaMA), ``fol_parser.msplit``.
"""

from __future__ import annotations

from dataclasses import dataclass

from transted.errors import ParseError

__all__ = ["SPACED_SYMBOLS", "SYMBOL_KINDS", "FolToken", "lex_formula", "fol_tokens"]

SPACED_SYMBOLS = ("⊕", "∨", "∧", "→", "↔", "∀", "∃", "¬", "(", ")", ",")

_ALIASES = {"⟷": "↔"}
SYMBOL_KINDS = {"∀": "QUANT", "∃": "QUANT", "¬": "NOT", "∧": "OP", "∨": "OP", "→": "OP",
                "↔": "OP", "⊕": "OP", "(": "(", ")": ")", ",": ",", "=": "="}
"""Token kind of each symbol (the symbols LogicLLaMA spaces, plus ``=``)."""
_APOSTROPHES = "'’"


@dataclass(frozen=True, slots=True)
class FolToken:
    """A lexical token: ``kind`` is QUANT, NOT, OP, IDENT, ``(``, ``)``, ``,``, ``=`` or EOF."""

    kind: str
    text: str
    offset: int


def _ident_end(text: str, i: int) -> int:
    """End offset of the identifier starting at ``i`` (rules in :mod:`transted.fol.syntax`)."""
    n = len(text)
    while i < n:
        c = text[i]
        if c.isalnum() or c == "_":
            i += 1
        elif c in "-." + _APOSTROPHES and i + 1 < n and text[i + 1].isalnum():
            i += 1
        elif c == "+":
            i += 1
        else:
            break
    return i


def lex_formula(text: str) -> list[FolToken]:
    """Split ``text`` into tokens; an unknown character raises a positioned ParseError."""
    tokens: list[FolToken] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
            continue
        c = _ALIASES.get(c, c)
        if c in SYMBOL_KINDS:
            tokens.append(FolToken(SYMBOL_KINDS[c], c, i))
            i += 1
        elif c.isalnum() or c == "_":
            end = _ident_end(text, i)
            tokens.append(FolToken("IDENT", text[i:end], i))
            i = end
        else:
            raise ParseError(f"unexpected character {c!r}", text, i)
    tokens.append(FolToken("EOF", "", n))
    return tokens


def fol_tokens(text: str, *, split_equals: bool = False) -> list[str]:
    """Tokenise ``text`` as LogicLLaMA does.

    Parameters
    ----------
    text : str
        A FOL formula.
    split_equals : bool, default=False
        Also put spaces around ``=`` (LE's extension for equality atoms; LogicLLaMA has no
        ``=`` and would keep ``a=b`` as one token).

    Returns
    -------
    list of str

    Examples
    --------
    >>> fol_tokens("∀x (ComeFrom(x, dc universe))")
    ['∀', 'x', '(', 'ComeFrom', '(', 'x', ',', 'DcUniverse', ')', ')']
    """
    if not isinstance(text, str):
        raise TypeError(f"`text` must be a str, got {type(text).__name__}")
    for symbol in SPACED_SYMBOLS + (("=",) if split_equals else ()):
        text = text.replace(symbol, f" {symbol} ")
    words = [w.replace("'", "") for w in text.split()]
    tokens: list[str] = []
    run: list[str] = []
    for word in words:
        if not word:
            continue
        if len(word) > 1:
            run.append(word[0].upper() + word[1:])
            continue
        if run:
            tokens.append("".join(run))
            run = []
        tokens.append(word)
    if run:
        tokens.append("".join(run))
    return tokens
