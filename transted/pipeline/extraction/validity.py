"""Outputs that are not valid Lean 4, recognised with confidence — and only those.

An ``invalid`` output is an answer (the candidate is not equivalent), so each rule below must
be one Lean's own parser always rejects, whatever notation or library is in scope:

* a bracket still open where the input (or the declaration) ends, or closed by the wrong
  bracket — Lean's brackets are tokens no notation can re-pair;
* a comment ``/- …`` or string literal never closed;
* a ``theorem``/``lemma`` with no name, or no ``: type`` (``declId`` and ``declSig`` are
  required, src/Lean/Parser/Command.lean ``«theorem»``), or whose type stops right after an
  operator, binder symbol, ``,`` or ``:`` (a term is still expected);
* Lean 3: ``begin … end`` and ``assume`` proofs, ``λ x, e`` (Lean 4's ``fun`` needs ``=>``/``↦``,
  src/Lean/Parser/Term.lean ``basicFun``), ``open_locale``, Lean 3 mathlib imports
  (``import data.real.basic``), a fence tagged ``lean3``;
* a context declaration before the theorem broken in one of those ways.

Anything else our parser fails on may be our own gap and stays an ``error``. A proof cut off
after a complete statement is only a warning: the proof is dropped anyway.
"""

from __future__ import annotations

from functools import lru_cache

from transted.pipeline.extraction.commands import (
    CLOSERS,
    CLOSES,
    DECLARATION_KEYWORDS,
    OPENERS,
    Command,
    DeclarationHead,
    LexProblem,
    first_on_line,
    read_head,
)
from transted.pipeline.extraction.model import InvalidKind, Problem, span_at
from transted.pipeline.opt.lexer import Token
from transted.pipeline.opt.notation import load_notation

__all__ = ["bracket_problem", "theorem_problem", "context_problem", "lean3_problem",
           "lex_problem", "proof_warnings", "problem_at"]

LEAN3_LIBRARY_DIRS = ("data", "analysis", "algebra", "topology", "tactic", "order", "logic",
                      "number_theory", "linear_algebra", "measure_theory", "ring_theory",
                      "group_theory", "field_theory", "set_theory", "combinatorics", "geometry",
                      "category_theory", "probability", "dynamics", "representation_theory")
"""Top-level folders of Lean 3 mathlib's ``src/`` (Lean 4 Mathlib modules are capitalised)."""
_TERM_EXPECTED_PUNCT = {",", ":", "=>", "↦", "∀", "∃", "∃!", "∑", "∏", "∑'", "∏'", "⋃", "⋂", "∫",
                        "λ", "Π", "⨆", "⨅", "←", "<-", "@"}
_TERM_EXPECTED_WORDS = {"fun", "λ", "forall", "exists", "if", "then", "else", "let", "have",
                        "show", "from"}


@lru_cache(maxsize=1)
def _term_expected_symbols() -> frozenset[str]:
    table = load_notation()
    infix = set(table.infix) | {a for a, s in table.aliases.items() if s in table.infix}
    prefix = set(table.prefix) - set(table.postfix)
    return frozenset(infix | prefix | _TERM_EXPECTED_PUNCT)


def problem_at(text: str, offset: int, reason: str, kind: InvalidKind | None) -> Problem:
    span = span_at(text, offset, offset)
    return Problem(reason=reason, offset=offset, line=span.line, column=span.column, kind=kind)


def _where(text: str, tok: Token) -> str:
    span = span_at(text, tok.start, tok.end)
    return f"line {span.line}, column {span.column}"


def bracket_problem(text: str, tokens: tuple[Token, ...], end: int) -> Problem | None:
    """An unclosed or mismatched bracket in ``tokens``; ``end`` is where the text stops."""
    stack: list[Token] = []
    for tok in tokens:
        if tok.text in OPENERS:
            stack.append(tok)
        elif tok.text in CLOSERS:
            want = CLOSES.get(tok.text, tok.text)
            if not stack or OPENERS[stack[-1].text] != want:
                opened = f"'{stack[-1].text}' opened at {_where(text, stack[-1])}" if stack else "nothing"
                return problem_at(text, tok.start, f"'{tok.text}' closes {opened}",
                                  "mismatched-bracket")
            stack.pop()
    if stack:
        return problem_at(text, end, f"the declaration ends inside '{stack[-1].text}' opened at "
                          f"{_where(text, stack[-1])} (output cut off?)", "unclosed-bracket")
    return None


def _ends_expecting_term(code: str, tokens: tuple[Token, ...]) -> Token | None:
    if not tokens:
        return None
    last = tokens[-1]
    if last.text == "*" and len(tokens) > 1 and tokens[-2].text in ("Type", "Sort") \
            and not last.space_before:
        return None  # `Type*`
    if last.kind == "sym" and last.text in _term_expected_symbols():
        return last
    if last.kind == "ident" and last.text in _TERM_EXPECTED_WORDS:
        return last
    return None


