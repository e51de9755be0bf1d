"""A Mathlib rewrite lemma as the search reads it: its statement in the pairs' normal form.

The index (:mod:`transted.pipeline.opt.mathlib`) keeps a theorem's binders and type with the names as
written in its file. The search compares normalised trees (names in full, ``a > b`` as
``b < a``, ``√x`` as ``Real.sqrt x``, field notation resolved: docs/NORMALISATION.md), so a
lemma is put through the same elaboration and normalisation the pairs go through, under the
scope it was written in (its namespace and ``open`` lines): :func:`normalised_statement`. The
result is a proposition-form tree ``∀ vars, instances → hypotheses → lhs = rhs`` (or ``↔``);
:func:`peel` splits it back into the parts a rewrite needs.

Three spellings of Mathlib's sources that statements of pairs never use are read first
(:func:`_source_spellings`), each as Mathlib defines it:

* ``Nat``/``Int``/``Rat``/``Real``/``Complex`` as types are ``ℕ ℤ ℚ ℝ ℂ`` (``notation "ℕ" =>
  Nat``: Mathlib/Data/Nat/Notation.lean:16, Data/Int/Notation.lean:15, Data/Rat/Init.lean:21,
  Data/Real/Basic.lean:41, Data/Complex/Basic.lean:40): the curated core lemmas write ``Nat``;
* ``#s`` is ``Finset.card s`` where the scoped notation of ``Finset`` is active and that of
  ``Cardinal`` is not (``scoped prefix:arg "#" => Finset.card``, Data/Finset/Card.lean:50;
  ``scoped prefix:max "#" => Cardinal.mk``, SetTheory/Cardinal/Defs.lean:91); files with a
  ``local`` ``#`` notation of their own are left alone (:data:`_LOCAL_HASH_FILES`);
* ``ofNat(n)`` with ``[n.AtLeastTwo]`` is the numeral ``n`` (≥ 2) at the type around it
  (Mathlib/Data/Nat/Cast/Defs.lean, ``ofNat(n)`` syntax for ``OfNat.ofNat n``): it becomes a
  *numeral variable* — a marker numeral in the tree, so that it elaborates as a numeral of that
  type, matched by numerals only (:data:`NUMERAL_MARK`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from transted.pipeline.opt.elaborate import Elaboration, Scope, elaborate, scope_from_header
from transted.pipeline.opt.labels import ARROW, EQ, FORALL, IFF, application, prefix
from transted.pipeline.opt.mathlib.records import IndexedDeclaration
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.normalize import normalize
from transted.pipeline.opt.scope import (
    binder_names,
    binder_node,
    binder_type,
    free_names,
    head_name,
    scope_parts,
)

__all__ = ["LemmaParts", "NUMERAL_MARK", "proposition_tree", "normalised_statement", "peel",
           "numeral_variable", "is_numeral_mark", "instance_arrows", "usable_directions",
           "numeral_variables"]

NUMERAL_MARK = "9000000000000000000000000000000000000"
"""Prefix of the marker numerals that stand for ``ofNat(n)`` (the variable's position is
appended): a numeral no Mathlib statement writes, elaborated like any other numeral."""

_TYPE_NAMES = {"Nat": "ℕ", "Int": "ℤ", "Rat": "ℚ", "Real": "ℝ", "Complex": "ℂ"}
_HASH = prefix("#")
_SORTS = frozenset({"Sort*", "Sort _", "Sort"})
"""A type variable ranging over ``Sort u`` is read as one over ``Type*``: the lemma holds for
every ``Sort``, so using it only where the term's type is a ``Type`` is sound (the elaborator
models ``Type*`` binders, not universe-polymorphic sorts)."""
_LOCAL_HASH_FILES = frozenset({"mathlib:Mathlib/Analysis/FunctionalSpaces/SobolevInequality.lean"})
"""``local prefix:max "#" => Fintype.card`` (line 63 there): ``#`` is not ``Finset.card``."""
_AT_LEAST_TWO = ("Nat.AtLeastTwo", "AtLeastTwo")
_DECIDABLE = frozenset({"Decidable", "DecidableEq", "DecidablePred", "DecidableRel"})
"""Instance-implicit arguments that are not classes of the index (``DecidableEq`` is an
``abbrev``: Lean core Init/Prelude.lean)."""


@dataclass(frozen=True)
class LemmaParts:
    """A normalised statement split at its spine of ``∀`` and ``→``.

    ``variables``: the ``∀``-bound names with their declared types (type variables included);
    ``instances``: the antecedents that are class instances (``CommRing α``);
    ``hypotheses``: the other antecedents (side conditions); ``lhs``/``rhs``: the two sides of
    the conclusion and their paths in the statement tree (for the statement's elaboration).
    """

    variables: tuple[tuple[str, Node | None], ...]
    instances: tuple[Node, ...]
    hypotheses: tuple[Node, ...]
    relation: str
    lhs: Node
    rhs: Node
    lhs_path: tuple[int, ...]
    rhs_path: tuple[int, ...]
    numerals: frozenset[str] = frozenset()
    """Variables that stand for a numeral ≥ 2 (``ofNat(n)``)."""


