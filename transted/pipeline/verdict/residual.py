"""The residual of a pair: the edits left between the best goal's two sides, each judged.

After normalisation, search and evidence, :func:`residual_edits` lists what still differs
between the reference and the candidate, whatever the metric's ``cost`` option:

1. **Universes and renaming** (:mod:`transted.pipeline.verdict.parts`). ``Type u`` (a universe variable
   used once) and ``Type _`` become ``Type*``; the candidate's variables are renamed onto the
   reference's by one bijection and inner bound variables by their de Bruijn levels, so a
   consistent renaming of the variables leaves no edit, while two renames that swap variables
   (``x + 1 ≤ y`` vs ``y + 1 ≤ x``) leave bound-variable edits, which change the claim.
2. **Alignment.** The statements split into binders, hypotheses and conclusion; binders and
   hypotheses are matched as units (the semantic cost's Hungarian assignment,
   :mod:`transted.pipeline.ted.hypotheses`), each matched part and the conclusions are aligned node by
   node (:func:`transted.pipeline.ted.edits.node_alignment`; free renames such as ``2`` → ``2.0`` are
   kept: they are typed edits).
3. **Judgement.** Each edit gets a kind and a role from ``residual.yaml``
   (:mod:`transted.pipeline.verdict.edit_kinds`): meaning, presentational or untrusted; typed edits are
   settled by the elaboration (:mod:`transted.pipeline.verdict.typed_checks`). A meaning edit in a part
   that also holds an untrusted edit is untrusted (a cluster, ``residual.yaml``).
4. **Discharge** (with an ``entail`` function, :mod:`transted.pipeline.evidence.entail`): a hypothesis on
   one side only, or changed, is discharged when the other side's hypotheses imply it (both
   ways for a changed one); a conclusion whose differences are number terms the hypotheses
   prove equal is discharged too (:mod:`transted.pipeline.verdict.discharge`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache

from transted.pipeline.opt.elaborate import scope_from_header
from transted.pipeline.opt.labels import FUN, SLOT
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.parts import Part, PartPath, statement_parts
from transted.pipeline.opt.render import to_lean
from transted.pipeline.opt.scope import binder_names
from transted.pipeline.ted.distance import TreeEditDistance
from transted.pipeline.ted.edits import NodeOp, node_alignment, preorder_paths
from transted.pipeline.ted.hypotheses import align, load_unit_costs
from transted.pipeline.ted.semantic import SemanticCost
from transted.pipeline.verdict.constants import HYPOTHESIS_WRAPPERS
from transted.pipeline.verdict.discharge import discharge
from transted.pipeline.verdict.edit_kinds import (
    BINDER_FORMS,
    is_annotation,
    label_kind,
    load_kind_table,
    node_kind,
    rename_kind,
)
from transted.pipeline.verdict.header_names import Headers
from transted.pipeline.verdict.parts import (
    bijection,
    binder_name,
    canonical_parts,
    normalise_universes,
)
from transted.pipeline.verdict.residual_edit import Entail, FinalRole, ResidualEdit
from transted.pipeline.verdict.typed_checks import Judgement, TypedSides

__all__ = ["ResidualEdit", "residual_edits", "Entail", "FinalRole"]
# -- judging one aligned part -------------------------------------------------------------------
@dataclass
class _Aligned:
    """One aligned part pair: the shown (non-canonical) subtrees, paths and node maps."""

    where: str
    ref: Part
    cand: Part
    shown_ref: Node
    shown_cand: Node
    ops: list[NodeOp]
    typed: TypedSides

    def __post_init__(self) -> None:
        self.ref_paths = preorder_paths(self.ref.node)
        self.cand_paths = preorder_paths(self.cand.node)
        self.ref_shown = _preorder(self.shown_ref)
        self.cand_shown = _preorder(self.shown_cand)
        self.ref_labels = [n.label for n in self.ref_shown]
        self.cand_labels = [n.label for n in self.cand_shown]
        self.c2r = {o.cand: o.ref for o in self.ops if o.cand is not None and o.ref is not None}
        self.r2c = {o.ref: o.cand for o in self.ops if o.cand is not None and o.ref is not None}

    def ref_path(self, i: int) -> PartPath:
        return (*self.ref.path, *self.ref_paths[i])

    def cand_path(self, j: int) -> PartPath:
        return (*self.cand.path, *self.cand_paths[j])


def _preorder(tree: Node) -> list[Node]:
    out, stack = [], [tree]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed(node.children))
    return out


def _covered(nodes: list[Node], added: set[int]) -> set[int]:
    """Indices inside the type child of an annotation whose whole type is only on this side
    (the annotation added, or renamed from a ``↑``): they are part of that annotation's edit."""
    sizes = [n.size() for n in nodes]
    out: set[int] = set()
    for k, node in enumerate(nodes):
        if not is_annotation(node.label) or len(node.children) < 2:
            continue
        last = k + 1 + sum(sizes[k + 1 + s] for s in _child_offsets(nodes, k)[:-1])
        block = set(range(last, last + sizes[last]))
        if block <= added:
            out |= block
    return out


