"""The commands in scope at the chosen theorem, as Lean's scoping rules say.

Lean 4 (src/Lean/Parser/Command.lean, docstrings of ``section``/``namespace``/``end``/``open``):
``section``/``namespace`` open a scope closed by ``end`` (or the end of the file); ``variable``,
``open``, ``universe``, ``set_option``, ``include``/``omit`` and ``local``/``scoped`` notations
and attributes last until their scope closes; definitions, instances and global notations stay after it (under
their namespace); ``open … in``/``set_option … in`` apply to the next command only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from transted.pipeline.extraction.commands import (
    CLOSERS,
    DECLARATION_KEYWORDS,
    OPENERS,
    THEOREM_KEYWORDS,
    Command,
    read_head,
)
from transted.pipeline.extraction.model import ContextDeclaration, ContextKind, span_at

__all__ = ["ScopedContext", "context_at", "context_kind"]

_NOTATIONS = ("notation", "infix", "infixl", "infixr", "prefix", "postfix")
_SCOPED = ("open", "open_locale", "variable", "universe", "universes", "set_option", "include",
           "omit")
_KINDS: dict[str, ContextKind] = {
    "import": "import", "open": "open", "open_locale": "open", "set_option": "set_option",
    "variable": "variable", "universe": "universe", "universes": "universe",
    "namespace": "namespace", "section": "section", "attribute": "attribute",
    "include": "include", "omit": "omit",
    **{k: "notation" for k in _NOTATIONS},
    **{k: k for k in DECLARATION_KEYWORDS if k not in THEOREM_KEYWORDS},  # type: ignore[misc]
}


def context_kind(command: Command) -> ContextKind | None:
    """The context kind of a command; ``None`` for theorems, ``#check``-style commands, ``end``
    and unknown text."""
    if command.keyword in _KINDS:
        return _KINDS[command.keyword]
    if command.keyword in ("macro", "macro_rules", "syntax", "elab", "export", "mutual",
                           "deriving"):
        return "other"
    return None


@dataclass
class _Scope:
    kind: str
    name: str
    items: list[ContextDeclaration] = field(default_factory=list)


@dataclass
class ScopedContext:
    declarations: list[ContextDeclaration]
    namespace: str
    warnings: list[str]


def _binder_names(command: Command) -> str:
    """Names bound by ``variable``'s binder groups (anonymous instance binders have none)."""
    names: list[str] = []
    toks, i = command.tokens, command.head + 1
    while i < len(toks):
        if toks[i].text not in OPENERS:
            i += 1
            continue
        j, depth = i + 1, 1
        group = []
        while j < len(toks) and depth:
            depth += (toks[j].text in OPENERS) - (toks[j].text in CLOSERS)
            group.append(toks[j])
            j += 1
        head = []
        for t in group:
            if t.kind != "ident" and t.text != "_":
                break
            head.append(t.text)
        colon_follows = len(group) > len(head) and group[len(head)].text == ":"
        if toks[i].text != "[" or colon_follows:
            names += head
        i = j
    return " ".join(names)


def _name(code: str, command: Command) -> str:
    kw, toks, head = command.keyword, command.tokens, command.head
    rest = [t for t in toks[head + 1:] if not (command.prefix and t is toks[-1])]
    if kw in DECLARATION_KEYWORDS:
        return read_head(code, command).name or ""
    if kw == "variable":
        return _binder_names(command)
    if kw in _NOTATIONS:
        return next((t.text.strip('"').strip() for t in rest if t.kind == "str"), "")
    if kw in ("set_option", "namespace", "section"):
        return rest[0].text if rest and rest[0].kind == "ident" else ""
    if kw == "attribute":
        inside = []
        for t in rest[1:]:
            if t.text == "]":
                break
            inside.append(t.text)
        return " ".join(inside)
    return " ".join(t.text for t in rest)


def _declaration(text: str, code: str, command: Command, kind: ContextKind,
                 namespace: str) -> ContextDeclaration:
    end = command.tokens[-2].end if command.prefix and len(command.tokens) > 1 else command.end
    return ContextDeclaration(kind=kind, name=_name(code, command), text=text[command.start:end],
                              span=span_at(text, command.start, end), namespace=namespace,
                              only_next=command.prefix)


def _namespace(stack: list[_Scope]) -> str:
    return ".".join(s.name for s in stack if s.kind == "namespace" and s.name)


def context_at(text: str, code: str, commands: list[Command], index: int) -> ScopedContext:
    """The context of ``commands[index]``: everything before it still in scope."""
    stack: list[_Scope] = []
    kept: list[ContextDeclaration] = []
    warnings: list[str] = []
    prefixes_from = index
    while prefixes_from > 0 and commands[prefixes_from - 1].prefix:
        prefixes_from -= 1  # `a in b in theorem`: `in` nests, both apply
    for k, command in enumerate(commands[:index]):
        kind, ns = context_kind(command), _namespace(stack)
        if command.prefix:
            if k >= prefixes_from and kind is not None:
                kept.append(_declaration(text, code, command, kind, ns))
            continue
        if command.keyword == "end":
            _close(stack, _name(code, command), warnings)
        elif kind in ("namespace", "section"):
            scope = _Scope(kind, _name(code, command))
            stack.append(scope)
            scope.items.append(_declaration(text, code, command, kind, _namespace(stack)))
        elif kind is not None:
            item = _declaration(text, code, command, kind, ns)
            scoped = command.keyword in _SCOPED or _is_local(command)
            (stack[-1].items if scoped and stack else kept).append(item)
    for scope in stack:
        kept += scope.items
    kept.sort(key=lambda d: d.span.start)
    return ScopedContext(kept, _namespace(stack), warnings)


def _is_local(command: Command) -> bool:
    return any(t.text in ("local", "scoped") for t in command.tokens[:command.head]) or (
        command.keyword == "attribute"
        and any(t.text == "local" for t in command.tokens[command.head:]))


def _close(stack: list[_Scope], name: str, warnings: list[str]) -> None:
    written = f"`end {name}`" if name else "`end`"
    if not stack:
        warnings.append(f"{written} closes no section or namespace")
        return
    scope = stack.pop()
    if name and scope.name != name:
        warnings.append(f"{written} closes the {scope.kind} `{scope.name}`")
