"""Settling *typed* residual edits with the offline elaboration (:mod:`transted.pipeline.opt.elaborate`).

A coercion, an ascription, a binder's written type, a numeral's spelling or a namespace is
presentational only when Lean reads both sides the same way there. :class:`TypedSides`
elaborates the two sides of the best goal (once each, only when a typed edit needs it) and
compares, at aligned nodes:

* the **type** each side gives the anchor term (the coerced or annotated term, the bound
  variable, the numeral), and, for a coercion or ascription written on one side, the type the
  wrapper produces against the other side's *effective* type (its type after the ``↑`` Lean
  inserts): ``↑n`` (ℕ → ℝ) against ``n`` that Lean coerces to ℝ agree; ``↑(a - b)`` against
  ``↑a - ↑b`` do not (the subtraction is in ℕ on one side, in ℝ on the other);
* the **constant** a name resolved to (namespace variants), and, for two different constants,
  what the Mathlib declaration index says they are (:mod:`transted.pipeline.verdict.constants`).

Anything the elaboration cannot settle — no type at a node, an unsolved metavariable, an issue
(unknown name, ambiguous overload, missing instance …) at the node, inside it or on its path
from the root — makes the edit *untrusted*: the verdict falls back to the threshold.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from transted.errors import InputError
from transted.pipeline.opt.elaborate import MEANING_KINDS, Elaboration, Scope, elaborate, show
from transted.pipeline.opt.elaborate.result import NodeType, Path
from transted.pipeline.opt.elaborate.types import Ty
from transted.pipeline.opt.labels import EXPLICIT_MARK
from transted.pipeline.opt.names import Constant, load_name_table
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import binder_names
from transted.pipeline.verdict.constants import judge_constants
from transted.pipeline.verdict.edit_kinds import is_annotation
from transted.pipeline.verdict.header_names import Headers
from transted.reading.pairs import Side

__all__ = ["TypedSides", "Judgement", "SET_NOTATION_FOR_ORDER"]

Judgement = tuple[Literal["meaning", "presentational", "untrusted"], str]

SET_NOTATION_FOR_ORDER = frozenset({"Set", "Finset"})
"""The types the pinned Mathlib tags ``@[use_set_notation_for_order]`` among those the model
types (``PSet``/``ZFSet`` too, which it reads only by name)."""


@dataclass
class TypedSides:
    """The best goal's two sides, elaborated on demand under their headers' scopes."""

    reference: Node
    candidate: Node
    reference_scope: Scope | None = None
    candidate_scope: Scope | None = None
    headers: Headers | None = None
    """The two headers as written (names written alike must resolve alike under them)."""
    _done: dict[str, Elaboration | str] = field(default_factory=dict)
    _names: dict[str, set[str]] = field(default_factory=dict)

    def elaboration(self, side: Side) -> Elaboration | str:
        """The side's elaboration, or the reason it failed."""
        if side not in self._done:
            tree, scope = ((self.reference, self.reference_scope) if side == "reference"
                           else (self.candidate, self.candidate_scope))
            try:
                self._done[side] = elaborate(tree, scope)
            except Exception as e:  # noqa: BLE001 — a model failing abstains, never claims
                self._done[side] = f"elaboration failed: {type(e).__name__}: {e}"
        return self._done[side]

    def _typed(self, side: Side, path: Path, *, instance_at: Path | None = None
               ) -> NodeType | str:
        """The node's type, or why it is not known. ``instance_at``: an undecided instance at
        that node (an ancestor: the class it asks for does not type its operands) does not
        block."""
        el = self.elaboration(side)
        if isinstance(el, str):
            return el
        # an issue on the node's path from the root, inside it, or (for a binder's name) in
        # the binder's type makes its type unreliable
        scope = path[:-1] if path and is_annotation(el.node_at(path[:-1]).label) else path
        blocking = [i for i in el.issues
                    if (i.path[:len(scope)] == scope or path[:len(i.path)] == i.path)
                    and not (i.path == instance_at and i.kind == "undecided-instance")]
        if blocking:
            return f"{side}: {blocking[0]}"
        info = el.nodes.get(path)
        where = "/".join(map(str, path)) or "root"
        if info is None:
            return f"{side}: no type at {where}"
        shown = show(info.type) + " " + (show(info.coerced_to) if info.coerced_to else "")
        words = set(shown.replace("(", " ").replace(")", " ").split())
        if side not in self._names:
            self._names[side] = _unsettled(el)
        if "?" in shown or words & self._names[side]:
            return f"{side}: type not settled at {where} ({shown.strip()})"
        return info

    def same_type(self, ref_path: Path, cand_path: Path, *,
                  wrapper: tuple[Side, Path] | None = None) -> Judgement:
        """Whether the anchors at ``ref_path``/``cand_path`` have the same type on both sides,
        and (``wrapper``: a ``↑``/``(e : T)`` written on that side above its anchor) whether
        the wrapper's type is the other anchor's effective type."""
        ref, cand = self._typed("reference", ref_path), self._typed("candidate", cand_path)
        for got in (ref, cand):
            if isinstance(got, str):
                return "untrusted", got
        assert isinstance(ref, NodeType) and isinstance(cand, NodeType)
        if show(ref.type) != show(cand.type):
            return "meaning", f"the term has type {show(ref.type)} in the reference, " \
                              f"{show(cand.type)} in the candidate"
        if wrapper is None:
            if _effective(ref) != _effective(cand):
                return "meaning", f"Lean casts it to {_effective(ref)} in the reference, " \
                                  f"to {_effective(cand)} in the candidate"
            return "presentational", f"same elaborated type {show(ref.type)} on both sides"
        side, path = wrapper
        outer = self._typed(side, path)
        if isinstance(outer, str):
            return "untrusted", outer
        other = cand if side == "reference" else ref
        if _effective(outer) != _effective(other):
            return "meaning", f"the written cast gives {_effective(outer)}, the other side " \
                              f"has {_effective(other)}"
        return "presentational", f"Lean elaborates both sides to {_effective(other)} here"

    def same_order_relation(self, order_side: Side, order_path: Path) -> Judgement:
        """``⊆``/``⊂`` on one side where the other has ``≤``/``<`` (at ``order_path`` on
        ``order_side``): the same relation when the order's operands are sets or finsets.

        In the pinned Mathlib ``Set`` and ``Finset`` are tagged ``@[use_set_notation_for_order]``
        (Mathlib/Data/Set/Defs.lean:49, Mathlib/Data/Finset/Defs.lean), and the notation's
        elaborator (Mathlib/Tactic/SetNotationForOrder.lean) reads ``s ⊆ t`` there as
        ``s ≤ t`` and ``s ⊂ t`` as ``s < t``: one term. ``Multiset`` and ``List`` are not
        tagged (their ``≤`` is another relation); any other operand type keeps the relation
        table's judgement, and an operand the elaboration cannot type abstains. Whether the
        order's instance exists does not matter here (an undecided one at the node does not
        block): the question is only which relation the two notations name."""
        operand = self._typed(order_side, (*order_path, 0), instance_at=order_path)
        if isinstance(operand, str):
            return "untrusted", operand
        head = operand.type.head if isinstance(operand.type, Ty) else None
        if head in SET_NOTATION_FOR_ORDER:
            return "presentational", (f"on {head}, `⊆`/`⊂` elaborate to `≤`/`<` "
                                      "(@[use_set_notation_for_order]): the same relation")
        return "meaning", (f"`⊆`/`⊂` and `≤`/`<` are different relations on "
                           f"{show(operand.type)}")

    def effective_type_at(self, side: Side, path: Path) -> str | None:
        """The type the node at ``path`` is used at (after the coercion Lean inserts above
        it, if any), or None where the elaboration cannot settle it."""
        got = self._typed(side, path)
        return None if isinstance(got, str) else _effective(got)

    def same_constant(self, ref_path: Path, cand_path: Path) -> Judgement:
        """Whether two names resolve to the same constant under their headers, and, for two
        different constants, what the Mathlib index says they are."""
        ref = self.constant_at("reference", ref_path)
        cand = self.constant_at("candidate", cand_path)
        if ref is None or cand is None:
            return "untrusted", "a name was not resolved to a constant"
        if self._explicit("reference", ref_path) != self._explicit("candidate", cand_path):
            return "untrusted", (f"{ref} with and without @: the arguments fill other binders "
                                 "(ElabAppArgs.Context.explicit, Lean/Elab/App.lean)")
        if ref != cand:
            return judge_constants(ref, cand)  # type: ignore[return-value]
        return "presentational", f"both resolve to {ref}"

    def _explicit(self, side: Side, path: Path) -> bool:
        """Whether the name heading the node at ``path`` is written with ``@``."""
        el = self.elaboration(side)
        return not isinstance(el, str) and el.node_at(path).label.startswith(EXPLICIT_MARK)

    def constant_at(self, side: Side, path: Path) -> str | None:
        """The constant the name heading the node at ``path`` resolves to under the side's
        header (the elaboration's, else the name table's), or None: an issue that says the
        name is not what it looks like (unknown, ambiguous, auto-bound) at the node, or no
        unique constant. A gap of the type model does not matter here: which constant a name
        is, is the header's business alone."""
        el = self.elaboration(side)
        if isinstance(el, str):
            return None
        if any(i.path == path and i.kind in MEANING_KINDS for i in el.issues):
            return None
        info = el.nodes.get(path)
        if info is not None and info.constant is not None:
            return info.constant
        head = el.node_at(path).label.split(" ", 1)[0]
        if not head or not (head[0].isalpha() or head[0] == "_"):
            return None
        scope = self.reference_scope if side == "reference" else self.candidate_scope
        try:
            found = load_name_table().resolve(head, scope=scope)
        except InputError:
            return None
        return found.name if isinstance(found, Constant) and not found.fields else None


def _unsettled(el: Elaboration) -> set[str]:
    """Names whose own binder or occurrence carries an issue (an uninferred type …): a type
    that mentions one is not known."""
    out: set[str] = set()
    for issue in el.issues:
        node = el.node_at(issue.path)
        out |= {node.label} if node.is_leaf else set(binder_names(node))
    return out


def _effective(info: NodeType) -> str:
    return show(info.coerced_to if info.coerced_to is not None else info.type)