def _child_offsets(nodes: list[Node], k: int) -> list[int]:
    """Offsets (from ``k + 1``) of node ``k``'s children in preorder."""
    offsets, at = [], 0
    for child in nodes[k].children:
        offsets.append(at)
        at += child.size()
    return offsets


def _judge_wrap(a: _Aligned, side: str, k: int, label: str, kind: str) -> Judgement:
    """A ``↑``/``⇑``/``↥``/annotation written on ``side`` only, at preorder index ``k``."""
    other_map = a.c2r if side == "candidate" else a.r2c
    anchor = k + 1
    counterpart = other_map.get(anchor)
    if counterpart is None:
        return "presentational", "annotates a term that is itself new (its own edits count)"
    shown = a.cand_shown if side == "candidate" else a.ref_shown
    if kind == "sort-coercion":
        if shown[anchor].is_leaf:
            return "presentational", load_kind_table().why[kind]
        return "untrusted", "a sort/function coercion on a compound term"
    here, there = ((a.cand_path, a.ref_path) if side == "candidate" else (a.ref_path, a.cand_path))
    ref_anchor, cand_anchor = ((there(counterpart), here(anchor)) if side == "candidate"
                               else (here(anchor), there(counterpart)))
    wrapper = None if label in BINDER_FORMS else (side, here(k))
    return a.typed.same_type(ref_anchor, cand_anchor, wrapper=wrapper)  # type: ignore[arg-type]


def _judge(a: _Aligned, op: NodeOp) -> ResidualEdit:
    table = load_kind_table()
    if op.ref is not None and op.cand is not None:
        ra, cb = a.ref_labels[op.ref], a.cand_labels[op.cand]
        kind = rename_kind(op.ref_label or "", op.cand_label or "")
        role, why = table.roles[kind], table.why[kind]
        if kind == "namespace" or (kind == "constant" and _both_constants(ra, cb)):
            role, why = a.typed.same_constant(a.ref_path(op.ref), a.cand_path(op.cand))
        elif kind == "relation" and frozenset((ra, cb)) in _SET_ORDER_PAIRS:
            role, why = (a.typed.same_order_relation("reference", a.ref_path(op.ref))
                         if ra in _ORDER_LABELS else
                         a.typed.same_order_relation("candidate", a.cand_path(op.cand)))
        elif role == "typed":
            role, why = a.typed.same_type(a.ref_path(op.ref), a.cand_path(op.cand))
        return ResidualEdit("rename", a.where, kind, _show(ra), _show(cb), role, why,  # type: ignore[arg-type]
                            op.cost)
    side = "candidate" if op.cand is not None else "reference"
    k = op.cand if op.cand is not None else op.ref
    assert k is not None
    label = (op.cand_label if op.cand is not None else op.ref_label) or ""
    kind = node_kind(label)
    role, why = table.roles[kind], table.why[kind]
    if kind in ("annotation", "coercion", "sort-coercion"):
        role, why = _judge_wrap(a, side, k, label, kind)
    elif role == "typed":
        role, why = "untrusted", "a typed node added or dropped alone"
    elif k == 0 and a.where.startswith("hypothesis") and label in HYPOTHESIS_WRAPPERS:
        role, why = "presentational", HYPOTHESIS_WRAPPERS[label]
    elif label == FUN and _wraps_a_term(a, side, k):
        role, why = "meaning", _FUN_WRAP
    shown = (a.cand_labels if op.cand is not None else a.ref_labels)[k]
    if op.cand is not None:
        return ResidualEdit("insert", a.where, kind, None, _show(shown), role, why, op.cost)  # type: ignore[arg-type]
    return ResidualEdit("delete", a.where, kind, _show(shown), None, role, why, op.cost)  # type: ignore[arg-type]


