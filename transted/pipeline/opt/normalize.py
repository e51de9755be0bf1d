"""Elaboration-faithful trees: make identical what Lean's elaborator makes identical.

A pass over a parsed statement's tree (applied by :func:`transted.pipeline.opt.parse_statement` when
``OptOptions.normalize`` is on). Each step is named after the Lean core / Mathlib definition or
notation that justifies it; the tables are data (``normalize.yaml``) and every entry is listed
in ``docs/NORMALISATION.md``:

* ``GT.gt``/``GE.ge``/``Superset``/``SSuperset``: ``a > b`` is ``b < a`` (operands swapped);
* ``Ne``/``∉``: ``a ≠ b`` is ``¬(a = b)``;
* notation synonyms: ``√x`` is ``Real.sqrt x``, ``|x|`` is ``abs x``, ``π`` is ``Real.pi`` …;
* names: a name the header resolves (:mod:`transted.pipeline.opt.elaborate`, the bundled Mathlib name
  table) is written in full (``sqrt`` under ``open Real`` is ``Real.sqrt``); an ambiguous or
  unknown one stays as written;
* generalized field notation (only where written as ``x.f``): ``x.f`` with ``x : T …`` is
  ``T.f … x …`` for the declarations ``T.f`` of a shipped table or that the elaboration typed
  (hand signatures, the Mathlib index), the receiver at the position of ``T.f``'s first
  explicit argument of type ``T``; a plain ``f x`` is never rewritten;
* ``∀ (_ : P), Q`` (or a name unused in ``Q``) is ``P → Q`` (Lean's arrow is that pi type);
* eta: ``fun x => f a x`` is ``f a`` when ``x`` is untyped and not free in ``f a`` (Lean 4's
  definitional eta for functions; a typed binder may hide a cast, so it stays);
* auto-bound implicits: the names the elaboration found Lean would bind (``autoImplicit``,
  ``relaxedAutoImplicit``, both on unless the header turns them off) become implicit
  binders, reported in :attr:`Normalized.auto_bound`.
* zeta: ``let x : T := v; b`` and ``have x : T := v; b`` are ``b`` with ``(v : T)`` for ``x``
  (``Expr.letE`` is definitionally its instantiated body); without a written type only when
  the elaboration settles ``v``'s type (:mod:`transted.pipeline.opt.zeta`).

Soundness: every step maps a term to a term Lean elaborates to the same expression, so two
different statements never become equal. The steps read the elaboration of the tree as
written: a notation is expanded only where the header makes it active, a bound variable
named ``π`` or ``e`` is never touched, and two names meet only when they resolve to the same
constant.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from transted import yaml_text
from transted.pipeline.opt.elaborate import Elaboration, Path, Scope, elaborate
from transted.pipeline.opt.elaborate.overloads import split_explicit
from transted.pipeline.opt.elaborate.resolve import TYPE_NAMESPACES
from transted.pipeline.opt.elaborate.types import Ty
from transted.pipeline.opt.labels import (
    AND,
    ARROW,
    ASCRIPTION,
    EQ,
    EXISTS,
    EXPLICIT_MARK,
    FIELD_APPLICATION,
    FORALL,
    FUN,
    IMPLICIT_BINDER,
    LE,
    LT,
    NE,
    NOT,
    SLOT,
    TERM_OPEN,
    THEOREM,
    TYPED_BINDER,
    application,
)
from transted.pipeline.opt.names import load_name_table
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.parser import TermParser
from transted.pipeline.opt.scope import binder_names, body_index, free_names, head_name
from transted.pipeline.opt.substitution import substitute
from transted.pipeline.opt.zeta import is_let, settled_type, zeta_reduct

__all__ = ["Normalized", "NormalizationTables", "load_tables", "normalize", "NORMALIZE_VERSION"]

NORMALIZE_VERSION = "6"  # 6: `𝓝[≠] x`, `𝓝[>] x` …, `𝓝[s] x` are `nhdsWithin` (Topology);
# 5: eta (`fun x => f x` is `f`, untyped binders);
# 4: zeta reduction of `let`/`have` (transted.pipeline.opt.zeta);
# 3: auto-bound type variables bound at their universe, `Not p` is `¬p`,
# field notation on every constant the elaboration types;
# 2: reads the elaboration (names resolved by the header, field notation)
"""Bump when the normalised trees can change (it goes into the parser's signature field)."""

_HOMOGENEOUS = frozenset((EQ, LT, LE, NE))
_NUMERAL = re.compile(r"^[0-9]+(?:\.[0-9]+)?$")
_TYPED = re.compile(rf"^[{{⦃(\[]?{SLOT}(?: {SLOT})* : {SLOT}[}}⦄)\]]?$")


@dataclass(frozen=True)
class Field:
    result: str | None
    self_index: int


@dataclass(frozen=True)
class NormalizationTables:
    """The data of ``normalize.yaml``; ``sha256`` goes into signatures."""

    synonyms: dict[str, str]
    notations: dict[str, str]
    """A constant (``Not``) → the notation label it is written as (``¬<SLOT>``)."""
    swaps: dict[str, str]
    reorders: dict[str, tuple[str, tuple[int, ...]]]
    expansions: dict[str, tuple[str, str]]
    """A notation's label → (the term it elaborates to, ``?x`` its operand; its scope)."""
    negations: dict[str, str]
    type_namespaces: dict[str, str]
    fields: dict[str, dict[str, Field]]
    results: dict[str, str]
    sha256: str


@lru_cache(maxsize=1)
def load_tables() -> NormalizationTables:
    text = resources.files("transted.pipeline.opt").joinpath("normalize.yaml").read_text(encoding="utf-8")
    data: dict[str, Any] = yaml_text.safe_load(text)
    fields = {ns: {f: Field((spec or {}).get("result"), int((spec or {}).get("self", 0)))
                   for f, spec in entries.items()}
              for ns, entries in data["fields"].items()}
    return NormalizationTables(
        synonyms={e["from"]: e["to"] for e in data["synonyms"]},
        notations={e["constant"]: e["to"] for e in data.get("notations", ())},
        swaps={e["from"]: e["to"] for e in data["swaps"]},
        reorders={e["from"]: (e["to"], tuple(e["order"])) for e in data.get("reorders", ())},
        expansions={e["from"]: (e["to"], e["scope"]) for e in data.get("expansions", ())},
        negations={e["from"]: e["to"] for e in data["negations"]},
        type_namespaces=dict(data["type_namespaces"]), fields=fields,
        results=dict(data["results"]),
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest())


@dataclass(frozen=True)
class Normalized:
    """A normalised tree, the names of the steps that changed it, the auto-bound names, and
    the elaboration of the tree as written (its issues say where the tree is not Lean's
    statement: the evidence and the search's closing rule read them)."""

    tree: Node
    applied: tuple[str, ...]
    auto_bound: tuple[str, ...]
    elaboration: Elaboration | None = None


class _Normalizer:
    def __init__(self, tables: NormalizationTables, elaboration: Elaboration):
        self.t = tables
        self.el = elaboration
        self.applied: list[str] = []

    # -- types ------------------------------------------------------------------------------
    def namespace_of_type(self, typ: Node) -> str | None:
        label = typ.label
        if label in self.t.type_namespaces:
            return self.t.type_namespaces[label]
        head = head_name(label, len(typ.children)) if typ.children else label
        return None if head is None else self.t.type_namespaces.get(head)

    def receiver_namespace(self, receiver: Node, written: Node, path: Path,
                           env: dict[str, Node]) -> str | None:
        """The namespace of the receiver's type: from the elaboration, else from its declared
        binder type, else from the result of the (normalised) function it applies
        (``(Finset.range n).sum``, ``(l.map f).sum``)."""
        info = self.el.nodes.get(path)
        if info is not None and isinstance(info.type, Ty) and info.type.head in TYPE_NAMESPACES:
            return TYPE_NAMESPACES[info.type.head]
        if written.is_leaf and written.label in env:
            return self.namespace_of_type(env[written.label])
        full = receiver.label if receiver.is_leaf else head_name(receiver.label,
                                                                 len(receiver.children))
        if full is None:
            return None
        if full in self.t.results:
            return self.t.results[full]
        ns, _, f = full.rpartition(".")
        field = self.t.fields.get(ns, {}).get(f)
        return field.result if field else None

    # -- the pass ---------------------------------------------------------------------------
    def run(self, node: Node, path: Path, env: dict[str, Node], bound: frozenset[str]) -> Node:
        if TERM_OPEN.match(node.label):  # the elaboration read the names under the open
            return self.run(node.children[0], (*path, 0), env, bound)
        kids = self.children(node, path, env, bound)
        return self.rewrite(node, Node(node.label, kids), path, env, bound)

    def children(self, node: Node, path: Path, env: dict[str, Node],
                 bound: frozenset[str]) -> tuple[Node, ...]:
        if not node.children:
            return ()
        if node.label == THEOREM:  # statement form: a binder scopes over later siblings
            out = []
            env2, bound2 = dict(env), set(bound)
            for i, child in enumerate(node.children):
                out.append(self.run(child, (*path, i), env2, frozenset(bound2)))
                if child is not node.children[-1]:
                    self._bind(child, env2, bound2)
            return tuple(out)
        idx = body_index(node.label)
        if idx is None:
            return tuple(self.run(c, (*path, i), env, bound) for i, c in enumerate(node.children))
        binder = node.children[0]
        env2, bound2 = dict(env), set(bound)
        self._bind(binder, env2, bound2)
        out = []
        for i, c in enumerate(node.children):
            if i == 0:
                out.append(self.run(c, (*path, 0), env, bound) if not c.is_leaf else c)
            else:
                out.append(self.run(c, (*path, i), env2, frozenset(bound2)) if i == idx
                           else self.run(c, (*path, i), env, bound))
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

    def rewrite(self, original: Node, node: Node, path: Path, env: dict[str, Node],
                bound: frozenset[str]) -> Node:
        label, kids = node.label, node.children
        if label in self.t.reorders:
            to, order = self.t.reorders[label]
            if len(kids) == len(order):
                self.applied.append(label.replace(SLOT, "·") + " (notation)")
                return Node(to, tuple(kids[i] for i in order))
        if label in self.t.swaps and len(kids) == 2:
            self.applied.append(self.t.swaps[label].replace(SLOT, "·") + " (swap)")
            return Node(self.t.swaps[label], (kids[1], kids[0]))
        if label in self.t.negations and len(kids) == 2:
            self.applied.append(label.replace(SLOT, "·") + " (negation)")
            return Node(NOT, (Node(self.t.negations[label], kids),))
        resolved = self._resolved(node, path, bound)
        if resolved is not None:
            return resolved
        within = self._nhds_within(original, node, bound)
        if within is not None:
            return within
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
        if label == FUN and len(kids) == 2:
            reduced = _eta(kids[0], kids[1])
            if reduced is not None:
                self.applied.append("fun x => f x is f (eta)")
                return reduced
        if FIELD_APPLICATION.match(label):
            return self._field(original, node, path, env)
        if is_let(node):
            return self._zeta(node, path, env, bound)
        return node

    def _nhds_within(self, original: Node, node: Node, bound: frozenset[str]) -> Node | None:
        """``𝓝[≠] x`` (and ``≥ ≤ > <``) and ``𝓝[s] x`` as the ``nhdsWithin`` term their
        ``scoped[Topology]`` notations elaborate to, where the header opens ``Topology``."""
        scope = self.el.scope
        if scope is None or "𝓝" in bound:
            return None
        if node.label in self.t.expansions and len(node.children) == 1:
            to, notation_scope = self.t.expansions[node.label]
            if not scope.notation_active(notation_scope):
                return None
            self.applied.append(node.label.replace(SLOT, "·") + " (notation)")
            return substitute(_template(to), "?x", node.children[0])
        head = original.children[0] if len(original.children) == 2 else None
        if node.label == f"{SLOT} {SLOT}" and head is not None and head.label == f"{SLOT}[{SLOT}]" \
                and head.children[0].label == "𝓝" and head.children[0].is_leaf \
                and scope.notation_active("Topology"):
            self.applied.append("𝓝[·] · (notation)")
            return Node(f"nhdsWithin {SLOT} {SLOT}", (node.children[1], node.children[0].children[1]))
        return None

    def _zeta(self, node: Node, path: Path, env: dict[str, Node],
              bound: frozenset[str]) -> Node:
        """``let x : T := v; b`` (or ``have``) is ``b`` with ``(v : T)`` for ``x``
        (:mod:`transted.pipeline.opt.zeta`); without a written type, ``T`` is the value's
        settled elaborated type, else the ``let`` stays."""
        inferred = settled_type(self.el, (*path, 1), bound)
        unfixed = frozenset(n for n in bound if n not in env) | frozenset(self.el.auto_bound)
        reduct = zeta_reduct(node, inferred, unfixed, env)
        if reduct is None:
            return node
        self.applied.append("zeta (let/have)")
        return reduct

    def _resolved(self, node: Node, path: Path, bound: frozenset[str]) -> Node | None:
        """A name, a named application or a notation whose constant the elaboration resolved:
        written with the constant's full name (so ``sqrt`` under ``open Real`` and
        ``Real.sqrt`` meet, and ``Real.sqrt``/``Nat.sqrt`` under ``open Nat Real`` do not); a
        notation synonym only where the notation was active and is not a bound variable."""
        info = self.el.nodes.get(path)
        full = info.constant if info is not None else None
        if full is None or node.label in bound:
            return None
        syn = self.t.synonyms.get(node.label)
        if syn is not None:
            target = head_name(syn, len(node.children)) if node.children else syn
            if target != full:
                return None
            self.applied.append(node.label.replace(SLOT, "·"))
            return Node(syn, node.children)
        head = node.label if node.is_leaf else head_name(node.label, len(node.children))
        head, explicit = split_explicit(head) if head is not None else (None, False)
        form = self.t.notations.get(full)
        if form is not None and head is not None and head not in bound and not explicit and \
                form.count(SLOT) == len(node.children):
            self.applied.append(f"{full} is {form.replace(SLOT, '·')}")
            return Node(form, node.children)
        if head is None or head == full or head in bound:
            return None
        self.applied.append("name resolved by the header")
        written = EXPLICIT_MARK + full if explicit else full  # `@f a b` is not `f a b`
        return Node(application(written, len(node.children)) if node.children else written,
                    node.children)

    def _field(self, original: Node, node: Node, path: Path, env: dict[str, Node]) -> Node:
        """``x.f a …`` is ``T.f … x …`` when the receiver's type is ``T …`` and ``T.f`` is a
        listed declaration (the receiver goes at ``T.f``'s first explicit argument of type
        ``T``, the table's ``self``)."""
        m = FIELD_APPLICATION.match(node.label)
        assert m is not None
        fname = m.group(1)
        ns = self.receiver_namespace(node.children[0], original.children[0], (*path, 0), env)
        field = self.t.fields.get(ns or "", {}).get(fname)
        if field is None and len(node.children) == 1 and self._projection(path):
            field, ns = Field(None, 0), self.el.nodes[path].constant.rpartition(".")[0]  # type: ignore[union-attr]
        info = self.el.nodes.get(path)
        if field is None and info is not None and info.receiver is not None and \
                info.constant is not None and info.constant.endswith("." + fname):
            # the elaboration typed `x.f …` as `T.f` (a signature of the tables or the index)
            # and put `x` where Lean's dot notation does
            field, ns = Field(None, info.receiver), info.constant.rpartition(".")[0]
        if ns is None or field is None or field.self_index > len(node.children) - 1:
            return node  # not a listed declaration, or a partial application: as written
        recv, rest = node.children[0], list(node.children[1:])
        rest.insert(field.self_index, recv)
        self.applied.append(f"x.{fname} is {ns}.{fname}")
        return Node(application(f"{ns}.{fname}", len(rest)), tuple(rest))

    def _projection(self, path: Path) -> bool:
        """The elaboration resolved ``x.f`` to a structure field ``T.f`` (its only explicit
        argument is the structure: ``d.den`` is ``Rat.den d``)."""
        info = self.el.nodes.get(path)
        full = info.constant if info is not None else None
        return full is not None and full in load_name_table() and \
            load_name_table().constant(full).kind == "field"

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


@cache
def _template(text: str) -> Node:
    return TermParser(text).parse()


def _eta(binder: Node, body: Node) -> Node | None:
    """``fun x => f a… x`` as ``f a…`` (Lean 4's definitional eta for functions), for an
    untyped binder only: ``fun n : ℕ => f n`` with ``f : ℝ → ℝ`` is ``f ↑n``'s function, a
    cast the tree does not show, so a typed binder stays."""
    if not binder.is_leaf or not body.children:
        return None
    x, last, rest = binder.label, body.children[-1], body.children[:-1]
    head = head_name(body.label, len(body.children))
    if head is None or head == x or not last.is_leaf or last.label != x:
        return None
    if any(x in free_names(c) for c in rest):
        return None
    return Node(application(head, len(rest)), rest) if rest else Node(head)


def _universe(sort: str | None) -> str:
    """The binder type of an auto-bound type variable as written (``{X : Type*}``: Lean's
    ``X : Type u_1`` with a fresh universe), ``_`` when its type is not known."""
    return f"{sort}*" if sort else "_"


def normalize(tree: Node, *, scope: Scope | None = None, elaboration: Elaboration | None = None,
              auto_implicit: bool = True) -> Normalized:
    """The elaboration-faithful form of a statement's tree (see the module docstring).

    ``tree`` has the names and notations as written; ``elaboration`` is its
    :func:`~transted.pipeline.opt.elaborate.elaborate` result (computed under ``scope``, the header's,
    when not given): resolved names are written in full, notations expanded where active,
    and the names Lean binds as auto-bound implicits are bound outermost (reported in
    :attr:`Normalized.auto_bound`). ``auto_implicit=False`` leaves free names free (for trees
    whose binders are not ours, e.g. Lean's own).
    """
    if elaboration is None:
        elaboration = elaborate(tree, scope or Scope())
    pass_ = _Normalizer(load_tables(), elaboration)
    out = pass_.run(tree, (), {}, frozenset())
    names = tuple(n for n in elaboration.auto_bound if n in free_names(out)) \
        if auto_implicit else ()
    if names:
        pass_.applied.append("autoImplicit")
        sorts = elaboration.auto_bound_sorts
        if out.label == THEOREM:
            implicit = tuple(Node(IMPLICIT_BINDER, (Node(n), Node(_universe(sorts.get(n)))))
                             for n in names)
            out = Node(THEOREM, implicit + out.children)
        else:
            for n in reversed(names):
                sort = sorts.get(n)
                binder = Node(TYPED_BINDER, (Node(n), Node(_universe(sort)))) if sort else Node(n)
                out = Node(FORALL, (binder, out))
    return Normalized(out, tuple(dict.fromkeys(pass_.applied)), names, elaboration)
