"""Names as Lean resolves them: locals, notations, the header's namespaces, overloads, fields.

Lean core ``src/Lean/Elab/App.lean`` / ``BuiltinNotation.lean`` and the name table's port of
``ResolveName.resolveGlobalName`` (docs/NAMES.md), step by step:

* a notation written as a name (``π``, ``rexp``) is the constant it abbreviates when the
  header makes it active (``scoped notation "π" => Real.pi`` needs ``open Real`` or
  ``open scoped Real``); otherwise Lean reads an identifier;
* a Mathlib notation symbol the parser reads as a name (``𝓝``, ``∞``) is a notation the model
  does not type (``unsupported``), never an auto-bound variable;
* an identifier resolves through the header (current namespace, ``open`` lines, exports;
  ``protected`` names are never reached by a short name); a structure, class or inductive
  applied to types is a type;
* several candidates are an overload: Lean elaborates each and keeps the ones that succeed
  (``elabAppAux``: one → it, several → "ambiguous, possible interpretations", none → error).
  The model drops a candidate only when it certainly fails (:mod:`~.overloads`: too many
  arguments for a proposition or a type, an argument with no coercion to its parameter's type);
  one left is the resolution (recorded with why), several stay ``ambiguous`` (abstain);
* ``@f`` (label ``@f``, :data:`~transted.pipeline.opt.labels.EXPLICIT_MARK`) makes every binder
  explicit: its arguments are not typed (``unsupported``), only which constant it is;
* an unknown atomic identifier is an auto-bound implicit when ``autoImplicit`` is on (any name
  with ``relaxedAutoImplicit``, else one letter then digits/subscripts/``_``/``'``:
  ``isValidAutoBoundImplicitName``, ``src/Lean/Elab/AutoBound.lean``), else an error;
* ``x.f a`` (generalized field notation, label ``<SLOT>.f <SLOT>``) is ``T.f`` with ``x`` as its
  first explicit argument of type ``T`` when ``x : T …``.
"""

from __future__ import annotations

import re

from transted.pipeline.opt.elaborate import overloads
from transted.pipeline.opt.elaborate.overloads import split_explicit
from transted.pipeline.opt.elaborate.result import Path
from transted.pipeline.opt.elaborate.signatures import NAMED_NOTATIONS
from transted.pipeline.opt.elaborate.state import ElaborationState, Env
from transted.pipeline.opt.elaborate.tables import is_identifier
from transted.pipeline.opt.elaborate.type_nodes import type_of_node
from transted.pipeline.opt.elaborate.types import SORT, MetaStore, Ty, Type_, show
from transted.pipeline.opt.labels import (
    FIELD_APPLICATION,
    INSTANCE_BINDER,
    NAMED_INSTANCE_BINDER,
    SLOT,
)
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import binder_names, head_name

__all__ = ["FIELD", "name", "field", "instance_binder", "auto_bound_types", "structure_type",
           "TYPE_NAMESPACES"]

FIELD = FIELD_APPLICATION
"""Generalized field notation ``x.f a …`` as the parser labels it: ``<SLOT>.f <SLOT> …``."""
_AUTO_SUFFIX = re.compile(r"^[0-9₀-₉ₐ-ₜ_']*$")
TYPE_NAMESPACES = {"ℕ": "Nat", "ℤ": "Int", "ℚ": "Rat", "ℝ": "Real", "ℂ": "Complex",
                   "Finset": "Finset", "Set": "Set", "ℕ+": "PNat", "NNReal": "NNReal",
                   "List": "List", "Multiset": "Multiset", "Polynomial": "Polynomial"}
_TYPE_KINDS = frozenset({"structure", "class", "inductive"})