_FUN_WRAP = ("a `fun` wrapped around a term the other side has as it is (`E` vs `fun x => E`): a "
             "term of type T became one of type X → T, another term (η, `fun x => f x` vs `f`, "
             "is not this: it stays untrusted)")


def _wraps_a_term(a: _Aligned, side: str, k: int) -> bool:
    """The ``fun`` inserted on ``side`` at preorder index ``k`` has its body aligned with a node
    of the other side that is the same text, and is not an η-expansion (body ``g … x``
    applied last to its binder)."""
    node = (a.cand_shown if side == "candidate" else a.ref_shown)[k]
    if len(node.children) != 2:
        return False
    binder, body = node.children
    other_map = a.c2r if side == "candidate" else a.r2c
    there = other_map.get(k + 1 + binder.size())
    other = a.ref_shown if side == "candidate" else a.cand_shown
    if there is None or other[there] != body:
        return False
    names = set(binder_names(binder))
    return not names or not (body.children and body.children[-1].is_leaf
                             and body.children[-1].label in names)


_SET_ORDER_PAIRS = frozenset({frozenset((f"{SLOT} ⊆ {SLOT}", f"{SLOT} ≤ {SLOT}")),
                              frozenset((f"{SLOT} ⊂ {SLOT}", f"{SLOT} < {SLOT}"))})
_ORDER_LABELS = frozenset({f"{SLOT} ≤ {SLOT}", f"{SLOT} < {SLOT}"})


def _both_constants(a: str, b: str) -> bool:
    """Both labels name constants (a type constructor such as ``Subgroup`` counts too)."""
    return {label_kind(a)[0], label_kind(b)[0]} <= {"constant", "type"}


def _show(label: str) -> str:
    return label.replace(SLOT, "·")


def _part_edits(a: _Aligned) -> list[ResidualEdit]:
    """The part's judged edits, and names the two headers resolve apart."""
    inserted = {o.cand for o in a.ops if o.ref is None and o.cand is not None}
    deleted = {o.ref for o in a.ops if o.cand is None and o.ref is not None}
    skip_c = _covered(_preorder(a.cand.node), inserted)  # type: ignore[arg-type]
    skip_r = _covered(_preorder(a.ref.node), deleted)  # type: ignore[arg-type]
    out: list[tuple[NodeOp, ResidualEdit]] = []
    for op in a.ops:
        if not op.changed or op.cand in skip_c or (op.cand is None and op.ref in skip_r):
            continue
        out.append((op, _judge(a, op)))
    if a.typed.headers is not None and a.typed.headers.differ:
        out += _header_edits(a, a.typed.headers)
    return _cluster(out, a)


def _header_edits(a: _Aligned, headers: Headers) -> list[tuple[NodeOp, ResidualEdit]]:
    """Names written alike on both sides that the two headers make different constants
    (``sqrt`` under ``open Nat`` vs ``open Real``): untrusted — the trees cannot tell whether
    two constants agree."""
    out = []
    for op in a.ops:
        if op.changed or op.ref is None or op.cand is None:
            continue
        kind, name = label_kind(op.ref_label or "")
        why = headers.resolved_apart(name) if kind == "constant" else None
        if why is not None:
            shown = _show(a.ref_labels[op.ref])
            out.append((op, ResidualEdit("rename", a.where, "namespace", shown, shown,
                                         "untrusted", why)))
    return out


