"""The residual of a pair: the edits left between the best goal's two sides, each judged.

After normalisation, search and evidence, :func:`residual_edits` lists what still differs
between the reference and the candidate, whatever the metric's ``cost`` option:

1. **Universes and renaming.** ``Type u`` (a universe variable used once) and ``Type _``
   become ``Type*``; every bound variable is renamed to its de Bruijn level
   (:func:`transted.opt.scope.canonicalize`), so a consistent renaming of the variables leaves
   no edit, while two renames that swap variables (``x + 1 ≤ y`` vs ``y + 1 ≤ x``) leave
   bound-variable edits, which change the claim.
2. **Alignment.** The statements split into binders, hypotheses and conclusion; binders and
   hypotheses are matched as units (the semantic cost's Hungarian assignment,
   :mod:`transted.ted.hypotheses`), each matched part and the conclusions are aligned node by
   node (:func:`transted.ted.edits.node_alignment`; free renames such as ``2`` → ``2.0`` are
   kept: they are typed edits).
3. **Judgement.** Each edit gets a kind and a role from ``residual.yaml``
   (:mod:`transted.verdict.edit_kinds`): meaning, presentational or untrusted; typed edits are
   settled by the elaboration (:mod:`transted.verdict.typed_checks`). A meaning edit in a part
   that also holds an untrusted edit is untrusted (a cluster, ``residual.yaml``).
4. **Discharge** (with an ``entail`` function, :mod:`transted.evidence.entail`): a hypothesis on
   one side only, or changed, is discharged when the other side's hypotheses imply it (both
   ways for a changed one); a conclusion whose differences are number terms the hypotheses
   prove equal is discharged too (:mod:`transted.verdict.discharge`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from transted.opt.elaborate import Scope
from transted.opt.labels import ARROW, FORALL, SLOT
from transted.opt.node import Node
from transted.opt.render import to_lean
from transted.opt.scope import binder_names, binder_type, canonical
from transted.ted.distance import TreeEditDistance
from transted.ted.edits import NodeOp, node_alignment, preorder_paths
from transted.ted.hypotheses import align, load_unit_costs
from transted.ted.semantic import SemanticCost
from transted.verdict.edit_kinds import (
    BINDER_FORMS,
    UNIVERSE,
    is_annotation,
    load_kind_table,
    node_kind,
    rename_kind,
)
from transted.verdict.typed_checks import Judgement, TypedSides

__all__ = ["ResidualEdit", "Part", "parts_of", "residual_edits", "normalise_universes",
           "Entail", "FinalRole"]

FinalRole = Literal["meaning", "presentational", "untrusted"]
Path = tuple[int, ...]
Entail = Callable[[Sequence[Node], Node, Mapping[str, str]], object]
"""``entail(premises, goal, variables)``: a proof record (truthy) or None."""


@dataclass(frozen=True)
class ResidualEdit:
    """One residual edit: ``op`` (rename / insert / delete / unmatched), ``where`` (binder k,
    hypothesis k — reference numbering, ``(candidate)`` for a candidate-only part — or
    conclusion), its ``kind`` (``residual.yaml``), the two texts, its ``role`` and why, and
    what discharged it (hypothesis entailment), if anything did."""

    op: str
    where: str
    kind: str
    reference: str | None
    candidate: str | None
    role: FinalRole
    why: str
    cost: float = 0.0
    discharged_by: str | None = None
    partner: int | None = None
    """For an edit inside a matched hypothesis or binder: the candidate's index (0-based)."""

    @property
    def counts(self) -> bool:
        """A meaning edit nothing discharged."""
        return self.role == "meaning" and self.discharged_by is None

    def as_dict(self) -> dict[str, object]:
        """The result-line form; ``why`` is null when it is the kind's own reason (the table
        ``residual.yaml``), so lines stay short."""
        why = None if self.why == load_kind_table().why.get(self.kind) else self.why
        return {"op": self.op, "where": self.where, "class": self.kind,
                "reference": self.reference, "candidate": self.candidate,
                "role": self.role, "why": why, "discharged_by": self.discharged_by}

    def __str__(self) -> str:
        if self.op == "rename":
            what = f"{self.reference} → {self.candidate}"
        elif self.reference is not None:
            what = f"{self.reference} only in the reference"
        else:
            what = f"{self.candidate} only in the candidate"
        tail = f"; discharged: {self.discharged_by}" if self.discharged_by else ""
        return f"{self.where}: {self.kind} {self.op}: {what} [{self.role}: {self.why}{tail}]"


