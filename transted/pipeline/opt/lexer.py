"""Tokenizer for Lean 4 surface syntax, following Lean's own identifier rules.

Identifiers use Lean's ``isIdFirst``/``isIdRest``/``isLetterLike``/``isSubScriptAlnum``
(src/Init/Meta.lean): so ``h₀``, ``x'``, ``ℝ``, ``𝓝`` and ``«name»`` are identifiers, and —
as in Lean — ``n!`` is one identifier (factorial needs ``n !``). Goal text adds
inaccessible names (``inst✝``, ``x✝¹``). Symbols are matched longest-first against the notation
table plus punctuation.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, cast

from transted.errors import ParseError

__all__ = ["Token", "tokenize", "is_letter_like", "KEYWORD_STOPS"]

Kind = Literal["ident", "num", "sym", "str", "eof"]

PUNCTUATION = (
    "(", ")", "[", "]", "{", "}", "⟨", "⟩", "⦃", "⦄", ",", ":", ":=", "=>", "↦", "|", "‖",
    "⌊", "⌋", "⌋₊", "⌈", "⌉", "⌉₊", "..", ".", "@", "·", ";", "←", "<-", "⊢", "//", "∀", "∃",
    "∃!", "∑", "∏", "∑'", "∏'", "⋃", "⋂", "∫", "∂", "λ", "Π", "Σ", "#", "%[", "`", "∞", "?",
    "_", "$", "⁅", "⁆", "∘", "≪", "⊤", "⊥", "∅", "𝔼", "⨅", "⨆", "⟪", "⟫", "◾", "∀ᶠ", "∃ᶠ", "![", "!![", "^[", "‖₊", "Σ'", "|>.", "=ᶠ[", "≤ᶠ[", "=O[", "=o[", "=Θ[",
)
# Mathlib notations that glue a letter-like character to a symbol: ℕ+ (PNat), ℤ√d (Zsqrtd)
GLUED_NAMES = ("ℕ+", "ℤ√")
SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
KEYWORD_STOPS = {"then", "else", "from", "at", "with", "in", "where", "deriving", "by", "do",
                 "theorem", "lemma", "example", "def", "open", "end", "namespace", "section",
                 "let", "have", "show", "if", "calc", "forall", "exists", "using"}
"""Keywords that end a term: never a binder or argument name."""


@dataclass(frozen=True, slots=True)
class Token:
    kind: Kind
    text: str
    start: int
    end: int
    space_before: bool

    def __repr__(self) -> str:
        return f"{self.kind}:{self.text!r}@{self.start}"


def is_letter_like(c: str) -> bool:
    v = ord(c)
    return ((0x3B1 <= v <= 0x3C9 and v != 0x3BB) or (0x391 <= v <= 0x3A9 and v not in (0x3A0, 0x3A3))
            or 0x3CA <= v <= 0x3FB or 0x1F00 <= v <= 0x1FFE or 0x2100 <= v <= 0x214F
            or 0x1D49C <= v <= 0x1D59F)


def _is_subscript_alnum(c: str) -> bool:
    v = ord(c)
    return 0x2080 <= v <= 0x2089 or 0x2090 <= v <= 0x209C or 0x1D62 <= v <= 0x1D6A or v == 0x2C7C


def _id_first(c: str) -> bool:
    return ("a" <= c <= "z") or ("A" <= c <= "Z") or c == "_" or is_letter_like(c)


def _id_rest(c: str) -> bool:
    return (_id_first(c) or c.isdigit() and c.isascii() or c in "'!?" or _is_subscript_alnum(c))


def _by_first_char(symbols: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Symbols grouped by their first character, longest first (the longest match wins; a
    symbol can only match where its first character is)."""
    index: dict[str, list[str]] = {}
    for s in sorted(symbols, key=len, reverse=True):
        index.setdefault(s[0], []).append(s)
    return {c: tuple(group) for c, group in index.items()}


@functools.lru_cache(maxsize=32)
def _symbol_index(symbols: frozenset[str]) -> tuple[dict[str, tuple[str, ...]],
                                                    dict[str, tuple[str, ...]]]:
    """(every symbol, the word symbols) by first character, built once per symbol table."""
    every = _by_first_char(symbols | set(PUNCTUATION))
    # tokens spelled like identifiers (a context's `notation "limsup" => …`): Lean reads
    # one as the token when it is at least as long as the identifier there (Lean core
    # src/Lean/Parser/Basic.lean, `identFn`/`isToken`)
    words = _by_first_char(s for s in symbols - set(PUNCTUATION) - set(GLUED_NAMES)
                           if _id_first(s[0]))
    return every, words