def name(el: ElaborationState, node: Node, path: Path, env: Env, expected: Type_ | None,
         head: str | None = None) -> Type_:
    """A leaf name (``head`` None) or an application ``head a …`` of a name not bound locally."""
    ident, explicit = split_explicit(node.label if head is None else head)
    if explicit:
        return overloads.explicit(el, ident, node, path, env)
    notation = NAMED_NOTATIONS.get(ident)
    if notation is not None and el.scope.notation_active(notation.scope):
        return el.constant(notation.function, node, path, env, expected)
    if ident in el.auto_bound:
        return _apply_unknown(el, node, path, env, el.auto_bound[ident])
    if not is_identifier(ident):
        el.issue("unsupported", path, f"{ident!r} is not modelled", ident)
        el.elab_children(node, path, env)
        return el.metas.fresh()
    if el.tables.names.notation_symbol(ident, el.scope):
        el.issue("unsupported", path, f"{ident} is a Mathlib notation the model does not type",
                 ident)
        el.elab_children(node, path, env)
        return el.metas.fresh()
    found = el.tables.names.resolve(ident, el.scope)
    if found.status == "resolved":
        return _resolved(el, found.candidates[0], found.kinds[0] if found.kinds else "",
                         found.fields, node, path, env, expected)
    if found.status == "ambiguous":
        return overloads.overloaded(el, ident, found.candidates, node, path, env, expected)
    why = found.reason
    if notation is not None:  # an inactive scoped notation: Lean reads an identifier
        why = (f"{ident} is notation scoped in {notation.scope}, which the header does not "
               "open")
    el.elab_children(node, path, env)
    return _unresolved(el, ident, path, why)


def _resolved(el: ElaborationState, full: str, kind: str, fields: tuple[str, ...], node: Node,
              path: Path, env: Env, expected: Type_ | None) -> Type_:
    if fields:
        el.constants[path] = full
        if kind in _TYPE_KINDS:  # `Nat.prime`: no such constant, and a type has no fields
            el.issue("unknown-name", path, f"unknown constant {full}.{'.'.join(fields)}",
                     f"{full}.{'.'.join(fields)}")
        else:
            el.issue("unsupported", path, f"field access .{'.'.join(fields)} on {full}", full)
        el.elab_children(node, path, env)
        return el.metas.fresh()
    if kind in _TYPE_KINDS and el.tables.signatures.signature(full) is None:
        # a structure/class/inductive applied: a type (`Subgroup G`) or a proposition
        # (`Continuous f`, `Irreducible p` are Prop-valued structures); the table cannot say
        el.constants[path] = full
        el.issue("unsupported", path, f"{full} is a {kind} whose type is not in the "
                 f"signature table ({el.tables.signatures.why_not(full)})", full)
        el.elab_children(node, path, env)
        return el.metas.fresh()
    return el.constant(full, node, path, env, expected)


def _apply_unknown(el: ElaborationState, node: Node, path: Path, env: Env, ty: Type_) -> Type_:
    """An auto-bound name (already reported) applied to arguments: the arguments elaborate,
    the result is not known."""
    if node.children:
        el.elab_children(node, path, env)
        return el.metas.fresh()
    return ty


def _unresolved(el: ElaborationState, ident: str, path: Path, why: str) -> Type_:
    valid = "." not in ident and (el.scope.relaxed_auto_implicit
                                  or (ident[:1].isalpha() and bool(_AUTO_SUFFIX.match(ident[1:]))))
    if el.scope.auto_implicit and valid:
        el.auto_bound[ident] = el.metas.fresh()
        el.issue("auto-bound", path, f"{ident} is not a known constant ({why}): Lean binds it "
                 "as an implicit argument of unknown meaning", ident)
        return el.auto_bound[ident]
    el.issue("unknown-name", path, f"unknown identifier {ident} ({why})", ident)
    return el.metas.fresh()