# -- trees -------------------------------------------------------------------------------------
def normalise_universes(tree: Node) -> Node:
    """``Type u``/``Sort u`` with a universe name used once in ``tree``, and ``Type _``, become
    ``Type*``/``Sort*`` (each is one fresh universe variable)."""
    uses: dict[str, int] = {}
    for node in _walk(tree):
        if node.label in (f"Type {SLOT}", f"Sort {SLOT}") and node.children[0].is_leaf:
            name = node.children[0].label
            uses[name] = uses.get(name, 0) + 1

    def fresh(node: Node) -> Node:
        if node.label in (f"Type {SLOT}", f"Sort {SLOT}") and node.children[0].is_leaf:
            name = node.children[0].label
            if name == "_" or (not name[0].isdigit() and uses.get(name) == 1):
                return Node(UNIVERSE if node.label.startswith("Type") else "Sort*")
        return node
    return _map(tree, fresh)


def _walk(tree: Node) -> list[Node]:
    out, stack = [], [tree]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.children)
    return out


def _map(tree: Node, f: Callable[[Node], Node]) -> Node:
    """``f`` applied bottom-up (iterative: trees may be deep)."""
    done: dict[int, Node] = {}
    stack: list[tuple[Node, bool]] = [(tree, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            kids = tuple(done[id(c)] for c in node.children)
            done[id(node)] = f(Node(node.label, kids) if kids != node.children else node)
        else:
            stack.append((node, True))
            stack.extend((c, False) for c in node.children)
    return done[id(tree)]


@dataclass(frozen=True)
class Part:
    kind: Literal["binder", "hypothesis", "conclusion"]
    index: int
    node: Node
    path: Path


def parts_of(tree: Node) -> tuple[list[Part], list[Part], Part]:
    """Binders, hypotheses and conclusion with their paths (the peel of
    :func:`transted.ted.hypotheses.split_statement`)."""
    binders: list[Part] = []
    hyps: list[Part] = []
    node: Node = tree
    path: Path = ()
    while len(node.children) == 2 and node.label in (FORALL, ARROW):
        group = binders if node.label == FORALL else hyps
        group.append(Part("binder" if node.label == FORALL else "hypothesis", len(group),
                          node.children[0], (*path, 0)))
        node, path = node.children[1], (*path, 1)
    return binders, hyps, Part("conclusion", 0, node, path)


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
        self.ref_labels = _labels(self.shown_ref)
        self.cand_labels = _labels(self.shown_cand)
        self.c2r = {o.cand: o.ref for o in self.ops if o.cand is not None and o.ref is not None}
        self.r2c = {o.ref: o.cand for o in self.ops if o.cand is not None and o.ref is not None}

    def ref_path(self, i: int) -> Path:
        return (*self.ref.path, *self.ref_paths[i])

    def cand_path(self, j: int) -> Path:
        return (*self.cand.path, *self.cand_paths[j])


def _labels(tree: Node) -> list[str]:
    return [n.label for n in _preorder(tree)]


def _preorder(tree: Node) -> list[Node]:
    out, stack = [], [tree]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed(node.children))
    return out


def _covered(nodes: list[Node], inserted: set[int]) -> set[int]:
    """Indices inside the type child of an inserted/deleted annotation whose whole type was
    inserted/deleted with it: they are part of that annotation's edit."""
    sizes = [n.size() for n in nodes]
    out: set[int] = set()
    for k in inserted:
        if not is_annotation(nodes[k].label) or len(nodes[k].children) < 2:
            continue
        first_type = k + 1 + sum(sizes[k + 1 + s] for s in _child_offsets(nodes, k)[:-1])
        block = set(range(first_type, first_type + sizes[first_type]))
        if block <= inserted:
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
    shown = a.shown_cand if side == "candidate" else a.shown_ref
    if kind == "sort-coercion":
        if _preorder(shown)[anchor].is_leaf:
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
        if kind == "namespace":
            role, why = a.typed.same_constant(a.ref_path(op.ref), a.cand_path(op.cand))
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
    shown = (a.cand_labels if op.cand is not None else a.ref_labels)[k]
    if op.cand is not None:
        return ResidualEdit("insert", a.where, kind, None, _show(shown), role, why, op.cost)  # type: ignore[arg-type]
    return ResidualEdit("delete", a.where, kind, _show(shown), None, role, why, op.cost)  # type: ignore[arg-type]


def _show(label: str) -> str:
    return label.replace(SLOT, "·")


def _part_edits(a: _Aligned) -> list[ResidualEdit]:
    inserted = {o.cand for o in a.ops if o.ref is None and o.cand is not None}
    deleted = {o.ref for o in a.ops if o.cand is None and o.ref is not None}
    skip_c = _covered(_preorder(a.cand.node), inserted)  # type: ignore[arg-type]
    skip_r = _covered(_preorder(a.ref.node), deleted)  # type: ignore[arg-type]
    out = []
    for op in a.ops:
        if not op.changed or op.cand in skip_c or (op.cand is None and op.ref in skip_r):
            continue
        out.append(_judge(a, op))
    return _cluster(out)


def _cluster(edits: list[ResidualEdit]) -> list[ResidualEdit]:
    """Meaning edits beside an untrusted edit of the same part become untrusted."""
    opaque = next((e for e in edits if e.role == "untrusted"), None)
    if opaque is None:
        return edits
    note = f"beside an untrusted edit in the same part ({opaque.kind}: " \
           f"{opaque.reference or ''}{' → ' if opaque.op == 'rename' else ''}" \
           f"{opaque.candidate or ''})"
    return [replace(e, role="untrusted", why=f"{e.why}; {note}") if e.role == "meaning" else e
            for e in edits]


# -- the pair ------------------------------------------------------------------------------------
def _binder_name(part: Part) -> str | None:
    names = binder_names(part.node)
    return names[0] if len(names) == 1 else None


def _type_shape(part: Part, names: set[str]) -> str:
    """The binder's type with the statement's own variables blanked (for matching)."""
    ty = binder_type(part.node)
    if ty is None:
        return ""
    return str(canonical(ty, {n: "·" for n in names}, arrows=False))


def _bijection(ref: list[Part], cand: list[Part]) -> dict[str, str]:
    """Candidate binder name → reference binder name: the same name first (a changed type then
    shows as a type edit), then in order among binders of the same type; a candidate binder
    left over gets a fresh name (``x✝``) so it cannot be confused with a reference variable.
    Any bijection is sound: renaming and reordering independent binders (``forall_swap``)
    give the same proposition, so the two sides coincide after it only if they are equivalent."""
    rn = [_binder_name(p) for p in ref]
    cn = [_binder_name(p) for p in cand]
    blank = {n for n in rn + cn if n is not None}
    rt = [_type_shape(p, blank) for p in ref]
    ct = [_type_shape(p, blank) for p in cand]
    out: dict[str, str] = {}
    free = [i for i, n in enumerate(rn) if n is not None]
    for j, name in enumerate(cn):  # the same name: the same variable (a type edit may follow)
        hit = next((i for i in free if rn[i] == name), None)
        if name is not None and hit is not None:
            out[name] = name
            free.remove(hit)
    for j, name in enumerate(cn):
        if name is None or name in out:
            continue
        hit = next((i for i in free if rt[i] == ct[j]), None)
        if hit is not None:
            out[name] = rn[hit]  # type: ignore[assignment]
            free.remove(hit)
        else:
            out[name] = f"{name}✝"
    return out


def _canonical_parts(tree: Node, env: Mapping[str, str]) -> tuple[list[Part], list[Part], Part]:
    """The parts with the statement's variables renamed by ``env`` (to ``#name``) and every
    inner bound variable by its de Bruijn level (``#k``): alpha-equivalent parts become equal,
    and every bound variable is marked ``#`` for :func:`~transted.verdict.edit_kinds.label_kind`."""
    binders, hyps, concl = parts_of(tree)

    def canon(p: Part) -> Part:
        return replace(p, node=canonical(p.node, env, arrows=False))
    return [canon(p) for p in binders], [canon(p) for p in hyps], canon(concl)


def residual_edits(reference: Node, candidate: Node, *, reference_scope: Scope | None = None,
                   candidate_scope: Scope | None = None, entail: Entail | None = None
                   ) -> list[ResidualEdit]:
    """The judged residual edits between two proposition-form trees (the best goal's sides);
    ``entail`` discharges hypotheses (:mod:`transted.verdict.discharge`), None: no discharge."""
    from transted.verdict.discharge import discharge

    shown = normalise_universes(reference), normalise_universes(candidate)
    sb, sh, sc = parts_of(shown[0])
    tb, th, tc = parts_of(shown[1])
    names = {n: "#" + n for n in (_binder_name(p) for p in sb) if n is not None}
    rb, rh, rc = _canonical_parts(shown[0], names)
    cb, ch, cc = _canonical_parts(shown[1], {k: "#" + v for k, v in _bijection(sb, tb).items()})
    typed = TypedSides(shown[0], shown[1], reference_scope, candidate_scope)
    model = SemanticCost()
    ted = TreeEditDistance(cost=model)
    units = load_unit_costs()
    edits: list[ResidualEdit] = []
    for name, ref_parts, cand_parts, shown_r, shown_c, unit in (
            ("binder", rb, cb, sb, tb, units.binder),
            ("hypothesis", rh, ch, sh, th, units.hypothesis)):
        _, pairs = align([p.node for p in ref_parts], [p.node for p in cand_parts], ted, unit)
        for i, j, _cost in sorted(pairs, key=_pair_order):
            if i is not None and j is not None:
                if ref_parts[i].node != cand_parts[j].node:
                    part = _part_edits(_aligned(f"{name} {i + 1}", ref_parts[i], cand_parts[j],
                                                shown_r[i].node, shown_c[j].node, model, typed))
                    edits += [replace(e, partner=j) for e in part]
            elif i is not None:
                edits.append(_unmatched(name, f"{name} {i + 1}", to_lean(shown_r[i].node), None,
                                        unit))
            else:
                assert j is not None
                edits.append(_unmatched(name, f"{name} {j + 1} (candidate)", None,
                                        to_lean(shown_c[j].node), unit))
    if rc.node != cc.node:
        edits += _part_edits(_aligned("conclusion", rc, cc, sc.node, tc.node, model, typed))
    if entail is not None:
        edits = discharge(edits, (rb, rh, rc), (cb, ch, cc), entail)
    return edits


def _pair_order(pair: tuple[int | None, int | None, float]) -> tuple[int, int]:
    i, j, _ = pair
    return (i if i is not None else 10**6 + (j or 0), j if j is not None else -1)


def _aligned(where: str, ref: Part, cand: Part, shown_ref: Node, shown_cand: Node,
             model: SemanticCost, typed: TypedSides) -> _Aligned:
    return _Aligned(where, ref, cand, shown_ref, shown_cand,
                    node_alignment(ref.node, cand.node, model), typed)


def _unmatched(kind: str, where: str, ref: str | None, cand: str | None, cost: float
               ) -> ResidualEdit:
    table = load_kind_table()
    return ResidualEdit("unmatched", where, kind, ref, cand, table.roles[kind],  # type: ignore[arg-type]
                        table.why[kind], cost)
