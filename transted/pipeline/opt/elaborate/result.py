"""What elaboration returns: a type per node, the coercions Lean inserts, and the issues.

Nodes are addressed by their *path* (child indices from the root): the same subtree can occur
twice with different types (``k / 2`` in ℕ under a sum, in ℝ elsewhere), so a node value
cannot be the key.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal

from transted.pipeline.opt.elaborate.types import Type_, show
from transted.pipeline.opt.header_scope import Scope
from transted.pipeline.opt.node import SLOT, Node
from transted.pipeline.opt.scope import head_name

__all__ = ["Path", "Issue", "IssueKind", "NodeType", "Elaboration", "MEANING_KINDS", "GAP_KINDS",
           "OverloadChoice"]

Path = tuple[int, ...]
IssueKind = Literal[
    "unknown-name",        # not a local, not resolved by the name table, not auto-bound
    "ambiguous",           # overloaded name that types do not disambiguate
    "auto-bound",          # a free name Lean binds as an implicit argument (autoImplicit)
    "scoped-notation",     # notation whose namespace the header does not open
    "missing-instance",    # the instance table says the class has no instance at the type
    "undecided-instance",  # the table cannot say (a type it does not cover)
    "type-mismatch",       # no coercion to the type expected here
    "uninferred",          # a type Lean leaves to a metavariable no default fills
    "unsupported",         # a construct this elaborator does not model
]
MEANING_KINDS: frozenset[str] = frozenset({"unknown-name", "ambiguous", "auto-bound",
                                           "scoped-notation", "missing-instance", "type-mismatch"})
"""Issues that say the statement is not what its tree looks like: Lean rejects it (unknown
identifier, ambiguous overload, missing instance, no coercion, notation not opened) or a name is
a variable, not the constant it looks like (auto-bound). Two trees equal up to such a name are
not the same statement, so no claim may rest on their identity."""
GAP_KINDS: frozenset[str] = frozenset({"undecided-instance", "uninferred", "unsupported"})
"""Issues that say the model cannot tell (a type, instance or construct it does not know)."""


@dataclass(frozen=True)
class Issue:
    """Why the statement may not mean what the tree says: every issue blocks a definite
    ``proved``/``refuted`` for the parts it touches (docs/ELABORATION.md, "Abstention")."""

    kind: IssueKind
    path: Path
    message: str
    name: str | None = None
    """The offending name (identifier, constant, class or notation), when there is one."""

    def __str__(self) -> str:
        return f"{self.kind} at {'/'.join(map(str, self.path)) or 'root'}: {self.message}"

    def to_dict(self) -> dict[str, object]:
        """JSON form (result details): kind, where, name, message."""
        return {"kind": self.kind, "path": "/".join(map(str, self.path)), "name": self.name,
                "message": self.message}


@dataclass(frozen=True)
class OverloadChoice:
    """An overloaded name the elaboration resolved (:mod:`~.overloads`): the constant kept, and
    why each other alternative certainly fails."""

    name: str
    constant: str
    rejected: tuple[tuple[str, str], ...]

    def to_dict(self, path: Path) -> dict[str, object]:
        """JSON form (result details): where, the name, the constant, the rejections."""
        return {"path": "/".join(map(str, path)), "name": self.name, "constant": self.constant,
                "rejected": [{"constant": c, "why": why} for c, why in self.rejected]}


@dataclass(frozen=True)
class NodeType:
    """One node's elaborated type, the ``↑`` Lean puts on it (its target type), and the
    constant its head or leaf resolved to."""

    type: Type_
    coerced_to: Type_ | None = None
    constant: str | None = None
    receiver: int | None = None
    """For generalized field notation ``x.f a …`` resolved to ``T.f``: the explicit argument
    position ``x`` takes (the first whose type's head is ``T``)."""


@dataclass(frozen=True)
class Elaboration:
    tree: Node
    nodes: Mapping[Path, NodeType]
    issues: tuple[Issue, ...]
    scope: Scope | None = None
    """The scope the names were resolved in (the header's)."""
    auto_bound_sorts: Mapping[str, str] = field(default_factory=dict)
    """Auto-bound names that are types (``[Group G]`` with ``G`` free), and their universe:
    ``Type`` (a class parameter declared ``Type u``) or ``Sort``."""
    defaulted: frozenset[Path] = frozenset()
    """Nodes whose type a default instance chose (an untyped numeral's ℕ, ``instOfNatNat``)
    or that stayed unknown: in Lean the context may fix such a type before the default applies
    (``let x := 2; x / (3 : ℝ)`` makes ``2`` real), so no step may rely on it."""
    overloads: Mapping[Path, OverloadChoice] = field(default_factory=dict)
    """Overloaded names resolved because every other alternative certainly fails."""

    @property
    def ok(self) -> bool:
        """No issue: every node typed as Lean would type it, as far as the tables know."""
        return not self.issues

    @property
    def meaning_issues(self) -> tuple[Issue, ...]:
        """The issues of :data:`MEANING_KINDS` (Lean rejects it, or a name is a variable)."""
        return tuple(i for i in self.issues if i.kind in MEANING_KINDS)

    @property
    def auto_bound(self) -> tuple[str, ...]:
        """Names Lean binds as auto-bound implicits, in order of first use."""
        return tuple(dict.fromkeys(i.name for i in self.issues
                                   if i.kind == "auto-bound" and i.name is not None))

    def at(self, path: Path) -> NodeType:
        return self.nodes[path]

    def type_at(self, path: Path) -> str:
        return show(self.nodes[path].type)

    def node_at(self, path: Path) -> Node:
        node = self.tree
        for i in path:
            node = node.children[i]
        return node

    def coercions(self) -> dict[Path, str]:
        """Path → target type of every ``↑`` Lean inserts."""
        return {p: show(n.coerced_to) for p, n in self.nodes.items() if n.coerced_to is not None}

    def issues_under(self, path: Path) -> tuple[Issue, ...]:
        """Issues at ``path`` or inside it (an engine abstains on that component only)."""
        return tuple(i for i in self.issues if i.path[:len(path)] == path)

    def walk(self) -> Iterator[tuple[Path, Node, NodeType | None]]:
        stack: list[tuple[Path, Node]] = [((), self.tree)]
        while stack:
            path, node = stack.pop()
            yield path, node, self.nodes.get(path)
            stack.extend(((*path, i), c) for i, c in reversed(list(enumerate(node.children))))

    def render(self, path: Path = (), *, types: bool = False) -> str:
        """The subtree at ``path`` as text with the ``↑`` Lean inserts, each with its source
        type: ``x = ↑(∑ k ∈ Finset.range 4, k / 2 : ℕ)``; ``types`` also annotates leaves."""
        return _render(self, path, self.node_at(path), types)


_BRACKETING = ("(", "|", "↑", "⌊", "⌈", "√", "∑ ", "∏ ", "∀ ", "∃", "if ")


def _render(el: Elaboration, path: Path, node: Node, types: bool) -> str:
    info = el.nodes.get(path)
    if node.is_leaf:
        text = node.label
        if types and info is not None and not text[0].isdigit():
            text = f"{text}:{show(info.type)}"
    else:
        parts = node.label.split(SLOT)
        kids = []
        for i, child in enumerate(node.children):
            kid = _render(el, (*path, i), child, types)
            inner = el.nodes.get((*path, i))
            wrapped = inner is not None and inner.coerced_to is not None
            application = head_name(node.label, len(node.children)) is not None
            if not child.is_leaf and not wrapped and (
                    (child.label.startswith(SLOT) and not node.label.startswith(_BRACKETING))
                    or (application and not child.label.startswith(_BRACKETING))):
                kid = f"({kid})"
            kids.append(kid)
        if len(parts) == len(kids) + 1:
            text = parts[0] + "".join(k + rest for k, rest in zip(kids, parts[1:], strict=True))
        else:  # a label without a slot per child
            text = f"{node.label}[{', '.join(kids)}]"
    if info is not None and info.coerced_to is not None:
        text = f"↑({text} : {show(info.type)})"
    return text
