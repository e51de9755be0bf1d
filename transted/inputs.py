"""Translator outputs as users have them, joined to their references by a key.

Shapes read (one JSON object per line):

* pair JSONL (``{"id", "reference": {...}, "candidate": {...}}``): the side asked for;
* miniF2F/ProofNet releases: ``{"name" | "id", "formal_statement", "header"?}``;
* outputs: ``{"id" | "name", "statement" | "candidate" | "output" | "prediction" | "completion",
  "header"?, "sample"?}``; the text may be a list (several samples) and may be a whole Lean
  file or an LLM's raw answer (fences, prose, helper definitions, several theorems): it is kept
  as written, and the metrics extract the statement and its context from it
  (:mod:`transted.extraction`, docs/INPUTS.md).

:func:`join` matches candidates to references by ``key`` (default: ``id`` when every record has
one, then ``name``, else line order with a warning); several candidates of one reference are
samples, kept apart by a ``sample`` index (pair id ``<key>#<sample>``). Unmatched keys on either
side are reported, never dropped silently.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from transted.errors import InputError
from transted.pairs import Pair, Statement, iter_jsonl

__all__ = ["Record", "Joined", "TEXT_FIELDS", "read_records", "join", "join_files"]

TEXT_FIELDS = ("formal_statement", "statement", "candidate", "output", "prediction", "completion")
KEY_FIELDS = ("id", "name")
Side = Literal["reference", "candidate"]


@dataclass(frozen=True)
class Record:
    """One statement read from a file, with the key fields it carries and where it came from."""

    keys: dict[str, str]
    statement: str
    header: str | None
    sample: int | None
    where: str


@dataclass
class Joined:
    """The pairs of a join, the key used, and what did not match."""

    pairs: list[Pair]
    key: str
    unmatched_references: list[str] = field(default_factory=list)
    unmatched_candidates: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _texts(obj: dict[str, Any], where: str) -> tuple[str, list[str]]:
    for name in TEXT_FIELDS:
        if name in obj:
            value = obj[name]
            if isinstance(value, str):
                return name, [value]
            if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                return name, value
            raise InputError(f"{where}: field `{name}` must be a string or a list of strings")
    raise InputError(f"{where}: no statement field; expected one of {', '.join(TEXT_FIELDS)} "
                     "or a pair with `reference` and `candidate`")


def _record(keys: dict[str, str], text: str, header: str | None, sample: int | None,
            where: str) -> Record:
    # kept as written: the metrics extract the statement and its context
    # (transted.extraction), so the result file keeps the translator's original output
    if not text.strip():
        raise InputError(f"{where}: the statement is empty")
    return Record(keys, text, header, sample, where)


def read_records(path: str | Path, *, side: Side) -> list[Record]:
    """Every statement of ``path`` (``-`` = stdin) in file order; pair lines give ``side``."""
    records: list[Record] = []
    for number, obj in iter_jsonl(path):
        where = f"{path}:{number}"
        keys = {k: str(obj[k]) for k in KEY_FIELDS if obj.get(k) is not None}
        if isinstance(obj.get("reference"), dict) and isinstance(obj.get("candidate"), dict):
            st = obj[side]
            if not isinstance(st.get("statement"), str):
                raise InputError(f"{where}: field `{side}.statement` must be a string")
            records.append(_record(keys, st["statement"], st.get("header"), None, where))
            continue
        _, texts = _texts(obj, where)
        sample = obj.get("sample")
        if sample is not None and (not isinstance(sample, int) or len(texts) > 1):
            raise InputError(f"{where}: field `sample` must be an integer index of one text")
        header = obj.get("header")
        for i, text in enumerate(texts):
            records.append(_record(keys, text, header, sample if len(texts) == 1 else i, where))
    return records


def _choose_key(refs: Sequence[Record], cands: Sequence[Record], key: str | None) -> str | None:
    if key is not None:
        for r in (*refs, *cands):
            if key not in r.keys:
                raise InputError(f"{r.where}: no `{key}` field to join on (--key {key})")
        return key
    for name in KEY_FIELDS:
        if all(name in r.keys for r in (*refs, *cands)):
            return name
    return None


def join(refs: Sequence[Record], cands: Sequence[Record], *, key: str | None = None) -> Joined:
    """Pairs of each reference with each of its candidates (see the module docstring)."""
    used = _choose_key(refs, cands, key)
    warnings = []
    if used is None:
        warnings.append("no key common to every line (id, name): joined by line order")
        ref_keys = [str(i) for i in range(1, len(refs) + 1)]
        cand_keys = [str(i) for i in range(1, len(cands) + 1)]
    else:
        ref_keys = [r.keys[used] for r in refs]
        cand_keys = [c.keys[used] for c in cands]
    by_key: dict[str, Record] = {}
    for k, r in zip(ref_keys, refs, strict=True):
        if k in by_key:
            raise InputError(f"{r.where}: duplicate reference key {k!r} (first at "
                             f"{by_key[k].where})")
        by_key[k] = r
    samples: dict[str, list[tuple[int, Record]]] = {}
    for k, c in zip(cand_keys, cands, strict=True):
        group = samples.setdefault(k, [])
        index = c.sample if c.sample is not None else len(group)
        if any(index == s for s, _ in group):
            raise InputError(f"{c.where}: sample {index} of key {k!r} given twice")
        group.append((index, c))
    several = any(len(g) > 1 or g[0][1].sample is not None for g in samples.values())
    pairs = []
    for k, group in samples.items():
        if k not in by_key:
            continue
        r = by_key[k]
        for index, c in group:
            pairs.append(Pair(
                id=f"{k}#{index}" if several else k,
                reference=Statement(statement=r.statement, header=r.header),
                candidate=Statement(statement=c.statement, header=c.header),
                meta={"key": k, "sample": index, "reference_at": r.where,
                      "candidate_at": c.where}))
    return Joined(pairs, used or "line",
                  unmatched_references=[k for k in by_key if k not in samples],
                  unmatched_candidates=[k for k in samples if k not in by_key],
                  warnings=warnings)


def join_files(references: str | Path, candidates: str | Path, *,
               key: str | None = None) -> Joined:
    """:func:`join` of a references file and a candidates file."""
    return join(read_records(references, side="reference"),
                read_records(candidates, side="candidate"), key=key)
