"""Token spans of a Lean 4 declaration, for editing its text in place.

The sensitivity generators (:mod:`transted.sensitivity.lean.perturb`) change one thing in a
statement and keep the rest of the text byte for byte, so a string metric (BLEU) sees only the
perturbation. Our operator trees do not keep source positions and
:func:`transted.opt.render.to_lean` drops opened namespaces (``Nat.Prime p`` prints as
``Prime p``, another Lean constant), so the generators work on token spans instead: this module
splits a declaration into binder groups and conclusion (:class:`Skeleton`) and finds the root
operator of a token range with the precedences of the parser's own notation table
(``notation.yaml``), which is what a Pratt parser does, without building the tree.
"""

from __future__ import annotations

from dataclasses import dataclass

from transted.opt.lexer import Token, tokenize
from transted.opt.notation import NotationTable, load_notation

__all__ = ["Skeleton", "Group", "Span", "skeleton", "root_split", "strip_parens", "OPENERS",
           "CLOSERS", "BINDER_TOKENS", "text_of"]

OPENERS = {"(": ")", "[": "]", "{": "}", "⟨": "⟩", "⦃": "⦄", "⌊": "⌋", "⌈": "⌉"}
CLOSERS = {v: k for k, v in OPENERS.items()} | {"⌋₊": "⌊", "⌉₊": "⌈"}
TOGGLES = ("|", "‖")
BINDER_TOKENS = ("∀", "∃", "∃!", "∑", "∏", "∑'", "∏'", "⋃", "⋂", "∫", "λ", "fun", "⨅", "⨆")
_ENDS_OPERAND = ("ident", "num", "str")


@dataclass(frozen=True)
class Span:
    """Tokens ``[start, end)`` of the skeleton's token list."""

    start: int
    end: int

    def __len__(self) -> int:
        return self.end - self.start


@dataclass(frozen=True)
class Group:
    """One bracketed binder group ``(x y : T)``: its tokens, names and type span."""

    span: Span
    bracket: str
    names: tuple[str, ...]
    type: Span | None


@dataclass(frozen=True)
class Skeleton:
    text: str
    tokens: list[Token]
    depth: list[int]
    """Bracket depth of each token (an opener/closer has the outer depth)."""
    groups: tuple[Group, ...]
    conclusion: Span
    colon: int
    """Index of the ``:`` between the binders and the conclusion."""


def text_of(sk: Skeleton, span: Span) -> str:
    """The source text of ``span`` (from its first token's start to its last token's end)."""
    if len(span) == 0:
        return ""
    return sk.text[sk.tokens[span.start].start:sk.tokens[span.end - 1].end]


def _depths(tokens: list[Token]) -> list[int] | None:
    """Bracket depth per token; ``|x|`` and ``‖x‖`` count as brackets; None if unbalanced."""
    depth: list[int] = []
    stack: list[str] = []
    prev: Token | None = None
    for tok in tokens:
        t = tok.text if tok.kind == "sym" else ""
        ends_operand = prev is not None and (prev.kind in _ENDS_OPERAND or prev.text in CLOSERS
                                             or prev.text in TOGGLES)
        if t in OPENERS:
            depth.append(len(stack))
            stack.append(t)
        elif t in CLOSERS:
            if not stack or stack[-1] != CLOSERS[t]:
                return None
            stack.pop()
            depth.append(len(stack))
        elif t in TOGGLES:
            if stack and stack[-1] == t and ends_operand:
                stack.pop()
                depth.append(len(stack))
            elif stack and stack[-1] == "{" and ends_operand and t == "|":
                depth.append(len(stack))  # the `|` of a set-builder {x | p x}
            else:
                depth.append(len(stack))
                stack.append(t)
        else:
            depth.append(len(stack))
        prev = tok
    return depth if not stack else None


