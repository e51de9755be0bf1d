"""What kind of change a residual edit is, from its labels: the table ``residual.yaml``.

:func:`label_kind` refines the semantic cost classes (:func:`transted.pipeline.ted.semantic.classify`)
for the verdict, on trees whose bound variables carry de Bruijn names (``#k``,
:func:`transted.pipeline.opt.canonical.canonicalize`): a leaf ``#k`` is a bound variable, any other name
is a constant (``X`` under ``open Polynomial`` is ``Polynomial.X``); an application headed by
``#k`` is a local application; ``∑ ∏ ⋃ ⋂ ⨆ ⨅ ∫`` are big operators; ``↑`` is a coercion,
``↥ ⇑`` sort/function coercions, ``(e : T)`` and the binder forms are annotations.
:func:`rename_kind` and :func:`node_kind` give the kind (and so the role) of a relabelled and
of an inserted/deleted node. The *typed* kinds are settled by
:mod:`transted.pipeline.verdict.typed_checks`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Literal

import yaml

from transted import yaml_text
from transted.errors import InputError
from transted.pipeline.opt.labels import (
    ASCRIPTION,
    COE,
    IMPLICIT_BINDER,
    INSTANCE_BINDER,
    NAMED_APPLICATION,
    NAMED_INSTANCE_BINDER,
    SLOT,
    STRICT_BINDER,
    TYPED_BINDER,
)
from transted.pipeline.ted.semantic import CostTable, classify, load_cost_table

__all__ = ["Role", "KindTable", "load_kind_table", "label_kind", "rename_kind", "node_kind",
           "BINDER_FORMS", "UNIVERSE", "BIG_OPERATOR_HEADS", "is_annotation"]

Role = Literal["meaning", "presentational", "untrusted", "typed"]
ROLES = ("meaning", "presentational", "untrusted", "typed")
TABLE = "residual.yaml"
UNIVERSE = "Type*"
UNIVERSES = frozenset({UNIVERSE, "Sort*"})
BIG_OPERATOR_HEADS = ("∑' ", "∏' ", "∑ ", "∏ ", "⋃ ", "⋂ ", "⨆ ", "⨅ ", "∫ ")
BINDER_FORMS = frozenset({TYPED_BINDER, IMPLICIT_BINDER, STRICT_BINDER, NAMED_INSTANCE_BINDER,
                          INSTANCE_BINDER})
_SORT_COERCIONS = frozenset({"↥<SLOT>", "⇑<SLOT>"})
_CLOSED = frozenset({"relation", "logic", "quantifier", "operator", "numeral", "type",
                     "big-operator", "bound-variable", "local-application"})
"""Kinds whose members the tool knows to be pairwise different (a closed vocabulary)."""


@dataclass(frozen=True)
class KindTable:
    name: str
    version: str
    roles: dict[str, Role]
    why: dict[str, str]
    sha256: str

    def describe(self) -> str:
        return f"{self.name}-v{self.version}-{self.sha256[:12]}"


@lru_cache(maxsize=1)
def load_kind_table() -> KindTable:
    """The packaged ``residual.yaml`` (every kind with a role and a why)."""
    text = resources.files("transted.pipeline.verdict").joinpath(TABLE).read_text("utf-8")
    try:
        data = yaml_text.safe_load(text) or {}
        kinds = data["kinds"]
        roles = {k: str(v["role"]) for k, v in kinds.items()}
        why = {k: str(v["why"]) for k, v in kinds.items()}
    except (yaml.YAMLError, KeyError, TypeError) as e:
        raise InputError(f"{TABLE}: not a residual kind table: {e}") from e
    bad = {k: r for k, r in roles.items() if r not in ROLES}
    if bad:
        raise InputError(f"{TABLE}: unknown roles {bad} (roles: {', '.join(ROLES)})")
    return KindTable(str(data.get("name", "residual")), str(data.get("version", "1")),
                     roles, why, hashlib.sha256(text.encode("utf-8")).hexdigest())  # type: ignore[arg-type]


def is_annotation(label: str) -> bool:
    """A type ascription ``(e : T)`` or a binder form ``x : T`` / ``{x : T}`` / ``[x : T]``."""
    return label == ASCRIPTION or label in BINDER_FORMS


@lru_cache(maxsize=1)
def _cost_table() -> CostTable:
    return load_cost_table()


@lru_cache(maxsize=8192)
def label_kind(label: str) -> tuple[str, str]:
    """``(kind, key)`` of a label on a canonical tree; ``key`` is what a same-kind rename
    compares (a numeral's value, a big operator's head, a constant's name)."""
    if label in UNIVERSES:
        return "universe", label
    if label.startswith(BIG_OPERATOR_HEADS):
        return "big-operator", label.split(" ", 1)[0]
    if label == COE:
        return "coercion", label
    if label in _SORT_COERCIONS:
        return "sort-coercion", label
    if is_annotation(label):
        return "annotation", label
    if label.startswith("#"):
        head = label.split(" ", 1)[0]
        return ("bound-variable" if head == label else "local-application"), head
    cls, key = classify(label, _cost_table())
    if cls in ("relation", "logic", "quantifier", "operator", "numeral", "type"):
        return cls, key
    if cls in ("function", "variable"):
        m = NAMED_APPLICATION.match(label)
        return "constant", (m.group(1) if m else label)
    return "other", label


def _namespace_variant(a: str, b: str) -> bool:
    return a != b and (a.endswith("." + b) or b.endswith("." + a))


def rename_kind(a: str, b: str) -> str:
    """The kind of relabelling node ``a`` into ``b`` (``a != b``)."""
    (ka, xa), (kb, xb) = label_kind(a), label_kind(b)
    if ka == kb:
        return _same_kind_rename(ka, a, b, xa, xb)
    if {ka, kb} == {"bound-variable", "constant"} and SLOT not in (b if kb == "constant" else a):
        return "bound-variable"  # a closed constant cannot name a variable bound here
    if "constant" in (ka, kb) or "other" in (ka, kb):
        return "constant" if "constant" in (ka, kb) else "other"
    if ka in _CLOSED or kb in _CLOSED:
        return ka if ka in _CLOSED else kb  # e.g. relation → logic, < → ↑·: a known change
    if {ka, kb} == {"coercion", "annotation"}:
        return "coercion"  # ↑n vs (n : ℝ): settled by the elaboration
    return "other"  # e.g. a universe against a sort coercion: nothing the tool models


def _same_kind_rename(kind: str, a: str, b: str, xa: str, xb: str) -> str:
    if kind == "numeral":
        return "numeral-spelling" if xa == xb else "numeral"
    if kind == "annotation":
        return "binder-info" if a in BINDER_FORMS and b in BINDER_FORMS else "annotation"
    if kind == "big-operator":
        return "big-operator-form" if xa == xb else "big-operator"
    if kind == "constant":
        same_arity = a.count("<SLOT>") == b.count("<SLOT>")
        return "namespace" if same_arity and _namespace_variant(xa, xb) else "constant"
    if kind in ("universe", "sort-coercion"):
        return "other"  # Type* vs Sort* (Sort includes Prop), ↥ vs ⇑: not the same thing
    return kind


def node_kind(label: str) -> str:
    """The kind of inserting or deleting a node labelled ``label``: a universe or ``_`` on one
    side only (outside an annotation, which covers its type) is nothing the tool models."""
    kind = label_kind(label)[0]
    return "other" if label == "_" or kind == "universe" else kind
