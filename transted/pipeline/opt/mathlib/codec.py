"""Records ↔ the bytes of one index row (shared by the generator and the reader).

A record is written as compact JSON (a dataclass as an object of its non-default fields, a tree
as :class:`~transted.pipeline.opt.node.Node`'s bracket text, which round-trips exactly). Records are
stored in blocks of consecutive names (:func:`block_text`), each deflated with zlib against a preset dictionary
stored once in the database: a record alone is a few hundred bytes, too short for deflate to
find much to reuse; neighbours in name order share namespaces, binders and notation, and the
preset dictionary (sampled from the records: recurring labels ``{<SLOT> = <SLOT>{``, field
names, binder texts) primes every block. A lookup inflates one block (tens of kilobytes at
most). zlib and json are the standard library's.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
import zlib
from collections.abc import Callable
from functools import cache
from typing import Any

from transted.pipeline.opt.node import Node

__all__ = ["to_plain", "from_plain", "dumps", "deflate", "inflate", "block_text", "block_record",
           "block_records", "ZDICT_SIZE"]

ZDICT_SIZE = 32 * 1024
"""zlib's window: a preset dictionary longer than this is not used."""


def to_plain(value: Any) -> Any:
    """A record as JSON-ready values (fields equal to their defaults are left out)."""
    if isinstance(value, Node):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {}
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            if f.default is not dataclasses.MISSING and v == f.default:
                continue
            out[f.name] = to_plain(v)
        return out
    if isinstance(value, tuple):
        return [to_plain(v) for v in value]
    return value


Decoder = Callable[[Any], Any]


def from_plain(tp: Any, value: Any) -> Any:
    """The value of type ``tp`` that :func:`to_plain` wrote as ``value``."""
    return _decoder(tp)(value)


@cache
def _decoder(tp: Any) -> Decoder:
    """A decoder for ``tp``, built once from its type hints (a lookup then does not walk
    ``typing`` for every field of every record)."""
    if tp is Node:
        return lambda v: None if v is None else Node.from_text(v)
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        inner = _decoder(next(a for a in typing.get_args(tp) if a is not type(None)))
        return lambda v: None if v is None else inner(v)
    if origin is tuple:
        item = _decoder(typing.get_args(tp)[0])
        return lambda v: tuple(item(x) for x in v)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        hints = typing.get_type_hints(tp)
        cls = tp

        def record(v: Any) -> Any:
            return cls(**{k: _decoder(hints[k])(x) for k, x in v.items()})
        return record
    return lambda v: v


def deflate(text: str, zdict: bytes | None) -> bytes:
    if zdict is None:
        compressor = zlib.compressobj(9)
    else:
        compressor = zlib.compressobj(9, zlib.DEFLATED, 15, 9, zlib.Z_DEFAULT_STRATEGY, zdict)
    return compressor.compress(text.encode()) + compressor.flush()


def inflate(blob: bytes, zdict: bytes | None) -> str:
    inflater = zlib.decompressobj(zdict=zdict) if zdict is not None else zlib.decompressobj()
    return (inflater.decompress(blob) + inflater.flush()).decode()


def dumps(plain: Any) -> str:
    """Canonical JSON: sorted keys, no spaces (the same value gives the same text)."""
    return json.dumps(plain, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def block_text(names: list[str], texts: list[str]) -> str:
    """A block: one ``name<TAB>json`` line per record, in name order (JSON text has no raw
    newline or tab, a Lean name neither), so a lookup parses its own line only."""
    return "\n".join(f"{n}\t{t}" for n, t in zip(names, texts, strict=True))


def block_record(block: str, name: str) -> Any:
    """The plain value of ``name`` in an inflated block, or None."""
    key = name + "\t"
    if block.startswith(key):
        start = 0
    else:
        found = block.find("\n" + key)
        if found < 0:
            return None
        start = found + 1
    end = block.find("\n", start)
    return json.loads(block[start + len(key):end if end >= 0 else len(block)])


def block_records(block: str) -> list[Any]:
    """Every plain value of an inflated block, in name order."""
    return [json.loads(line.split("\t", 1)[1]) for line in block.split("\n") if line]