def _cluster(judged: list[tuple[NodeOp, ResidualEdit]], a: _Aligned) -> list[ResidualEdit]:
    """Meaning edits in the slot of an untrusted edit of the same part become untrusted
    (:class:`_Zones`), unless the part's edits only delete from one side
    (:func:`_one_side_only`)."""
    edits = [e for _, e in judged]
    opaque = [(op, e) for op, e in judged if e.role == "untrusted"]
    if not opaque or _one_side_only(edits):
        return edits
    zones = _Zones(a)  # only a part with an opaque edit pays for its parents and subtrees
    slots = [(zones.of(op), e) for op, e in opaque]
    out = []
    for op, e in judged:
        if e.role != "meaning":
            out.append(e)
            continue
        near = next((o for slot, o in slots if slot.holds(op)), None)
        if near is None:
            out.append(e)
            continue
        note = f"beside an untrusted edit in the same part ({near.kind}: " \
               f"{near.reference or ''}{' → ' if near.op == 'rename' else ''}" \
               f"{near.candidate or ''})"
        out.append(replace(e, role="untrusted", why=f"{e.why}; {note}"))
    return out


@dataclass(frozen=True)
class _Slot:
    """The nodes (preorder indices of the part's two trees) an opaque edit may stand for."""

    ref: range | None
    cand: range | None

    def holds(self, op: NodeOp) -> bool:
        if self.ref is None or self.cand is None:
            return True  # no aligned node above the edit: the whole part
        return (op.ref is not None and op.ref in self.ref) or \
            (op.cand is not None and op.cand in self.cand)


class _Zones:
    """Where an opaque edit can reach. Unfolding an opaque name (or reading an unmodelled
    notation, or settling a type) rewrites the term at its node; what the other side may
    have written for it lies under the same aligned node. So the *slot* of an opaque edit is
    the subtree of its nearest aligned proper ancestor (on both sides, that node included,
    inserted or deleted nodes in between included): a meaning edit outside every slot (``∃``
    vs ``∃!`` at the root, ``closure A`` inside the bound variable's type) changes the claim
    whatever the name means. Nodes only one side has, directly above that aligned node, join
    the slot (``orderOf x = 2`` vs ``g ≠ 1 ∧ g ^ 2 = 1``). No aligned ancestor: the slot is
    the whole part."""

    def __init__(self, a: _Aligned):
        self.a = a
        self.ref_nodes = _preorder(a.ref.node)
        self.cand_nodes = _preorder(a.cand.node)
        self.ref_parent = _parents(a.ref.node)
        self.cand_parent = _parents(a.cand.node)

    def of(self, op: NodeOp) -> _Slot:
        if op.ref is not None:
            top = self._aligned_ancestor(op.ref, self.ref_parent, self.a.r2c)
            pair = None if top is None else (top, self.a.r2c[top])
        else:
            assert op.cand is not None
            top = self._aligned_ancestor(op.cand, self.cand_parent, self.a.c2r)
            pair = None if top is None else (self.a.c2r[top], top)
        if pair is None:
            return _Slot(None, None)
        ref = self._unaligned_top(pair[0], self.ref_parent, self.a.r2c)
        cand = self._unaligned_top(pair[1], self.cand_parent, self.a.c2r)
        return _Slot(self._subtree(self.ref_nodes, ref), self._subtree(self.cand_nodes, cand))

    @staticmethod
    def _aligned_ancestor(k: int, parent: list[int | None], aligned: dict) -> int | None:
        at = parent[k]
        while at is not None and at not in aligned:
            at = parent[at]
        return at

    @staticmethod
    def _unaligned_top(k: int, parent: list[int | None], aligned: dict) -> int:
        """``k`` raised through the nodes only this side has directly above it (``g ≠ 1 ∧``
        written above the ``=`` aligned with ``orderOf x = 2``): they are part of what the
        opaque edit may stand for."""
        while (up := parent[k]) is not None and up not in aligned:
            k = up
        return k

    @staticmethod
    def _subtree(nodes: list[Node], k: int) -> range:
        return range(k, k + nodes[k].size())


