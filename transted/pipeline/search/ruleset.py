"""Rewrite rules as data: load ``rules/offline.yaml`` and apply its rules inside a goal side.

Each rule is one Lean core / Mathlib equation or iff, ``lhs ↔ rhs`` between patterns written
in Lean syntax with ``?a`` metavariables (parsed by ``transted.pipeline.opt.parse_term``). Rewriting
a subterm of one side of the goal ``L = R`` by an instance of an equation or iff is an
equality of the two goals, so it is sound in both directions (ASSESS §3.3.1: the new goal
implies the old one). What makes a rule *unsound* is applying it where the lemma's
hypotheses fail; those are the ``when`` side conditions:

``type_in: [ℕ, ℤ, …]``
    the arithmetic region of the matched subterm (of its first arithmetic/relation node,
    for ``¬(a < b)``) has one of these types (:func:`~transted.pipeline.search.scalars.instance_type`);
    e.g. ``add_comm`` needs a commutative type.
``term_type_in: [?x, ℕ, ℤ, …]``
    the term matched by ``?x`` has one of these types, known from its binder or an ascription
    (:func:`~transted.pipeline.search.scalars.term_type`); e.g. ``Finset.mem_Icc`` needs a
    ``LocallyFiniteOrder``, which ℕ and ℤ have and ℚ, ℝ and an unknown type may not.
``type_head_in: [?s, Set, Finset]``
    the term matched by ``?s`` has a type ``T _`` with ``T`` among these, certain from its
    binder, an ascription, ``∩ ∪ \\ ᶜ`` over operands of that type, or the offline elaboration
    (:func:`~transted.pipeline.search.collections.collection_type`); e.g.
    ``Set.nonempty_iff_ne_empty``'s ``∅`` is the empty set, not a ``Multiset``'s ``0``.
``not_free: [?x, ?a]``
    the variable bound by the binder ``?x`` does not occur free in ``?a``.
``distinct: [?x, ?y]``
    the binders ``?x`` and ``?y`` bind two different names.
``independent: [?x, ?y]``
    the declared type of binder ``?y`` does not mention ``?x``'s variable (non-dependent).
``untyped: [?x]``
    the binder ``?x`` is a bare name (its type is left to Lean).
``function: [?f, ?g]``
    one of the two is a ``fun`` or a variable declared with a function type ``A → B``.

``subst: {?q: [?p, ?x, "pattern"]}`` defines ``?q`` as ``?p`` with ``?x``'s variable
replaced by the instantiated pattern (capture-avoiding); such rules are one-way
(``reversible: false``). When ``?x`` declares a type (``{y : ℚ | 2 * y = 1}``), the value goes
in ascribed, ``(a : ℚ)``: the type the binder gave the variable is all that says ``2 * a`` is
over ℚ once the binder is gone (an untyped ``a`` would default to ℕ), and an ascription of a
term that has that type already is the term itself. ``fresh: [?x]`` names right-hand-side binders not bound by the
left-hand side: each gets a name free in the instance and the scope.

A rule whose lemma lives in a namespace (``Set.mem_Icc``) also gets an *opened* variant
matching the names with that namespace stripped (``Icc``) and printing the short lemma name
(``mem_Icc``). Normalised trees write every name the header resolves in full (``Icc`` under
``open Set`` is ``Set.Icc``), so the variant matches only trees whose names were not resolved
(``normalize=False``, or a short name the elaboration left as written). ``open_variant: false``
turns that off where the stripped name is another constant: ``Set.Nonempty s`` stripped is
``Nonempty s``, which without ``open Set`` is the root class ``Nonempty ↥s``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path as FsPath
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, StrictBool, StrictStr, ValidationError

from transted import yaml_text
from transted.errors import InputError
from transted.pipeline.opt import parse_term
from transted.pipeline.opt.labels import ARROW, ASCRIPTION
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import binder_type, bound_name, free_names
from transted.pipeline.opt.substitution import fresh_name, substitute
from transted.pipeline.search.collections import collection_type
from transted.pipeline.search.pattern import Path, instantiate, is_meta, match, metavariables
from transted.pipeline.search.scalars import Env, instance_type, term_type

__all__ = ["Rule", "RuleSet", "load_rules", "parse_pattern", "DEFAULT_RULES"]

DEFAULT_RULES = "offline.yaml"
_CONDITIONS = {"type_in": None, "term_type_in": None, "type_head_in": None, "not_free": 2,
               "distinct": 2, "independent": 2, "untyped": 1, "function": 2}
# No `tactic` key: a move's Lean text is derived from `lemma` and the rewrite position
# (rw / nth_rw / simp only, providers.offline), so a hand-written tactic could not be kept
# true to the move; an unknown key is refused, never silently dropped.
_MV = "zzMV_"  # metavariables are renamed to plain identifiers while the Lean parser runs


class RuleEntry(BaseModel):
    """One rule as written in a rule file (the schema; patterns are checked after)."""

    model_config = ConfigDict(extra="forbid")

    name: StrictStr
    lemma: StrictStr
    statement: StrictStr
    source: StrictStr
    lhs: StrictStr
    rhs: StrictStr
    params: dict[StrictStr, StrictStr] = {}
    reversible: StrictBool = True
    when: list[dict[StrictStr, list[StrictStr]]] = []
    subst: dict[StrictStr, tuple[StrictStr, StrictStr, StrictStr]] = {}
    fresh: list[StrictStr] = []
    open_variant: StrictBool = True
    note: StrictStr | None = None


class RuleFile(BaseModel):
    """A rule file: ``rules:`` and the list of :class:`RuleEntry`."""

    model_config = ConfigDict(extra="forbid")

    rules: list[Any]
    """Validated one by one (:func:`_entry`), so an error names its rule."""


@dataclass(frozen=True)
class Rule:
    """One rewrite ``lhs → rhs`` justified by ``lemma`` (statement as found in ``source``)."""

    name: str
    lemma: str
    statement: str
    source: str
    lhs: Node
    rhs: Node
    params: tuple[tuple[str, str], ...] = ()
    reversible: bool = True
    when: tuple[tuple[str, tuple[str, ...]], ...] = ()
    subst: tuple[tuple[str, str, str, Node], ...] = ()
    fresh: tuple[str, ...] = ()

    def directions(self) -> Iterator[tuple[Node, Node, bool]]:
        """``(from, to, backward)``: forward always, backward if the rule is reversible."""
        yield self.lhs, self.rhs, False
        if self.reversible:
            yield self.rhs, self.lhs, True

    def check(self, sigma: Mapping[str, Node], tree: Node, path: Path, env: Env) -> bool:
        """True if every side condition holds for the match ``sigma`` at ``path``."""
        for kind, args in self.when:
            if kind == "type_in":
                if instance_type(tree, path, env) not in args:
                    return False
                continue
            if kind == "term_type_in":
                if term_type(sigma[args[0]], env) not in args[1:]:
                    return False
                continue
            if kind == "type_head_in":
                collection = collection_type(sigma[args[0]], env)
                if collection is None or collection.head not in args[1:]:
                    return False
                continue
            a = sigma[args[0]]
            name_a = bound_name(a)
            if kind == "untyped":
                if not a.is_leaf or name_a is None:
                    return False
                continue
            b = sigma[args[1]]
            if kind == "function":
                if not (_is_function(a, env) or _is_function(b, env)):
                    return False
                continue
            if kind == "not_free":
                if name_a is None or name_a in free_names(b):
                    return False
            elif kind == "distinct":
                if name_a is None or bound_name(b) in (None, name_a):
                    return False
            elif kind == "independent":
                typ = binder_type(b)
                if name_a is None or (typ is not None and name_a in free_names(typ)):
                    return False
        return True

    def rewrite(self, term: Node, tree: Node, path: Path, env: Env
                ) -> Iterator[tuple[Node, dict[str, Node], bool]]:
        """``(new_term, sigma, backward)`` for each direction whose pattern matches ``term``."""
        for src, dst, backward in self.directions():
            sigma = match(src, term)
            if sigma is None or not self.check(sigma, tree, path, env):
                continue
            if not backward:
                avoid = set(env) | free_names(term)
                for meta in self.fresh:
                    sigma[meta] = Node(fresh_name(meta[1:], avoid))
                    avoid.add(sigma[meta].label)
                for target, body, var, value in self.subst:
                    name = bound_name(sigma[var])
                    if name is None:
                        break
                    sigma[target] = substitute(sigma[body], name,
                                               _typed_as(instantiate(value, sigma),
                                                         binder_type(sigma[var])))
                else:
                    yield instantiate(dst, sigma), sigma, backward
                continue
            yield instantiate(dst, sigma), sigma, backward


class RuleSet:
    """Rules indexed by the root label of each direction's source pattern."""

    def __init__(self, rules: list[Rule], *, origin: str = DEFAULT_RULES,
                 digest: str | None = None):
        self.rules = tuple(rules)
        self.origin = origin
        self.digest = digest if digest is not None else _digest(repr(self.rules))
        """SHA-256 (8 hex digits) of the rule file's text (of the rules, when made in code)."""
        self._index: dict[str, list[Rule]] = {}
        for rule in self.rules:
            for src, _dst, _back in rule.directions():
                if is_meta(src):
                    raise InputError(f"{origin}: rule {rule.name!r}: a pattern may not be a "
                                     "bare metavariable")
                bucket = self._index.setdefault(src.label, [])
                if rule not in bucket:
                    bucket.append(rule)

    def signature_value(self) -> str:
        """``bundled-<hash>`` or ``<file name>-<hash>``: the rules enter a signature by content,
        so an edited rule file (same name, same rule count) gives another signature."""
        name = "bundled" if self.origin == DEFAULT_RULES else FsPath(self.origin).name
        return f"{name}-{self.digest}"

    def candidates(self, label: str) -> list[Rule]:
        return self._index.get(label, [])

    def __len__(self) -> int:
        return len(self.rules)

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)