class _Lexer:
    def __init__(self, text: str, symbols: set[str]):
        self.text = text
        self.symbols, self.word_symbols = _symbol_index(frozenset(symbols))
        self.pos = 0

    def error(self, reason: str, at: int | None = None) -> ParseError:
        return ParseError(reason, self.text, self.pos if at is None else at)

    def skip_space(self) -> bool:
        text, start = self.text, self.pos
        while self.pos < len(text):
            c = text[self.pos]
            if c.isspace():
                self.pos += 1
            elif text.startswith("--", self.pos):
                nl = text.find("\n", self.pos)
                self.pos = len(text) if nl < 0 else nl + 1
            elif text.startswith("/-", self.pos):
                self.skip_block_comment()
            else:
                break
        return self.pos > start

    def skip_block_comment(self) -> None:
        depth, i, text = 0, self.pos, self.text
        while i < len(text):
            if text.startswith("/-", i):
                depth, i = depth + 1, i + 2
            elif text.startswith("-/", i):
                depth, i = depth - 1, i + 2
                if depth == 0:
                    self.pos = i
                    return
            else:
                i += 1
        raise self.error("unterminated comment '/-'")

    def ident(self) -> str:
        text, i = self.text, self.pos
        while True:
            if text[i] == "«":
                close = text.find("»", i)
                if close < 0:
                    raise self.error("unterminated '«'", i)
                i = close + 1
            else:
                i += 1
                while i < len(text) and _id_rest(text[i]):
                    i += 1
                if i < len(text) and text[i] == "✝":
                    i += 1
                    while i < len(text) and text[i] in SUPERSCRIPT_DIGITS:
                        i += 1
            # a dot followed by an identifier start continues a dotted name
            if i + 1 < len(text) and text[i] == "." and (_id_first(text[i + 1]) or text[i + 1] == "«"):
                i += 1
                continue
            return text[self.pos:i]

    def number(self) -> str:
        text, i = self.text, self.pos
        if text.startswith(("0x", "0b", "0o"), i):
            i += 2
            while i < len(text) and (text[i].isalnum() or text[i] == "_"):
                i += 1
            return text[self.pos:i]
        while i < len(text) and text[i].isdigit() and text[i].isascii():
            i += 1
        if i + 1 < len(text) and text[i] == "." and text[i + 1].isdigit():
            i += 1
            while i < len(text) and text[i].isdigit():
                i += 1
        if i < len(text) and text[i] in "eE":
            j = i + 1
            if j < len(text) and text[j] in "+-":
                j += 1
            if j < len(text) and text[j].isdigit():
                i = j
                while i < len(text) and text[i].isdigit():
                    i += 1
        return text[self.pos:i]

    def string(self) -> str:
        text, i = self.text, self.pos + 1
        while i < len(text) and text[i] != '"':
            i += 2 if text[i] == "\\" else 1
        if i >= len(text):
            raise self.error("unterminated string literal")
        return text[self.pos:i + 1]

    def next(self) -> Token:
        space = self.skip_space()
        text, start = self.text, self.pos
        if start >= len(text):
            return Token("eof", "", start, start, space)
        c = text[start]
        if c.isdigit() and c.isascii():
            kind, word = "num", self.number()
        elif c == '"':
            kind, word = "str", self.string()
        elif c == "'" and (char := _CHAR_LITERAL.match(text, start)):
            kind, word = "str", char.group()  # a Char literal ('a', '\n', '\x41') is a literal leaf
        elif text.startswith(GLUED_NAMES, start):
            kind, word = "ident", text[start:start + 2]
        elif (_id_first(c) or c == "«") and not (c == "_" and not self._ident_after_underscore()):
            kind, word = "ident", self.ident()
            token = next((s for s in self.word_symbols.get(c, ()) if text.startswith(s, start)),
                         None)
            if token is not None and len(token) >= len(word):
                kind, word = "sym", token
        elif c in self.symbols:
            word = next((s for s in self.symbols[c] if text.startswith(s, start)), c)
            kind = "sym"
        elif ord(c) < 32 or 0xD800 <= ord(c) <= 0xDFFF or c in "\ufffd\ufeff":
            raise self.error(f"unexpected control or invalid character U+{ord(c):04X}")
        else:
            kind, word = "sym", c
        self.pos = start + len(word)
        return Token(cast(Kind, kind), word, start, self.pos, space)

    def _ident_after_underscore(self) -> bool:
        nxt = self.text[self.pos + 1:self.pos + 2]
        return bool(nxt) and _id_rest(nxt)


_CHAR_LITERAL = re.compile(r"'(?:\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[\\'\"ntr])|[^\\'\n])'")


def tokenize(text: str, symbols: set[str]) -> list[Token]:
    """Split ``text`` into tokens (ending with an ``eof`` token); errors carry the position."""
    lexer = _Lexer(text, symbols)
    tokens: list[Token] = []
    while True:
        tok = lexer.next()
        tokens.append(tok)
        if tok.kind == "eof":
            return tokens
