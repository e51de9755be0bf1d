"""``binop%``/``binrel%`` trees: leaves at their own type, one maximal type, coercions at leaves.

Lean core ``src/Lean/Elab/Extra.lean`` (namespace ``Lean.Elab.Term.Op``), followed step by step:

1. ``toTree``: descend through ``binop%`` (``+ - * / %``), ``unop%`` (``-x``), ``rightact%``
   (``^``: only the base participates; the exponent is a leaf of its own) and parentheses;
   everything else is a leaf, elaborated *without* an expected type (``processLeaf``:
   ``elabTerm s none``). So ``∑ k ∈ range 4, k / 2`` next to ``x : ℝ`` is a leaf computed in ℕ.
2. ``analyze``: the maximal type of the leaves' known types (a type is smaller when a coercion
   goes from it to the other); ``binop%`` starts from the expected type, ``binrel%``
   (``= ≠ < ≤ > ≥``, ``Init/Notation.lean``/``Init/Core.lean`` macro_rules) does not. Two types
   with no coercion either way are *uncomparable*: no coercion is inserted.
3. ``applyCoe``: a leaf of unknown type (a numeral, ``↑x``, an untyped binder) is unified with
   the maximal type; a leaf of another type gets ``↑`` to it. An operator with no homogeneous
   instance at the maximal type (``hasHomogeneousInstance``: ``HMod ℝ ℝ ℝ`` does not exist)
   is elaborated apart.

The exponent of ``^`` with an unknown type becomes ℕ: Mathlib's ``Monoid.toPow`` is a
``@[default_instance high]`` (``Mathlib/Algebra/Group/Defs.lean``), so ``x ^ (1 / 2)`` is
``x ^ 0`` (and ``x ^ (-1)`` needs ``Neg ℕ``: high beats ``instNegInt``'s mid). A tree with a
negation whose type nothing fixes is ℤ: ``@[default_instance mid] instNegInt`` (Lean core
src/Init/Data/Int/Basic.lean) outranks the numerals' ``OfNat ℕ`` (low), so ``2 - 5 = -3`` and
``∃ x, -x = 3`` are statements about ℤ.
"""

from __future__ import annotations

from transted.pipeline.opt.elaborate.result import Path
from transted.pipeline.opt.elaborate.state import ElaborationState, Env
from transted.pipeline.opt.elaborate.types import PROP, Meta, Ty, Type_, coe_known, has_coe, show
from transted.pipeline.opt.node import SLOT, Node

__all__ = ["BINOPS", "UNOPS", "POW", "RELATIONS", "is_arithmetic_operator", "op_tree",
           "binrel"]

S = SLOT
BINOPS = {f"{S} + {S}": "Add", f"{S} - {S}": "Sub", f"{S} * {S}": "Mul", f"{S} / {S}": "Div",
          f"{S} % {S}": "Mod"}
UNOPS = {f"-{S}": "Neg"}
POW = f"{S} ^ {S}"
RELATIONS = {f"{S} = {S}": None, f"{S} ≠ {S}": None, f"{S} < {S}": "LT", f"{S} ≤ {S}": "LE",
             f"{S} > {S}": "LT", f"{S} ≥ {S}": "LE"}

_Leaf = tuple[Node, Path]
_Op = tuple[Node, Path, str]


def is_arithmetic_operator(label: str) -> bool:
    """A ``binop%`` (``+ - * / %``), ``unop%`` (``-x``) or ``rightact%`` (``^``) label."""
    return label in BINOPS or label in UNOPS or label == POW


def _collect(node: Node, path: Path, leaves: list[_Leaf], ops: list[_Op],
             exponents: dict[Path, _Leaf]) -> None:
    """The operator nodes and the leaves (left to right) of the tree at ``node``; iterative,
    since a long ``a + b + c + …`` chain is as deep as it is long."""
    stack: list[tuple[Node, Path]] = [(node, path)]
    while stack:
        current, p = stack.pop()
        label = current.label
        if label in BINOPS or label in UNOPS:
            ops.append((current, p, BINOPS.get(label) or UNOPS[label]))
            stack.extend(reversed([(c, (*p, i)) for i, c in enumerate(current.children)]))
        elif label == POW:
            ops.append((current, p, "Pow"))
            exponents[p] = (current.children[1], (*p, 1))
            stack.append((current.children[0], (*p, 0)))
        else:
            leaves.append((current, p))


def op_tree(el: ElaborationState, node: Node, path: Path, env: Env, expected: Type_ | None) -> Type_:
    """Elaborate a ``binop%`` tree rooted at ``node``; returns its type."""
    leaves: list[_Leaf] = []
    ops: list[_Op] = []
    exponents: dict[Path, _Leaf] = {}
    _collect(node, path, leaves, ops, exponents)
    types = [el.elab(leaf, p, env, None) for leaf, p in leaves]
    expected = el.known(expected)
    result = _unify_tree(el, leaves, types, ops, expected)
    if result is None:  # the root operator has no instance at the expected type: apart
        result = _unify_tree(el, leaves, types, ops, None)
        assert result is not None
    _finish(el, ops, exponents, env, result)
    return result


