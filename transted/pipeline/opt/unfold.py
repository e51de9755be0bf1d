"""δ-unfolding of the context's definitions in a statement's tree, and the constants kept.

A name in the statement that resolves — as Lean resolves it (:mod:`transted.pipeline.opt.names`:
enclosing namespaces, then the root name with every ``open``) — to exactly one definition
of the context is replaced by that definition's value with the arguments put for its
parameters (``Lean.Meta.unfoldDefinition?``/``delta?``: the proposition is unchanged up to
definitional equality). Soundness rules:

* the value keeps the elaborated meaning: a typed definition unfolds to ``(value : T)``
  (``Prop`` needs no ascription); an untyped one only when its value is a proposition (a
  relation, connective or quantifier at the root, which elaborates the same under any expected
  type), otherwise it is kept (``7 / 2`` alone is a ``ℕ``, under ``(x : ℝ) = c`` it would not be);
* an argument is ascribed its parameter's type (``(n : ℝ)`` keeps the coercion Lean inserts),
  unless it is a bound variable, or a bound function applied, whose declared type is that type;
  implicit and instance parameters become holes ``_`` (Lean infers them);
* a partial application becomes ``fun`` over the missing explicit parameters; extra arguments
  are applied to the value (β-reduced when it is a ``fun`` over names);
* not unfolded, only compared (:func:`compare_definitions`): recursive and pattern-matching
  definitions, ``partial``/``unsafe`` ones, ``where`` clauses, structures, classes, inductive
  types, axioms, opaque constants and instances; and **abstained** (kept and reported) when
  the name could resolve elsewhere: an ambiguous overload with an ``open``ed namespace, or a
  name Mathlib itself declares (Lean would refuse the redeclaration).

Generalized field notation on a definition (``Rl.IsOpen U`` with ``def Rl``) unfolds the
receiver and applies the field to it first, the parser's reading of ``x.f a`` on a bound ``x``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial

from transted.errors import InputError, ResourceLimitError
from transted.pipeline.opt.context import Context, Definition
from transted.pipeline.opt.labels import (
    ARROW,
    ASCRIPTION,
    FIELD_APPLICATION,
    FORALL,
    FUN,
    SLOT,
)
from transted.pipeline.opt.names import Ambiguous, Constant, load_name_table
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.parser import app_node, field_node
from transted.pipeline.opt.scope import (
    binder_names,
    binder_node,
    binder_type,
    bound_name,
    child_scopes,
    free_names,
    has_pattern,
    head_name,
)
from transted.pipeline.opt.substitution import fresh_name, substitute

__all__ = ["Unfolding", "unfold", "rename_constants", "definition_tree", "make_resolver",
           "MAX_ROUNDS", "MAX_SIZE", "Resolver"]

MAX_ROUNDS = 16
"""Unfolding passes (a value may mention other definitions); the context is acyclic."""
MAX_SIZE = 20_000
"""Nodes an unfolded tree may reach; past it the remaining names are kept."""
MAX_DEPTH = 500
_UNIVERSES = ("Type", "Sort", "Type*", "Sort*", "Prop")
Resolver = Callable[[str], "tuple[Definition | None, tuple[str, ...], str | None]"]


@dataclass
class Unfolding:
    """What :func:`unfold` did: the definitions unfolded, the ones kept (full name → the
    spellings that name them in the tree) and the names it abstained on, with why."""

    unfolded: list[str] = field(default_factory=list)
    kept: dict[str, set[str]] = field(default_factory=dict)
    abstained: dict[str, str] = field(default_factory=dict)


def unfold(tree: Node, context: Context, resolve: Resolver,
           keep: frozenset[str] = frozenset()) -> tuple[Node, Unfolding]:
    """``tree`` with the context's unfoldable definitions unfolded (see the module docstring),
    except those named in ``keep`` (full names: a definition both sides of a pair share).

    ``resolve(name)`` gives ``(definition or None, fields, why-abstained or None)`` for a name
    as written in the tree.
    """
    report = Unfolding()
    if not context.definitions:
        return tree, report
    for _ in range(MAX_ROUNDS):
        round_ = Unfolding()
        new = _rebuild(tree, partial(_occurrence, resolve=resolve, report=round_, keep=keep),
                       {}, 0)
        if new.size() > MAX_SIZE:
            report.abstained["*"] = f"unfolding stopped: the tree would exceed {MAX_SIZE} nodes"
            _merge(report, round_, unfolded=False)
            return tree, report
        _merge(report, round_, unfolded=True)
        if new == tree:
            break
        tree = new
    return tree, report


def _merge(into: Unfolding, round_: Unfolding, *, unfolded: bool) -> None:
    if unfolded:
        into.unfolded += [n for n in round_.unfolded if n not in into.unfolded]
    for name, spellings in round_.kept.items():
        into.kept.setdefault(name, set()).update(spellings)
    into.abstained.update(round_.abstained)


def _rebuild(node: Node, visit: Callable[[Node, dict[str, Node | None]], Node],
             env: dict[str, Node | None], depth: int) -> Node:
    """Post-order rebuild; ``visit`` sees each non-binder node with the bound names' types."""
    if depth > MAX_DEPTH:
        raise ResourceLimitError(f"statement tree deeper than {MAX_DEPTH} levels")
    if node.is_leaf:
        return visit(node, env)
    kids = []
    for child, (binders, is_binder) in zip(node.children, child_scopes(node), strict=True):
        inner = env
        if binders:
            inner = dict(env)
            for b in binders:
                typ = binder_type(b)
                inner.update({n: typ for n in binder_names(b)})
        if is_binder:
            typ = binder_type(child)
            if typ is not None and not child.is_leaf:
                child = child.with_children(child.children[:-1]
                                            + (_rebuild(typ, visit, inner, depth + 1),))
            kids.append(child)
        else:
            kids.append(_rebuild(child, visit, inner, depth + 1))
    rebuilt = node if tuple(kids) == node.children else node.with_children(tuple(kids))
    return visit(rebuilt, env)


