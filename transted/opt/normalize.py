"""Elaboration-faithful trees: make identical what Lean's elaborator makes identical.

A pass over a parsed statement's tree (applied by :func:`transted.opt.parse_statement` when
``OptOptions.normalize`` is on). Each step is named after the Lean core / Mathlib definition or
notation that justifies it; the tables are data (``normalize.yaml``) and every entry is listed
in ``docs/NORMALISATION.md``:

* ``GT.gt``/``GE.ge``/``Superset``/``SSuperset``: ``a > b`` is ``b < a`` (operands swapped);
* ``Ne``/``∉``: ``a ≠ b`` is ``¬(a = b)``;
* notation synonyms: ``√x`` is ``Real.sqrt x``, ``|x|`` is ``abs x``, ``π`` is ``Real.pi`` …;
* generalized field notation: ``x.f`` with ``x : T …`` is ``T.f … x …`` for the declarations
  ``T.f`` of a shipped table, the receiver at the position of ``T.f``'s first explicit
  argument of type ``T``;
* ``∀ (_ : P), Q`` (or a name unused in ``Q``) is ``P → Q`` (Lean's arrow is that pi type);
* auto-bound implicits: a free single-letter name becomes an implicit binder (Lean's
  ``autoImplicit``), reported in :attr:`Normalized.auto_bound`.

Soundness: every step maps a term to a term Lean elaborates to the same expression, so two
different statements never become equal. Names are written fully qualified in the tables and
shortened under ``open`` exactly as the parser shortens them.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from transted.opt.labels import (
    AND,
    ARROW,
    ASCRIPTION,
    EQ,
    EXISTS,
    FORALL,
    IMPLICIT_BINDER,
    LE,
    LT,
    NE,
    NOT,
    SLOT,
    THEOREM,
    TYPED_BINDER,
    application,
)
from transted.opt.node import Node
from transted.opt.scope import binder_names, body_index, free_names, head_name

__all__ = ["Normalized", "NormalizationTables", "load_tables", "normalize", "NORMALIZE_VERSION",
           "auto_bound", "header_declarations", "is_auto_bound_name"]

NORMALIZE_VERSION = "1"
"""Bump when the normalised trees can change (it goes into the parser's signature field)."""

_HOMOGENEOUS = frozenset((EQ, LT, LE, NE))
_NUMERAL = re.compile(r"^[0-9]+(?:\.[0-9]+)?$")
_TYPED = re.compile(rf"^[{{⦃(\[]?{SLOT}(?: {SLOT})* : {SLOT}[}}⦄)\]]?$")
_SCALAR_TYPES = frozenset({"ℕ", "ℤ", "ℚ", "ℝ", "ℂ", "ℍ", "NNReal", "ℝ≥0", "ℝ≥0∞", "EReal",
                           "Prop", "Type", "Sort"})
_AUTO_SUFFIX = re.compile(r"^[0-9₀-₉ₐ-ₜ_']*$")


@dataclass(frozen=True)
class Field:
    result: str | None
    self_index: int


@dataclass(frozen=True)
class NormalizationTables:
    """The data of ``normalize.yaml``; ``sha256`` goes into signatures."""

    synonyms: dict[str, str]
    swaps: dict[str, str]
    negations: dict[str, str]
    type_namespaces: dict[str, str]
    fields: dict[str, dict[str, Field]]
    results: dict[str, str]
    constants: dict[str, tuple[str, ...]]
    notations: frozenset[str]
    sha256: str


@lru_cache(maxsize=1)
def load_tables() -> NormalizationTables:
    text = resources.files("transted.opt").joinpath("normalize.yaml").read_text(encoding="utf-8")
    data: dict[str, Any] = yaml.safe_load(text)
    fields = {ns: {f: Field((spec or {}).get("result"), int((spec or {}).get("self", 0)))
                   for f, spec in entries.items()}
              for ns, entries in data["fields"].items()}
    return NormalizationTables(
        synonyms={e["from"]: e["to"] for e in data["synonyms"]},
        swaps={e["from"]: e["to"] for e in data["swaps"]},
        negations={e["from"]: e["to"] for e in data["negations"]},
        type_namespaces=dict(data["type_namespaces"]), fields=fields,
        results=dict(data["results"]),
        constants={k: tuple(v or ()) for k, v in data["constants"].items()},
        notations=frozenset(data.get("notations") or ()),
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest())


@dataclass(frozen=True)
class Normalized:
    """A normalised tree, the names of the steps that changed it and the auto-bound names."""

    tree: Node
    applied: tuple[str, ...]
    auto_bound: tuple[str, ...]


def _shorten(name: str, opens: tuple[str, ...]) -> str:
    # the parser's TermParser.resolve: the longest opened namespace prefix is dropped
    for ns in sorted(opens, key=len, reverse=True):
        if name.startswith(ns + ".") and len(name) > len(ns) + 1:
            return name[len(ns) + 1:]
    return name


class _Normalizer:
    def __init__(self, tables: NormalizationTables, opens: tuple[str, ...]):
        self.t = tables
        self.opens = opens
        self.applied: list[str] = []
        # full names of the heads this pass produced, keyed by their shortened label head
        self.full: dict[str, str] = {}

    # -- types ------------------------------------------------------------------------------
    def namespace_of_type(self, typ: Node) -> str | None:
        label = typ.label
        if label in self.t.type_namespaces:
            return self.t.type_namespaces[label]
        head = head_name(label, len(typ.children)) if typ.children else label
        if head is None:
            return None
        full = self._unshorten(head)
        return self.t.type_namespaces.get(full)

    def _unshorten(self, name: str) -> str:
        if name in self.t.type_namespaces or "." in name:
            return name
        for ns in self.opens:
            if f"{ns}.{name}" in self.t.results or ns in self.t.type_namespaces.values() and \
                    name in self.t.fields.get(ns, {}):
                return f"{ns}.{name}"
        return name

    def receiver_namespace(self, node: Node, env: dict[str, Node]) -> str | None:
        if node.is_leaf:
            typ = env.get(node.label)
            if typ is not None:
                return self.namespace_of_type(typ)
            full = self.full.get(node.label) or self._unshorten(node.label)
            return self.t.results.get(full)
        head = head_name(node.label, len(node.children))
        if head is None:
            return None
        full = self.full.get(head) or self._unshorten(head)
        if full in self.t.results:
            return self.t.results[full]
        ns, _, f = full.rpartition(".")
        field = self.t.fields.get(ns, {}).get(f)
        return field.result if field else None

    # -- the pass ---------------------------------------------------------------------------
    def run(self, node: Node, env: dict[str, Node], bound: frozenset[str]) -> Node:
        kids = self.children(node, env, bound)
        node = Node(node.label, kids)
        return self.rewrite(node, env, bound)

    def children(self, node: Node, env: dict[str, Node], bound: frozenset[str]) -> tuple[Node, ...]:
        if not node.children:
            return ()
        if node.label == THEOREM:  # statement form: a binder scopes over later siblings
            out = []
            env2, bound2 = dict(env), set(bound)
            for child in node.children:
                out.append(self.run(child, env2, frozenset(bound2)))
                if child is not node.children[-1]:
                    self._bind(child, env2, bound2)
            return tuple(out)
        idx = body_index(node.label)
        if idx is None:
            return tuple(self.run(c, env, bound) for c in node.children)
        binder = node.children[0]
        env2, bound2 = dict(env), set(bound)
        self._bind(binder, env2, bound2)
        out = []
        for i, c in enumerate(node.children):
            if i == 0:
                out.append(self.run(c, env, bound) if not c.is_leaf else c)
            else:
                out.append(self.run(c, env2, frozenset(bound2)) if i == idx
                           else self.run(c, env, bound))
        return tuple(out)

    @staticmethod
    def _bind(binder: Node, env: dict[str, Node], bound: set[str]) -> None:
        names = binder_names(binder)
        if not names and binder.children and _TYPED.match(binder.label):
            names = [c.label for c in binder.children[:-1] if c.is_leaf and c.label != "_"]
        typ = binder.children[-1] if binder.children and _TYPED.match(binder.label) else None
        for n in names:
            bound.add(n)
            if typ is not None:
                env[n] = typ
            else:
                env.pop(n, None)

    def rewrite(self, node: Node, env: dict[str, Node], bound: frozenset[str]) -> Node:
        label, kids = node.label, node.children
        if label in self.t.swaps and len(kids) == 2:
            self.applied.append(self.t.swaps[label].replace(SLOT, "·") + " (swap)")
            return Node(self.t.swaps[label], (kids[1], kids[0]))
        if label in self.t.negations and len(kids) == 2:
            self.applied.append(label.replace(SLOT, "·") + " (negation)")
            return Node(NOT, (Node(self.t.negations[label], kids),))
        syn = self.t.synonyms.get(label)
        if syn is not None and label not in bound:
            self.applied.append(label.replace(SLOT, "·"))
            return self._named(syn, kids)
        if label in (FORALL, EXISTS) and len(kids) == 2 and kids[0].is_leaf:
            typed = self._typed_by_ascription(kids[0].label, kids[1])
            if typed is not None:
                self.applied.append("binder type from a numeral's ascription")
                return Node(label, typed)
        if label == FORALL and len(kids) == 2:
            binder = kids[0]
            if _TYPED.match(binder.label) and len(binder.children) == 2 and binder.children[0].is_leaf:
                name = binder.children[0].label
                if name == "_" or name not in free_names(kids[1]):
                    self.applied.append("∀ (_ : P), Q is P → Q")
                    return Node(ARROW, (binder.children[1], kids[1]))
        if kids:
            return self._field(node, env, bound)
        return node

    def _typed_by_ascription(self, name: str, body: Node) -> tuple[Node, Node] | None:
        """``∃ x, x < (1 : ℝ) ∧ P`` is ``∃ x : ℝ, x < 1 ∧ P``: the homogeneous relation
        (``LT.lt α``, ``Eq α`` …) unifies x's type with the numeral's, and ``(1 : ℝ)`` is
        ``OfNat.ofNat 1`` at ℝ either way. Only numerals: another ascribed term may carry a
        coercion. Looks at the body's relation or its first conjunct / hypothesis."""
        first = body.children[0] if body.label in (AND, ARROW) and body.children else body
        if first.label not in _HOMOGENEOUS or len(first.children) != 2:
            return None
        for i, j in ((0, 1), (1, 0)):
            var, other = first.children[i], first.children[j]
            if (var.is_leaf and var.label == name and other.label == ASCRIPTION
                    and len(other.children) == 2 and _NUMERAL.match(other.children[0].label)):
                plain = list(first.children)
                plain[j] = other.children[0]
                new_first = Node(first.label, tuple(plain))
                new_body = (Node(body.label, (new_first, *body.children[1:]))
                            if first is not body else new_first)
                return Node(TYPED_BINDER, (Node(name), other.children[1])), new_body
        return None

    def _named(self, full_label: str, kids: tuple[Node, ...]) -> Node:
        head = head_name(full_label, len(kids)) if kids else full_label
        if head is None:
            return Node(full_label, kids)
        short = _shorten(head, self.opens)
        self.full[short] = head
        return Node(application(short, len(kids)) if kids else short, kids)

    def _field(self, node: Node, env: dict[str, Node], bound: frozenset[str]) -> Node:
        head = head_name(node.label, len(node.children))
        if head is None or "." in head or head in bound:
            return node
        ns = self.receiver_namespace(node.children[0], env)
        if ns is None:
            return node
        field = self.t.fields.get(ns, {}).get(head)
        if field is None:
            return node
        if field.self_index and ns in self.opens:
            return node  # `f a l` may be the opened `T.f a l` written out, not dot notation
        if field.self_index > len(node.children) - 1:
            return node  # partial application: leave as written
        recv, rest = node.children[0], list(node.children[1:])
        rest.insert(field.self_index, recv)
        self.applied.append(f"x.{head} is {ns}.{head}")
        full = f"{ns}.{head}"
        short = _shorten(full, self.opens)
        self.full[short] = full
        return Node(application(short, len(rest)), tuple(rest))


def _statement_free(tree: Node) -> list[str]:
    """Free names in first-occurrence order (statement form binds across siblings)."""
    if tree.label == THEOREM:
        bound: set[str] = set()
        out: list[str] = []
        for child in tree.children:
            for n in _ordered(child, free_names(child)):
                if n not in bound and n not in out:
                    out.append(n)
            if child is not tree.children[-1]:
                bound.update(binder_names(child) or
                             [c.label for c in child.children[:-1] if c.is_leaf])
        return [n for n in out if n not in bound]
    return _ordered(tree, free_names(tree))


def _universe_names(tree: Node) -> set[str]:
    """Leaves under ``Type _``/``Sort _``: universe levels, not term-level implicits."""
    out: set[str] = set()
    for n in tree.preorder():
        if n.children and n.label.split(" ", 1)[0] in ("Type", "Sort"):
            out.update(m.label for m in n.preorder() if m.is_leaf)
    return out


def _ordered(tree: Node, names: frozenset[str]) -> list[str]:
    seen: list[str] = []
    names = names - _universe_names(tree)
    for n in tree.preorder():
        for cand in (n.label, head_name(n.label, len(n.children)) if n.children else None):
            if cand in names and cand not in seen:
                seen.append(cand)
    return seen


def is_auto_bound_name(name: str) -> bool:
    """Lean's ``isValidAutoBoundImplicitName`` without ``relaxedAutoImplicit``: one letter
    followed only by digits, subscripts, ``_`` or ``'``."""
    return (bool(name) and name[0].isalpha() and name not in _SCALAR_TYPES
            and bool(_AUTO_SUFFIX.match(name[1:])))


_HEADER_DECL = re.compile(r"^\s*(?:@\[[^\]]*\]\s*)?(?:(?:private|protected|noncomputable)\s+)*"
                          r"(?:def|abbrev|theorem|lemma|instance|structure|inductive|class|axiom"
                          r"|opaque)\s+([^\s:({\[]+)", re.MULTILINE)


def header_declarations(header: str | None) -> tuple[str, ...]:
    """Names the header declares (``def f …``): constants of the statement, never auto-bound."""
    return tuple(_HEADER_DECL.findall(header or ""))


def auto_bound(tree: Node, opens: tuple[str, ...] = (), declared: tuple[str, ...] = ()
               ) -> tuple[str, ...]:
    """Free names of ``tree`` that Lean's ``autoImplicit`` would bind as implicit arguments."""
    tables = load_tables()
    constants = {c for ns in opens for c in tables.constants.get(ns, ())}
    constants |= tables.notations | set(declared)
    return tuple(n for n in _statement_free(tree)
                 if is_auto_bound_name(n) and n not in constants)


def normalize(tree: Node, *, opens: tuple[str, ...] = (), declared: tuple[str, ...] = (),
              auto_implicit: bool = True) -> Normalized:
    """The elaboration-faithful form of a statement's tree (see the module docstring).

    ``opens`` are the namespaces open for names; ``declared`` the names the header declares;
    ``auto_implicit=False`` leaves free names free (e.g. for trees whose binders are not ours).
    """
    tables = load_tables()
    pass_ = _Normalizer(tables, tuple(opens))
    out = pass_.run(tree, {}, frozenset())
    names = auto_bound(out, tuple(opens), tuple(declared)) if auto_implicit else ()
    if names:
        pass_.applied.append("autoImplicit")
        if out.label == THEOREM:
            implicit = tuple(Node(IMPLICIT_BINDER, (Node(n), Node("_"))) for n in names)
            out = Node(THEOREM, implicit + out.children)
        else:
            for n in reversed(names):
                out = Node(FORALL, (Node(n), out))
    return Normalized(out, tuple(dict.fromkeys(pass_.applied)), names)