def proposition_tree(declaration: IndexedDeclaration) -> Node | None:
    """``∀ binders, type`` as the parser's proposition form builds it (a binder nothing later
    mentions is an arrow), or None when a binder or the type did not parse."""
    if declaration.type is None or declaration.type.tree is None:
        return None
    body = declaration.type.tree
    for b in reversed(declaration.binders):
        ty = b.type.tree
        if ty is None:
            return None
        for name in reversed(b.names or ("_",)):
            if b.kind != "instance" and name != "_" and name in free_names(body):
                body = Node(FORALL, (binder_node([name], ty), body))
            else:
                body = Node(ARROW, (ty, body))
    return body


def normalised_statement(declaration: IndexedDeclaration) -> tuple[Node, Elaboration] | str:
    """The declaration's statement, elaborated and normalised under its own scope, or why not.

    Why not: the statement did not parse, or its elaboration has an issue that says the model
    misread it (an unknown or ambiguous name, an auto-bound one): Mathlib compiled the lemma,
    so such an issue is the model's, and a misread lemma is never used."""
    tree = proposition_tree(declaration)
    if tree is None:
        return "does not parse"
    scope_text = "".join([f"namespace {declaration.scope.namespace}\n"
                          if declaration.scope.namespace else ""]
                         + [f"open {o}\n" for o in declaration.scope.opens])
    try:
        scope = scope_from_header(scope_text)
    except Exception as e:  # noqa: BLE001 - an `open` the name table refuses: not usable
        return f"scope not read: {e}"
    tree = _source_spellings(tree, declaration, hash_is_card=_hash_is_card(scope, declaration))
    elaboration = elaborate(tree, scope)
    meaning = elaboration.meaning_issues
    if meaning:
        return f"elaboration: {meaning[0]}"
    normal = normalize(tree, scope=scope, elaboration=elaboration, auto_implicit=False)
    return normal.tree, elaboration


def _hash_is_card(scope: Scope, declaration: IndexedDeclaration) -> bool:
    active = scope.notation_active
    return (active("Finset") and not active("Cardinal")
            and declaration.source.file not in _LOCAL_HASH_FILES)


def _source_spellings(tree: Node, declaration: IndexedDeclaration, *, hash_is_card: bool) -> Node:
    numerals = numeral_variables(declaration)
    bound = _bound_names(tree)  # a binder named `Nat` (none in Mathlib) keeps its name

    def walk(node: Node) -> Node:
        if node.is_leaf:
            if node.label in _TYPE_NAMES and node.label not in bound:
                return Node(_TYPE_NAMES[node.label])
            if node.label in _SORTS:
                return Node("Type*")
            return node
        if node.label.startswith("Sort ") and head_name(node.label, len(node.children)):
            return Node("Type*")  # `Sort u`, `Sort (max u v)`
        if (node.label == application("ofNat", 1) and node.children[0].is_leaf
                and node.children[0].label in numerals):
            return Node(NUMERAL_MARK + str(numerals.index(node.children[0].label)))
        kids = tuple(walk(c) for c in node.children)
        if node.label == _HASH and hash_is_card:
            return Node(application("Finset.card", 1), kids)
        return node.with_children(kids)

    return walk(tree)


def _bound_names(tree: Node) -> set[str]:
    out: set[str] = set()
    for node in tree.preorder():
        for _child, names, is_binder in scope_parts(node) or ():
            if is_binder or names:
                out.update(n for n in names if n != "\0after")
        if node.label in (FORALL,) and node.children:
            out.update(binder_names(node.children[0]))
    return out


def numeral_variables(declaration: IndexedDeclaration) -> list[str]:
    """Names ``n`` with an instance binder ``[n.AtLeastTwo]``/``[Nat.AtLeastTwo n]``."""
    out: list[str] = []
    for b in declaration.binders:
        ty = b.type.tree
        if b.kind != "instance" or ty is None or len(ty.children) != 1:
            continue
        arg = ty.children[0]
        if arg.is_leaf and (ty.label == "<SLOT>.AtLeastTwo"
                            or head_name(ty.label, 1) in _AT_LEAST_TWO):
            out.append(arg.label)
    return out


def is_numeral_mark(label: str) -> bool:
    return label.startswith(NUMERAL_MARK) and label[len(NUMERAL_MARK):].isdigit()