def load_rules(path: str | FsPath | None = None, *,
               parse: Callable[[str], Node] | None = None) -> RuleSet:
    """Load a rule file (default: the packaged ``rules/offline.yaml``).

    Errors name the file and the rule: an unknown key or condition, a pattern that does not
    parse, a right-hand side with a metavariable the left-hand side does not bind.
    """
    if parse is None:

        parse = parse_term
    if path is None:
        text = resources.files("transted.pipeline.search").joinpath("rules", DEFAULT_RULES).read_text(
            encoding="utf-8")
        origin = DEFAULT_RULES
    else:
        origin = str(path)
        try:
            text = FsPath(path).read_text(encoding="utf-8")
        except OSError as e:
            raise InputError(f"{origin}: cannot read rule file: {e.strerror}") from e
    try:
        data = yaml_text.safe_load(text)
    except yaml.YAMLError as e:
        raise InputError(f"{origin}: not YAML: {e}") from e
    try:
        rule_file = RuleFile.model_validate(data)
    except ValidationError as e:
        raise InputError(f"{origin}: expected a mapping with a `rules` list "
                         f"({_first_problem(e)})") from e
    rules: list[Rule] = []
    for i, entry in enumerate(rule_file.rules):
        rule, open_variant = _rule(entry, i, origin, parse)
        rules.append(rule)
        opened = _opened_variant(rule) if open_variant else None
        if opened is not None:
            rules.append(opened)
    names = [r.name for r in rules]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise InputError(f"{origin}: duplicate rule names: {', '.join(dupes)}")
    return RuleSet(rules, origin=origin, digest=_digest(text))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def _entry(raw: Any, index: int, origin: str) -> RuleEntry:
    """``raw`` validated against :class:`RuleEntry`; errors name file, rule and field."""
    name = raw.get("name") if isinstance(raw, dict) else None
    where = f"{origin}: rule {name!r}" if isinstance(name, str) else f"{origin}: rule #{index + 1}"
    if not isinstance(raw, dict):
        raise InputError(f"{where}: expected a mapping")
    try:
        return RuleEntry.model_validate(raw)
    except ValidationError as e:
        unknown = sorted(str(err["loc"][0]) for err in e.errors() if err["type"] == "extra_forbidden")
        if unknown:
            raise InputError(f"{where}: unknown key(s) {', '.join(unknown)}") from e
        raise InputError(f"{where}: {_first_problem(e)}") from e


