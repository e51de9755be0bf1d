"""A statement's header (``open``/``open scoped``/``namespace``/``section``/``end`` lines) → the
scope Lean elaborates the statement in: current namespace, open declarations, and the
namespaces whose ``scoped`` notations are active.

Models Lean's ``elabOpenDecl`` (src/Lean/Elab/Open.lean): ``open A B`` resolves each namespace
(relative to the current namespace and earlier opens, ``resolveNamespace``) and adds
``OpenDecl.simple`` + activates its scoped entries; ``open scoped A`` only activates;
``open A (x y)`` adds explicit ``x ↦ A.x`` (no activation); ``open A hiding x`` adds a simple
open excluding ``x`` and activates; ``open A renaming x → y`` adds explicit ``y ↦ A.x``.
``namespace A.B`` activates ``A`` and ``A.B``; ``end`` undoes what its section/namespace did;
``open … in`` on the header's last command scopes the statement that follows.
``set_option autoImplicit``/``relaxedAutoImplicit`` lines set whether an unknown identifier of
the statement becomes an auto-bound implicit (Lean core ``src/Lean/Elab/AutoBound.lean``: both
options ``defValue := true``; Mathlib turns them off only for its own files).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from transted.errors import ParseError

__all__ = ["OpenDecl", "Scope", "read_header", "open_in"]


@dataclass(frozen=True)
class OpenDecl:
    """Lean's ``OpenDecl``: ``simple`` opens ``namespace`` minus ``hiding``; ``explicit`` makes
    ``alias`` name ``target``."""

    namespace: str = ""
    hiding: tuple[str, ...] = ()
    alias: str = ""
    target: str = ""

    @property
    def explicit(self) -> bool:
        return bool(self.alias)


@dataclass(frozen=True)
class Scope:
    namespace: str = ""
    opens: tuple[OpenDecl, ...] = ()
    scoped: frozenset[str] = frozenset()
    """Namespaces whose ``scoped`` notations (and instances) are active."""
    unknown_namespaces: tuple[str, ...] = ()
    """Namespaces the header opens that the table does not know: Lean reports an error."""
    declared: tuple[str, ...] = ()
    """Names the header itself declares (``def is_topology …``), with their namespace."""
    auto_implicit: bool = True
    relaxed_auto_implicit: bool = True

    def notation_active(self, namespace: str | None) -> bool:
        """Whether a notation ``scoped`` in ``namespace`` (None: a global one) is usable."""
        return namespace is None or namespace in self.scoped


@dataclass
class _Frame:
    scope: Scope
    kind: str
    name: str = ""
    names: list[str] = field(default_factory=list)


_DECLARATION = re.compile(
    r"^(?:@\[[^\]]*\]\s*)?(?:(?:noncomputable|protected|private|partial|unsafe)\s+)*"
    r"(?:def|abbrev|theorem|lemma|structure|class|inductive|instance|opaque|axiom)\s+"
    r"([^\s:({\[]+)")
_COMMAND = re.compile(r"^(open|namespace|section|noncomputable\s+section|end)\b(.*)$")
_OPTION = re.compile(r"^set_option\s+(autoImplicit|relaxedAutoImplicit)\s+(true|false)\b")


def read_header(header: str | None, is_namespace: Callable[[str], bool]) -> Scope:
    """The scope after ``header``'s commands; other commands (imports, options) are skipped.

    Raises
    ------
    transted.errors.ParseError
        for an ``open`` line whose shape Lean would reject (e.g. ``open A (``).
    """
    text = header or ""
    scope = Scope()
    stack: list[_Frame] = []
    pending_in: Scope | None = None
    offset = 0
    for raw in text.splitlines(keepends=True):
        line = raw.split("--", 1)[0].strip()
        m = _COMMAND.match(line)
        start, offset = offset, offset + len(raw)
        if d := _DECLARATION.match(line):
            name = d.group(1).removeprefix("_root_.")
            full = name if d.group(1).startswith("_root_.") or not scope.namespace \
                else f"{scope.namespace}.{name}"
            scope = replace(scope, declared=(*scope.declared, full))
        if o := _OPTION.match(line):
            on = o.group(2) == "true"
            scope = (replace(scope, auto_implicit=on) if o.group(1) == "autoImplicit"
                     else replace(scope, relaxed_auto_implicit=on))
            continue
        if not m:
            if line and pending_in is not None:
                scope, pending_in = pending_in, None  # `open … in` scoped that command only
            continue
        keyword, rest = m.group(1).split()[-1], m.group(2).strip()
        if keyword == "open":
            one_command = rest.endswith(" in") or rest == "in"
            body = rest[:-2].strip() if one_command else rest
            opened = _open(scope, body, is_namespace, text, start)
            if one_command:
                pending_in = scope if pending_in is None else pending_in
            scope = opened
        elif keyword == "namespace":
            stack.append(_Frame(scope, "namespace", rest))
            scope = _enter_namespace(scope, rest)
        elif keyword == "section":
            stack.append(_Frame(scope, "section", rest))
        elif keyword == "end" and stack:
            scope = stack.pop().scope
    return scope


def open_in(scope: Scope, body: str, is_namespace: Callable[[str], bool]) -> Scope:
    """``scope`` with ``open <body>`` applied (a term-level ``open … in e``: Lean core
    ``Term.open``, elaborated as the command's ``elabOpenDecl`` for ``e`` only).

    Raises
    ------
    transted.errors.ParseError
        for a body Lean would refuse (as :func:`read_header`).
    """
    return _open(scope, body, is_namespace, f"open {body} in", 0)


def _enter_namespace(scope: Scope, name: str) -> Scope:
    current = scope.namespace
    activated = set(scope.scoped)
    for part in name.split("."):
        current = f"{current}.{part}" if current else part
        activated.add(current)
    return replace(scope, namespace=current, scoped=frozenset(activated))


def resolve_namespace(scope: Scope, name: str, is_namespace: Callable[[str], bool]) -> list[str]:
    """Lean's ``ResolveName.resolveNamespace``: the innermost ``current.…++name`` that exists,
    then ``ns ++ name`` for every simple open (``_root_.`` forces the root)."""
    if name.startswith("_root_."):
        name = name[len("_root_."):]
        return [name] if is_namespace(name) else []
    found: list[str] = []
    parts = scope.namespace.split(".") if scope.namespace else []
    for cut in range(len(parts), -1, -1):
        candidate = ".".join([*parts[:cut], name])
        if is_namespace(candidate):
            found.append(candidate)
            break
    for decl in scope.opens:
        if not decl.explicit and not decl.hiding and is_namespace(f"{decl.namespace}.{name}"):
            found.append(f"{decl.namespace}.{name}")
    return list(dict.fromkeys(found))


_ONLY = re.compile(r"^(\S+)\s*\(([^()]*)\)$")
_HIDING = re.compile(r"^(\S+)\s+hiding\s+(.+)$")
_RENAMING = re.compile(r"^(\S+)\s+renaming\s+(.+)$")


def _open(scope: Scope, body: str, is_namespace: Callable[[str], bool], text: str,
          offset: int) -> Scope:
    words = body.split()
    if not words or "(" in body and not _ONLY.match(body):
        raise ParseError(f"cannot read the open command 'open {body}'", text, offset,
                         source="header")
    opens, scoped, unknown = list(scope.opens), set(scope.scoped), list(scope.unknown_namespaces)
    if words[0] == "scoped":
        for name in words[1:]:
            found = resolve_namespace(scope, name, is_namespace) or _unknown(unknown, name)
            scoped.update(found)
    elif m := _ONLY.match(body):
        for ns in resolve_namespace(scope, m.group(1), is_namespace) or _unknown(unknown, m.group(1)):
            opens.extend(OpenDecl(alias=x, target=f"{ns}.{x}") for x in m.group(2).split())
    elif m := _HIDING.match(body):
        for ns in resolve_namespace(scope, m.group(1), is_namespace)[:1] or _unknown(unknown, m.group(1)):
            opens.append(OpenDecl(namespace=ns, hiding=tuple(m.group(2).split())))
            scoped.add(ns)
    elif m := _RENAMING.match(body):
        for ns in resolve_namespace(scope, m.group(1), is_namespace)[:1] or _unknown(unknown, m.group(1)):
            for pair in m.group(2).split(","):
                old, _, new = re.split(r"\s*(→|->)\s*", pair.strip(), maxsplit=1)
                opens.append(OpenDecl(alias=new.strip(), target=f"{ns}.{old.strip()}"))
    else:
        for name in words:
            # each namespace resolves against the opens before it (`open Lean Elab`)
            current = replace(scope, opens=tuple(opens))
            for ns in resolve_namespace(current, name, is_namespace) or _unknown(unknown, name):
                opens.append(OpenDecl(namespace=ns))
                scoped.add(ns)
    return replace(scope, opens=tuple(dict.fromkeys(opens)), scoped=frozenset(scoped),
                   unknown_namespaces=tuple(dict.fromkeys(unknown)))


def _unknown(unknown: list[str], name: str) -> list[str]:
    unknown.append(name)
    return []
