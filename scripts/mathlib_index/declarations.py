"""One Lean file → the declarations it makes, each read in its context.

Commands come from the name table's reader (:func:`scripts.name_table.lean_source.commands`:
comments blanked, attributes and modifiers split off); the scope commands update a
:class:`~scripts.mathlib_index.context.FileContext`; each declaration is parsed with the
file's ``variable`` names bound and takes the ``variable`` binders Lean gives it
(:func:`transted.pipeline.opt.declaration.with_variables`: the ones its header mentions, instance
binders on those, ``include``d ones; a definition's value counts too). Names written in the
source (a parent, an instance's class, an alias target) are kept as written here; the whole
index resolves them (:mod:`scripts.mathlib_index.resolution`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from scripts.mathlib_index.attributes import (
    REDUCIBILITY,
    AttributeCommand,
    Attributes,
    TranslationRequest,
    read_attribute_command,
    read_attributes,
)
from scripts.mathlib_index.context import FileContext, State, mention, omitted
from scripts.mathlib_index.kinds import read_kind_specific
from scripts.mathlib_index.signature import (
    PARSE_FAILURES,
    Header,
    binder_type_text,
    cut,
    located,
    parse_header,
)
from scripts.name_table.lean_source import Command, commands, declared_name, strip_universes
from transted.pipeline.opt.binders import BinderGroup
from transted.pipeline.opt.declaration import Declaration as OptDeclaration
from transted.pipeline.opt.declaration import with_variables
from transted.pipeline.opt.mathlib.records import (
    Binder,
    DeclarationScope,
    IndexedDeclaration,
    SourceRef,
    Term,
)
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import free_names

__all__ = ["PendingTranslation", "FileIndex", "read_file", "KIND_OF", "qualify"]

KIND_OF = {"def": "def", "abbrev": "abbrev", "irreducible_def": "irreducible_def",
           "opaque": "opaque", "axiom": "axiom", "theorem": "theorem", "lemma": "theorem",
           "instance": "instance", "structure": "structure", "class": "class",
           "class abbrev": "class", "class inductive": "class", "inductive": "inductive",
           "alias": "alias"}
_TOKEN = {"class abbrev": "abbrev", "class inductive": "inductive"}
"""The keyword token :func:`~transted.pipeline.opt.declaration.read_declaration_head` reads for a two-word one."""
_SCOPING = ("open", "variable", "include", "omit", "set_option")
_PRIORITY = re.compile(r"^\s*\(priority\s*:=[^)]*\)")
_NEXT_COMMAND = re.compile(
    r"\n(?=[A-Za-z_#@«](?!(?:where|with|termination_by|decreasing_by|by|then|else|fun|calc)\b))")
"""A line starting at column 0 with a word begins another command (Mathlib's style linter:
continuation lines are indented), e.g. ``to_dual_insert_cast …``, a command the name table's
reader does not list; Lean keywords that continue a command are excepted."""


def own_text(rest: str) -> str:
    """The command's text up to the next command at column 0."""
    m = _NEXT_COMMAND.search(rest)
    return rest[:m.start()] if m else rest


@dataclass(frozen=True)
class PendingTranslation:
    """A ``@[to_additive]``/``@[to_dual]`` to carry out once every file is read."""

    source: str
    request: TranslationRequest
    members: tuple[str, ...]


@dataclass
class FileIndex:
    file: str
    declarations: list[IndexedDeclaration] = field(default_factory=list)
    attribute_commands: list[tuple[AttributeCommand, DeclarationScope]] = field(default_factory=list)
    translations: list[PendingTranslation] = field(default_factory=list)
    private_skipped: int = 0


def qualify(namespace: str, name: str) -> str:
    if name.startswith("_root_."):
        return name[len("_root_."):]
    return f"{namespace}.{name}" if namespace else name


