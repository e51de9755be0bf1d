"""Translator outputs as users have them, joined to their references by a key.

Files are JSONL (one JSON object per line) or CSV/TSV (``.csv``/``.tsv``, a header row naming
the columns as the JSON fields below; a whole Lean file in a quoted cell is fine). Shapes read:

* pair JSONL (``{"id", "reference": {...}, "candidate": {...}}``): the side asked for;
* miniF2F/ProofNet releases: ``{"name" | "id", "formal_statement", "header"?}``;
* outputs: ``{"id" | "name", "statement" | "candidate" | "output" | "prediction" | "completion"
  | "response" (or the field ``text_field`` names), "header"?, "sample"?}``; the text may be a
  list (several samples); an empty or ``null`` one is an empty answer (scored ``invalid``,
  never an input error); it may be a whole Lean
  file or an LLM's raw answer (fences, prose, helper definitions, several theorems): it is kept
  as written, and the metrics extract the statement and its context from it
  (:mod:`transted.pipeline.extraction`, docs/INPUTS.md).

:func:`join` matches candidates to references by key only: ``key`` for both sides, or
``reference_key``/``candidate_key`` when the sides name it differently (default: ``id`` when
every record of both sides has one, then ``name``); a join with no common key is an error
naming what each side has, and line order is used only when asked (``line_order=True``).
Every candidate is a sample of its problem: pair id ``<key>#<i>``, ``i`` its position among
the problem's candidates (in file order, or by their ``sample`` fields when all have one), so
a one-sample and a two-sample file of the same problems share ``<key>#0``. Unmatched keys on
either side are reported, never dropped silently.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from transted.errors import InputError
from transted.reading.pairs import (
    Pair,
    Side,
    Statement,
    iter_jsonl,
    read_pairs,
    read_text,
    validate_pair,
)

__all__ = ["Record", "Joined", "TEXT_FIELDS", "TABLE_SUFFIXES", "read_records", "iter_rows",
           "read_pair_table", "read_pair_file", "join", "join_files"]

TEXT_FIELDS = ("formal_statement", "statement", "candidate", "output", "prediction", "completion",
               "response")
KEY_FIELDS = ("id", "name")
TABLE_SUFFIXES = {".csv": ",", ".tsv": "	"}


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
    """The pairs of a join, the key used (``"name"``, ``"name = problem_id"`` for two, or
    ``"line"``), and what did not match."""

    pairs: list[Pair]
    key: str
    unmatched_references: list[str] = field(default_factory=list)
    unmatched_candidates: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _texts(obj: dict[str, Any], where: str, side: Side, text_field: str | None
           ) -> list[str]:
    """The text(s) of an output line: its ``text_field``, else the first of
    :data:`TEXT_FIELDS` it has. A candidate's ``null`` (or a ``null`` sample) is the empty
    answer ``""``, scored ``invalid`` (:data:`transted.pipeline.extraction.extract.EMPTY_OUTPUT`)."""
    names = (text_field,) if text_field is not None else TEXT_FIELDS
    for name in names:
        if name not in obj:
            continue
        value = obj[name]
        if value is None and side == "candidate":
            return [""]
        if isinstance(value, str):
            return [value]
        if isinstance(value, list) and value and all(
                isinstance(v, str) or (v is None and side == "candidate") for v in value):
            return [v or "" for v in value]
        raise InputError(f"{where}: field `{name}` must be a string or a non-empty list of "
                         f"strings, got {_shown(value)}")
    if text_field is not None:
        raise InputError(f"{where}: no `{text_field}` field (--text-field {text_field}); this "
                         f"line has {', '.join(f'`{k}`' for k in obj) or 'no field'}")
    raise InputError(f"{where}: no statement field; expected one of {', '.join(TEXT_FIELDS)} "
                     "(--text-field FIELD names another) or a pair with `reference` and "
                     "`candidate`")


def _shown(value: Any) -> str:
    return "an empty list" if value == [] else f"{type(value).__name__} {str(value)[:40]!r}"


def _record(keys: dict[str, str], text: str, header: str | None, sample: int | None,
            where: str, side: Side) -> Record:
    # kept as written: the metrics extract the statement and its context
    # (transted.pipeline.extraction), so the result file keeps the translator's original output.
    # An empty candidate is an answer (scored invalid); an empty reference is bad data.
    if side == "reference" and not text.strip():
        raise InputError(f"{where}: the reference statement is empty")
    return Record(keys, text, header, sample, where)


def _table_rows(path: Path, delimiter: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line, row)`` of a CSV/TSV file with a header row; empty cells are left out, and a
    ``sample`` cell is read as an integer."""

    lines = read_text(path).splitlines(keepends=True)
    reader = csv.DictReader(lines, delimiter=delimiter, strict=True)
    try:
        columns = reader.fieldnames
    except csv.Error as e:
        raise InputError(f"{path}:1: not a {path.suffix[1:].upper()} header: {e}") from e
    if not columns or len(set(columns)) != len(columns) or any(not c for c in columns):
        raise InputError(f"{path}:1: the header row must name every column once, got "
                         f"{columns!r}")
    while True:
        start = reader.line_num + 1
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as e:
            raise InputError(f"{path}:{start}: {e}") from e
        if None in row:
            raise InputError(f"{path}:{start}: {len(row[None]) + len(columns)} cells for "  # type: ignore[index]
                             f"{len(columns)} columns")
        # an empty cell is left out, but an empty text cell is an empty answer
        obj: dict[str, Any] = {k: v for k, v in row.items()
                               if v not in (None, "") or (v == "" and k in TEXT_FIELDS)}
        if not any(obj.values()):
            continue
        if "sample" in obj:
            try:
                obj["sample"] = int(obj["sample"])
            except ValueError:
                raise InputError(f"{path}:{start}: column `sample` must be an integer, got "
                                 f"{obj['sample']!r}") from None
        yield start, obj


