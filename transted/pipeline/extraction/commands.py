"""Lean code → commands: where each command starts and, for a declaration, where its
signature ends.

Lean ends a command where the next command's keyword begins (the keywords are reserved: no term
contains ``theorem``), and a command may take a one-command prefix ``open … in`` /
``set_option … in`` / ``include … in`` / ``omit … in`` (Lean 4 src/Lean/Parser/Command.lean:
``«in»``, ``«open»``, ``«set_option»``, ``«include»``, ``«omit»``). We split where a command
keyword (or a modifier, ``@[…]``, ``#check``…) is the first token of its line;
``open``/``set_option``/``end``, which also exist as term and tactic forms, start a command only
at or left of the enclosing command's column.

A declaration's signature (``declSig``/``optDeclSig``) ends at the first ``:=``, ``where`` or
match alternative ``| … =>`` outside brackets; a ``:=`` belonging to a ``let``/``have`` in the
type is skipped. Written on our own Lean lexer (:mod:`transted.pipeline.opt.lexer`) because no library
reads Lean 4 commands offline.
"""

from __future__ import annotations

from dataclasses import dataclass

from transted.errors import ParseError
from transted.pipeline.opt.lexer import Token, tokenize
from transted.pipeline.opt.notation import load_notation

__all__ = ["Command", "DeclarationHead", "LexProblem", "lex", "split_commands", "read_head",
           "DECLARATION_KEYWORDS", "THEOREM_KEYWORDS", "OPENERS", "CLOSERS", "CLOSES",
           "first_on_line"]

THEOREM_KEYWORDS = ("theorem", "lemma", "example")
DECLARATION_KEYWORDS = (*THEOREM_KEYWORDS, "def", "abbrev", "instance", "axiom", "opaque",
                        "structure", "class", "inductive")
OTHER_COMMANDS = ("import", "open", "namespace", "section", "end", "variable", "universe",
                  "set_option", "attribute", "notation", "infix", "infixl", "infixr", "prefix",
                  "postfix", "macro", "macro_rules", "syntax", "elab", "export", "mutual",
                  "include", "omit", "open_locale", "universes", "deriving")
MODIFIERS = ("private", "protected", "noncomputable", "nonrec", "partial", "unsafe", "local",
             "scoped", "public")
HASH_COMMANDS = ("check", "eval", "print", "reduce", "exit", "lint", "synth")
_ALSO_TERMS = ("open", "set_option", "end")
_PREFIXES = ("open", "set_option", "include", "omit")
"""Commands that take the one-command form ``… in`` (``omit h in theorem …``: Lean 4
``include``/``omit``; ``variable … in`` is not split here, a binder's ``∑ x in s`` would end it)."""
OPENERS = {"(": ")", "[": "]", "{": "}", "⟨": "⟩", "⦃": "⦄", "⁅": "⁆", "⟪": "⟫", "%[": "]",
           "⌊": "⌋", "⌈": "⌉", "![": "]", "!![": "]", "^[": "]", "=ᶠ[": "]", "≤ᶠ[": "]",
           "=O[": "]", "=o[": "]", "=Θ[": "]"}
"""Every token that opens a bracket (the lexer glues some to a symbol: ``f^[n]``, ``![a]``,
``f =ᶠ[l] g``); a token missing here would make its ``]`` look mismatched."""
CLOSERS = {")", "]", "}", "⟩", "⦄", "⁆", "⟫", "⌋", "⌋₊", "⌉", "⌉₊"}
CLOSES = {"⌋₊": "⌋", "⌉₊": "⌉"}
"""Closers that close an opener spelled differently (``⌊x⌋₊`` is ``Nat.floor``)."""


@dataclass(frozen=True)
class LexProblem:
    """A comment or string literal still open at the end of the input."""

    kind: str  # unterminated-comment | unterminated-string
    offset: int
    reason: str