def _first_problem(e: ValidationError) -> str:
    err = e.errors()[0]
    field = ".".join(str(part) for part in err["loc"]) or "(top level)"
    return f"field `{field}`: {err['msg']}"


def _rule(raw: Any, index: int, origin: str, parse: Callable[[str], Node]
          ) -> tuple[Rule, bool]:
    """The rule, and whether it gets an ``@open`` variant."""
    entry = _entry(raw, index, origin)
    where = f"{origin}: rule {entry.name!r}"
    try:
        lhs, rhs = parse_pattern(entry.lhs, parse), parse_pattern(entry.rhs, parse)
        subst = tuple((t, v[0], v[1], parse_pattern(v[2], parse))
                      for t, v in entry.subst.items())
    except InputError as e:
        raise InputError(f"{where}: pattern does not parse: {e}") from e
    when = tuple(_condition(c, where) for c in entry.when)
    fresh = tuple(entry.fresh)
    reversible = entry.reversible
    bound = metavariables(lhs) | {s[0] for s in subst} | set(fresh)
    if not metavariables(rhs) <= bound:
        raise InputError(f"{where}: rhs uses metavariables the lhs does not bind: "
                         f"{', '.join(sorted(metavariables(rhs) - bound))}")
    if reversible and (subst or fresh or metavariables(lhs) != metavariables(rhs)):
        raise InputError(f"{where}: a reversible rule needs the same metavariables on "
                         "both sides and no `subst`")
    params = tuple(entry.params.items())
    return Rule(name=entry.name, lemma=entry.lemma, statement=entry.statement,
                source=entry.source, lhs=lhs, rhs=rhs, params=params, reversible=reversible,
                when=when, subst=subst, fresh=fresh), entry.open_variant


