"""Records ↔ the bytes of one index row (shared by the generator and the reader).

A record is written as compact JSON (a dataclass as an object of its non-default fields, a tree
as :class:`~transted.pipeline.opt.node.Node`'s bracket text, which round-trips exactly). Records are
stored in blocks of consecutive names, each deflated with zlib against a preset dictionary
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
from functools import cache
from typing import Any, TypeVar

from transted.pipeline.opt.node import Node

__all__ = ["to_plain", "from_plain", "dumps", "deflate", "inflate", "decode_block", "ZDICT_SIZE"]

T = TypeVar("T")
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


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_plain(tp: Any, value: Any) -> Any:
    """The value of type ``tp`` that :func:`to_plain` wrote as ``value``."""
    if value is None:
        return None
    if tp is Node:
        return Node.from_text(value)
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(tp) if a is not type(None)]
        return from_plain(options[0], value)
    if origin is tuple:
        item = typing.get_args(tp)[0]
        return tuple(from_plain(item, v) for v in value)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        hints = _hints(tp)
        return tp(**{k: from_plain(hints[k], v) for k, v in value.items()})
    return value


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


def decode_block(blob: bytes, zdict: bytes | None) -> list[Any]:
    """The plain values of a block — a deflated JSON array of records in name order, written by
    ``scripts/mathlib_index/store.py`` — (:func:`from_plain` turns one into its record)."""
    return typing.cast(list, json.loads(inflate(blob, zdict)))
