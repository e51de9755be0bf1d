"""A multiplicative statement's tree → the additive one ``@[to_additive]`` generates.

Mathlib's ``to_additive`` (Mathlib/Tactic/Translate/ToAdditive.lean, "Implementation notes" and
"Heuristics") maps every constant that has a translation to it, and ``*``, ``/``, ``⁻¹``, ``1``,
``^``, ``∏``, ``•``, ``ˣ`` to ``+``, ``-``, ``-``, ``0``, ``•`` (arguments swapped: ``x ^ n`` is
``n • x``, ``Monoid.npow n x`` ↦ ``AddMonoid.nsmul n x``), ``∑``, ``+ᵥ``, ``AddUnits`` — *unless
the operation's type argument
contains a fixed type* (an unapplied constant such as ``ℕ``: ``(n * m : ℕ)`` stays ``*``). Here
that type is read from the binders: an operand that is a bound variable (or a bound function
applied) has its binder's type; a type made only of bound type variables and applied
constructors (``M``, ``Set α``, ``M × N``) is translated, one with a constant leaf (``ℕ``) is not.
An operation whose type the binders do not give is *undecided*, and the translation is refused
(``why``): a statement is only ever recorded as translated when each decision was made.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from transted.pipeline.opt.labels import (
    ARROW,
    ASCRIPTION,
    DIV,
    EQ,
    GE,
    GT,
    INV,
    LE,
    LT,
    MUL,
    NE,
    NEG,
    POW,
    SLOT,
    SUB,
    application,
    field_label,
    infix,
    postfix,
)
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import binder_names, binder_type, body_index, head_name

__all__ = ["Untranslatable", "AdditiveTranslator"]

_OPERATORS = {MUL: infix("+"), DIV: SUB, INV: NEG}
_RELATIONS = (EQ, NE, LE, LT, GE, GT)
_SMUL = infix("•")
_UNITS = postfix("ˣ")
_BIG = {"∏": "∑", "∏'": "∑'"}


class Untranslatable(Exception):
    """An operation whose type the binders do not decide."""


@dataclass
class AdditiveTranslator:
    """``names(written) -> target or None``: a constant's translation; ``fields``: what a
    field-notation name becomes (``x.prod`` is ``T.prod x`` for the receiver's type ``T``,
    which is not known here): the one translation every translated ``….prod`` shares
    (``sum``), None when they differ (``Finset.prod`` ↦ ``sum`` but ``MonoidHom.prod`` ↦
    ``prod``: undecided); a name no translation has is kept."""

    names: Callable[[str], str | None]
    fields: dict[str, str | None]
    types: dict[str, Node | None] = field(default_factory=dict)
    """Bound variable → its binder type (None: bound, type not written)."""

    def bind(self, name: str, ty: Node | None) -> None:
        self.types[name] = ty

    # -- types ------------------------------------------------------------------------------
    def type_of(self, node: Node) -> Node | None:
        if node.is_leaf:
            return self.types.get(node.label)
        head = head_name(node.label, len(node.children))
        if head is not None and head in self.types:
            ty = self.types[head]
            for _ in node.children:
                if ty is None or ty.label != ARROW:
                    return None
                ty = ty.children[1]
            return ty
        if node.label in (MUL, DIV, POW, INV):
            found = [t for c in node.children[:1 if node.label == POW else 2]
                     if (t := self.type_of(c)) is not None]
            return found[0] if found else None
        if node.label == ASCRIPTION:
            return node.children[1]
        index = body_index(node.label)
        if index is not None and node.label.split(" ", 1)[0] in (*_BIG, *_BIG.values()):
            saved = dict(self.types)  # ∏ x ∈ s, f x has the type of f x, x bound
            for name in binder_names(node.children[0]):
                self.bind(name, binder_type(node.children[0]))
            try:
                return self.type_of(node.children[index])
            finally:
                self.types = saved
        return None

    def translated_type(self, ty: Node | None) -> bool:
        """True: no fixed type in ``ty`` (translate); False: a fixed type; raise: unknown."""
        if ty is None:
            raise Untranslatable("an operation whose type the binders do not give")
        for n in ty.preorder():
            if n.is_leaf and n.label not in self.types and n.label not in ("Type", "Type*", "Sort"):
                return False
        return True

    # -- terms ------------------------------------------------------------------------------
    def term(self, node: Node, carrier: Node | None = None) -> Node:
        """``node`` translated; ``carrier``: the type a numeral here has (from its siblings)."""
        if node.is_leaf:
            if node.label == "1" and carrier is not None:
                return Node("0") if self.translated_type(carrier) else node
            if node.label == "1":
                raise Untranslatable("a `1` whose type the binders do not give")
            if node.label in self.types:
                return node
            target = self.names(node.label)
            return Node(target) if target else node
        if node.label in _OPERATORS or node.label == POW:
            return self._operator(node, carrier)
        if node.label == _SMUL:  # HSMul ↦ HVAdd, decided by the scalar's type
            scalar, target = node.children
            label = infix("+ᵥ") if self.translated_type(self.type_of(scalar)) else _SMUL
            return Node(label, (self.term(scalar), self.term(target, self.type_of(target))))
        if node.label == _UNITS:  # Mˣ is Units M ↦ AddUnits M, unless M is a fixed type
            (arg,) = node.children
            if self.translated_type(arg):
                return Node(application("AddUnits", 1), (self.term(arg),))
            return node
        if node.label in _RELATIONS:
            ty = next((t for c in node.children if (t := self.type_of(c)) is not None), None)
            return node.with_children(tuple(self.term(c, ty) for c in node.children))
        return self._structural(node)

    def _operator(self, node: Node, carrier: Node | None) -> Node:
        ty = self.type_of(node) or carrier
        translate = self.translated_type(ty)
        if node.label == POW:
            base, exponent = node.children
            if not translate:
                return Node(POW, (self.term(base, ty), exponent))
            return Node(_SMUL, (exponent, self.term(base, ty)))
        kids = tuple(self.term(c, ty) for c in node.children)
        return Node(_OPERATORS[node.label] if translate else node.label, kids)

    def _structural(self, node: Node) -> Node:
        label = node.label
        head = head_name(label, len(node.children))
        if head is not None and head not in self.types:
            target = self.names(head)
            if target:
                label = application(target, len(node.children))
        elif label == field_label(name := label[len(SLOT) + 1:].split(" ", 1)[0],
                                  len(node.children) - 1):
            if name in self.fields:
                target = self.fields[name]
                if target is None:
                    raise Untranslatable(f"field notation `.{name}`, whose translation depends "
                                         "on the receiver's type")
                label = field_label(target, len(node.children) - 1)
        big = label.split(" ", 1)[0]
        index = body_index(label)
        if index is None or len(node.children) < 2:
            domains = self._domains(head, len(node.children))
            return Node(label, tuple(self.term(c, d) for c, d in zip(node.children, domains,
                                                                       strict=True)))
        binder = node.children[0]
        saved = dict(self.types)
        kids = [self.term(c) for c in node.children[:index] if c is not binder]
        for name in binder_names(binder):
            self.bind(name, binder_type(binder))
        body = self.term(node.children[index])
        if big in _BIG and self.translated_type(self.type_of(node.children[index])):
            label = _BIG[big] + label[len(big):]
        rest = [self.term(c) for c in node.children[index + 1:]]
        self.types = saved
        return Node(label, (self._binder(binder), *kids, body, *rest))

    def _domains(self, head: str | None, arity: int) -> list[Node | None]:
        """The argument types of a bound function ``head : A → B → …`` (None where unknown)."""
        ty = self.types.get(head) if head is not None else None
        out: list[Node | None] = []
        for _ in range(arity):
            if ty is not None and ty.label == ARROW:
                out.append(ty.children[0])
                ty = ty.children[1]
            else:
                out.append(None)
                ty = None
        return out

    def _binder(self, binder: Node) -> Node:
        ty = binder_type(binder)
        if ty is None:
            return binder
        return binder.with_children((*binder.children[:-1], self.term(ty)))
