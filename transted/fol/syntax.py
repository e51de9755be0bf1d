"""Tokenizer and parser for first-order formulas as written in FOLIO / MALLS.

Grammar (lowest to highest binding; issue 6 item 1)::

    formula  := iff
    iff      := imp  ('↔' imp)*          left-associative
    imp      := xor  ('→' imp)?          right-associative: A → B → C = A → (B → C)
    xor      := or   ('⊕' or)*           left-associative
    or       := and  ('∨' and)*
    and      := unary ('∧' unary)*
    unary    := '¬' unary | QUANT VAR formula | atom | '(' formula ')'
    atom     := IDENT '(' term (',' term)* ')' | IDENT | term '=' term
    term     := IDENT '(' term (',' term)* ')' | IDENT

Precedence ``¬ > ∧ > ∨ > ⊕ > → > ↔`` is the usual textbook order. Of the 2,196 well-formed
FOLIO v0.0 formulas, 221 mix binary operators inside one pair of brackets. Those mixing ``→``
with ``∧``/``∨``/``⊕`` (215) mean ``→`` to bind loosest in every case we read (all 30 with ``⊕``
next to ``→``, and a sample of the others):
``∀x (Leader(x) → King(x) ⊕ Queen(x))`` is "Leaders are either a king or a queen" and
``∀x (A(x) ∧ B(x) → C(x))`` has a conjunctive antecedent. ``∧`` next to ``∨`` occurs 5 times
and is not consistent: one means ``(A ∧ B) ∨ (¬A ∧ ¬B)``, four read ``A ∧ (B ∨ C)`` in
English (``Novel(b) ∧ Fantasy(b) ∨ ScienceFiction(b)``), which no precedence rule and no
left-to-right fold gives; we keep the textbook order. LogicLLaMA's fold reads at least 73 of the
2,196 formulas as a different truth function from this parser.
A quantifier's scope extends as far right as possible (to the closing bracket
around it or the end): FOLIO has 15 premises like ``∀x Weddings(x) → GettingMarried(x)``
whose English ("All weddings are ...") needs the wide reading; with a narrow scope the second
``x`` would be free. LogicLLaMA's LE moves every quantifier to the front anyway.

A bare identifier in argument position is a :class:`~transted.fol.ast.Variable` when a quantifier in
scope binds it, otherwise a :class:`~transted.fol.ast.Const`. Identifiers may contain letters,
digits, ``_``, inner ``-``, ``.`` and apostrophes, and trailing ``+`` (FOLIO has
``Science-fiction``, ``mr.smith``, ``Companies’Stocks``, ``c++``). ``⟷`` (one FOLIO premise)
is read as ``↔``; ASCII ``^`` is rejected because it means ``∧`` in some sources and ``⊕`` in
others.
A constant may be several words (``ComeFrom(x, dc universe)``, three FOLIO formulas): the
words are kept, joined by one space, as LogicLLaMA's tokenizer does before it capitalises them.

References
----------
Han et al. 2022, "FOLIO: Natural Language Reasoning with First-Order Logic".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from transted.errors import ParseError, ResourceLimitError
from transted.fol.ast import (
    BinOp,
    Const,
    Eq,
    FolTerm,
    Formula,
    Func,
    Not,
    Pred,
    Quantified,
    Variable,
)
from transted.fol.tokens import SYMBOL_KINDS, FolToken, fol_tokens, lex_formula

__all__ = ["FolToken", "lex_formula", "parse_formula", "format_formula", "atoms", "PRECEDENCE",
           "MAX_DEPTH", "Grammar", "FOLIO", "LOGICLLAMA", "logicllama_tokens"]

PRECEDENCE = {"↔": 1, "→": 2, "⊕": 3, "∨": 4, "∧": 5}
"""Binding strength of the binary operators (higher binds tighter); ``¬``/quantifiers bind
tighter than all."""
MAX_DEPTH = 200
"""Nesting cap (brackets, negations, quantifiers): keeps recursion far from Python's limit."""

