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
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, ValidationError

from transted.errors import InputError

__all__ = ["Side", "Statement", "Pair", "read_pairs", "write_pairs", "iter_jsonl", "dump_pair",
           "decode_line", "read_text", "validate_pair", "unencodable",
           "check_unique_ids"]

Side = Literal["reference", "candidate"]
"""One side of a pair."""


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

    id: str = Field(min_length=1)
    reference: Statement
    candidate: Statement
    label: StrictBool | None = None
    """Experts' verdict: true = equivalent (EPLA categories (a)/(b) by default). Only JSON
    ``true``/``false``: ``"yes"`` or ``1`` are refused, not guessed."""
    informal: str | None = None
    meta: dict[str, Any] = {}


def iter_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for each non-blank line; errors name file and line
    (and column for bad bytes). ``-`` reads standard input (named ``<stdin>`` in errors)."""
    if str(path) == "-":
        handle: IO[bytes] = contextlib.nullcontext(sys.stdin.buffer)  # type: ignore[assignment]
        path = "<stdin>"
    else:
        path = Path(path)
        try:
            handle = path.open("rb")
        except OSError as e:
            raise InputError(f"{path}: cannot open: {e.strerror}") from e
    with handle as stream:
        for number, raw in enumerate(stream, start=1):
            line = decode_line(raw, path, number)
            if number == 1:
                line = line.removeprefix(BOM)  # as Excel and Notepad save UTF-8
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise InputError(f"{path}:{number}:{e.colno}: invalid JSON: {e.msg}"
                                 + _table_hint(line, number)) from e
            if not isinstance(obj, dict):
                raise InputError(f"{path}:{number}: expected a JSON object, got {type(obj).__name__}")
            yield number, obj


BOM = "\ufeff"
"""The UTF-8 byte-order mark some editors write first; read as nothing."""


def _table_hint(line: str, number: int) -> str:
    """A hint when a JSONL file's first line reads like a CSV/TSV header row."""
    text = line.strip()
    if number != 1 or text.startswith(("{", "[")):
        return ""
    for delimiter, suffix in ((",", ".csv"), ("\t", ".tsv")):
        if delimiter in text:
            return (f"; the first line looks like a {suffix[1:].upper()} header row: a table "
                    f"is read as one when its file is named *{suffix}")
    return ""


def decode_line(raw: bytes, path: str | Path, number: int) -> str:
    """``raw`` as UTF-8, or an :class:`InputError` naming file, line and column."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        column = len(raw[: e.start].decode("utf-8", "replace")) + 1
        raise InputError(f"{path}:{number}:{column}: invalid UTF-8 (byte 0x{raw[e.start]:02x})") from e


def read_text(path: str | Path) -> str:
    """The whole file as UTF-8; errors (missing, unreadable, bad bytes) name file and line."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror}") from e
    try:
        return data.decode("utf-8").removeprefix(BOM)
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        decode_line(data[line_start : data.find(b"\n", e.start) % (len(data) + 1)], path,
                    data.count(b"\n", 0, e.start) + 1)
        raise  # pragma: no cover - decode_line raised


def validate_pair(obj: dict[str, Any], path: str | Path, number: int) -> Pair:
    """``obj`` as a :class:`Pair`; a schema error names file, line and field."""
    try:
        return Pair.model_validate(obj)
    except ValidationError as e:
        problems = "; ".join(f"field `{'.'.join(str(p) for p in err['loc'])}`: {err['msg']}"
                             for err in e.errors()[:3])
        raise InputError(f"{path}:{number}: {problems}") from e


def read_pairs(path: str | Path) -> list[Pair]:
    """Read a pair file; raises :class:`InputError` naming the file, line and field."""
    pairs: list[Pair] = []
    seen: dict[str, int] = {}
    for number, obj in iter_jsonl(path):
        pair = validate_pair(obj, path, number)
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


def unencodable(pair: Pair) -> str | None:
    """Where ``pair`` holds text that is not valid Unicode (a lone surrogate), or ``None``."""
    fields = [("id", pair.id), ("informal", pair.informal)]
    for side in ("reference", "candidate"):
        statement = getattr(pair, side)
        fields += [(f"{side}.{name}", getattr(statement, name))
                   for name in ("statement", "header", "pretty")]
    for name, text in fields:
        if text is None:
            continue
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as e:
            return (f"field `{name}` is not valid Unicode: lone surrogate "
                    f"U+{ord(text[e.start]):04X} at character {e.start + 1}")
    return None


def check_unique_ids(pairs: Sequence[Pair]) -> None:
    """Refuse pairs given in memory that repeat an id (``InputError`` naming the id and both
    indices): results are keyed on the id, so a repeat would reach a result file twice and
    the next run would call that file corrupt. (:func:`read_pairs` refuses a file's repeats,
    naming the lines.)"""
    seen: dict[str, int] = {}
    for index, pair in enumerate(pairs):
        first = seen.setdefault(pair.id, index)
        if first != index:
            raise InputError(f"pairs[{index}]: id {pair.id!r} repeats pairs[{first}]'s; "
                             "every pair needs its own id")