@dataclass(frozen=True)
class Command:
    keyword: str
    """``theorem``, ``open``, ``#check``…; ``?`` for tokens that start no known command."""
    tokens: tuple[Token, ...]
    head: int
    """Index of the keyword in ``tokens`` (modifiers and attributes come before it)."""
    prefix: bool = False
    """Ends with ``in``: applies to the next command only."""

    @property
    def start(self) -> int:
        return self.tokens[0].start

    @property
    def end(self) -> int:
        return self.tokens[-1].end

    @property
    def keyword_start(self) -> int:
        return self.tokens[self.head].start


@dataclass(frozen=True)
class DeclarationHead:
    """A declaration's header: its name, the type's colon and where the signature ends."""

    name: str | None
    colon: int | None
    """Index (in the command's tokens) of the ``:`` before the type."""
    end: int
    """Index of the first token after the signature (``len(tokens)`` when it runs to the end)."""
    body: str | None
    """``:=``, ``where``, ``|`` or ``None`` (no body)."""


def first_on_line(code: str, tok: Token) -> bool:
    line_start = code.rfind("\n", 0, tok.start) + 1
    return code[line_start:tok.start].strip() == ""


def _column(code: str, tok: Token) -> int:
    return tok.start - (code.rfind("\n", 0, tok.start) + 1)


def _invalid_char(c: str) -> bool:
    """What :mod:`transted.pipeline.opt.lexer` refuses: control characters that are not white space,
    surrogates, U+FFFD and a byte-order mark."""
    v = ord(c)
    return (v < 32 and not c.isspace()) or 0xD800 <= v <= 0xDFFF or c in "\ufffd\ufeff"


def lex(code: str) -> tuple[list[Token], list[LexProblem]]:
    """Tokens of ``code`` (``eof`` dropped); an unterminated comment or string is recorded and
    the rest of the input blanked, an invalid character is blanked, so the lexer goes on."""
    problems = [LexProblem("invalid-character", i, f"unexpected control or invalid character "
                           f"U+{ord(c):04X}") for i, c in enumerate(code) if _invalid_char(c)]
    if problems:  # blanked in one pass: retrying the lexer per character would be quadratic
        code = "".join(" " if _invalid_char(c) else c for c in code)
    symbols = load_notation().symbols
    while True:
        try:
            return tokenize(code, symbols)[:-1], problems
        except ParseError as e:
            if e.reason.startswith("unterminated"):
                kind = "unterminated-comment" if "comment" in e.reason else "unterminated-string"
                problems.append(LexProblem(kind, e.offset, e.reason))
                code = code[:e.offset] + "".join(c if c == "\n" else " " for c in code[e.offset:])
            else:
                problems.append(LexProblem("invalid-character", e.offset, e.reason))
                code = code[:e.offset] + " " + code[e.offset + 1:]


def _starts_command(code: str, tokens: list[Token], k: int) -> bool:
    t = tokens[k]
    nxt = tokens[k + 1] if k + 1 < len(tokens) else None
    if t.kind == "sym" and t.text == "@":
        return nxt is not None and nxt.text == "[" and not nxt.space_before
    if t.kind == "sym" and t.text == "#":
        return nxt is not None and nxt.text in HASH_COMMANDS and not nxt.space_before
    return t.kind == "ident" and (t.text in DECLARATION_KEYWORDS or t.text in OTHER_COMMANDS
                                  or t.text in MODIFIERS)


def _keyword_index(tokens: list[Token]) -> int:
    """Index of the command keyword after modifiers and ``@[…]`` attributes
    (``len(tokens)`` when there is none yet)."""
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t.text == "@" and i + 1 < len(tokens) and tokens[i + 1].text == "[":
            depth, i = 0, i + 1
            while i < len(tokens):
                depth += (tokens[i].text in OPENERS) - (tokens[i].text in CLOSERS)
                i += 1
                if depth <= 0:
                    break
        elif t.kind == "ident" and t.text in MODIFIERS:
            i += 1
        else:
            return i
    return len(tokens)