def numeral_variable(label: str, variables: tuple[tuple[str, Node | None], ...],
                     numerals: tuple[str, ...]) -> str | None:
    """The numeral variable a marker leaf stands for."""
    if not is_numeral_mark(label):
        return None
    i = int(label[len(NUMERAL_MARK):])
    return numerals[i] if i < len(numerals) else None


def peel(statement: Node, instance_arrows: tuple[bool, ...],
         numerals: tuple[str, ...] = ()) -> LemmaParts | None:
    """Split a normalised statement: ``∀``s → variables, ``→``s → instances (where
    ``instance_arrows`` says so, in order) or hypotheses, then ``lhs = rhs``/``lhs ↔ rhs``.
    None when the conclusion is neither or ``instance_arrows`` does not fit."""
    variables: list[tuple[str, Node | None]] = []
    instances: list[Node] = []
    hypotheses: list[Node] = []
    node: Node = statement
    path: tuple[int, ...] = ()
    arrows = 0
    while len(node.children) == 2 and node.label in (FORALL, ARROW):
        head, body = node.children
        if node.label == FORALL:
            ty = binder_type(head)
            variables.extend((n, ty) for n in binder_names(head))
        else:
            if arrows >= len(instance_arrows):
                return None
            (instances if instance_arrows[arrows] else hypotheses).append(head)
            arrows += 1
        node, path = body, path + (1,)
    if arrows != len(instance_arrows) or node.label not in (EQ, IFF) or len(node.children) != 2:
        return None
    names = {n for n, _ in variables}
    marks = {NUMERAL_MARK + str(i): n for i, n in enumerate(numerals) if n in names}
    lhs, rhs = (_unmarked(side, marks) for side in node.children)
    return LemmaParts(tuple(variables), tuple(instances),
                      tuple(_unmarked(h, marks) for h in hypotheses),
                      "=" if node.label == EQ else "↔", lhs, rhs,
                      path + (0,), path + (1,), frozenset(marks.values()))


def _unmarked(tree: Node, marks: dict[str, str]) -> Node:
    """The numeral markers of ``tree`` replaced by their variables' names (patterns)."""
    if not marks:
        return tree
    if tree.is_leaf:
        return Node(marks[tree.label]) if tree.label in marks else tree
    return tree.with_children(tuple(_unmarked(c, marks) for c in tree.children))


def instance_arrows(statement: Node, is_class: Callable[[str], bool]) -> tuple[bool, ...]:
    """For each ``→`` of the statement's spine: is its antecedent a class instance (an
    application of a name ``is_class`` accepts, ``CommRing α``, ``Nat.AtLeastTwo n``)?"""
    out: list[bool] = []
    node = statement
    while len(node.children) == 2 and node.label in (FORALL, ARROW):
        if node.label == ARROW:
            head = node.children[0]
            name = head.label if head.is_leaf else head_name(head.label, len(head.children))
            if head.label == "<SLOT>.AtLeastTwo":  # `n.AtLeastTwo`: field notation on ℕ
                name = "Nat.AtLeastTwo"
            out.append(name is not None and (is_class(name) or name in _DECIDABLE))
        node = node.children[1]
    return tuple(out)


def usable_directions(parts: LemmaParts) -> list[tuple[str, Node]]:
    """``("forward", lhs)`` and/or ``("backward", rhs)``: the directions whose source pattern
    determines every variable (directly, or as a type variable of one that occurs) — Lean's
    ``rw`` would leave the others as new goals — and is not too general to index (a bare
    variable, ``?a = ?b``: Lean's ``rw?`` drops these keys, ``droppedKeys`` in
    ``Lean.Meta.Rewrites``); none when the two sides are the same tree."""
    if parts.lhs == parts.rhs:
        return []
    variables = dict(parts.variables)
    out: list[tuple[str, Node]] = []
    for name, source in (("forward", parts.lhs), ("backward", parts.rhs)):
        if _too_general(source, variables) or not _determines(source, variables):
            continue
        out.append((name, source))
    return out


def _too_general(pattern: Node, variables: dict[str, Node | None]) -> bool:
    if pattern.is_leaf:
        return pattern.label in variables
    head = head_name(pattern.label, len(pattern.children))
    if head is not None and head in variables:
        return True
    return pattern.label in (EQ, IFF) and all(
        c.is_leaf and c.label in variables for c in pattern.children)


def _determines(pattern: Node, variables: dict[str, Node | None]) -> bool:
    known = set(free_names(pattern)) & set(variables)
    todo = list(known)
    while todo:
        ty = variables[todo.pop()]
        for name in (free_names(ty) & set(variables)) if ty is not None else ():
            if name not in known:
                known.add(name)
                todo.append(name)
    return known == set(variables)
