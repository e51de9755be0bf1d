"""The types of a lemma's two sides as its elaboration gives them, stored in the table.

A search reads, of a lemma's elaboration, only the type and the ``↑`` target of the nodes of its
two sides (steps 2 and 4 of :mod:`~transted.pipeline.search.lemmas.rewrite`; the casts written
into the new subterm, :mod:`~transted.pipeline.search.lemmas.finish`). Elaborating each lemma the
first time it unifies was a large part of a search's first use of the table, so the build stores
those two fields for every usable lemma, with the elaboration that computed them (the one that
judged the unusable list, :meth:`~transted.pipeline.search.lemmas.table.LemmaTable.unusable`);
under that same elaboration a search reads them instead of elaborating, and under another one it
elaborates the lemma as before. Elaboration is a function of the statement, the (empty) scope and
the bundled tables, all named by the elaboration version, so the stored fields are the ones a
fresh elaboration gives.

Stored form (JSON, inside the lemma's row): for each side, in preorder of its subtree, ``0`` for
a node the elaboration does not type (a binder, a type expression), ``[T]`` or ``[T, C]`` for its
type ``T`` and the ``↑`` target ``C``; a type is its head (no arguments), ``[head, *args]``, or
an integer (an unsolved metavariable: never equal to a term's type, see
:func:`~transted.pipeline.search.lemmas.typing.bind_type`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from transted.pipeline.opt.elaborate import NodeType
from transted.pipeline.opt.elaborate.types import Meta, Ty, Type_
from transted.pipeline.opt.node import Node
from transted.pipeline.search.pattern import Path, positions

__all__ = ["SideTypes", "side_types_of", "encode_side_types", "decode_side_types"]

_Stored = tuple[NodeType | None, ...]


@dataclass(frozen=True)
class SideTypes:
    """The stored types of the two sides, each in preorder of the side's subtree."""

    lhs: _Stored
    rhs: _Stored

    def nodes(self, statement: Node, lhs_path: Path, rhs_path: Path) -> dict[Path, NodeType]:
        """The types by the statement's paths (what ``Elaboration.nodes`` gives there)."""
        out: dict[Path, NodeType] = {}
        for stored, at in ((self.lhs, lhs_path), (self.rhs, rhs_path)):
            paths = [at + rel for rel, _ in positions(_subtree(statement, at))]
            if len(paths) != len(stored):
                raise ValueError(f"{len(stored)} stored types for a side of {len(paths)} nodes")
            out.update((p, t) for p, t in zip(paths, stored, strict=True) if t is not None)
        return out


def side_types_of(nodes: Mapping[Path, NodeType], statement: Node, lhs_path: Path,
                  rhs_path: Path) -> SideTypes:
    """What the build stores of an elaboration's ``nodes`` (the statement's)."""
    def side(at: Path) -> _Stored:
        return tuple(nodes.get(at + rel) for rel, _ in positions(_subtree(statement, at)))

    return SideTypes(side(lhs_path), side(rhs_path))


def encode_side_types(types: SideTypes) -> list[list[object]]:
    return [[_encode_node(t) for t in side] for side in (types.lhs, types.rhs)]


def decode_side_types(data: object) -> SideTypes:
    """The :class:`SideTypes` :func:`encode_side_types` wrote (ValueError on anything else)."""
    if not (isinstance(data, list) and len(data) == 2 and all(isinstance(s, list) for s in data)):
        raise ValueError(f"not stored side types: {data!r:.80}")
    lhs, rhs = (tuple(_decode_node(e) for e in side) for side in data)
    return SideTypes(lhs, rhs)


def _subtree(node: Node, path: Path) -> Node:
    for i in path:
        node = node.children[i]
    return node


def _encode_node(t: NodeType | None) -> object:
    if t is None:
        return 0
    if t.coerced_to is None:
        return [_encode_type(t.type)]
    return [_encode_type(t.type), _encode_type(t.coerced_to)]


def _encode_type(t: Type_) -> object:
    if isinstance(t, Meta):
        return t.id
    if not t.args:
        return t.head
    return [t.head, *(_encode_type(a) for a in t.args)]


def _decode_node(e: object) -> NodeType | None:
    if e == 0 and not isinstance(e, bool):
        return None
    if not (isinstance(e, list) and len(e) in (1, 2)):
        raise ValueError(f"not a stored node type: {e!r:.80}")
    return NodeType(_decode_type(e[0]), _decode_type(e[1]) if len(e) == 2 else None)


def _decode_type(e: object) -> Type_:
    if isinstance(e, bool):
        raise ValueError(f"not a stored type: {e!r}")
    if isinstance(e, int):
        return Meta(e)
    if isinstance(e, str):
        return Ty(e)
    if isinstance(e, list) and e and isinstance(e[0], str):
        return Ty(e[0], tuple(_decode_type(a) for a in e[1:]))
    raise ValueError(f"not a stored type: {e!r:.80}")