def field(el: ElaborationState, node: Node, path: Path, env: Env, expected: Type_ | None) -> Type_:
    """``x.f a …``: ``T.f`` with ``x`` as its first explicit argument of type ``T``."""
    m = FIELD.match(node.label)
    assert m is not None
    fname = m.group(1)
    receiver = el.metas.zonk(el.elab(node.children[0], (*path, 0), env, None))
    namespace = TYPE_NAMESPACES.get(receiver.head) if isinstance(receiver, Ty) else None
    if isinstance(receiver, Ty) and namespace is None and is_identifier(receiver.head):
        namespace = receiver.head  # an opaque structure type (`Subgroup G` → Subgroup)
    if namespace is None:
        el.issue("unsupported", path, f"field {fname} of a value of type {show(receiver)}",
                 fname)
        el.elab_children(node, path, env, 1)
        return el.metas.fresh()
    full = f"{namespace}.{fname}"
    sig = el.tables.signatures.signature(full)
    if sig is None:
        known = el.tables.names.resolve(full, el.scope)
        if known.status == "resolved" and not known.fields:
            el.constants[path] = full
        el.issue("unsupported", path, f"{el.tables.signatures.why_not(full)} (dot notation on "
                 "a type the model reads only by name)", full)
        el.elab_children(node, path, env, 1)
        return el.metas.fresh()
    assert isinstance(receiver, Ty)
    heads = sig.argument_heads
    slot = next((i for i, h in enumerate(heads) if h == receiver.head), 0)
    args = list(node.children[1:])
    args.insert(slot, node.children[0])
    # the receiver's path stays (…, 0): the reordered call is typed, then its types are
    # recorded at the original children's paths
    trial = Node(full + f" {SLOT}" * len(args), tuple(args))
    order = list(range(1, len(node.children)))
    order.insert(slot, 0)
    el.receivers[path] = slot
    return _reordered(el, full, trial, order, path, env, expected)


def _reordered(el: ElaborationState, full: str, call: Node, order: list[int], path: Path, env: Env,
               expected: Type_ | None) -> Type_:
    """Elaborate ``call`` (the children of the field node reordered by ``order``) and file
    each argument's type and coercion under its path in the original node."""
    scratch = el.spawn()
    result = scratch.constant(full, call, path, env, expected)
    el.metas = scratch.metas
    el.auto_bound = scratch.auto_bound
    renumber = {i: order[i] for i in range(len(order))}
    for p, t in scratch.types.items():
        el.types[_moved(p, path, renumber)] = t
    for p, t in scratch.coercions.items():
        el.coercions[_moved(p, path, renumber)] = t
    for p, c in scratch.constants.items():
        el.constants[_moved(p, path, renumber)] = c
    for p, choice in scratch.overloads.items():
        el.overloads[_moved(p, path, renumber)] = choice
    el.issues += [type(i)(i.kind, _moved(i.path, path, renumber), i.message, i.name)
                  for i in scratch.issues]
    el.obligations += [(c, t, _moved(p, path, renumber)) for c, t, p in scratch.obligations]
    el.pow_obligations += [(b, e, _moved(p, path, renumber))
                           for b, e, p in scratch.pow_obligations]
    el.arrows += [(_moved(p, path, renumber), a, b) for p, a, b in scratch.arrows]
    el.binder_metas += [(_moved(p, path, renumber), n, m) for p, n, m in scratch.binder_metas]
    return result


def _moved(p: Path, base: Path, renumber: dict[int, int]) -> Path:
    if len(p) > len(base) and p[:len(base)] == base:
        return (*base, renumber.get(p[len(base)], p[len(base)]), *p[len(base) + 1:])
    return p


def instance_binder(el: ElaborationState, cls_node: Node, env: Env) -> bool:
    """``[C α …]`` (or the premise ``C α →`` of the proposition form) when ``C`` is a class:
    record the local instance (the class's full name at its arguments, when each reads as a
    type); True if it was one."""
    head = head_name(cls_node.label, len(cls_node.children)) if cls_node.children else None
    if head is None:
        return False
    found = el.tables.names.resolve(head, el.scope)
    if found.status != "resolved" or not found.kinds or found.kinds[0] != "class":
        return False
    args = [type_of_node(c, env) or structure_type(el, c, None, env) for c in cls_node.children]
    if all(a is not None for a in args):
        el.local_instances.append((found.candidates[0], tuple(a for a in args if a is not None)))
    return True


