"""What the elaborator knows of Lean and Mathlib, behind three interfaces.

* :class:`NameResolver` — ``resolve(name, scope)`` → resolved / ambiguous / unknown, with the
  header's ``open``/``namespace`` lines and ``protected`` declarations taken into account;
* :class:`SignatureTable` — a resolved constant's type (:class:`ConstantSignature`: implicit
  type parameters, instance arguments, explicit argument types, result type), or None and why;
* :class:`InstanceResolver` — does class ``C`` have an instance at a type: True / False (the
  table is complete there and lists none) / None (the table cannot say);
* :class:`~transted.pipeline.opt.elaborate.classes.ClassResolver` (optional) — which classes a local
  instance gives through the class hierarchy, and ``Membership``'s element type.

:data:`BUNDLED` implements them with the generated Mathlib name table
(:mod:`transted.pipeline.opt.names`, docs/NAMES.md), the hand-cited signatures
(:mod:`~transted.pipeline.opt.elaborate.signatures`, the first source: they encode elaborator-level
facts), the Mathlib declaration index (:mod:`transted.pipeline.opt.mathlib`, docs/MATHLIB_INDEX.md:
every other constant's type, :mod:`~transted.pipeline.opt.elaborate.index_types`, and the class
hierarchy, :mod:`~transted.pipeline.opt.elaborate.classes`) and the instance table
(:mod:`transted.pipeline.opt.instances`). Without the index file the elaborator falls back to the hand
tables (the curated ``IMPLIED`` parents). A name a table does not list is *unknown to the
table*, never assumed absent from Mathlib; the elaborator reports it as such.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from functools import lru_cache
from typing import Literal, Protocol

from transted.errors import InputError
from transted.pipeline.opt.elaborate.classes import ClassResolver, IndexClasses
from transted.pipeline.opt.elaborate.index_types import IndexConstantType, IndexTypes
from transted.pipeline.opt.elaborate.signatures import (
    IMPLIED,
    NAMED_NOTATIONS,
    NOTATIONS,
    SIGNATURES,
    ConstantSignature,
    ConstantType,
    signature,
)
from transted.pipeline.opt.elaborate.types import NUMBER_TYPES, Ty
from transted.pipeline.opt.header_scope import Scope
from transted.pipeline.opt.instances import load_instance_table
from transted.pipeline.opt.mathlib import MathlibIndex, load_index
from transted.pipeline.opt.mathlib.records import DeclarationScope
from transted.pipeline.opt.names import Ambiguous, Constant, load_name_table

__all__ = ["Resolution", "NameResolver", "SignatureTable", "InstanceResolver", "Tables",
           "BUNDLED", "bundled_tables", "tables_version", "scope_from_header", "is_identifier"]


@dataclass(frozen=True)
class Resolution:
    status: Literal["resolved", "ambiguous", "unknown"]
    candidates: tuple[str, ...] = ()
    reason: str = ""
    fields: tuple[str, ...] = ()
    """Trailing components read as field accesses on the resolved constant (``x.y.z``)."""
    kinds: tuple[str, ...] = ()
    """The declaration kind of each candidate (``def``, ``structure``, ``class``, …)."""


class NameResolver(Protocol):
    def resolve(self, name: str, scope: Scope) -> Resolution: ...

    def is_namespace(self, name: str) -> bool: ...

    def notation_symbol(self, symbol: str, scope: Scope) -> bool | None:
        """Whether ``symbol`` starts a Mathlib notation: True active, False inactive (scoped
        in a namespace the header does not open), None no such notation."""
        ...


class SignatureTable(Protocol):
    def signature(self, full_name: str) -> ConstantSignature | None: ...

    def why_not(self, full_name: str) -> str:
        """Why :meth:`signature` has none (for the ``unsupported`` issue)."""
        ...

    def former(self, full_name: str) -> bool | None:
        """Whether the constant applied to its parameters is a type (``Subgroup G``,
        ``ZMod n``: True), a proposition or a value (``Continuous f``: False); None when the
        tables do not say."""
        ...

    def binder_count(self, full_name: str) -> int | None:
        """How many binders the declaration has (implicit and instance ones too: what ``@``
        makes explicit), or None when the tables cannot count them exactly."""
        ...


class InstanceResolver(Protocol):
    def has_instance(self, cls: str, ty: Ty, scoped: frozenset[str] = frozenset()
                     ) -> bool | None: ...


@dataclass(frozen=True)
class Tables:
    """The interfaces the elaborator reads, and a version string for signatures; without
    ``classes`` instances on abstract types go through the curated ``IMPLIED`` parents."""

    names: NameResolver
    signatures: SignatureTable
    instances: InstanceResolver
    version: str = field(default="custom")
    classes: ClassResolver | None = None


_IDENTIFIER = re.compile(r"^[^\W\d]")


def is_identifier(label: str) -> bool:
    """A leaf that Lean reads as an identifier (not a numeral, symbol, string or hole)."""
    return (bool(label) and label not in ("_", "·") and not label.startswith(("?", '"'))
            and not label.endswith(".") and ".." not in label and bool(_IDENTIFIER.match(label)))


_RESOLVED_MAX = 65536


class _BundledNames:
    """Name resolution and notation activity from the generated Mathlib table."""

    def __init__(self) -> None:
        self.table = load_name_table()
        self._resolved: dict[tuple[str, Scope], Resolution] = {}
        self._in_index: dict[tuple[str, DeclarationScope], tuple[str, str] | None] = {}

    def resolve(self, name: str, scope: Scope) -> Resolution:
        # the search elaborates each goal it tries: the same names, under the same scope
        key = (name, scope)
        hit = self._resolved.get(key)
        if hit is None:
            if len(self._resolved) >= _RESOLVED_MAX:
                self._resolved.clear()
            hit = self._resolved[key] = self._resolve(name, scope)
        return hit

    def _resolve(self, name: str, scope: Scope) -> Resolution:
        found = self.table.resolve(name.removeprefix("@"), scope=scope)
        if isinstance(found, Constant):
            return Resolution("resolved", (found.name,), fields=found.fields, kinds=(found.kind,))
        if isinstance(found, Ambiguous):
            return Resolution("ambiguous", tuple(c.name for c in found.candidates),
                              kinds=tuple(c.kind for c in found.candidates))
        return Resolution("unknown", (), self._why_unknown(name, scope))

    def is_namespace(self, name: str) -> bool:
        return self.table.is_namespace(name)

    def _why_unknown(self, name: str, scope: Scope) -> str:
        opened = [d.namespace for d in scope.opens if not d.explicit]
        hidden = [f"{ns}.{name}" for ns in opened if self.table.is_protected(f"{ns}.{name}")]
        if hidden:
            return f"{hidden[0]} is protected: `open` does not bring its short name"
        return "not in the bundled Mathlib name table"

    def resolve_in(self, name: str, scope: DeclarationScope) -> tuple[str, str] | None:
        """``name`` as written in a declaration of the index, in its scope: full name and
        kind, None when unknown, ambiguous or a field access."""
        key = (name, scope)
        if key in self._in_index:
            return self._in_index[key]
        if len(self._in_index) >= _RESOLVED_MAX:
            self._in_index.clear()
        try:
            found = self.table.resolve(name, opens=scope.opens, namespace=scope.namespace)
        except InputError:
            found = None
        hit = (found.name, found.kind) if isinstance(found, Constant) and not found.fields \
            else None
        self._in_index[key] = hit
        return hit

    def notation_symbol(self, symbol: str, scope: Scope) -> bool | None:
        every = self.table.notations_for(symbol)
        if not every:
            return None
        return any(scope.notation_active(n.namespace) for n in every)

    @property
    def version(self) -> str:
        return self.table.version


class _BundledSignatures:
    """The hand-cited signatures first (they encode elaborator-level facts: ``Finset.Icc``'s
    ``LocallyFiniteOrder``, ``abs``'s lattice), then the index's declarations."""

    def __init__(self, index_types: IndexTypes | None) -> None:
        self.index_types = index_types

    def signature(self, full_name: str) -> ConstantSignature | None:
        hand = signature(full_name)
        if hand is not None or self.index_types is None:
            return hand
        derived = self.index_types.signature(full_name)
        return derived if isinstance(derived, IndexConstantType) else None

    def why_not(self, full_name: str) -> str:
        if self.index_types is None:
            return f"the type of {full_name} is not in the signature table (no Mathlib index)"
        derived = self.index_types.signature(full_name)
        return derived if isinstance(derived, str) else f"{full_name} has a signature"

    def binder_count(self, full_name: str) -> int | None:
        if signature(full_name) is not None or self.index_types is None:
            return None  # a hand signature lists only the binders the elaborator reads
        return self.index_types.binder_count(full_name)

    def former(self, full_name: str) -> bool | None:
        sig = self.signature(full_name)
        if isinstance(sig, IndexConstantType):
            return self.index_types is not None and self.index_types.is_type_former(full_name)
        if isinstance(sig, ConstantType):
            return sig.result in ("Sort", "Type")
        return None


_TABLE_TYPES = {**{t: t for t in NUMBER_TYPES}, "ℕ+": "ℕ+", "Finset": "Finset α", "Set": "Set α"}
_FLOAT = frozenset({"Add", "Sub", "Mul", "Div", "Neg", "LT", "LE", "OfScientific"})
"""Lean core ``Init/Data/Float.lean``: ``instance : Add Float`` … ``OfScientific Float``."""


class _BundledInstances:
    def __init__(self) -> None:
        self.table = load_instance_table()

    def has_instance(self, cls: str, ty: Ty, scoped: frozenset[str] = frozenset()
                     ) -> bool | None:
        if ty == Ty("Float"):
            return cls in _FLOAT or None
        name = _TABLE_TYPES.get(ty.head)
        if name is None or (ty.args and ty.head not in ("Finset", "Set")):
            return None
        return self.table.has(name, cls, scoped=scoped)

    @property
    def version(self) -> str:
        return self.table.version


def _signatures_digest() -> str:
    """Content hash of the signature and notation tables (their reprs are deterministic)."""
    text = _hashed_text([sorted(SIGNATURES.items()), sorted(NOTATIONS.items()),
                         sorted(NAMED_NOTATIONS.items()), sorted(IMPLIED.items())])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def _hashed_text(value: object) -> str:
    """``repr(value)``, each :class:`ConstantType` spelled as the dataclass ``Signature`` it
    was when this hash went into the score signatures: renaming the class is no change of
    the tables, so it must not change every signature."""
    if isinstance(value, ConstantType):
        fields = ", ".join(f"{f.name}={getattr(value, f.name)!r}" for f in dataclass_fields(value))
        return f"Signature({fields})"
    if isinstance(value, list):
        return "[" + ", ".join(_hashed_text(v) for v in value) + "]"
    if isinstance(value, tuple):
        items = [_hashed_text(v) for v in value]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    return repr(value)


def _bundled_index() -> MathlibIndex | None:
    try:
        return load_index()
    except FileNotFoundError:  # a checkout without the generated file: the hand tables only
        return None


@lru_cache(maxsize=1)
def bundled_tables() -> Tables:
    """The bundled tables (the name table is read once per process, about 1 s; the index is
    opened on its first query)."""
    names, instances = _BundledNames(), _BundledInstances()
    index = _bundled_index()
    index_types = IndexTypes(index, names) if index is not None else None
    classes = IndexClasses(index, index_types) if index is not None and index_types else None
    indexed = str(index.version) if index is not None else "no-index"
    version = f"{names.version}+{instances.version}+sig-{_signatures_digest()}+{indexed}"
    return Tables(names, _BundledSignatures(index_types), instances, version, classes)


class _LazyTables:
    """:data:`BUNDLED`: the bundled tables, loaded on first use (importing this module stays
    cheap)."""

    def __getattr__(self, name: str) -> object:
        return getattr(bundled_tables(), name)


BUNDLED: Tables = _LazyTables()  # type: ignore[assignment]


def tables_version() -> str:
    """``mathlib-<commit>-<hash>+instances-<hash>+sig-<hash>+mathlib-index-<gen>-<commit>-<hash>``:
    the tables the score signatures record (the name table's Mathlib commit and content hash,
    the instance table's hash, the signature/notation tables' hash, the Mathlib index's
    version — ``no-index`` without the file)."""
    return bundled_tables().version


def scope_from_header(header: str | None, *, extra_opens: tuple[str, ...] = ()) -> Scope:
    """The :class:`Scope` a statement under ``header`` is elaborated in (``extra_opens``: the
    statement's own ``open … in`` prefixes).

    Raises
    ------
    transted.errors.ParseError
        for an ``open`` line Lean would refuse (see :func:`transted.pipeline.opt.header_scope.read_header`).
    """
    return _scope(header or "", tuple(extra_opens))


@lru_cache(maxsize=4096)
def _scope(header: str, extra_opens: tuple[str, ...]) -> Scope:
    text = header + ("\nopen " + " ".join(extra_opens) + "\n" if extra_opens else "")
    return load_name_table().scope(text)
