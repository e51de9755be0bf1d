"""Pratt parser from Lean 4 term syntax to operator trees (OPT).

Labels follow ASSESS §3.2.1: an operator node is labelled by its notation with ``<SLOT>`` in
operand positions; operands are leaves; parentheses vanish. Infix/prefix/postfix operators come
from the notation table (data); binder notations (∀ ∃ ∃! fun ∑ ∏ ⋃ ⋂ ∫ let have, set-builder) and
brackets are structural. Written by hand because no Python library parses Lean 4 notation
(Lean's own parser needs a Lean toolchain, which the offline path must not require).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from transted.errors import TooDeep
from transted.pipeline.opt import big_operators, binders, brackets, patterns, set_builder, trailers
from transted.pipeline.opt.cursor import TermCursor
from transted.pipeline.opt.labels import (
    EXPLICIT_MARK,
    FIELD_APPLICATION,
    NAMED_APPLICATION,
    SLOT,
    field_label,
    term_open_label,
)
from transted.pipeline.opt.lexer import KEYWORD_STOPS, Token
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.notation import MAX_PREC, NotationTable
from transted.pipeline.opt.trailers import FILTER_RELATIONS, PIPE_PREC

__all__ = ["TermParser", "app_node", "field_node", "MAX_TREE_DEPTH"]

MAX_TREE_DEPTH = 128
"""Operator-tree depth cap. The parser's own recursion is bounded by
:data:`~transted.pipeline.opt.cursor.MAX_NESTING`, but a
left-associative chain (``x + x + … + x``) or a run of binders is parsed by a loop and makes a
tree as deep as it is long; later stages (normalisation, evidence, the search's rules) walk
trees recursively, so a deeper tree is refused here with a positioned
:class:`~transted.errors.TooDeep` (``status: too_large``). The deepest statement of
tests/data (859 statements and the dev pairs) is 24 levels deep."""
APP_PREC = MAX_PREC  # arguments of an application are parsed at max precedence
DEP_ARROW_PREC = 25
"""Lean core Parser/Term.lean: ``depArrow`` is ``leading_parser:25``, so ``(x : T) → B`` is a
term only where precedence 25 is allowed — never an application argument (``f (x : T) → B`` is
``f (x : T)`` ascribed, then an implication)."""


def app_node(head: Node, args: list[Node]) -> Node:
    """Application node; a named head (or named application, or field access ``x.f``)
    absorbs the arguments."""
    if not args:
        return head
    if head.is_leaf and not head.label.startswith("<"):
        return Node(head.label + f" {SLOT}" * len(args), tuple(args))
    m = NAMED_APPLICATION.match(head.label) or FIELD_APPLICATION.match(head.label)
    if m and len(m.group(2)) // len(f" {SLOT}") == len(head.children) - (m.re is FIELD_APPLICATION):
        return Node(head.label + f" {SLOT}" * len(args), head.children + tuple(args))
    return Node(SLOT + f" {SLOT}" * len(args), (head, *args))


PIPES = ("<|", "$", "|>")
"""Lean core Init/Prelude.lean: ``syntax:min term " <| " term:min`` with ``macro_rules |
`($f $args* <| $a) => `($f $args* $a)`` (``$`` is the same: ``atomic(" $" ws)``), and
``syntax:min term " |> " term:min1`` with ```($a |> $f $args*) => `($f $args* $a)``."""


def _pipe(symbol: str, left: Node, right: Node) -> Node:
    """``f a <| b`` and ``f a $ b`` are ``f a b``; ``b |> f a`` is ``f a b``."""
    return app_node(right, [left]) if symbol == "|>" else app_node(left, [right])


def field_node(receiver: Node, name: str) -> Node:
    """Generalized field notation ``x.f`` (Lean 4: ``T.f`` with ``x`` as its first explicit
    argument of type ``T``, resolved by the receiver's type, not by the name ``f``): the label
    keeps the dot, so a written ``f x`` stays a different term."""
    return Node(field_label(name, 0), (receiver,))


class TermParser(TermCursor):
    """Parse Lean terms from ``text``: the Pratt core over the reading state of
    :class:`~transted.pipeline.opt.cursor.TermCursor`, calling the grammar modules at their symbols."""

    def __init__(self, text: str, *, opens: tuple[str, ...] = (), split_binders: bool = True,
                 table: NotationTable | None = None, atoms: Mapping[str, Node] | None = None):
        super().__init__(text, opens=opens, split_binders=split_binders, table=table, atoms=atoms)
        self._depths: dict[int, tuple[Node, int]] = {}  # id → (node, depth) of parsed terms

    # -- names ----------------------------------------------------------------------------
    def resolve(self, name: str) -> str:
        """The name as written (``@`` dropped). Which constant it names is the header's
        business (:mod:`transted.pipeline.opt.elaborate`): dropping an opened prefix here would make
        ``Real.sqrt`` and ``Nat.sqrt`` one leaf under ``open Nat Real``."""
        return name.lstrip("@")

    def name_node(self, raw: str) -> Node:
        """Identifier leaf; ``x.f.g`` on a bound ``x`` is generalized field notation."""
        name = raw.lstrip("@")
        head, _, rest = name.partition(".")
        if rest and head in self.bound:
            node = Node(head)
            for field in rest.split("."):
                node = field_node(node, field)
            return node
        return Node(self.resolve(name))

    # -- expressions -----------------------------------------------------------------------
    def parse(self) -> Node:
        node = self.expr(0)
        if self.tok.kind != "eof":
            raise self.error(f"unexpected {self.describe(self.tok)} after a complete term")
        return node

    def expr(self, rbp: int = 0) -> Node:
        with self.nested():
            start = self.tok
            outer, self.rbp = self.rbp, rbp
            try:
                left = self.nud()
            finally:
                self.rbp = outer
            self.checked_depth(left, start)
            while True:
                at = self.tok
                nxt = self.led(left, rbp)
                if nxt is None:
                    return left
                left = nxt
                self.checked_depth(left, at)

    def depth_of(self, node: Node) -> int:
        """``node.depth()``, from the depths of the terms already parsed (linear overall)."""
        known = self._depths.get(id(node))
        if known is not None and known[0] is node:
            return known[1]
        depth = 0
        for child in node.children:
            known = self._depths.get(id(child))
            depth = max(depth, known[1] if known is not None and known[0] is child
                        else child.depth())
        return depth + 1

    def checked_depth(self, node: Node, at: Token) -> None:
        """Record ``node``'s depth; past :data:`MAX_TREE_DEPTH` raise a :class:`TooDeep`
        positioned at ``at`` (the token that began the construct making it too deep)."""
        depth = self.depth_of(node)
        if depth > MAX_TREE_DEPTH:
            raise TooDeep(depth, MAX_TREE_DEPTH, self.text, at.start)
        self._depths[id(node)] = (node, depth)

    def starts_argument(self) -> bool:
        t = self.tok
        if self.position is not None and self.column(t) <= self.position:
            return False
        if t.kind in ("ident",):
            return t.text not in KEYWORD_STOPS
        if t.kind in ("num", "str"):
            return True
        if t.kind != "sym":
            return False
        if t.text in self.atoms:
            return True
        if t.text in ("|", "‖"):
            return self._opens_bracket(t)
        if t.text == "[":
            return not (self.peek().kind == "ident" and self.peek().text in ("MOD", "ZMOD", "PMOD"))
        return t.text in ("(", "⟨", "{", "↑", "⇑", "↥", "@", "·", "⌊", "⌈", "¬", "∅", "⊤", "⊥", "∞",
                          "_", "?", "[", "√", "#", "⟪", "⁅", "![", "!![")

    def _opens_bracket(self, t: Token) -> bool:
        nxt = self.peek()
        if nxt.kind == "eof" or nxt.space_before:
            return False
        if self.closers and self.closers[-1] == t.text and not t.space_before:
            return False
        return True

    def led(self, left: Node, rbp: int) -> Node | None:
        """Extend ``left`` by one trailing construct binding at least as tightly as ``rbp``.

        Lean's ``infixl:p`` is ``lhs:p op rhs:(p+1)`` and ``infixr:p`` is ``lhs:(p+1) op rhs:p``:
        an operator continues the loop when its precedence is at least ``rbp``.
        """
        t = self.tok
        if t.kind == "sym":
            sym = self.table.aliases.get(t.text, t.text)
            op = self.table.infix.get(sym)
            if op is not None:
                if op.prec < rbp:
                    return None
                self.advance()
                if self.at("[") and not self.tok.space_before:  # M →ₗ[R] N
                    self.advance()
                    ring = self.expr(0)
                    self.expect("]")
                    right = self.expr(op.prec if op.assoc == "right" else op.prec + 1)
                    return Node(f"{SLOT} {sym}[{SLOT}] {SLOT}", (left, ring, right))
                right = self.expr(op.prec if op.assoc == "right" else op.prec + 1)
                if sym in PIPES:
                    return _pipe(sym, left, right)
                if sym == "≡" and self.at("["):
                    return trailers.modeq(self, left, right)
                return Node(op.node_label, (left, right))
            post = self.table.postfix.get(sym)
            if post is not None and post.prec >= rbp:
                self.advance()
                return Node(post.node_label, (left,))
            if sym == "." and not t.space_before:
                return self.projection(left)
            if sym in FILTER_RELATIONS:
                return trailers.filter_relation(self, left, rbp)
            if sym == "|>." and rbp <= PIPE_PREC:
                return trailers.pipeline_field(self, left)
            if sym == "^[":
                return trailers.iterate(self, left)
            if sym == "[" and not t.space_before:
                return trailers.index_trailer(self, left)
        if rbp < APP_PREC and self.starts_argument():
            args = []
            while self.starts_argument():
                args.append(self.expr(APP_PREC))
            return app_node(left, args)
        return None

    def projection(self, left: Node) -> Node:
        self.advance()
        t = self.advance()
        if t.kind == "num":
            return Node(f"{SLOT}.{t.text}", (left,))
        if t.kind == "ident":
            node = left
            for field in t.text.split("."):
                node = field_node(node, field)
            return node
        raise self.error("expected a field name or index after '.'", t)

    # -- leading forms ------------------------------------------------------------------------
    def nud(self) -> Node:
        t = self.tok
        if t.kind == "num":
            self.advance()
            return Node(t.text)
        if t.kind == "str":
            self.advance()
            return Node(t.text)
        if t.kind == "ident":
            return self.nud_ident(t)
        if t.kind == "eof":
            raise self.error("unexpected end of input: expected a term")
        if t.text in self.atoms:
            self.advance()
            return self.atoms[t.text]
        sym = self.table.aliases.get(t.text, t.text)
        if sym in ("(", "{", "⦃", "[") and self.rbp <= DEP_ARROW_PREC:
            arrow = binders.dependent_arrow(self)
            if arrow is not None:
                return arrow
        handler = _LEADING.get(sym)
        if handler is not None:
            return handler(self)
        op = self.table.prefix.get(sym)
        if op is not None:
            self.advance()
            return Node(op.node_label, (self.expr(op.arg),))
        raise self.error(f"unexpected {self.describe(t)}: expected a term")

    def nud_ident(self, t: Token) -> Node:
        word = t.text
        if word in ("fun", "λ"):
            return binders.lambda_(self)
        if word in ("forall", "exists"):
            self.advance()
            return binders.quantifier(self, "∀" if word == "forall" else "∃")
        if word == "if":
            return binders.if_then_else(self)
        if word in ("let", "have"):
            return binders.let_(self, word)
        if word == "match":
            return patterns.match_expr(self)
        if word == "show":
            self.advance()
            ty = self.expr(0)
            if self.accept("from"):
                self.expr(0)
            elif self.at("by"):
                self.skip_tactic_block()
            return ty
        if word == "by":
            self.skip_tactic_block()
            return Node("by")
        if word in ("Type", "Sort"):
            self.advance()
            if self.at("*") and not self.tok.space_before:
                self.advance()
                return Node(word + "*")
            if self.tok.kind in ("ident", "num") and self.tok.text not in KEYWORD_STOPS or self.at("_"):
                return Node(f"{word} {SLOT}", (Node(self.advance().text),))
            return Node(word)
        if word == "open" or (word == "set_option" and self.peek().kind == "ident"):
            return self.scoped_term(word)
        if word in KEYWORD_STOPS:
            raise self.error(f"unexpected keyword {word!r}: expected a term")
        self.advance()
        return self.name_node(word)

    def scoped_term(self, word: str) -> Node:
        """``open A B in e`` and ``set_option o v in e`` as terms (Lean core
        src/Lean/Parser/Term.lean ``Term.open``/``Term.set_option``): ``open`` keeps its node
        (``open A B in <SLOT>``: the elaborator reads ``e``'s names with the namespaces opened,
        the normaliser then drops it); an option changes no tree."""
        self.advance()
        opened: list[str] = []
        scoped = False
        if word == "open":
            scoped = self.accept("scoped") is not None
            while self.tok.kind == "ident" and self.tok.text != "in":
                opened.append(self.advance().text)
            if not opened:
                raise self.error("expected a namespace after 'open'")
        else:
            self.advance()  # the option's name
            if self.tok.kind == "eof" or self.at("in"):
                raise self.error("expected a value after the option's name")
            self.advance()
        self.expect("in")
        body = self.expr(0)
        if word != "open":
            return body
        return Node(term_open_label(" ".join(["scoped", *opened] if scoped else opened)), (body,))

    def at_sign(self) -> Node:
        """``@f``: every binder of ``f`` explicit (``ElabAppArgs.Context.explicit``, Lean core
        src/Lean/Elab/App.lean). A free name keeps the mark in its label (``@Normal``), so its
        arguments are never read as the explicit ones of ``f`` alone; a bound name (its binders
        are not ours to read) stays as written."""
        self.advance()
        t = self.tok
        if t.kind != "ident":
            raise self.error("expected an identifier after '@'")
        node = self.nud_ident(t)
        if node.is_leaf and node.label == self.resolve(t.text) and node.label not in self.bound:
            return Node(EXPLICIT_MARK + node.label)
        return node

    def leaf_symbol(self) -> Node:
        return Node(self.advance().text)

    def question(self) -> Node:
        q = self.advance()
        t = self.tok
        if t.kind == "ident" and not t.space_before:
            self.advance()
            return Node("?" + t.text)
        raise self.error("expected a metavariable name after '?'", q)


_LEADING: dict[str, Callable[[TermParser], Node]] = {
    "(": brackets.paren, "⟨": brackets.anonymous_constructor, "[": brackets.list_literal,
    "|": brackets.abs_, "‖": brackets.norm, "⌊": brackets.floor, "⌈": brackets.ceil,
    "⟪": brackets.inner_product, "⁅": brackets.lie_bracket, "![": brackets.vector_literal,
    "!![": brackets.matrix_literal, "{": set_builder.braces, "⦃": binders.strict_implicit,
    "∀": binders.quantifier_sym, "∃": binders.quantifier_sym, "∃!": binders.quantifier_sym,
    "Π": binders.quantifier_sym, "Σ": binders.quantifier_sym, "Σ'": binders.quantifier_sym,
    "λ": binders.lambda_,
    "∑": big_operators.big_operator, "∏": big_operators.big_operator,
    "∑'": big_operators.big_operator, "∏'": big_operators.big_operator,
    "⋃": big_operators.big_operator, "⋂": big_operators.big_operator,
    "⨅": big_operators.big_operator, "⨆": big_operators.big_operator,
    "∫": big_operators.integral, "∀ᶠ": big_operators.filter_quantifier,
    "∃ᶠ": big_operators.filter_quantifier,
    "@": TermParser.at_sign, "?": TermParser.question,
    "·": TermParser.leaf_symbol, "_": TermParser.leaf_symbol, "∅": TermParser.leaf_symbol,
    "⊤": TermParser.leaf_symbol, "⊥": TermParser.leaf_symbol, "∞": TermParser.leaf_symbol,
    "◾": TermParser.leaf_symbol,
}
"""The leading form each symbol starts (:meth:`TermParser.nud`): the bracket, binder and
big-operator notations of the grammar modules, and the parser's own atoms."""