def read_file(text: str, file: str) -> FileIndex:
    out = FileIndex(file)
    ctx = FileContext()
    for cmd in commands(text):
        for prefix in cmd.prefixes:
            ctx.prefix(prefix)
        kw = cmd.keyword
        if kw in ("namespace", "section", "mutual"):
            words = cmd.rest.split("\n", 1)[0].split()
            ctx.open_scope(kw, words[0] if words and kw != "mutual" else "")
        elif kw == "end":
            words = cmd.rest.split("\n", 1)[0].split()
            ctx.close_scope(words[0] if words else "")
        elif kw in _SCOPING:
            if ctx.command(kw, cmd.rest):
                continue  # `… in`: it scopes the next command
        elif kw == "insert_to_additive_translation":
            words = cmd.rest.split()
            if len(words) >= 2:  # Mathlib/Tactic/Translate/ToAdditive.lean: `mulName addName`
                out.translations.append(PendingTranslation(
                    words[0], TranslationRequest("to_additive", f"_root_.{words[1]}", True, ()),
                    ()))
        elif kw == "attribute":
            # `scoped[NS] attribute [instance] f` / `local attribute …` hold only where NS is
            # open or until the section ends (Mathlib/Topology/Algebra/Valued/NormedValued.lean:201)
            scoped = "scoped" in cmd.modifiers or "local" in cmd.modifiers
            command = None if scoped else read_attribute_command(cmd.rest, cmd.line)
            if command is not None:
                out.attribute_commands.append((command, _scope(ctx.state)))
        elif kw in KIND_OF:
            if "private" in cmd.modifiers:
                out.private_skipped += 1
            else:
                out.declarations.extend(read_declaration(cmd, ctx.state, file, out))
        ctx.after_declaration()
    return out


def _scope(state: State) -> DeclarationScope:
    return DeclarationScope(state.namespace, state.opens)


def _reducibility(keyword: str, attributes: Attributes) -> str:
    status = {"abbrev": "reducible", "instance": "implicit_reducible",
              "irreducible_def": "irreducible"}.get(keyword, "semireducible")
    for name in attributes.names:
        status = REDUCIBILITY.get(name, status)
    return status


def read_declaration(cmd: Command, state: State, file: str, out: FileIndex) -> list[IndexedDeclaration]:
    kind = KIND_OF[cmd.keyword]
    attributes = read_attributes(cmd.attributes)
    if kind == "alias":
        return _aliases(cmd, state, file, attributes)
    rest = _PRIORITY.sub(lambda m: " " * len(m.group()), own_text(cmd.rest))
    written = declared_name(rest)
    name = qualify(state.namespace, written.rstrip(".")) if written else f"instance@{file}:{cmd.line}"
    base = IndexedDeclaration(name, kind, cmd.keyword, SourceRef(file, cmd.line), _scope(state),  # type: ignore[arg-type]
                       protected="protected" in cmd.modifiers, attributes=attributes.names,
                       reducibility=_reducibility(cmd.keyword, attributes),  # type: ignore[arg-type]
                       deprecated=attributes.deprecated)
    members: tuple[str, ...] = ()
    records = _parsed(cmd, rest, state, base, written)
    members = tuple(r.name.rsplit(".", 1)[-1] for r in records[1:]
                    if r.owner == name and r.kind in ("field", "constructor"))
    for request in attributes.translations:
        out.translations.append(PendingTranslation(name, request, members))
    return records


def _parsed(cmd: Command, rest: str, state: State, base: IndexedDeclaration,
            written: str | None) -> list[IndexedDeclaration]:
    token = _TOKEN.get(cmd.keyword, cmd.keyword)
    c = cut(rest)
    structure = base.kind in ("structure", "class") and cmd.keyword != "class abbrev"
    try:
        header = parse_header(token, c.signature, state.variable_names, structure=structure)
    except PARSE_FAILURES as e:
        error = located(e, cmd.line) if hasattr(e, "line") else str(e)
        return [replace(base, type=Term(" ".join(c.signature.split()), None), parse_error=error)]
    first_line = cmd.line + rest[:c.value_offset].count("\n")
    bound = [*state.variable_names, *(n for g, _ in header.groups for n in g.names)]
    own = tuple({base.name, written or base.name, base.name.rsplit(".", 1)[-1]})
    specific = read_kind_specific(base, cmd.modifiers, header, c, first_line, bound, own)
    binders, error = _with_variables(state, header, specific.mentions)
    record = replace(specific.record, binders=binders, parse_error=error,
                     unread_instances=_unread_instances(state, specific.record, binders,
                                                        specific.mentions))
    return specific.finish(record)


