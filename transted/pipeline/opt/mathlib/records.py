"""What the Mathlib declaration index says of one declaration: typed, frozen records.

The generator (``scripts/mathlib_index/``) builds these from the pinned Mathlib and Batteries
sources and the curated Lean core list; :mod:`transted.mathlib.codec` stores them; the query
module (:mod:`transted.mathlib.index`) returns them. Trees are transted's own operator trees
(:class:`~transted.pipeline.opt.node.Node`) with names as written in the source: resolving a name needs
the declaration's :class:`DeclarationScope` (its namespace and ``open`` namespaces), as for a statement's
header. A text that does not parse keeps its text, with ``tree=None`` and the parse error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from transted.pipeline.opt.node import Node

__all__ = ["KINDS", "Kind", "BinderKind", "Reducibility", "SourceRef", "DeclarationScope", "Term", "Binder", "Body",
           "FieldValue", "Parent", "StructureField", "InstanceOf", "LemmaHypothesis", "LemmaStatement",
           "Deprecation", "Translation", "IndexedDeclaration", "InstanceHeader", "RewriteLemma",
           "HierarchyEdge",
           "KindCoverage", "Coverage", "IndexVersion"]

KINDS = ("def", "abbrev", "irreducible_def", "opaque", "axiom", "structure", "class",
         "inductive", "instance", "theorem", "alias", "constructor", "field")
Kind = Literal["def", "abbrev", "irreducible_def", "opaque", "axiom", "structure", "class",
               "inductive", "instance", "theorem", "alias", "constructor", "field"]
BinderKind = Literal["explicit", "implicit", "strict", "instance"]
Reducibility = Literal["reducible", "implicit_reducible", "semireducible", "irreducible"]
"""Lean's ``ReducibilityStatus`` (src/Lean/ReducibilityAttrs.lean): ``abbrev`` is
``@[reducible, inline] def``; an ``instance`` is ``implicit_reducible`` (alias
``instance_reducible``: unfolded at ``instances`` transparency); ``irreducible_def`` and
``@[irreducible]`` are ``irreducible``."""


@dataclass(frozen=True)
class SourceRef:
    """Where a declaration is: ``mathlib:Mathlib/…/File.lean``, ``batteries:…`` or
    ``lean4:src/Init/…`` (curated), and the 1-based line of its keyword (0 for curated core)."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class DeclarationScope:
    """The namespace a declaration is read in and the namespaces ``open`` there (file-level
    ``open``, ``open … in``); its names resolve as Lean's ``resolveGlobalName`` does."""

    namespace: str
    opens: tuple[str, ...]


@dataclass(frozen=True)
class Term:
    """A term as written and its tree (None: not parsed; the declaration says why)."""

    text: str
    tree: Node | None


@dataclass(frozen=True)
class Binder:
    """One binder group: ``(a b : α)``, ``{x : α}``, ``⦃x⦄``, ``[Group G]``, ``[inst : C α]``."""

    names: tuple[str, ...]
    """() for an anonymous instance binder ``[C α]``."""
    kind: BinderKind
    type: Term
    """The type as written (empty text when the group has none: ``(x)``)."""
    from_variable: bool = False
    """Added from a ``variable`` command (Lean adds those the declaration uses)."""


@dataclass(frozen=True)
class FieldValue:
    """``name := value`` of a ``where`` (structure instance) body."""

    name: str
    value: Term


@dataclass(frozen=True)
class Body:
    """The value of a ``def``/``abbrev``/``instance``/``irreducible_def``.

    ``form``: ``term`` (``:= e``), ``where`` (``where`` + fields), ``match`` (pattern-matching
    alternatives), ``tactic`` (``:= by …``). ``unfoldable`` is True only for a ``term`` body that
    parsed and is not recursive; ``why_not`` says why otherwise.
    """

    form: Literal["term", "where", "match", "tactic"]
    value: Term
    unfoldable: bool
    why_not: str | None = None
    fields: tuple[FieldValue, ...] = ()
    error: str | None = None
    """The body's parse error (``line:column: reason``, lines of the source file)."""


@dataclass(frozen=True)
class Parent:
    """An ``extends`` parent (or a ``class abbrev``'s component): the structure or class it
    names (resolved in the declaration's scope when the index knows it, else as written), the
    parent term, and the projection Lean generates (``toSubmonoid``, or the given name)."""

    name: str
    term: Term
    projection: str


@dataclass(frozen=True)
class StructureField:
    """A field of a structure/class as declared (inherited fields are the parents')."""

    name: str
    binders: tuple[Binder, ...]
    type: Term
    has_default: bool = False


@dataclass(frozen=True)
class InstanceOf:
    """What an ``instance`` provides: the class (resolved when known) and its arguments."""

    class_name: str
    arguments: tuple[Node, ...]


@dataclass(frozen=True)
class LemmaHypothesis:
    name: str | None
    type: Node


