"""The term parser's reading state: the tokens, the position in them, and what is in scope.

Every grammar module (:mod:`~transted.opt.brackets`, :mod:`~transted.opt.trailers`,
:mod:`~transted.opt.binders`, :mod:`~transted.opt.patterns`, :mod:`~transted.opt.set_builder`,
:mod:`~transted.opt.big_operators`) is a set of functions over a :class:`TermCursor`: they read
tokens with its helpers and read a sub-term with :meth:`TermCursor.expr`, which the Pratt
parser (:class:`transted.opt.parser.TermParser`) implements. So the imports go one way: the
parser imports its grammar modules, they import this module, never the parser.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from transted.errors import ParseError, ResourceLimitError
from transted.opt.lexer import Token, tokenize
from transted.opt.node import Node
from transted.opt.notation import NotationTable, load_notation

__all__ = ["TermCursor", "MAX_INPUT_CHARS", "MAX_NESTING"]

MAX_INPUT_CHARS = 100_000
MAX_NESTING = 100
"""Parser nesting cap: the Pratt parser recurses ~4 Python frames per level, so 100 levels stay
well inside Python's default recursion limit (1000) without raising it; the deepest statement
in tests/data nests 17 levels."""


class TermCursor(ABC):
    """The tokens of ``text`` and the parser's place in them; ``opens`` are the namespaces
    opened around the text, ``split_binders`` one binder per node (``x y : ℝ`` → two)."""

    def __init__(self, text: str, *, opens: tuple[str, ...] = (), split_binders: bool = True,
                 table: NotationTable | None = None, atoms: Mapping[str, Node] | None = None):
        if len(text) > MAX_INPUT_CHARS:
            raise ResourceLimitError(f"input of {len(text)} characters exceeds the cap of {MAX_INPUT_CHARS}")
        self.text = text
        self.table = table or load_notation()
        self.atoms = dict(atoms or {})
        """Notation atoms declared in the context (``notation "ℝ²" => t``) and their trees."""
        self.tokens = tokenize(text, self.table.symbols | set(self.atoms))
        self.i = 0
        self.opens = tuple(sorted(set(opens), key=len, reverse=True))
        self.split = split_binders
        self.bound: list[str] = []
        self.depth = 0
        self.closers: list[str] = []  # innermost open |…| or ‖…‖
        self.rbp = 0  # the precedence the term being read is parsed at (parser.DEP_ARROW_PREC)
        self.position: int | None = None  # column saved by `positioned` (Lean's withPosition)

    @abstractmethod
    def expr(self, rbp: int = 0) -> Node:
        """The term at the cursor whose operators bind at least as tightly as ``rbp``."""

    # -- token helpers --------------------------------------------------------------------
    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def peek(self, k: int = 1) -> Token:
        return self.tokens[min(self.i + k, len(self.tokens) - 1)]

    def advance(self) -> Token:
        tok = self.tokens[self.i]
        if tok.kind != "eof":
            self.i += 1
        return tok

    def at(self, *texts: str) -> bool:
        t = self.tok
        return t.kind in ("sym", "ident") and t.text in texts

    def accept(self, *texts: str) -> Token | None:
        return self.advance() if self.at(*texts) else None

    def expect(self, *texts: str) -> Token:
        if not self.at(*texts):
            raise self.error(f"expected {' or '.join(repr(t) for t in texts)}, found {self.describe(self.tok)}")
        return self.advance()

    def error(self, reason: str, tok: Token | None = None) -> ParseError:
        return ParseError(reason, self.text, (tok or self.tok).start)

    @staticmethod
    def describe(tok: Token) -> str:
        return "end of input" if tok.kind == "eof" else repr(tok.text)

    def skip_tactic_block(self) -> None:
        """Skip ``by …`` inside a term up to the enclosing closer (its content is a proof)."""
        self.expect("by")
        depth = 0
        while self.tok.kind != "eof":
            if self.at("(", "[", "{", "⟨"):
                depth += 1
            elif self.at(")", "]", "}", "⟩"):
                if depth == 0:
                    return
                depth -= 1
            elif depth == 0 and self.at(","):
                return
            self.advance()

    # -- scopes ---------------------------------------------------------------------------
    @contextmanager
    def nested(self) -> Iterator[None]:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.error(f"expression nested deeper than {MAX_NESTING} levels")
        try:
            yield
        finally:
            self.depth -= 1

    @contextmanager
    def positioned(self, tok: Token) -> Iterator[None]:
        """Lean's ``withPosition``: while inside, an application argument must start in a
        column right of ``tok``'s (``argument := checkWsBefore >> checkColGt >> …``, Lean core
        src/Lean/Parser/Term.lean), so ``let x := v`` ends at a new line at ``let``'s column."""
        saved, self.position = self.position, self.column(tok)
        try:
            yield
        finally:
            self.position = saved

    def column(self, tok: Token) -> int:
        return tok.start - (self.text.rfind("\n", 0, tok.start) + 1)

    @contextmanager
    def binding(self, names: list[str]) -> Iterator[None]:
        self.bound.extend(names)
        try:
            yield
        finally:
            del self.bound[len(self.bound) - len(names):]