def theorem_problem(text: str, code: str, command: Command, sig: DeclarationHead) -> Problem | None:
    """Why the chosen theorem's own text is not valid Lean 4, or ``None``."""
    toks = command.tokens
    signature = toks[command.head:sig.end]
    end = signature[-1].end
    found = bracket_problem(text, signature, end)
    if found is not None:
        return found
    keyword = command.keyword
    if keyword not in ("example", "instance") and sig.name is None:
        return problem_at(text, end if len(signature) == 1 else signature[1].start,
                          f"`{keyword}` needs a name", "no-name")
    if sig.colon is None and keyword != "example":
        return problem_at(text, end, f"the {keyword} has no ': type' (output cut off?)", "no-type")
    if sig.colon is not None and sig.colon == sig.end - 1:
        return problem_at(text, end, "nothing after ':' (the type is missing)", "ends-inside-term")
    last = _ends_expecting_term(code, signature)
    if last is not None:
        return problem_at(text, last.end, f"the type stops after {last.text!r}: a term is "
                          "still expected (output cut off?)", "ends-inside-term")
    return None


def _lambda_comma(tokens: tuple[Token, ...]) -> Token | None:
    for i, tok in enumerate(tokens):
        if tok.text not in ("fun", "λ"):
            continue
        depth = 0
        for t in tokens[i + 1:]:
            depth += (t.text in OPENERS) - (t.text in CLOSERS)
            if depth < 0 or (depth == 0 and t.text in ("=>", "↦", "|")):
                break
            if depth == 0 and t.text == ",":
                return tok
    return None


def lean3_problem(text: str, code: str, commands: list[Command], fence_langs: list[str]
                  ) -> Problem | None:
    """A construct only Lean 3 has, in ``commands`` (the theorem and its context)."""
    if "lean3" in fence_langs:
        return problem_at(text, 0, "the code is tagged ```lean3: Lean 3 is not Lean 4", "lean3")
    for command in commands:
        if command.keyword == "open_locale":
            return _lean3(text, command.tokens[command.head], "`open_locale` (Lean 3)")
        if command.keyword == "import":
            for tok in command.tokens[command.head + 1:]:
                if tok.text.split(".")[0] in LEAN3_LIBRARY_DIRS and "." in tok.text:
                    return _lean3(text, tok, f"`import {tok.text}` is a Lean 3 mathlib module")
        body = command.tokens[_body_start(code, command):]
        for i, tok in enumerate(body):
            after_assign = i > 0 and body[i - 1].text == ":="
            if tok.text == "begin" and (after_assign or first_on_line(code, tok)):
                return _lean3(text, tok, "a `begin … end` proof (Lean 3)")
            if tok.text == "assume" and tok.kind == "ident":
                return _lean3(text, tok, "`assume` (Lean 3)")
        lam = _lambda_comma(command.tokens)
        if lam is not None:
            return _lean3(text, lam, f"`{lam.text} x, …` (Lean 3; Lean 4 writes `fun x => …`)")
    return None


def _body_start(code: str, command: Command) -> int:
    """Index of a declaration's ``:=`` (proof-only Lean 3 words are looked for from there)."""
    if command.keyword not in DECLARATION_KEYWORDS:
        return len(command.tokens)
    return read_head(code, command).end


def _lean3(text: str, tok: Token, what: str) -> Problem:
    return problem_at(text, tok.start, f"{what}: not valid Lean 4", "lean3")


def context_problem(text: str, context: list[Command]) -> Problem | None:
    """A context command (before the theorem) that Lean would reject: an open bracket."""
    for command in context:
        found = bracket_problem(text, command.tokens, command.end)
        if found is not None:
            head = command.tokens[command.head].text
            return found.model_copy(update={
                "reason": f"in the `{head}` before the theorem: {found.reason}",
                "kind": "broken-context"})
    return None


def lex_problem(text: str, problems: list[LexProblem], start: int, end: int) -> Problem | None:
    """A lexical problem inside the statement ``[start, end]``: an unterminated comment or
    string makes it invalid; an invalid character (blanked to go on) leaves it unreadable."""
    for p in problems:
        if start <= p.offset <= end:
            if p.kind == "invalid-character":
                return problem_at(text, p.offset, p.reason, None)
            return problem_at(text, p.offset, f"{p.reason} (output cut off?)",
                              p.kind)  # type: ignore[arg-type]
    return None


def proof_warnings(text: str, command: Command, sig: DeclarationHead,
                   problems: list[LexProblem]) -> list[str]:
    """What is wrong after the statement: reported, not held against it."""
    warnings = []
    body = command.tokens[sig.end:]
    if body and bracket_problem(text, body, command.end) is not None:
        warnings.append("the proof is cut off or unbalanced; it is dropped, the statement is "
                        "complete")
    after = [p for p in problems
             if sig.body is not None and p.offset > command.tokens[sig.end - 1].end]
    chars = [p for p in after if p.kind == "invalid-character"]
    for p in [p for p in after if p.kind != "invalid-character"] + chars[:1]:
        span = span_at(text, p.offset, p.offset)
        more = f" (and {len(chars) - 1} more)" if p in chars and len(chars) > 1 else ""
        warnings.append(f"{p.reason} at line {span.line}, column {span.column}{more} after the "
                        "statement (ignored)")
    return warnings
