"""The context a declaration is read in: namespace, ``open``s, ``variable`` binders, ``include``.

Follows Lean 4's commands (src/Lean/Elab/Command.lean, src/Lean/Elab/BuiltinCommand.lean):
``namespace``/``section`` open a scope that ``end`` closes, and the scope's ``open``s,
``variable``s and ``include``s end with it; ``variable {x}`` on a known variable changes its
binder kind (``variable (R)`` makes ``R`` explicit); ``open X in``, ``variable … in``,
``include h in``, ``omit [C α] in`` apply to the next command only. Which variables a
declaration takes is decided later (:func:`transted.pipeline.opt.declaration.with_variables`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from scripts.mathlib_index.signature import blank_universes
from transted.errors import ParseError
from transted.pipeline.opt.binders import BinderGroup, bracketed_group
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.parser import TermParser

__all__ = ["Variable", "State", "FileContext", "read_variables", "omitted", "mention"]


@dataclass(frozen=True)
class Variable:
    """One ``variable`` binder group and its text as written."""

    group: BinderGroup
    text: str

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.group.names)


@dataclass(frozen=True)
class State:
    namespace: str = ""
    opens: tuple[str, ...] = ()
    variables: tuple[Variable, ...] = ()
    included: frozenset[str] = frozenset()
    omitted: tuple[str, ...] = ()
    """Texts of instance binders ``omit`` removed (``[Group G]``)."""
    unread: tuple[tuple[tuple[str, ...], str], ...] = ()
    """``variable`` commands that did not parse: the names they seem to bind, and the error."""

    @property
    def variable_names(self) -> list[str]:
        return [n for v in self.variables for n in v.group.names]


@dataclass
class _Level:
    kind: str  # namespace | section | mutual
    name: str
    saved: State


_IN_SUFFIX = re.compile(r"\s+in\s*$")
_BRACKET_NAMES = re.compile(r"[({⦃]\s*([^:(){}⦃⦄\[\]]+?)\s*(?::|[)}⦄])")


class FileContext:
    """The scope stack of one file, updated command by command."""

    def __init__(self) -> None:
        self.state = State()
        self.levels: list[_Level] = []
        self._pending: State | None = None
        """The state to restore after the next command (an ``… in`` prefix applies once)."""

    def open_scope(self, kind: str, name: str) -> None:
        self.levels.append(_Level(kind, name, self.state))
        if kind == "namespace" and name:
            ns = f"{self.state.namespace}.{name}" if self.state.namespace else name
            self.state = replace(self.state, namespace=ns)

    def close_scope(self, name: str) -> None:
        """``end name``: close to the innermost scope of that name (a drifted reading closes to
        the match, as the name table's reader does)."""
        if not self.levels:
            return
        for depth in range(len(self.levels) - 1, -1, -1):
            if self.levels[depth].name == name:
                self.state = self.levels[depth].saved
                del self.levels[depth:]
                return
        self.state = self.levels.pop().saved

    def command(self, keyword: str, rest: str) -> bool:
        """Apply a scoping command (``open``/``variable``/``include``/``omit``/``set_option``);
        True when it ends in ``in`` (it then scopes the next command only)."""
        scoped_once = _IN_SUFFIX.search(rest) is not None
        body = _IN_SUFFIX.sub("", rest) if scoped_once else rest
        before = self.state
        if keyword == "open":
            self.state = replace(self.state, opens=_opened(body, self.state.opens))
        elif keyword == "variable":
            self.state = read_variables(body, self.state)
        elif keyword == "include":
            self.state = replace(self.state, included=self.state.included | set(body.split()))
        elif keyword == "omit":
            self.state = _omit(body, self.state)
        if scoped_once:
            self._pending = before
        return scoped_once

    def prefix(self, text: str) -> None:
        """An ``open X`` / ``variable …`` written before the command on its line (``… in``)."""
        keyword, _, rest = text.partition(" ")
        saved = self._pending or self.state
        self.command(keyword, rest)
        self._pending = saved

    def after_declaration(self) -> None:
        if self._pending is not None:
            self.state = self._pending
            self._pending = None


def _opened(body: str, opens: tuple[str, ...]) -> tuple[str, ...]:
    """The namespaces ``open body`` adds (``open scoped X`` opens notation only; ``open X (a)``,
    ``hiding``, ``renaming`` open ``X`` partly: recorded as ``X``)."""
    words = re.sub(r"\([^)]*\)", " ", body).split()
    if words and words[0] == "scoped":
        return opens
    added = []
    for w in words:
        if w in ("hiding", "renaming"):
            break
        if re.match(r"^[^\W\d][\w.'!?₀-₉]*$", w):
            added.append(w)
    return tuple(dict.fromkeys([*opens, *added]))


def read_variables(body: str, state: State) -> State:
    """``state`` after ``variable body``."""
    text = "variable " + body
    p = TermParser(blank_universes(text))
    p.expect("variable")
    variables = list(state.variables)
    known = set(state.variable_names)
    try:
        while p.at("(", "{", "⦃", "["):
            start = p.tok.start
            with p.binding(sorted(known)):
                group = bracketed_group(p)
            group_text = text[start:p.tokens[p.i - 1].end]
            if group.type is None and group.names and set(group.names) <= known:
                variables = [w for v in variables for w in _rekind(v, set(group.names), group.kind)]
                continue
            variables.append(Variable(group, group_text))
            known |= set(group.names)
        if p.tok.kind != "eof":
            raise p.error(f"in `variable`: expected a binder group, found {p.describe(p.tok)}")
    except ParseError as e:
        names = tuple(n for m in _BRACKET_NAMES.finditer(body) for n in m.group(1).split())
        error = f"{e.line}:{e.column}: {e.reason}"
        return replace(state, variables=tuple(variables), unread=(*state.unread, (names, error)))
    return replace(state, variables=tuple(variables))


def _rekind(v: Variable, names: set[str], kind: str) -> list[Variable]:
    """``variable (x)`` on a known ``{x : α}``: the group's named variables take the new kind
    (a group binding several names is split so only the named ones change, in place)."""
    if not set(v.group.names) & names or v.group.kind == "instance":
        return [v]
    return [Variable(BinderGroup([n], v.group.type, kind if n in names else v.group.kind), v.text)
            for n in v.group.names]


def _omit(body: str, state: State) -> State:
    names = set(re.findall(r"(?<![\[\w])([^\W\d][\w'₀-₉]*)", re.sub(r"\[[^\]]*\]", " ", body)))
    instances = tuple(" ".join(m.split()) for m in re.findall(r"\[([^\]]*)\]", body))
    return replace(state, included=state.included - names,
                   omitted=(*state.omitted, *instances, *sorted(names)))


def omitted(variable: Variable, state: State) -> bool:
    """``omit`` named this variable (by name, or an instance binder by its type text)."""
    if variable.group.kind == "instance":
        inner = " ".join(variable.text.strip()[1:-1].split())
        return inner in state.omitted
    return bool(set(variable.group.names) & set(state.omitted))


def mention(node: Node | None, names: frozenset[str] | set[str]) -> Node:
    """A tree mentioning ``node``'s names and ``names`` (what ``with_variables`` reads)."""
    leaves = tuple(Node(n) for n in sorted(names))
    return Node("\0mentions", ((node,) if node is not None else ()) + leaves)