@dataclass(frozen=True)
class LemmaStatement:
    """A theorem's statement after its binders: the hypotheses (binders whose names nothing
    later mentions, and the antecedents of the type's leading ``→``/``∀``), the conclusion and,
    when it is ``lhs = rhs`` or ``lhs ↔ rhs``, both sides. Leading ``∀`` binders of the type are
    moved to ``variables`` so a rewrite sees every pattern variable."""

    variables: tuple[Binder, ...]
    hypotheses: tuple[LemmaHypothesis, ...]
    conclusion: Node
    relation: Literal["=", "↔"] | None = None
    lhs: Node | None = None
    rhs: Node | None = None


@dataclass(frozen=True)
class Deprecation:
    new_name: str | None
    since: str | None


@dataclass(frozen=True)
class Translation:
    """A declaration ``@[to_additive]``/``@[to_dual]`` generated from ``source``.

    ``statement``: ``translated`` when every operator of the source statement was decided
    (:mod:`scripts.mathlib_index.additive`), else None and ``why_not`` says what was not."""

    attribute: Literal["to_additive", "to_dual"]
    source: str
    statement: Literal["translated"] | None
    why_not: str | None = None


@dataclass(frozen=True)
class IndexedDeclaration:
    name: str
    kind: Kind
    keyword: str
    """The command keyword as written (``lemma``, ``class abbrev``, …)."""
    source: SourceRef
    scope: DeclarationScope
    protected: bool = False
    attributes: tuple[str, ...] = ()
    """Attribute names (``simp``, ``norm_cast``, ``ext``, …), the declaration's own and those
    a later global ``attribute [..] name`` command adds."""
    reducibility: Reducibility = "semireducible"
    deprecated: Deprecation | None = None
    binders: tuple[Binder, ...] = ()
    type: Term | None = None
    """The declared type (a theorem's statement after its binders); None when not written."""
    body: Body | None = None
    parents: tuple[Parent, ...] = ()
    fields: tuple[StructureField, ...] = ()
    constructors: tuple[str, ...] = ()
    instance: InstanceOf | None = None
    alias_of: str | None = None
    """An ``alias``'s target (resolved when known)."""
    alias_direction: Literal["mp", "mpr"] | None = None
    """``alias ⟨a, b⟩ := h`` (Mathlib/Tactic/Alias.lean, Batteries): ``a`` is ``h.mp``, ``b``
    is ``h.mpr``."""
    owner: str | None = None
    """The structure/inductive of a field or constructor."""
    additive: str | None = None
    """The name ``@[to_additive]`` (or ``@[to_dual]``) generates from this declaration."""
    generated: Translation | None = None
    parse_error: str | None = None
    """Why the signature did not parse (``line:column: reason``; lines of the source file)."""
    unread_instances: tuple[str, ...] = ()
    """Instance binders of the file's ``variable``s that Lean may add to this definition but the
    record lacks: a ``def``/``instance`` takes the section variables its value uses (Lean v4.10
    variable inclusion), and its value did not parse (``instance completable : CompletableTopField
    K`` needs the section's ``[Valued K Γ₀]``). Such an instance is never assumed to fire."""
    curated: str | None = None
    """For a hand-curated Lean core entry: the documentation it was written from."""

    @property
    def signature_parsed(self) -> bool:
        return self.parse_error is None

    @property
    def simp(self) -> bool:
        return "simp" in self.attributes


@dataclass(frozen=True)
class InstanceHeader:
    """What instance resolution reads of a declaration first: its binder groups' names and
    kinds (not their types), what it provides, and what stops it firing alone — decoded
    without the rest of the record (a resolution tries hundreds of instances, most of them at
    other types)."""

    keyword: str
    groups: tuple[tuple[tuple[str, ...], BinderKind], ...] = ()
    instance: InstanceOf | None = None
    unread_instances: tuple[str, ...] = ()


@dataclass(frozen=True)
class RewriteLemma:
    """A theorem whose conclusion is ``lhs = rhs`` or ``lhs ↔ rhs`` (issue 33's raw access)."""

    name: str
    relation: Literal["=", "↔"]
    head: str
    """The lhs's root label (``<SLOT> + <SLOT>``, ``Nat.choose <SLOT> <SLOT>``)."""
    simp: bool
    binders: tuple[Binder, ...]
    hypotheses: tuple[LemmaHypothesis, ...]
    lhs: Node
    rhs: Node
    scope: DeclarationScope
    source: SourceRef


@dataclass(frozen=True)
class HierarchyEdge:
    """``child`` gives an instance of ``parent``: through ``extends`` (``via`` the projection)
    or an instance ``[Child α] : Parent α`` (``via`` the instance's name)."""

    child: str
    parent: str
    via: str
    by: Literal["extends", "instance"]


@dataclass(frozen=True)
class KindCoverage:
    kind: str
    declarations: int
    signatures_parsed: int
    bodies: int
    bodies_parsed: int
    bodies_unfoldable: int


@dataclass(frozen=True)
class Coverage:
    kinds: tuple[KindCoverage, ...]
    files: int
    private_skipped: int
    translated: int
    lean_core_curated: int


@dataclass(frozen=True)
class IndexVersion:
    mathlib_commit: str
    batteries_commit: str
    content_sha256: str
    generator: int

    def __str__(self) -> str:
        return (f"mathlib-index-{self.generator}-{self.mathlib_commit[:8]}-"
                f"{self.content_sha256[:8]}")