def _occurrence(node: Node, env: dict[str, Node | None], *, resolve: Resolver,
                report: Unfolding, keep: frozenset[str]) -> Node:
    name = node.label if node.is_leaf else head_name(node.label, len(node.children))
    if name is None:
        return _field_call(node, env, resolve=resolve, report=report, keep=keep)
    if name in env or name == "_" or name[0].isdigit():
        return node
    definition, fields, abstain = resolve(name)
    if definition is None:
        if abstain is not None:
            report.abstained[name] = abstain
        return node
    args = list(node.children)
    if definition.kept_because is not None or abstain is not None or \
            definition.full_name in keep:
        report.kept.setdefault(definition.full_name, set()).add(name)
        if abstain is not None:
            report.abstained[name] = abstain
        return node
    value = _instantiate(definition, args if not fields else [], env)
    if definition.full_name not in report.unfolded:
        report.unfolded.append(definition.full_name)
    if fields:  # `d.f a b` on a definition `d`: field notation on the unfolded receiver
        out = value
        for f in fields:
            out = field_node(out, f)
        return app_node(out, args) if args else out
    return value


def _field_call(node: Node, env: dict[str, Node | None], *, resolve: Resolver,
                report: Unfolding, keep: frozenset[str]) -> Node:
    """``x.f a`` on a bound ``x : C …`` where the context defines ``C.f``: Lean's generalized
    field notation (Lean.Elab.App, ``addLValArg``) passes ``x`` as the first explicit parameter
    whose type is ``C …``; unfolded when that is ``C.f``'s first explicit parameter."""
    match = FIELD_APPLICATION.match(node.label)
    receiver_type = _known_type(node.children[0], env) if match else None
    if match is None or receiver_type is None:
        return node
    head = receiver_type.label if receiver_type.is_leaf else \
        head_name(receiver_type.label, len(receiver_type.children))
    if head is None or head in env:
        return node
    definition, fields, abstain = resolve(f"{head}.{match.group(1)}")
    explicit = definition.explicit if definition is not None else []
    first = explicit[0][1] if explicit else None
    if definition is None or fields or abstain is not None or first is None or \
            (first.label if first.is_leaf else head_name(first.label, len(first.children))) != head:
        return node
    if definition.kept_because is not None or definition.full_name in keep:
        report.kept.setdefault(definition.full_name, set()).add(f"{head}.{match.group(1)}")
        return node
    if definition.full_name not in report.unfolded:
        report.unfolded.append(definition.full_name)
    return _instantiate(definition, list(node.children), env)


def _instantiate(d: Definition, args: list[Node], env: dict[str, Node | None]) -> Node:
    assert d.value is not None
    explicit = d.explicit
    avoid = set().union(*(free_names(a) for a in args)) | {n for n, _ in explicit} | set(env)
    value, ty = d.value, d.type
    params: list[tuple[str, Node | None]] = []
    for name, ptype in explicit:  # fresh names first: the substitution is then simultaneous
        fresh = fresh_name(name + "✝", avoid)
        avoid.add(fresh)
        value = substitute(value, name, Node(fresh))
        ty = substitute(ty, name, Node(fresh)) if ty is not None else None
        params.append((fresh, ptype))
    for name in d.implicit:
        value = substitute(value, name, Node("_"))
        ty = substitute(ty, name, Node("_")) if ty is not None else None
        params = [(n, substitute(t, name, Node("_")) if t is not None else None)
                  for n, t in params]
    given = params[:len(args)]
    for (fresh, ptype), arg in zip(given, args, strict=False):
        value = substitute(value, fresh, _ascribed(arg, ptype, env))
        ty = substitute(ty, fresh, arg) if ty is not None else None
        params = [(n, substitute(t, fresh, arg) if t is not None else None) for n, t in params]
    if ty is not None and ty.label != "Prop":
        value = Node(ASCRIPTION, (value, ty))
    for fresh, ptype in reversed(params[len(args):]):
        value = Node(FUN, (binder_node([fresh], ptype if _typed(ptype) else None), value))
    for extra in args[len(params):]:
        value = _apply(value, extra)
    return value


