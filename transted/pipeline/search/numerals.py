"""Numeral normalisation: closed numeral expressions compared by value (Algorithm 1, line 10).

ASSESS runs ``norm_num1`` on the goal before searching; offline we do the part of it that
matters for comparing statements: a maximal subterm built from numerals with ``+ - * /``,
unary ``-``, ``⁻¹`` and ``^ k`` is replaced by its value, written ``n`` or ``p / q``
(``-<SLOT>`` on top when negative), so ``6.5``, ``13/2`` and ``(2⁻¹) * 13`` all become
``13 / 2``. The value depends on the type: ``13 / 2 = 6`` in ℕ. So we evaluate only where
:func:`~transted.pipeline.search.scalars.region_type` knows the type: fields ℚ ℝ ℂ get exact rational
arithmetic; ℤ and ℕ only ``+ *`` and ``^`` (ℤ also ``-``), never ``/`` (floor division) or
truncated ℕ subtraction. Each step prints as ``rw [show (6.5 : ℝ) = 13 / 2 by norm_num]``.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from transted.pipeline.opt.labels import ADD, DIV, INV, MUL, NEG, POW, SUB
from transted.pipeline.opt.node import Node
from transted.pipeline.search.pattern import Path, positions, replace_at
from transted.pipeline.search.scalars import Env, env_at, is_numeral, region_type

__all__ = ["numeral_value", "numeral_node", "numeral_rewrites"]

_FIELDS = ("ℚ", "ℝ", "ℂ")
_BIN = {ADD: "+", SUB: "-", MUL: "*", DIV: "/", POW: "^"}
_MAX_EXPONENT = 64  # 2^64-size numbers are still cheap; larger exponents are left alone


def numeral_value(node: Node, typ: str) -> Fraction | None:
    """The value of a closed numeral expression in type ``typ``; None if not one/unsafe."""
    if is_numeral(node):
        if "." in node.label and typ not in _FIELDS:
            return None
        return Fraction(node.label)
    if node.label == NEG and typ != "ℕ":
        inner = numeral_value(node.children[0], typ)
        return None if inner is None else -inner
    if node.label == INV and typ in _FIELDS:
        inner = numeral_value(node.children[0], typ)
        return None if inner is None or inner == 0 else 1 / inner
    op = _BIN.get(node.label)
    if op is None:
        return None
    a = numeral_value(node.children[0], typ)
    if op == "^":
        e = node.children[1]
        if a is None or not is_numeral(e) or "." in e.label or int(e.label) > _MAX_EXPONENT:
            return None
        return a ** int(e.label)
    b = numeral_value(node.children[1], typ)
    if a is None or b is None:
        return None
    if op == "+":
        return a + b
    if op == "*":
        return a * b
    if op == "-":
        return None if typ == "ℕ" else a - b
    return a / b if typ in _FIELDS and b != 0 else None


def numeral_node(value: Fraction) -> Node:
    """The canonical tree of a rational value: ``n``, ``p / q``, with ``-`` on top if < 0."""
    mag = abs(value)
    if mag.denominator == 1:
        tree = Node(str(mag.numerator))
    else:
        tree = Node(DIV, (Node(str(mag.numerator)), Node(str(mag.denominator))))
    return Node(NEG, (tree,)) if value < 0 else tree


def numeral_rewrites(tree: Node, env: Env) -> Iterator[tuple[Path, Node, Node, str]]:
    """``(path, old, new, type)`` for every maximal numeral subterm whose form is not canonical.

    A subterm is visited only if its parent is not itself an evaluable numeral expression,
    so ``1 + 2 * 3`` is rewritten once, as a whole.
    """
    skip: set[Path] = set()
    for path, node in positions(tree):
        if any(path[: k] in skip for k in range(len(path))):
            continue
        if node.is_leaf and not is_numeral(node):
            continue
        if not (is_numeral(node) or node.label in _BIN or node.label in (NEG, INV)):
            continue
        typ = region_type(tree, path, env_at(tree, path, env))
        if typ is None:
            continue
        value = numeral_value(node, typ)
        if value is None:
            continue
        skip.add(path)
        new = numeral_node(value)
        if new != node:
            yield path, node, new, typ


def normalise(tree: Node, env: Env) -> tuple[Node, list[tuple[Node, Node, str]]]:
    """``tree`` with every numeral subterm in canonical form, and the ``(old, new, type)`` list."""
    steps = list(numeral_rewrites(tree, env))
    for path, _old, new, _typ in steps:
        tree = replace_at(tree, path, new)
    return tree, [(old, new, typ) for _p, old, new, typ in steps]
