"""The notation table: Lean operators as data (``notation.yaml``), loaded into lookup maps.

A user adds a notation by editing ``notation.yaml`` or by pointing ``TRANSTED_NOTATION`` (or the
``extra`` argument) at a YAML file with the same schema; the parser needs no change.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from transted import yaml_text
from transted.errors import InputError
from transted.pipeline.opt.labels import infix, postfix, prefix

__all__ = ["Operator", "NotationTable", "load_notation", "notation_fields", "NOTATION_ENV"]

MAX_PREC = 1024
NOTATION_ENV = "TRANSTED_NOTATION"
"""Environment variable naming a user notation table (read by :func:`load_notation`)."""


@dataclass(frozen=True)
class Operator:
    symbol: str
    kind: Literal["infix", "prefix", "postfix"]
    prec: int
    assoc: Literal["left", "right", "none"] = "none"
    arg: int = MAX_PREC
    label: str = ""
    source: str = ""

    @property
    def node_label(self) -> str:
        if self.label:
            return self.label
        if self.kind == "infix":
            return infix(self.symbol)
        if self.kind == "prefix":
            return prefix(self.symbol)
        return postfix(self.symbol)


@dataclass(frozen=True)
class NotationTable:
    infix: dict[str, Operator]
    prefix: dict[str, Operator]
    postfix: dict[str, Operator]
    aliases: dict[str, str]
    binder_body_prec: dict[str, int]
    version: str

    @property
    def symbols(self) -> set[str]:
        return set(self.infix) | set(self.prefix) | set(self.postfix) | set(self.aliases)


class _Entry(BaseModel):
    """One notation entry of the YAML file (schema in the file's header comment)."""

    model_config = ConfigDict(extra="forbid")

    symbol: str = Field(min_length=1)
    prec: int = Field(ge=0)
    assoc: Literal["left", "right", "none"] = "none"
    arg: int = Field(default=MAX_PREC, ge=0)
    label: str = ""
    aliases: list[str] = []
    source: str = ""


class _BodyPrec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    prec: int = Field(ge=0)
    source: str = ""


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid")

    infix: list[_Entry] = []
    prefix: list[_Entry] = []
    postfix: list[_Entry] = []
    binder_body_prec: dict[str, _BodyPrec] = {}


def _describe(path: Path | str, data: object, error: ValidationError) -> str:
    first = error.errors()[0]
    loc = list(first["loc"])
    where = ".".join(str(x) for x in loc[:2])
    entry: object = data
    for key in loc[:2]:
        try:
            entry = entry[key]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            entry = None
            break
    symbol = entry.get("symbol") if isinstance(entry, dict) else None
    field = ".".join(str(x) for x in loc[2:]) or str(loc[-1])
    named = f" (symbol {symbol!r})" if symbol else ""
    return f"{path}: {where}{named}: field {field!r}: {first['msg']}"


def _read(path: Path | str, text: str, table: dict) -> None:
    try:
        data = yaml_text.safe_load(text) or {}
    except yaml.YAMLError as e:
        raise InputError(f"{path}: invalid YAML: {e}") from e
    try:
        parsed = _File.model_validate(data)
    except ValidationError as e:
        raise InputError(_describe(path, data, e)) from None
    for kind in ("infix", "prefix", "postfix"):
        for entry in getattr(parsed, kind):
            op = Operator(symbol=entry.symbol, kind=kind, prec=entry.prec,  # type: ignore[arg-type]
                          assoc=entry.assoc, arg=entry.arg, label=entry.label,
                          source=entry.source)
            table[kind][op.symbol] = op
            for alias in entry.aliases:
                table["aliases"][alias] = op.symbol
    for sym, body in parsed.binder_body_prec.items():
        table["binder_body_prec"][sym] = body.prec


@lru_cache(maxsize=8)
def load_notation(extra: str | None = None) -> NotationTable:
    """Load the bundled table plus ``extra`` (a YAML path) or ``$TRANSTED_NOTATION``."""
    table: dict = {"infix": {}, "prefix": {}, "postfix": {}, "aliases": {}, "binder_body_prec": {}}
    bundled = resources.files("transted.pipeline.opt").joinpath("notation.yaml").read_text(encoding="utf-8")
    _read("notation.yaml", bundled, table)
    extra = extra or os.environ.get(NOTATION_ENV)
    version = "bundled"
    if extra:
        path = Path(extra)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise InputError(f"{path}: cannot read notation file: {e.strerror}") from e
        _read(path, text, table)
        version = f"bundled+{path.name}"
    return NotationTable(version=version, **table)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:8]


@lru_cache(maxsize=1)
def _bundled_notation() -> str:
    return "bundled-" + _digest(resources.files("transted.pipeline.opt").joinpath("notation.yaml")
                                .read_bytes())


@lru_cache(maxsize=8)
def _user_notation(path: str, _mtime_ns: int, _size: int) -> str:
    return f"{Path(path).name}-{_digest(Path(path).read_bytes())}"


def notation_fields(extra: str | None = None) -> dict[str, str]:
    """``{"notation": "bundled-<hash>[+<file>-<hash>]"}``: the packaged notation table and the
    user extension (``extra`` or ``$TRANSTED_NOTATION``), each named with its content hash
    (a signature field)."""
    value = _bundled_notation()
    extra = extra or os.environ.get(NOTATION_ENV)
    if extra:
        try:
            stat = os.stat(extra)
        except OSError:  # the parser reports the unreadable file; name it as given here
            return {"notation": f"{value}+{Path(extra).name}-unreadable"}
        value += "+" + _user_notation(os.path.abspath(extra), stat.st_mtime_ns, stat.st_size)
    return {"notation": value}