_VALUE_KINDS = ("def", "abbrev", "irreducible_def", "opaque", "instance")


def _unread_instances(state: State, record: IndexedDeclaration, binders: tuple[Binder, ...],
                      mentions: list[Node | None]) -> tuple[str, ...]:
    """The section's instance binders left out of a definition whose value did not parse (a
    definition takes every section variable its value uses; a theorem only those its header
    needs, so a theorem's binders are exact)."""
    if record.kind not in _VALUE_KINDS or (record.body is not None and all(
            m is not None for m in mentions[1:2])):
        return ()
    kept = {b.type.text for b in binders if b.from_variable and b.kind == "instance"}
    return tuple(v.text for v in state.variables
                 if v.group.kind == "instance" and not omitted(v, state)
                 and binder_type_text(v.text) not in kept)


def _binder(group: BinderGroup, text: str, from_variable: bool) -> Binder:
    kind = "explicit" if group.kind in ("explicit", "bare") else group.kind
    return Binder(tuple(group.names), kind, Term(binder_type_text(text), group.type),  # type: ignore[arg-type]
                  from_variable)


def _with_variables(state: State, header: Header, mentions: list[Node | None]
                    ) -> tuple[tuple[Binder, ...], str | None]:
    """The declaration's binders with the ``variable`` binders Lean adds first, and an error
    when it uses a variable whose ``variable`` command did not parse."""
    groups = [g for g, _ in header.groups]
    node = mention(Node("\0mentions", tuple(m for m in mentions if m is not None)),
                   state.included)
    candidates = [v for v in state.variables if not omitted(v, state)]
    decl = OptDeclaration("def", None, tuple(groups), node, ())
    kept = with_variables(decl, tuple(v.group for v in candidates)).binders
    kept = kept[:len(kept) - len(groups)]
    binders = []
    for g in kept:
        source = next((v for v in candidates if v.group is g or (
            v.group.type is g.type and v.group.kind == g.kind
            and set(g.names) <= set(v.group.names))), None)
        binders.append(_binder(g, source.text if source else "", True))
    binders.extend(_binder(g, t, False) for g, t in header.groups)
    error = None
    declared = {n for g in groups for n in g.names}
    for names, reason in state.unread:
        used = (set(names) & free_names(node)) - declared
        if used:
            error = (f"uses variable {sorted(used)[0]!r} whose `variable` command does not parse "
                     f"({reason})")
    return tuple(binders), error


def _aliases(cmd: Command, state: State, file: str, attributes: Attributes) -> list[IndexedDeclaration]:
    lhs, sep, target = cmd.rest.partition(":=")
    if not sep:
        return []
    target = strip_universes(target.split()[0]) if target.split() else ""
    lhs = lhs.strip()
    if lhs.startswith("⟨"):
        parts = [n.strip() for n in lhs.strip("⟨⟩").split(",")]
        pairs = [(n, d) for n, d in zip(parts, ("mp", "mpr"), strict=False) if n and n != "_"]
    else:
        pairs = [(lhs, None)]
    return [IndexedDeclaration(qualify(state.namespace, strip_universes(n)), "alias", "alias",
                        SourceRef(file, cmd.line), _scope(state),
                        protected="protected" in cmd.modifiers, attributes=attributes.names,
                        deprecated=attributes.deprecated, alias_of=target, alias_direction=d)  # type: ignore[arg-type]
            for n, d in pairs]