def parse_pattern(text: str, parse: Callable[[str], Node]) -> Node:
    """Parse a Lean pattern whose ``?x`` metavariables may stand anywhere, binders included."""
    tree = parse(re.sub(r"\?([A-Za-z_][A-Za-z0-9_]*)", _MV + r"\1", text))
    return _unmask(tree)


def _unmask(node: Node) -> Node:
    label = node.label.replace(_MV, "?")
    return Node(label, tuple(_unmask(c) for c in node.children))


def _opened_variant(rule: Rule) -> Rule | None:
    namespace, _, short = rule.lemma.rpartition(".")
    if not namespace or namespace[0].islower():
        return None
    prefix = namespace + "."
    lhs, rhs = _strip(rule.lhs, prefix), _strip(rule.rhs, prefix)
    if (lhs, rhs) == (rule.lhs, rule.rhs):
        return None
    return replace(rule, name=rule.name + "@open", lemma=short, lhs=lhs, rhs=rhs)


def _strip(node: Node, prefix: str) -> Node:
    label = node.label[len(prefix):] if node.label.startswith(prefix) else node.label
    return Node(label, tuple(_strip(c, prefix) for c in node.children))


def _is_function(node: Node, env: Env) -> bool:
    if node.label.startswith("fun "):
        return True
    typ = env.get(node.label) if node.is_leaf else None
    return typ is not None and typ.label == ARROW


def _condition(cond: dict[str, list[str]], where: str) -> tuple[str, tuple[str, ...]]:
    if len(cond) != 1:
        raise InputError(f"{where}: each `when` item is one `kind: [args]` mapping")
    ((kind, args),) = cond.items()
    if kind not in _CONDITIONS:
        raise InputError(f"{where}: unknown condition {kind!r}; known: {', '.join(_CONDITIONS)}")
    arity = _CONDITIONS[kind]
    if arity is not None and len(args) != arity:
        raise InputError(f"{where}: condition {kind!r} takes a list"
                         + ("" if arity is None else f" of {arity} metavariable(s)"))
    return str(kind), tuple(str(a) for a in args)


def _typed_as(value: Node, declared: Node | None) -> Node:
    """``(value : T)`` when the replaced variable was declared with type ``T``."""
    return value if declared is None else Node(ASCRIPTION, (value, declared))