def _parents(tree: Node) -> list[int | None]:
    """Each node's parent's preorder index (None for the root)."""
    out: list[int | None] = [None] * tree.size()
    for k, kids in enumerate(_children_indices(tree)):
        for child in kids:
            out[child] = k
    return out


def _one_side_only(edits: list[ResidualEdit]) -> bool:
    """Every edit of the part deletes from the reference, or every one inserts into the
    candidate: the other side is the same part with material left out (``Monotone f ∨
    Antitone f`` vs ``Monotone f``). The cluster rule guards against an opaque name defined as
    the formula on the other side; here the other side holds nothing the opaque name could
    stand for, so whether the part changed is the question the meaning edits answer, as for
    any dropped conjunct or disjunct."""
    ops = {e.op for e in edits}
    return ops in ({"delete"}, {"insert"})


# -- the pair ------------------------------------------------------------------------------------
def residual_edits(reference: Node, candidate: Node, *, reference_header: str | None = None,
                   candidate_header: str | None = None, entail: Entail | None = None,
                   redefined: Mapping[str, str] | None = None) -> list[ResidualEdit]:
    """The judged residual edits between two proposition-form trees (the best goal's sides),
    each elaborated under its header; ``entail`` discharges hypotheses
    (:mod:`transted.pipeline.verdict.discharge`), None: no discharge. Under two different headers,
    names written alike must resolve alike (:mod:`transted.pipeline.verdict.header_names`).
    ``redefined`` maps each definition of the pair's own text that the two sides define
    differently to the candidate's renamed constant (``f`` → ``f′``,
    :mod:`transted.pipeline.sides`): an edit between those is untrusted for that reason."""
    compared = _Compared(TypedSides(normalise_universes(reference),
                                    normalise_universes(candidate),
                                    scope_from_header(reference_header),
                                    scope_from_header(candidate_header),
                                    Headers(reference_header, candidate_header)))
    edits = compared.edits()
    if entail is not None:
        edits = discharge(edits, compared.reference, compared.candidate, entail, compared.typed)
    if redefined:
        edits = [_redefinition_why(e, redefined) for e in edits]
    return edits


def _redefinition_why(edit: ResidualEdit, renamed: Mapping[str, str]) -> ResidualEdit:
    """A constant edit on a definition of the pair's text that the two sides define
    differently (``f`` vs ``f′``) is untrusted for that reason, not for being a Mathlib name:
    the definitions may still agree as functions, which the trees cannot tell."""
    names = {*renamed, *renamed.values()}
    heads = {str(t).split(" ")[0] for t in (edit.reference, edit.candidate) if t}
    if edit.kind == "constant" and heads & names:
        return replace(edit, why="a definition of the pair's text, defined differently on the "
                       "two sides (kept, not unfolded: see details.context): whether the two "
                       "definitions agree is not decided offline")
    return edit


class _Compared:
    """Two statements split, renamed by one bijection and aligned part by part."""

    def __init__(self, typed: TypedSides):
        self.typed = typed
        shown = typed.reference, typed.candidate
        self.shown = statement_parts(shown[0]), statement_parts(shown[1])
        names = {n: "#" + n for n in (binder_name(p) for p in self.shown[0].binders)
                 if n is not None}
        sigma = bijection(self.shown[0], self.shown[1])
        self.reference = canonical_parts(shown[0], names)
        self.candidate = canonical_parts(shown[1], {k: "#" + v for k, v in sigma.items()})

    def edits(self) -> list[ResidualEdit]:
        ref, cand = self.reference, self.candidate
        rb, rh, rc = ref.binders, ref.hypotheses, ref.conclusion
        cb, ch, cc = cand.binders, cand.hypotheses, cand.conclusion
        (shown_ref, shown_cand) = self.shown
        sb, sh, sc = shown_ref.binders, shown_ref.hypotheses, shown_ref.conclusion
        tb, th, tc = shown_cand.binders, shown_cand.hypotheses, shown_cand.conclusion
        model, ted = _aligner()
        units = load_unit_costs()
        out: list[ResidualEdit] = []

        def part(where: str, r: Part, c: Part, sr: Node, sc_: Node) -> list[ResidualEdit]:
            headers = self.typed.headers is not None and self.typed.headers.differ
            if r.node == c.node and not headers:
                return []
            return _part_edits(_aligned(where, r, c, sr, sc_, model, self.typed))

        for name, ref_parts, cand_parts, shown_r, shown_c, unit in (
                ("binder", rb, cb, sb, tb, units.binder),
                ("hypothesis", rh, ch, sh, th, units.hypothesis)):
            _, pairs = align([p.node for p in ref_parts], [p.node for p in cand_parts], ted, unit)
            for i, j, _cost in sorted(pairs, key=_pair_order):
                if i is not None and j is not None:
                    out += [replace(e, partner=j) for e in part(
                        f"{name} {i + 1}", ref_parts[i], cand_parts[j], shown_r[i].node,
                        shown_c[j].node)]
                elif i is not None:
                    out.append(_unmatched(name, f"{name} {i + 1}", to_lean(shown_r[i].node), None,
                                          unit))
                else:
                    assert j is not None
                    out.append(_unmatched(name, f"{name} {j + 1} (candidate)", None,
                                          to_lean(shown_c[j].node), unit))
        return out + part("conclusion", rc, cc, sc.node, tc.node)