def _keyword(tokens: list[Token], head: int) -> str:
    t = tokens[head]
    if t.text == "#" and head + 1 < len(tokens):
        return "#" + tokens[head + 1].text
    if t.text == "class" and head + 1 < len(tokens) and tokens[head + 1].text == "inductive":
        return "inductive"
    known = t.kind == "ident" and (t.text in DECLARATION_KEYWORDS or t.text in OTHER_COMMANDS)
    return t.text if known else "?"


def _make(tokens: list[Token], prefix: bool = False) -> Command:
    head = min(_keyword_index(tokens), len(tokens) - 1)
    return Command(_keyword(tokens, head), tuple(tokens), head, prefix)


def split_commands(code: str, tokens: list[Token]) -> list[Command]:
    """The commands of ``code`` in order (see the module docstring)."""
    commands: list[Command] = []
    current: list[Token] = []
    for k, tok in enumerate(tokens):
        if current and _boundary(code, tokens, k, current):
            commands.append(_make(current))
            current = []
        current.append(tok)
        head = _keyword_index(current)
        if (tok.text == "in" and tok.kind == "ident" and len(current) > head + 1
                and current[head].text in _PREFIXES and tok is not current[head]):
            commands.append(_make(current, prefix=True))
            current = []
    if current:
        commands.append(_make(current))
    return commands


def _boundary(code: str, tokens: list[Token], k: int, current: list[Token]) -> bool:
    tok = tokens[k]
    if not first_on_line(code, tok) or not _starts_command(code, tokens, k):
        return False
    if _keyword_index(current) == len(current):
        return False  # only modifiers/attributes so far: they belong to this command
    if tok.text in _ALSO_TERMS:
        return _column(code, tok) <= _column(code, current[0])
    return True


def _skip_universe_params(tokens: tuple[Token, ...], i: int) -> int:
    if i + 1 < len(tokens) and tokens[i].text == "." and tokens[i + 1].text == "{":
        while i < len(tokens) and tokens[i].text != "}":
            i += 1
        return i + 1
    return i


def _name(command: Command) -> tuple[str | None, int]:
    """``(name, index after the name)`` of a declaration command."""
    toks, i = command.tokens, command.head + 1
    if command.keyword == "inductive" and toks[command.head].text == "class":
        i += 1
    if command.keyword == "instance" and i < len(toks) and toks[i].text == "(":
        while i < len(toks) and toks[i].text != ")":
            i += 1
        i += 1
    if command.keyword == "example" or i >= len(toks):
        return None, i
    tok = toks[i]
    if tok.kind != "ident" or tok.text in DECLARATION_KEYWORDS:
        return None, i
    return tok.text, _skip_universe_params(toks, i + 1)


def _alternative_line(code: str, toks: tuple[Token, ...], i: int) -> bool:
    """``|`` first on its line and followed by ``=>`` on that line: a match alternative."""
    if not first_on_line(code, toks[i]):
        return False
    line_end = code.find("\n", toks[i].start)
    line_end = len(code) if line_end < 0 else line_end
    return any(t.text == "=>" for t in toks[i + 1:] if t.start < line_end)


def read_head(code: str, command: Command) -> DeclarationHead:
    """The :class:`DeclarationHead` of a declaration command."""
    name, i = _name(command)
    toks, depth, pending_let = command.tokens, 0, 0
    colon = None
    while i < len(toks):
        text = toks[i].text
        if text in OPENERS:
            depth += 1
        elif text in CLOSERS:
            depth = max(depth - 1, 0)
        elif depth == 0:
            if text in ("let", "have") and toks[i].kind == "ident":
                pending_let += 1
            elif text == ":=" and pending_let:
                pending_let -= 1
            elif text == ":=":
                return DeclarationHead(name, colon, i, ":=")
            elif text == ":" and colon is None:
                colon = i
            elif text in ("where", "deriving") and toks[i].kind == "ident":
                return DeclarationHead(name, colon, i, text)
            elif text == "|" and _alternative_line(code, toks, i):
                return DeclarationHead(name, colon, i, "|")
        i += 1
    return DeclarationHead(name, colon, len(toks), None)