def binrel(el: ElaborationState, node: Node, path: Path, env: Env) -> Type_:
    """Elaborate ``a R b`` for a ``binrel%`` relation: one tree over both sides, no expected
    type (``elabBinRelCore``: ``analyze tree none``); the relation's class (``LT``/``LE``) is
    required at the sides' type."""
    leaves: list[_Leaf] = []
    ops: list[_Op] = []
    exponents: dict[Path, _Leaf] = {}
    for i, side in enumerate(node.children):
        _collect(side, (*path, i), leaves, ops, exponents)
    types = [el.elab(leaf, p, env, None) for leaf, p in leaves]
    result = _unify_tree(el, leaves, types, ops, None)
    assert result is not None
    _finish(el, ops, exponents, env, result)
    cls = RELATIONS[node.label]
    if cls is not None:
        el.require(cls, result, path)
    return PROP


def _finish(el: ElaborationState, ops: list[_Op], exponents: dict[Path, _Leaf], env: Env,
            result: Type_) -> None:
    """Type the operator nodes, elaborate the exponents, record the instances required."""
    for _node, p, cls in ops:
        el.types[p] = result
        if cls == "Pow":
            exponent, ep = exponents[p]
            t = el.elab(exponent, ep, env, None)
            if isinstance(el.metas.resolve(t), Meta):
                el.metas.unify(t, Ty("ℕ"))  # Monoid.toPow, @[default_instance high]
            el.require_pow(result, t, p)
        else:
            if cls == "Neg":  # `instNegInt` is the default instance of `Neg` (priority mid)
                el.metas.mark(result, "negated")
            el.require(cls, result, p)


def _max_type(el: ElaborationState, types: list[Type_], start: Type_ | None) -> tuple[Type_ | None, bool]:
    """``analyze``: the maximal known type and whether two types were uncomparable."""
    best = start
    for t in types:
        t = el.metas.zonk(t)  # `Subgroup ?α` with ?α solved is `Subgroup G`
        if isinstance(t, Meta):
            continue
        if best is None or t == best:
            best = best if best is not None else t
            continue
        into_best = has_coe(t, best) or el.coerces(t, best)  # `hasCoe type max` first
        if into_best:
            continue
        if into_best is False and (has_coe(best, t) or el.coerces(best, t)):
            best = t
        else:
            return best, True
    return best, False


def _unify_tree(el: ElaborationState, leaves: list[_Leaf], types: list[Type_], ops: list[_Op],
                expected: Type_ | None) -> Type_ | None:
    """``applyCoe`` at the maximal type; None when the root operator has no homogeneous
    instance at a maximal type that came from ``expected`` (the caller retries without)."""
    best, uncomparable = _max_type(el, types, expected)
    if uncomparable:
        outside = [(p, el.metas.zonk(t)) for (_leaf, p), t in zip(leaves, types, strict=True)
                   if not el.metas.unknown(t) and coe_known(el.metas.zonk(t),
                                                            el.metas.zonk(t)) is None]
        if outside:  # a type the coercion tables do not know: Lean may find a coercion
            p, t = outside[0]
            el.issue("undecided-instance", p, f"coercions between {show(t)} and the other "
                     "operands: a type the tables do not know")
            return el.metas.fresh()
    if uncomparable or best is None:
        shared = types[0]
        for (_leaf, p), t in zip(leaves[1:], types[1:], strict=True):
            if el.metas.unify(shared, t):
                continue
            a, b = el.metas.zonk(shared), el.metas.zonk(t)
            if coe_known(a, b) is None or coe_known(b, a) is None:
                el.issue("undecided-instance", p, f"coercion between {show(a)} and {show(b)}: "
                         "a type the tables do not know")
            else:
                el.issue("type-mismatch", p, f"operands of types {show(a)} and {show(b)} "
                         "have no coercion between them")
        return shared
    assert isinstance(best, Ty)
    root = ops[0] if ops else None
    if (root is not None and root[2] not in ("Pow", "Neg") and expected is not None
            and expected == best and el.tables.instances.has_instance(root[2], best, el.scope.scoped) is False):
        return None  # an inner operator without the instance is reported by its obligation
    for (_leaf, p), t in zip(leaves, types, strict=True):
        if el.metas.unify(t, best):
            continue
        leaf = el.metas.zonk(t)
        known = has_coe(leaf, best) or el.coerces(leaf, best)
        if known:
            el.coercions[p] = best
        elif known is None:
            el.issue("undecided-instance", p, f"coercion {show(leaf)} → {show(best)}: a "
                     "type the tables do not know")
        else:
            el.issue("type-mismatch", p, f"{show(el.metas.zonk(t))} has no coercion to "
                     f"{show(best)}")
    return best