@lru_cache(maxsize=1)
def _aligner() -> tuple[SemanticCost, TreeEditDistance]:
    """The semantic cost and its distance, shared (both memoise labels and distances)."""
    model = SemanticCost()
    return model, TreeEditDistance(cost=model)


def _pair_order(pair: tuple[int | None, int | None, float]) -> tuple[int, int]:
    i, j, _ = pair
    return (i if i is not None else 10**6 + (j or 0), j if j is not None else -1)


def _aligned(where: str, ref: Part, cand: Part, shown_ref: Node, shown_cand: Node,
             model: SemanticCost, typed: TypedSides) -> _Aligned:
    ops = _constant_renames(node_alignment(ref.node, cand.node, model), ref.node, cand.node)
    return _Aligned(where, ref, cand, shown_ref, shown_cand, ops, typed)


def _constant_renames(ops: list[NodeOp], ref: Node, cand: Node) -> list[NodeOp]:
    """A named constant deleted where another is inserted over the same, matched arguments
    (``Monotone f`` → ``Antitone f``: the alignment prices the rename like a delete and an
    insert) is one rename: the edit of one constant into another, judged as such."""
    deleted = {o.ref: o for o in ops if o.cand is None and o.ref is not None
               and label_kind(o.ref_label or "")[0] == "constant"}
    inserted = {o.cand: o for o in ops if o.ref is None and o.cand is not None
                and label_kind(o.cand_label or "")[0] == "constant"}
    if not deleted or not inserted:
        return ops
    r2c = {o.ref: o.cand for o in ops if o.ref is not None and o.cand is not None}
    ref_kids, cand_kids = _children_indices(ref), _children_indices(cand)
    merged: dict[int, NodeOp] = {}
    used: set[int] = set()
    for i, d in deleted.items():
        kids = [r2c.get(k) for k in ref_kids[i]]
        for j, n in inserted.items():
            if j not in used and kids and kids == cand_kids[j]:
                merged[i] = NodeOp(i, j, d.ref_label, n.cand_label, d.cost + n.cost)
                used.add(j)
                break
    if not merged:
        return ops
    out = []
    for o in ops:
        if o.cand is None and o.ref in merged:
            out.append(merged[o.ref])
        elif not (o.ref is None and o.cand in used):
            out.append(o)
    return out


def _children_indices(tree: Node) -> list[list[int]]:
    """The preorder indices of each node's children (by the node's preorder index)."""
    nodes = _preorder(tree)
    out: list[list[int]] = []
    for k, node in enumerate(nodes):
        kids, at = [], k + 1
        for child in node.children:
            kids.append(at)
            at += child.size()
        out.append(kids)
    return out


def _unmatched(kind: str, where: str, ref: str | None, cand: str | None, cost: float
               ) -> ResidualEdit:
    table = load_kind_table()
    return ResidualEdit("unmatched", where, kind, ref, cand, table.roles[kind],  # type: ignore[arg-type]
                        table.why[kind], cost)
