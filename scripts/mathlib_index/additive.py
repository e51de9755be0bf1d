"""The declarations ``@[to_additive]``/``@[to_dual]`` generate: names and statements.

Names: Mathlib's ``targetName`` and ``GuessName`` as ported for the name table
(:mod:`scripts.name_table.translate`; dictionaries from the snapshot's ``ToAdditive.lean``/
``ToDual.lean``), iterated until every namespace prefix is translated. Statements: a
``to_additive`` declaration's binders, type and value are translated by
:class:`~scripts.mathlib_index.additive_terms.AdditiveTranslator` (constants through the name
map, operators by their type); ``to_dual`` statements (order duals: ``≤`` flipped, ``⊔``/``⊓``
swapped, argument reordering) are not translated — those declarations carry their name only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from scripts.mathlib_index.additive_terms import AdditiveTranslator, Untranslatable
from scripts.mathlib_index.attributes import TranslationRequest
from scripts.mathlib_index.resolution import Resolver
from scripts.name_table.translate import GuessData, target_name
from transted.pipeline.opt.mathlib.records import (
    Body,
    IndexedDeclaration,
    InstanceOf,
    StructureField,
    Term,
    Translation,
)
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.render import to_lean

__all__ = ["Request", "translation_maps", "generate"]


@dataclass(frozen=True)
class Request:
    source: str
    request: TranslationRequest
    members: tuple[str, ...]


def translation_maps(requests: list[Request], dictionaries: dict[str, GuessData]
                     ) -> dict[str, dict[str, str]]:
    """attribute → source name → target name (every request, ``existing`` ones included)."""
    maps: dict[str, dict[str, str]] = {attr: {} for attr in dictionaries}
    for _ in range(4):  # a target's namespace uses earlier translations; stable in two rounds
        before = {attr: dict(m) for attr, m in maps.items()}
        for r in requests:
            table = maps[r.request.attribute]
            table[r.source] = target_name(dictionaries[r.request.attribute], r.source,
                                          r.request.target, table.get)
            for member in r.members:
                table[f"{r.source}.{member}"] = target_name(
                    dictionaries[r.request.attribute], f"{r.source}.{member}", None, table.get)
        if before == maps:
            break
    return maps


def generate(requests: list[Request], records: dict[str, IndexedDeclaration],
             maps: dict[str, dict[str, str]], resolver: Resolver) -> Iterable[IndexedDeclaration]:
    """The generated records (``existing`` requests and unknown sources make none); also marks
    each source's ``additive`` field (in ``records``)."""
    field_map = _field_map(maps["to_additive"])
    for r in requests:
        source = records.get(r.source)
        target = maps[r.request.attribute].get(r.source)
        if source is None or target is None:
            continue
        records[r.source] = replace(source, additive=target)
        if r.request.existing:
            continue
        names = [r.source, *(f"{r.source}.{m}" for m in r.members)]
        for name in names:
            member = records.get(name)
            member_target = maps[r.request.attribute].get(name)
            if member is None or member_target is None:
                continue
            yield _generated(member, member_target, r, maps, resolver, field_map)


def _field_map(mapping: dict[str, str]) -> dict[str, str | None]:
    """Last name components → the one last component their translations share, or None when
    they differ (field notation: see :class:`AdditiveTranslator`); unchanged ones left out."""
    seen: dict[str, set[str]] = {}
    for source, target in mapping.items():
        seen.setdefault(source.rsplit(".", 1)[-1], set()).add(target.rsplit(".", 1)[-1])
    out: dict[str, str | None] = {}
    for k, v in seen.items():
        if v != {k}:
            out[k] = next(iter(v)) if len(v) == 1 else None
    return out