@dataclass(frozen=True)
class Grammar:
    """How the one parser reads a formula: a mode of :func:`parse_formula`.

    :data:`FOLIO` is the grammar of the module docstring. :data:`LOGICLLAMA` is the reading
    that defines LogicLLaMA's LE metric (:mod:`transted.fol.le`), kept exactly: quantifiers
    are dropped wherever they are, the formula is tokenised by
    :func:`~transted.fol.tokens.fol_tokens`, binary operators have no precedence and fold left
    (``A → B ∧ C`` is ``(A → B) ∧ C``), ``¬`` applies to an atom or a bracketed formula only
    (``¬¬P(x)`` is rejected), an atom is ``SYM(TERM, …)`` or ``TERM = TERM`` and is read as
    the string of its tokens (``Pred("Drinks(Rina)", ())``), and errors are positioned in the
    space-joined token string.
    """

    name: str
    precedence: Mapping[str, int]
    """Binding strength of each binary operator; equal strengths fold left."""
    right_assoc: frozenset[str]
    literal_negation: bool
    """``¬`` only before an atom or a bracket (no ``¬¬P``)."""
    text_atoms: bool
    """An atom is the string of its tokens; no quantifiers, no bare propositional atoms."""
    error_prefix: str
    error_source: str | None
    depth_error: str
    """Message for a formula past :data:`MAX_DEPTH` (``{what}``, ``{limit}``, ``{offset}``)."""


FOLIO = Grammar("folio", PRECEDENCE, frozenset({"→"}), literal_negation=False, text_atoms=False,
                error_prefix="", error_source=None,
                depth_error="formula nests deeper than {limit} levels at offset {offset}")
LOGICLLAMA = Grammar("logicllama", {op: 1 for op in PRECEDENCE}, frozenset(),
                     literal_negation=True, text_atoms=True, error_prefix="LE grammar: ",
                     error_source="LE tokens", depth_error="LE: {what} nests deeper than {limit} levels")


def logicllama_tokens(text: str) -> tuple[str, list[FolToken]]:
    """LogicLLaMA's token stream (LE steps (a)–(b)): :func:`~transted.fol.tokens.fol_tokens`
    with ``=`` split off, each quantifier and its variable dropped. Returns the space-joined
    token string (where errors are positioned) and the tokens with their offsets in it."""
    words = fol_tokens(text, split_equals=True)
    kept: list[str] = []
    i = 0
    while i < len(words):
        if words[i] in ("∀", "∃"):
            if i + 1 >= len(words) or words[i + 1] in SYMBOL_KINDS:
                where = len(" ".join(words[: i + 1]))
                raise ParseError(f"{LOGICLLAMA.error_prefix}expected a variable after the "
                                 "quantifier", " ".join(words), where,
                                 source=LOGICLLAMA.error_source)
            i += 2
            continue
        kept.append(words[i])
        i += 1
    tokens, offset = [], 0
    for word in kept:
        tokens.append(FolToken(SYMBOL_KINDS.get(word, "IDENT"), word, offset))
        offset += len(word) + 1
    joined = " ".join(kept)
    tokens.append(FolToken("EOF", "", len(joined)))
    return joined, tokens