def _typed(ptype: Node | None) -> bool:
    return ptype is not None and ptype.label != "_"


def _ascribed(arg: Node, ptype: Node | None, env: dict[str, Node | None]) -> Node:
    """``(arg : ptype)`` unless the argument's own type is that type, or a universe."""
    if not _typed(ptype) or ptype is None or ptype.label in _UNIVERSES or \
            ptype.label.startswith(("Type ", "Sort ")):
        return arg
    own = _known_type(arg, env)
    if own is not None and _same_type(own, ptype):
        return arg
    return Node(ASCRIPTION, (arg, ptype))


def _known_type(arg: Node, env: dict[str, Node | None]) -> Node | None:
    """The declared type of a bound variable, or of a bound function applied to arguments
    (``T i`` with ``T : I → Set X`` is a ``Set X``)."""
    if arg.is_leaf:
        return env.get(arg.label)
    head = head_name(arg.label, len(arg.children))
    typ = env.get(head) if head is not None else None
    for _ in arg.children:
        if typ is None or typ.label != ARROW:
            return None
        typ = typ.children[1]
    return typ


def _same_type(a: Node, b: Node) -> bool:
    """Syntactic equality, a hole ``_`` matching anything."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x.label == "_" or y.label == "_":
            continue
        if x.label != y.label or len(x.children) != len(y.children):
            return False
        stack.extend(zip(x.children, y.children, strict=True))
    return True


def _apply(value: Node, arg: Node) -> Node:
    if value.label == FUN and not has_pattern(value.children[0]):
        name = bound_name(value.children[0])
        return value.children[1] if name is None else substitute(value.children[1], name, arg)
    return Node(f"{SLOT} {SLOT}", (value, arg))


def rename_constants(tree: Node, spellings: dict[str, str]) -> Node:
    """``tree`` with each free leaf or application head spelled as a key of ``spellings``
    renamed to its value (a candidate's own ``f`` that differs from the reference's becomes
    ``f′``)."""
    if not spellings:
        return tree

    def visit(node: Node, env: dict[str, Node | None]) -> Node:
        if node.is_leaf:
            new = spellings.get(node.label) if node.label not in env else None
            return Node(new) if new else node
        head = head_name(node.label, len(node.children))
        if head is None or head in env or head not in spellings:
            return node
        return Node(spellings[head] + node.label[len(head):], node.children)

    return _rebuild(tree, visit, {}, 0)


def definition_tree(d: Definition) -> Node:
    """The tree two definitions of one name are compared by: parameters (with their binder
    kinds), type and value — or the source's tokens for a declaration that is not parsed;
    parameters bind in what follows, so it is compared up to their names."""
    if d.kind not in ("def", "abbrev") or not d.parsed:
        return Node(d.kind, (Node(d.tokens),))
    body = Node(f"def {SLOT} := {SLOT}", (d.type or Node("_"), d.value or Node("_")))
    for g in reversed(d.params):
        for name in reversed(g.names or ["_"]):
            body = Node(FORALL, (binder_node([name], g.type), Node(f"{g.kind} {SLOT}", (body,))))
    return body


def make_resolver(context: Context, header: str | None) -> Resolver:
    """Lean's name resolution over Mathlib (:func:`transted.pipeline.opt.names.load_name_table`) and the
    context's definitions, under ``header``'s namespaces and ``open`` lines."""
    definitions = context.definitions
    if not definitions:
        return lambda name: (None, (), None)
    table = load_name_table()
    scope = table.scope(header)
    scope = replace(scope, declared=tuple(dict.fromkeys((*scope.declared, *definitions))))

    def resolve(name: str) -> tuple[Definition | None, tuple[str, ...], str | None]:
        try:
            found = table.resolve(name, scope=scope)
        except InputError:
            return None, (), None
        if isinstance(found, Constant) and found.name in definitions:
            clash = (f"`{found.name}` is also a Mathlib declaration"
                     if found.name in table else None)
            return definitions[found.name], found.fields, clash
        if isinstance(found, Ambiguous):
            ours = [c for c in found.candidates if c.name in definitions]
            if ours:
                return (definitions[ours[0].name], ours[0].fields,
                        "ambiguous: " + ", ".join(sorted(found.names)))
        return None, (), None

    return resolve