def _generated(source: IndexedDeclaration, target: str, r: Request, maps: dict[str, dict[str, str]],
               resolver: Resolver, field_map: dict[str, str | None]) -> IndexedDeclaration:
    mapping = maps[r.request.attribute]
    # only `(attr := …)` attributes go to the generated declaration (ToAdditive.lean docstring)
    base = replace(source, name=target, attributes=r.request.attributes, additive=None,
                   deprecated=None, owner=mapping.get(source.owner or "", source.owner),
                   parents=tuple(replace(p, name=mapping.get(p.name, p.name))
                                 for p in source.parents))
    if r.request.attribute != "to_additive":
        return _name_only(base, Translation(r.request.attribute, source.name, None,
                                            "to_dual statements are not translated"))
    if source.parse_error is not None:
        return _name_only(base, Translation("to_additive", source.name, None,
                                            "the source's signature does not parse"))
    def names(written: str) -> str | None:  # a name the index lacks (core `HMul`) as written
        return mapping.get(resolver.resolve(written, source.scope) or written.lstrip("@"))
    try:
        translated = _translated(base, source, AdditiveTranslator(names, field_map))
    except Untranslatable as e:
        return _name_only(base, Translation("to_additive", source.name, None, str(e)))

    def member(short: str) -> str:  # the generated member's last name component
        return mapping.get(f"{source.name}.{short}", short).rsplit(".", 1)[-1]
    return replace(translated, fields=tuple(replace(f, name=member(f.name))
                                            for f in translated.fields),
                   parents=tuple(replace(p, projection=member(p.projection))
                                 for p in translated.parents),
                   constructors=tuple(member(c) for c in translated.constructors))


def _name_only(base: IndexedDeclaration, why: Translation) -> IndexedDeclaration:
    """A generated declaration whose statement is not known: its name, kind, source and
    attributes only (the source's binders and type would state the other declaration)."""
    return replace(base, binders=(), type=None, body=None, parents=(), fields=(), instance=None,
                   parse_error=None, generated=why)


def _translated(base: IndexedDeclaration, source: IndexedDeclaration, t: AdditiveTranslator) -> IndexedDeclaration:
    binders = []
    for b in source.binders:
        ty = t.term(b.type.tree) if b.type.tree is not None else None
        binders.append(replace(b, type=Term(to_lean(ty) if ty is not None else b.type.text, ty)))
        for n in b.names:
            t.bind(n, b.type.tree)
    ty_term = _term(source.type, t)
    body = _body(source.body, t)
    instance = source.instance
    if instance is not None:
        instance = InstanceOf(t.names(instance.class_name) or instance.class_name,
                              tuple(t.term(a) for a in instance.arguments))
    parents = tuple(replace(p, term=_term(p.term, t) or p.term) for p in base.parents)
    fields = tuple(_field(f, t) for f in source.fields)
    return replace(base, binders=tuple(binders), type=ty_term, body=body, parents=parents,
                   fields=fields, instance=instance,
                   generated=Translation("to_additive", source.name, "translated"))


def _body(body: Body | None, t: AdditiveTranslator) -> Body | None:
    """The translated value of a ``term`` body; a value that does not translate is no value
    (never the multiplicative one under the additive name)."""
    if body is None or body.form != "term" or body.value.tree is None:
        return None
    saved = dict(t.types)
    try:
        value = _term(body.value, t)
    except Untranslatable as e:
        return Body("term", Term("", None), False, f"its to_additive translation: {e}")
    finally:
        t.types = saved
    assert value is not None
    return Body("term", value, body.unfoldable, body.why_not)


def _field(f: StructureField, t: AdditiveTranslator) -> StructureField:
    saved = dict(t.types)
    binders = []
    for b in f.binders:
        binders.append(replace(b, type=_term(b.type, t) or b.type))
        for n in b.names:
            t.bind(n, b.type.tree)
    field = replace(f, binders=tuple(binders), type=_term(f.type, t) or f.type)
    t.types = saved
    return field


def _term(term: Term | None, t: AdditiveTranslator) -> Term | None:
    if term is None or term.tree is None:
        return term
    tree: Node = t.term(term.tree)
    return Term(to_lean(tree), tree)
