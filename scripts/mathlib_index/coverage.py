"""Coverage counts of the index, per kind: what parsed, what has a value, what unfolds."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from transted.pipeline.opt.mathlib.records import KINDS, IndexedDeclaration, LemmaStatement

__all__ = ["coverage_counts", "signature_known", "body_parsed", "failure_reason"]

BODY_KINDS = ("def", "abbrev", "irreducible_def", "instance")


def coverage_counts(records: Iterable[IndexedDeclaration], statements: dict[str, LemmaStatement]) -> dict:
    """``statements``: the theorems' statements (:func:`statement_of`), by name."""
    kinds: dict[str, Counter] = {k: Counter() for k in KINDS}
    extra: Counter = Counter()
    for r in records:
        c = kinds[r.kind]
        c["declarations"] += 1
        c["signatures_parsed"] += signature_known(r)
        if r.body is not None and r.kind in BODY_KINDS:
            c["bodies"] += 1
            c["bodies_parsed"] += body_parsed(r)
            c["bodies_unfoldable"] += r.body.unfoldable
        st = statements.get(r.name)
        if st is not None and st.relation is not None:
            c["equations"] += 1
            extra["rewrite_simp"] += r.simp
        if r.generated is not None:
            extra["translated"] += 1
            extra["translated_statements"] += r.generated.statement is not None
        extra["lean_core_curated"] += r.curated is not None
        extra["deprecated"] += r.deprecated is not None
    return {"kinds": {k: dict(sorted(c.items())) for k, c in kinds.items() if c},
            **dict(sorted(extra.items()))}


def signature_known(r: IndexedDeclaration) -> bool:
    """Its signature parsed (a generated declaration: its statement was translated)."""
    return r.parse_error is None and (r.generated is None or r.generated.statement is not None)


def body_parsed(r: IndexedDeclaration) -> bool:
    """The value parsed: its term, or every field of a ``where`` value."""
    body = r.body
    if body is None:
        return False
    if body.form == "where":
        return bool(body.fields) and all(f.value.tree is not None for f in body.fields)
    return body.value.tree is not None


def failure_reason(error: str) -> str:
    """A parse error without its position and with quoted tokens kept: the group it falls in
    (``expected ')', found '⟶'``)."""
    return re.sub(r"^\d+:\d+: ", "", error)