def iter_rows(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line, object)`` of a JSONL file (``-`` = stdin), or of a CSV/TSV file (by suffix)."""
    delimiter = TABLE_SUFFIXES.get(Path(str(path)).suffix.lower())
    if delimiter is not None and str(path) != "-":
        return _table_rows(Path(path), delimiter)
    return iter_jsonl(path)


def _pair_sides(obj: dict[str, Any]) -> dict[str, dict[str, Any]] | None:
    """The two sides of a pair line: JSON objects, or a table row's ``reference``/``candidate``
    text columns (``reference_header``/``candidate_header`` beside them)."""
    if isinstance(obj.get("reference"), dict) and isinstance(obj.get("candidate"), dict):
        return {"reference": obj["reference"], "candidate": obj["candidate"]}
    if isinstance(obj.get("reference"), str) and isinstance(obj.get("candidate"), str):
        return {side: {"statement": obj[side], "header": obj.get(f"{side}_header")}
                for side in ("reference", "candidate")}
    return None


def read_pair_table(path: str | Path) -> list[Pair]:
    """The pairs of a CSV/TSV pair table: columns ``id``, ``reference``, ``candidate``,
    optionally ``reference_header``, ``candidate_header``, ``label`` (``true``/``false``)
    and ``informal``; other columns are refused, as in a pair file."""

    allowed = {"id", "reference", "candidate", "reference_header", "candidate_header", "label",
               "informal"}
    pairs: list[Pair] = []
    seen: dict[str, int] = {}
    for number, obj in iter_rows(path):
        unknown = sorted(set(obj) - allowed)
        if unknown:  # the columns are named on the header row
            raise InputError(f"{path}:1: unknown column(s) {', '.join(unknown)}; a pair "
                             f"table has {', '.join(sorted(allowed))}")
        sides = _pair_sides(obj)
        if sides is None:
            raise InputError(f"{path}:{number}: a pair row needs `reference` and `candidate`")
        label = obj.get("label")
        if label is not None:
            if label.lower() not in ("true", "false"):
                raise InputError(f"{path}:{number}: column `label` must be true or false, got "
                                 f"{label!r}")
            label = label.lower() == "true"
        pair = validate_pair({"id": obj.get("id", ""), **sides, "label": label,
                              "informal": obj.get("informal")}, path, number)
        if pair.id in seen:
            raise InputError(f"{path}:{number}: duplicate id {pair.id!r} (first on line "
                             f"{seen[pair.id]})")
        seen[pair.id] = number
        pairs.append(pair)
    return pairs


def read_pair_file(path: str | Path) -> list[Pair]:
    """The pairs of a pair file: a CSV/TSV pair table by its suffix
    (:func:`read_pair_table`), else JSONL (``-`` = stdin; :func:`transted.reading.pairs.read_pairs`)."""
    if Path(str(path)).suffix.lower() in TABLE_SUFFIXES and str(path) != "-":
        return read_pair_table(path)
    return read_pairs(path)


def read_records(path: str | Path, *, side: Side, text_field: str | None = None
                 ) -> list[Record]:
    """Every statement of ``path`` (``-`` = stdin; JSONL, CSV or TSV) in file order; pair
    lines give ``side``. ``text_field``: the field holding the text (default: the first of
    :data:`TEXT_FIELDS` a line has)."""
    records: list[Record] = []
    for number, obj in iter_rows(path):
        where = f"{path}:{number}"
        keys = {k: str(obj[k]) for k in obj if obj.get(k) is not None
                and isinstance(obj[k], (str, int)) and not isinstance(obj[k], bool)}
        sides = _pair_sides(obj) if text_field is None else None
        if sides is not None:
            st = sides[side]
            if not isinstance(st.get("statement"), str):
                raise InputError(f"{where}: field `{side}.statement` must be a string")
            records.append(_record(keys, st["statement"], st.get("header"), None, where, side))
            continue
        texts = _texts(obj, where, side, text_field)
        sample = obj.get("sample")
        if sample is not None and (not isinstance(sample, int) or len(texts) > 1):
            raise InputError(f"{where}: field `sample` must be an integer index of one text")
        header = obj.get("header")
        for i, text in enumerate(texts):
            records.append(_record(keys, text, header, sample if len(texts) == 1 else i, where,
                                   side))
    return records


def _auto_key(records: Sequence[Record]) -> str | None:
    return next((n for n in KEY_FIELDS if all(n in r.keys for r in records)), None)


def _choose_keys(refs: Sequence[Record], cands: Sequence[Record], key: str | None,
                 reference_key: str | None, candidate_key: str | None) -> tuple[str, str]:
    """The join field of each side: ``key`` for both, or one per side (a side not named uses
    the first of ``id``, ``name`` its every line has); with none named, the first of ``id``,
    ``name`` that every line of both sides has. No such field is an error naming what each
    side has."""
    if key is not None and (reference_key is not None or candidate_key is not None):
        raise ValueError("give `key` (both sides) or `reference_key`/`candidate_key`, not both")
    if key is None and reference_key is None and candidate_key is None:
        for name in KEY_FIELDS:
            if all(name in r.keys for r in (*refs, *cands)):
                return name, name
        raise InputError(
            "no key common to both files (id or name on every line): the references' lines "
            f"all have {_common_fields(refs) or 'no common field'}, the candidates' "
            f"{_common_fields(cands) or 'no common field'}; name the join fields with "
            "--reference-key/--candidate-key (or --key for both), or join by line order with "
            "--by-line-order")
    chosen = []
    for records, named, side in ((refs, reference_key or key, "reference"),
                                 (cands, candidate_key or key, "candidate")):
        field_name = named or _auto_key(records)
        if field_name is None:
            raise InputError(f"no id or name field on every {side} line: give "
                             f"--{side}-key too")
        option = "--key" if key is not None else f"--{side}-key"
        for r in records:
            if field_name not in r.keys:
                raise InputError(f"{r.where}: no `{field_name}` field to join on "
                                 f"({option} {field_name}); this {side} line has "
                                 f"{', '.join(f'`{k}`' for k in r.keys) or 'no key field'}")
        chosen.append(field_name)
    return chosen[0], chosen[1]


def _common_fields(records: Sequence[Record]) -> str:
    if not records:
        return ""
    common = [k for k in records[0].keys if all(k in r.keys for r in records)]
    return ", ".join(f"`{k}`" for k in common if k not in TEXT_FIELDS and k != "header")


def _samples(cand_keys: Sequence[str], cands: Sequence[Record]
             ) -> dict[str, list[tuple[int, Record]]]:
    """Each key's candidates as ``(index, record)``: the index is the position among the
    key's candidates, in file order, or ordered by their ``sample`` fields when every one has
    one (a ``sample`` given twice for one key is an error)."""
    grouped: dict[str, list[Record]] = {}
    for k, c in zip(cand_keys, cands, strict=True):
        group = grouped.setdefault(k, [])
        if c.sample is not None and any(c.sample == g.sample for g in group):
            raise InputError(f"{c.where}: sample {c.sample} of key {k!r} given twice")
        group.append(c)
    out = {}
    for k, group in grouped.items():
        if all(c.sample is not None for c in group):
            group = sorted(group, key=lambda c: c.sample)  # type: ignore[arg-type, return-value]
        out[k] = list(enumerate(group))
    return out


def join(refs: Sequence[Record], cands: Sequence[Record], *, key: str | None = None,
         reference_key: str | None = None, candidate_key: str | None = None,
         line_order: bool = False) -> Joined:
    """Pairs of each reference with each of its candidates (see the module docstring).
    ``line_order``: the n-th candidate line goes with the n-th reference line (no key)."""
    if line_order:
        if key is not None or reference_key is not None or candidate_key is not None:
            raise ValueError("line order joins without a key: give no key with it")
        ref_keys = [str(i) for i in range(1, len(refs) + 1)]
        cand_keys = [str(i) for i in range(1, len(cands) + 1)]
        used = "line"
    else:
        ref_field, cand_field = _choose_keys(refs, cands, key, reference_key, candidate_key)
        ref_keys = [r.keys[ref_field] for r in refs]
        cand_keys = [c.keys[cand_field] for c in cands]
        used = ref_field if ref_field == cand_field else f"{ref_field} = {cand_field}"
    by_key: dict[str, Record] = {}
    for k, r in zip(ref_keys, refs, strict=True):
        if k in by_key:
            raise InputError(f"{r.where}: duplicate reference key {k!r} (first at "
                             f"{by_key[k].where})")
        by_key[k] = r
    samples = _samples(cand_keys, cands)
    pairs = []
    for k, group in samples.items():
        if k not in by_key:
            continue
        r = by_key[k]
        for index, c in group:
            meta: dict[str, Any] = {"key": k, "sample": index, "reference_at": r.where,
                                    "candidate_at": c.where}
            if c.sample is not None and c.sample != index:
                meta["sample_field"] = c.sample
            pairs.append(Pair(
                id=f"{k}#{index}",
                reference=Statement(statement=r.statement, header=r.header),
                candidate=Statement(statement=c.statement, header=c.header), meta=meta))
    return Joined(pairs, used,
                  unmatched_references=[k for k in by_key if k not in samples],
                  unmatched_candidates=[k for k in samples if k not in by_key])


def join_files(references: str | Path, candidates: str | Path, *, key: str | None = None,
               reference_key: str | None = None, candidate_key: str | None = None,
               line_order: bool = False, text_field: str | None = None) -> Joined:
    """:func:`join` of a references file and a candidates file; ``text_field`` names the
    candidates' text field (:func:`read_records`)."""
    return join(read_records(references, side="reference"),
                read_records(candidates, side="candidate", text_field=text_field), key=key,
                reference_key=reference_key, candidate_key=candidate_key,
                line_order=line_order)
