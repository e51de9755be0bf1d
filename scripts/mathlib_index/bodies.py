"""A definition's value → :class:`~transted.pipeline.opt.mathlib.records.Body`, and whether it unfolds.

Unfolding a definition replaces its name by its value (Lean's ``delta``/``unfold``), which is
sound for every non-recursive ``def``/``abbrev`` whose value is one term: the equation
``f x = value`` holds by ``rfl``. Not unfoldable here (``why_not`` says which): values defined
by pattern matching (Lean compiles them to ``match``/recursors: the equation lemmas are
per-case), by tactics (the term is not written), with local definitions (``where``/
``let rec``), recursive ones (no finite unfolding), ``partial``/``unsafe`` ones (opaque to the
kernel), and values that do not parse.
"""

from __future__ import annotations

from scripts.mathlib_index.signature import PARSE_FAILURES, cut, located, parse_value
from scripts.mathlib_index.structures import read_where_values
from transted.pipeline.opt.mathlib.records import Body, FieldValue, Term
from transted.pipeline.opt.scope import free_names

__all__ = ["read_body", "MAX_VALUE_CHARS"]

MAX_VALUE_CHARS = 20_000
"""Longer values (a few generated tables) are kept as text only."""


def read_body(separator: str, value: str, first_line: int, bound: list[str],
              own_names: tuple[str, ...], modifiers: list[str]) -> Body | None:
    """``first_line``: the file line ``value`` starts on; ``own_names``: the names the
    definition is reached by (its full name and the name as written), for recursion."""
    text = " ".join(value.split())
    if separator == "|":
        return Body("match", Term("| " + text, None), False, "defined by pattern matching")
    if separator == "where":
        fields = tuple(FieldValue(name, Term(t, tree))
                       for name, t, tree, _err in read_where_values(value, first_line, bound))
        return Body("where", Term(text, None), False, "a structure instance (`where` fields)",
                    fields)
    if separator != ":=":
        return None
    if text.startswith("by ") or text == "by":
        return Body("tactic", Term(text, None), False, "defined by tactics")
    local = cut(value, ("where",))
    if local.separator:
        return _term(local.signature, first_line, bound, own_names,
                     "has local definitions (`where`)")
    why = "has local definitions (`let rec`)" if "let rec " in text else None
    if "partial" in modifiers or "unsafe" in modifiers:
        why = f"a {'partial' if 'partial' in modifiers else 'unsafe'} definition is opaque"
    return _term(value, first_line, bound, own_names, why)


def _term(value: str, first_line: int, bound: list[str], own_names: tuple[str, ...],
          why: str | None) -> Body:
    text = " ".join(value.split())
    if len(value) > MAX_VALUE_CHARS:
        return Body("term", Term(text, None), False, "value too long to parse",
                    error=f"{len(value)} characters (cap {MAX_VALUE_CHARS})")
    try:
        tree = parse_value(value, bound)
    except PARSE_FAILURES as e:
        error = located(e, first_line) if hasattr(e, "line") else str(e)
        return Body("term", Term(text, None), False, "its value does not parse", error=error)
    if why is None and set(own_names) & free_names(tree):
        why = "recursive"
    return Body("term", Term(text, tree), why is None, why)