def skeleton(text: str, table: NotationTable | None = None) -> Skeleton | None:
    """Binder groups and conclusion of ``theorem name binders* : conclusion := ...``.

    Returns None when the text is not of that shape (no declaration keyword, unbalanced
    brackets, a binder that is not bracketed); the caller counts it as discarded.
    """
    table = table or load_notation()
    tokens = tokenize(text, table.symbols)
    depth = _depths(tokens)
    if depth is None:
        return None
    i = 0
    while i < len(tokens) and tokens[i].text not in ("theorem", "lemma"):
        i += 1
    if i + 1 >= len(tokens) or tokens[i + 1].kind != "ident":
        return None
    i += 2
    groups: list[Group] = []
    while tokens[i].text in ("(", "{", "[", "⦃"):
        start = i
        close = next((j for j in range(i + 1, len(tokens)) if depth[j] == depth[i]
                      and tokens[j].text == OPENERS[tokens[i].text]), None)
        if close is None:
            return None
        colon = next((j for j in range(i + 1, close) if depth[j] == depth[i] + 1
                      and tokens[j].text == ":"), None)
        names = tuple(t.text for t in tokens[i + 1:colon]) if colon is not None else ()
        if colon is not None and not all(t.kind == "ident" for t in tokens[i + 1:colon]):
            return None
        groups.append(Group(Span(start, close + 1), tokens[i].text, names,
                            Span(colon + 1, close) if colon is not None else None))
        i = close + 1
    if tokens[i].text != ":" or depth[i] != 0:
        return None
    end = next((j for j in range(i + 1, len(tokens))
                if depth[j] == 0 and tokens[j].text in (":=", "where") or tokens[j].kind == "eof"),
               len(tokens) - 1)
    if end == i + 1:
        return None
    return Skeleton(text, tokens, depth, tuple(groups), Span(i + 1, end), i)


def strip_parens(sk: Skeleton, span: Span) -> Span:
    """``( e )`` → ``e`` while the whole span is one parenthesised group."""
    while (len(span) >= 2 and sk.tokens[span.start].text == "("
           and sk.tokens[span.end - 1].text == ")"
           and all(sk.depth[k] > sk.depth[span.start] for k in range(span.start + 1, span.end - 1))
           and not any(sk.tokens[k].text == ":" and sk.depth[k] == sk.depth[span.start] + 1
                       for k in range(span.start + 1, span.end - 1))):
        span = Span(span.start + 1, span.end - 1)
    return span


def _is_binary(sk: Skeleton, k: int, start: int) -> bool:
    """An infix use: there is an operand right before it (else ``-`` is a prefix minus)."""
    if k == start:
        return False
    prev = sk.tokens[k - 1]
    return prev.kind in _ENDS_OPERAND or prev.text in CLOSERS or (
        prev.text in TOGGLES and sk.depth[k - 1] == sk.depth[k]) or prev.text == "!"


def root_split(sk: Skeleton, span: Span, table: NotationTable | None = None) -> int | None:
    """Token index of the root infix operator of ``span``, or None (atom, binder, prefix root).

    The root is the depth-0 infix operator of lowest precedence, the last of equals for a
    left-associative one and the first for a right-associative one (as a Pratt parser reads
    it); operators inside the operand of a leading prefix operator (``¬``, ``-``) or after a
    binder (``∀ x, …`` extends to the end) are not candidates. A span whose lowest
    operator is non-associative and repeated is refused (None).
    """
    table = table or load_notation()
    base = sk.depth[span.start]
    best: list[tuple[int, int]] = []  # (prec, index)
    prefix_floor: int | None = None  # ops binding tighter than this belong to a prefix operand
    for k in range(span.start, span.end):
        if sk.depth[k] != base:
            continue
        text = sk.tokens[k].text
        if text in BINDER_TOKENS:
            break
        binary = sk.tokens[k].kind == "sym" and text in table.infix and _is_binary(sk, k, span.start)
        if not binary:
            if text in table.prefix and text not in ("↑", "√", "!", "#", "⇑", "↥"):
                floor = table.prefix[text].arg
                prefix_floor = floor if prefix_floor is None else min(prefix_floor, floor)
            continue
        op = table.infix[text]
        if prefix_floor is not None:
            if op.prec >= prefix_floor:
                continue
            prefix_floor = None
        if k == span.start and not best:
            return None
        best.append((op.prec, k))
    if not best:
        return None
    low = min(p for p, _ in best)
    at = [k for p, k in best if p == low]
    assoc = table.infix[sk.tokens[at[0]].text].assoc
    if assoc == "left":
        return at[-1]
    if assoc == "right":
        return at[0]
    return at[0] if len(at) == 1 else None