def auto_bound_types(el: ElaborationState, items: list[tuple[bool, Node]], env: Env) -> Env:
    """Unbound names an instance binder passes where its class takes a type (``[Group G]``
    with no ``G`` in scope): Lean auto-binds them (``autoImplicit``, src/Lean/Elab/AutoBound.lean)
    as the statement's first implicit binders, ``G : Sort u_1`` unified with the class's
    parameter type — a type variable. ``items`` are the statement's binders and premises in
    order (True for a binder node, False for a premise). Returns ``env`` with them bound,
    each reported as ``auto-bound``."""
    out = dict(env)
    bound: set[str] = set(env)
    for is_binder, node in items:
        if is_binder and node.label in (INSTANCE_BINDER, NAMED_INSTANCE_BINDER):
            cls_node = node.children[-1]
        elif is_binder:
            bound.update(binder_names(node))
            continue
        elif _is_class_premise(el, node):
            cls_node = node
        else:
            continue
        for name, universe in _type_arguments_unbound(el, cls_node, bound):
            if el.auto_sorts.get(name) != "Type":  # `Sort ?u` unified with `Type v`: a Type
                el.auto_sorts[name] = universe
            if name not in out:
                out[name] = SORT
                el.issue("auto-bound", (), f"{name} is not a known constant: Lean binds it "
                         "as an implicit argument, a type (a class takes it as a type here)",
                         name)
    return out


def _is_class_premise(el: ElaborationState, node: Node) -> bool:
    head = head_name(node.label, len(node.children)) if node.children else None
    if head is None:
        return False
    found = el.tables.names.resolve(head, el.scope)
    return found.status == "resolved" and bool(found.kinds) and found.kinds[0] == "class"


def _type_arguments_unbound(el: ElaborationState, cls_node: Node, bound: set[str]
                            ) -> list[tuple[str, str]]:
    """Leaf arguments of the class application ``cls_node`` that nothing binds, that do not
    resolve, and that Lean may auto-bind, at positions where the class takes a type; each with
    the universe the class declares there (``Type`` or ``Sort``)."""
    head = head_name(cls_node.label, len(cls_node.children)) if cls_node.children else None
    if head is None or not el.scope.auto_implicit:
        return []
    found = el.tables.names.resolve(head, el.scope)
    sig = el.tables.signatures.signature(found.candidates[0]) \
        if found.status == "resolved" else None
    if sig is None:
        return []
    params = sig.instantiate(MetaStore().fresh).params
    out = []
    for arg, param in zip(cls_node.children, params, strict=False):
        if (param.stands_for is None or not arg.is_leaf or arg.label in bound
                or type_of_node(arg, {}) is not None or not _auto_bindable(el, arg.label)):
            continue
        if el.tables.names.resolve(arg.label, el.scope).status == "unknown":
            out.append((arg.label, param.universe or "Sort"))
    return out


def _auto_bindable(el: ElaborationState, ident: str) -> bool:
    return is_identifier(ident) and "." not in ident and (
        el.scope.relaxed_auto_implicit
        or (ident[:1].isalpha() and bool(_AUTO_SUFFIX.match(ident[1:]))))


def _coerced(node: Node, env: Env) -> Ty:
    """An argument of a type former that is not a type: a local of a structure type is the
    type of its elements (``Subring B`` with ``B : Subring A`` is over ``↥B``, Mathlib's
    ``SetLike`` ``CoeSort``), anything else an opaque type by its text."""
    local = env.get(node.label) if node.is_leaf else None
    if isinstance(local, Ty) and local not in (SORT,) and local.head != "→":
        return Ty(f"↥{node.label}")
    return Ty(str(node))


def structure_type(el: ElaborationState, node: Node, path: Path | None, env: Env) -> Ty | None:
    """``Subgroup G``, ``Ideal R``, ``Polynomial ℝ`` written as a type: a structure, class or
    inductive of the name table (one the tables do not know to be ``Prop``-valued:
    ``Continuous f`` is a proposition), or a definition the tables know to be a type former,
    applied to arguments, as an opaque :class:`Ty` (None if it is not one); its constant is
    recorded at ``path``."""
    head = node.label if node.is_leaf else head_name(node.label, len(node.children))
    if head is None or not is_identifier(head):
        return None
    found = el.tables.names.resolve(head, el.scope)
    if found.status != "resolved" or not found.kinds:
        return None
    former = el.tables.signatures.former(found.candidates[0])
    if former is False or (former is None and found.kinds[0] not in _TYPE_KINDS):
        return None
    args = [type_of_node(c, env) or _coerced(c, env) for c in node.children]
    if path is not None:
        el.constants[path] = found.candidates[0]
    return Ty(found.candidates[0], tuple(args))
