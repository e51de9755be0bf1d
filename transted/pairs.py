"""The pair format: one JSON object per line, shared by every tool that feeds transted.

``{"id": ..., "reference": {"statement", "header"?, "pretty"?}, "candidate": {...},
"label"?: bool, "informal"?: str, "meta"?: {...}}`` — exactly the layout of the GTED dev set.
Unknown keys are rejected with the file and line named (nothing is silently dropped); free-form
data belongs in ``meta``.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from pydantic import BaseModel, ConfigDict, ValidationError

from transted.errors import InputError

__all__ = ["Statement", "Pair", "read_pairs", "write_pairs", "iter_jsonl", "dump_pair"]


class Statement(BaseModel):
    """One side of a pair: the statement as written, its header, Lean's pretty-printed form."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    statement: str
    """The statement as written (Lean 4 source, or a FOL formula for FOL pairs)."""
    header: str | None = None
    """Imports and ``open`` lines the statement is elaborated under."""
    pretty: str | None = None
    """The statement as Lean's pretty-printer showed it (binders split, notation normalised)."""


class Pair(BaseModel):
    """A reference statement, a candidate translation, and optionally the experts' verdict."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    reference: Statement
    candidate: Statement
    label: bool | None = None
    """Experts' verdict: true = equivalent (EPLA categories (a)/(b) by default)."""
    informal: str | None = None
    meta: dict[str, Any] = {}


def iter_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for each non-blank line; errors name file and line.
    ``-`` reads standard input (named ``<stdin>`` in errors)."""
    if str(path) == "-":
        handle: IO[str] = contextlib.nullcontext(sys.stdin)  # type: ignore[assignment]
        path = "<stdin>"
    else:
        path = Path(path)
        try:
            handle = path.open(encoding="utf-8")
        except OSError as e:
            raise InputError(f"{path}: cannot open: {e.strerror}") from e
    with handle as stream:
        for number, line in enumerate(stream, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise InputError(f"{path}:{number}:{e.colno}: invalid JSON: {e.msg}") from e
            if not isinstance(obj, dict):
                raise InputError(f"{path}:{number}: expected a JSON object, got {type(obj).__name__}")
            yield number, obj


def read_pairs(path: str | Path) -> list[Pair]:
    """Read a pair file; raises :class:`InputError` naming the file, line and field."""
    pairs: list[Pair] = []
    seen: dict[str, int] = {}
    for number, obj in iter_jsonl(path):
        try:
            pair = Pair.model_validate(obj)
        except ValidationError as e:
            problems = "; ".join(f"field `{'.'.join(str(p) for p in err['loc'])}`: {err['msg']}"
                                 for err in e.errors()[:3])
            raise InputError(f"{path}:{number}: {problems}") from e
        if pair.id in seen:
            raise InputError(f"{path}:{number}: duplicate id {pair.id!r} (first on line {seen[pair.id]})")
        seen[pair.id] = number
        pairs.append(pair)
    return pairs


def dump_pair(pair: Pair) -> str:
    """One JSONL line for ``pair`` (unset optional fields omitted, unicode kept)."""
    return json.dumps(pair.model_dump(exclude_none=True), ensure_ascii=False)


def write_pairs(pairs: Iterable[Pair], path: str | Path) -> None:
    with Path(path).open("w", encoding="utf-8") as out:
        for pair in pairs:
            out.write(dump_pair(pair) + "\n")