class _Parser:
    """Recursive descent over the token list in one :class:`Grammar`; ``bound`` holds the
    variables in scope."""

    def __init__(self, text: str, tokens: list[FolToken], grammar: Grammar = FOLIO):
        self.text, self.tokens, self.pos = text, tokens, 0
        self.grammar = grammar
        self.bound: list[str] = []
        self.depth = 0

    @property
    def tok(self) -> FolToken:
        return self.tokens[self.pos]

    def fail(self, reason: str, tok: FolToken | None = None) -> ParseError:
        tok = tok or self.tok
        found = "end of formula" if tok.kind == "EOF" else repr(tok.text)
        return ParseError(f"{self.grammar.error_prefix}{reason}, found {found}", self.text,
                          tok.offset, source=self.grammar.error_source)

    def expect(self, kind: str, what: str) -> FolToken:
        if self.tok.kind != kind:
            raise self.fail(f"expected {what}")
        tok = self.tok
        self.pos += 1
        return tok

    def enter(self, what: str = "formula") -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ResourceLimitError(self.grammar.depth_error.format(
                what=what, limit=MAX_DEPTH, offset=self.tok.offset))

    def formula(self, min_prec: int = 1) -> Formula:
        precedence = self.grammar.precedence
        left = self.unary()
        while self.tok.kind == "OP" and precedence[self.tok.text] >= min_prec:
            op = self.tok.text
            self.pos += 1
            prec = precedence[op]
            right = self.formula(prec if op in self.grammar.right_assoc else prec + 1)
            left = BinOp(op, left, right)  # type: ignore[arg-type]
        return left

    def unary(self) -> Formula:
        self.enter()
        result = self.literal() if self.grammar.literal_negation else self.operand()
        self.depth -= 1
        return result

    def operand(self) -> Formula:
        tok = self.tok
        if tok.kind == "NOT":
            self.pos += 1
            return Not(self.unary())
        if tok.kind == "QUANT":
            self.pos += 1
            var = self.expect("IDENT", f"a variable after {tok.text}").text
            self.bound.append(var)
            body = self.formula()  # wide scope: as far right as possible
            self.bound.pop()
            return Quantified(tok.text, var, body)  # type: ignore[arg-type]
        if tok.kind == "(":
            self.pos += 1
            result = self.formula()
            self.expect(")", "')' or an operator")
            return result
        if tok.kind == "IDENT":
            return self.atom()
        raise self.fail("expected a formula")

    def literal(self) -> Formula:
        """``'¬' '(' F ')' | '(' F ')' | ['¬'] ATOM`` (LogicLLaMA)."""
        negated = self.tok.kind == "NOT"
        self.pos += negated
        if self.tok.kind == "(":
            self.pos += 1
            inner = self.formula()
            self.expect(")", "')'")
        elif self.tok.kind == "IDENT":
            inner = self.text_atom()
        else:
            raise self.fail("expected '(' or a predicate" + (" after '¬'" if negated else ""))
        return Not(inner) if negated else inner

    def atom(self) -> Formula:
        name = self.tok
        if self.tokens[self.pos + 1].kind == "(":
            self.pos += 2
            args = self.arguments()
            if self.tok.kind == "=":
                return self.equation(Func(name.text, args))
            return Pred(name.text, args)
        if self.tokens[self.pos + 1].kind == "=":
            return self.equation(self.term())
        self.pos += 1
        return Pred(name.text, ())

    def equation(self, left: FolTerm) -> Formula:
        self.expect("=", "'='")
        return Eq(left, self.term())

    def arguments(self) -> tuple[FolTerm, ...]:
        args = [self.term()]
        while self.tok.kind == ",":
            self.pos += 1
            args.append(self.term())
        self.expect(")", "',' or ')' in an argument list")
        return tuple(args)

    def term(self) -> FolTerm:
        self.enter()
        name = self.expect("IDENT", "a term")
        if self.tok.kind == "(":
            self.pos += 1
            result: FolTerm = Func(name.text, self.arguments())
        elif name.text in self.bound:
            result = Variable(name.text)
        else:
            words = [name.text]
            while (self.tok.kind == "IDENT" and self.tok.text not in self.bound
                   and self.tokens[self.pos + 1].kind != "("):
                words.append(self.tok.text)  # FOLIO's multi-word constants
                self.pos += 1
            result = Const(" ".join(words))
        self.depth -= 1
        return result

    def text_atom(self) -> Formula:
        """``SYM(TERM, …)`` or ``TERM = TERM``, read as the string of its tokens (LogicLLaMA;
        nested terms ``f(g(x))`` and ``=`` are extensions LogicLLaMA itself fails on)."""
        start = self.pos
        applied = self.text_term()
        if self.tok.kind == "=":
            self.pos += 1
            self.text_term()
        elif not applied:
            raise self.fail("expected '(' after a predicate name")
        return Pred("".join(t.text for t in self.tokens[start:self.pos]), ())

    def text_term(self) -> bool:
        """Consume ``SYM`` or ``SYM(TERM, …)``; True for the latter."""
        self.expect("IDENT", "a constant or variable")
        if self.tok.kind != "(":
            return False
        self.enter("term")
        self.expect("(", "'('")
        self.text_term()
        while self.tok.kind == ",":
            self.pos += 1
            self.text_term()
        self.expect(")", "')'")
        self.depth -= 1
        return True


def atoms(formula: Formula) -> list[Formula]:
    """Distinct atomic formulas (:class:`Pred`, :class:`Eq`) in order of first appearance."""
    seen: dict[Formula, None] = {}
    stack: list[Formula] = [formula]
    while stack:
        node = stack.pop()
        if isinstance(node, (Pred, Eq)):
            seen.setdefault(node, None)
        elif isinstance(node, Not):
            stack.append(node.body)
        elif isinstance(node, Quantified):
            stack.append(node.body)
        else:
            stack.extend((node.right, node.left))
    return list(seen)


def parse_formula(text: str, *, max_length: int = 2000, max_atoms: int | None = 64,
                  grammar: Grammar = FOLIO) -> Formula:
    """Parse one FOL formula into the AST of :mod:`transted.fol.ast`.

    Parameters
    ----------
    text : str
        The formula, e.g. ``"∀x (P(x) → ¬Q(x, c))"``.
    max_length : int, default=2000
        Longest accepted input, in characters.
    max_atoms : int or None, default=64
        Most distinct atomic formulas accepted (each doubles a truth table); None: no limit.
    grammar : Grammar, default=FOLIO
        :data:`FOLIO` (the module docstring) or :data:`LOGICLLAMA` (LE's reading).

    Returns
    -------
    Formula

    Raises
    ------
    ParseError
        Malformed input; carries the offset, line/column and a caret excerpt (under
        :data:`LOGICLLAMA`, positioned in the space-joined token string).
    ResourceLimitError
        Input longer than ``max_length``, more atoms than ``max_atoms``, or nesting deeper
        than :data:`MAX_DEPTH`. Parsing is linear in the input, so no time limit is needed.
    """
    if grammar.text_atoms:
        if len(text) > max_length:  # LogicLLaMA's tokeniser checks the type itself
            raise ResourceLimitError(f"formula has {len(text)} characters; `max_length` is "
                                     f"{max_length}")
        tokens_text, tokens = logicllama_tokens(text)
    else:
        if not isinstance(text, str):
            raise TypeError(f"`text` must be a str, got {type(text).__name__}")
        if len(text) > max_length:
            raise ResourceLimitError(f"formula has {len(text)} characters; `max_length` is "
                                     f"{max_length}")
        tokens_text, tokens = text, lex_formula(text)
    parser = _Parser(tokens_text, tokens, grammar)
    if parser.tok.kind == "EOF":
        raise ParseError(f"{grammar.error_prefix}empty formula", text, 0)
    result = parser.formula()
    if parser.tok.kind != "EOF":
        tok = parser.tok
        reason = ("unbalanced ')'" if tok.kind == ")" and grammar is FOLIO
                  else "expected an operator or end of formula")
        raise parser.fail(reason)
    n_atoms = len(atoms(result))
    if max_atoms is not None and n_atoms > max_atoms:
        raise ResourceLimitError(f"formula has {n_atoms} distinct atoms; `max_atoms` is {max_atoms}")
    return result


def _format_term(term: FolTerm) -> str:
    if isinstance(term, Func):
        return f"{term.name}({', '.join(_format_term(a) for a in term.args)})"
    return term.name


def format_formula(formula: Formula, *, explicit: bool = False) -> str:
    """Render ``formula`` in FOLIO style; ``parse_formula(format_formula(f)) == f``.

    Parameters
    ----------
    explicit : bool, default=False
        False: bracket only where :data:`PRECEDENCE` needs it. True: bracket every binary
        operand except a left operand with the same associative operator (``A ∧ B ∧ C``), and
        write ``¬(¬P)`` for a double negation, so LogicLLaMA's precedence-free grammar (LE,
        :mod:`transted.fol.le`) reads the same tree as this parser.
    """
    return _fmt(formula, 0, explicit)


def _fmt(f: Formula, ctx: int, explicit: bool) -> str:
    """``ctx``: the binding strength the surrounding context requires (0 = none)."""
    if isinstance(f, Pred):
        return f"{f.name}({', '.join(_format_term(a) for a in f.args)})" if f.args else f.name
    if isinstance(f, Eq):
        return f"{_format_term(f.left)} = {_format_term(f.right)}"
    if isinstance(f, Not):
        body = _fmt(f.body, 9, explicit)
        return f"¬({body})" if explicit and isinstance(f.body, Not) else "¬" + body
    if isinstance(f, Quantified):
        body = _fmt(f.body, 0, explicit)
        body = f"({body})" if isinstance(f.body, BinOp) else body
        text = f"{f.quantifier}{f.var} {body}"
        return f"({text})" if ctx else text  # wide scope would swallow what follows
    prec = PRECEDENCE[f.op]
    if explicit:
        chain = isinstance(f.left, BinOp) and f.left.op == f.op and f.op != "→"
        left_ctx, right_ctx = (0 if chain else 9), 9
    else:
        right_ctx = prec if f.op == "→" else prec + 1
        left_ctx = prec + 1 if f.op == "→" else prec
    text = f"{_fmt(f.left, left_ctx, explicit)} {f.op} {_fmt(f.right, right_ctx, explicit)}"
    return f"({text})" if prec < ctx else text
