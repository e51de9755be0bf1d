"""Reproducibility signatures, in the manner of sacrebleu's ``Signature``.

A signature is an ordered list of ``key:value`` fields joined by ``|``, e.g.
``metric:ted|transted:0.1.0|v:1|parser:1|notation:bundled-1a2b3c4d|proposition:yes|…``. Two
scores with the same signature were made the same way; every reported score carries one.

One builder makes every signature (:meth:`Signature.build`); the fields describing how a
statement becomes a tree come from one function (:func:`tree_fields`), so the ``ted`` command,
``score -m ted``, ``search`` and ``eval`` print the same string for the same computation.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Protocol

__all__ = ["Signature", "format_value", "tree_fields", "notation_fields", "NOTATION_ENV",
           "signature_hash"]

NOTATION_ENV = "TRANSTED_NOTATION"
"""Environment variable naming a user notation table (read by :mod:`transted.opt.notation`)."""


class TreeOptions(Protocol):
    @property
    def proposition(self) -> bool: ...
    @property
    def split_binders(self) -> bool: ...
    @property
    def canonical_names(self) -> bool: ...


def format_value(value: object) -> str:
    """Render an option value compactly and stably (bools as yes/no, None as none)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return ",".join(format_value(v) for v in value)
    return str(value).replace("|", "/")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:8]


def signature_hash(full: str) -> str:
    """The 8 hex digits naming a full signature string in its short form (SHA-256 prefix)."""
    return _digest(full.encode("utf-8"))


@lru_cache(maxsize=1)
def _bundled_notation() -> str:
    return "bundled-" + _digest(resources.files("transted.opt").joinpath("notation.yaml").read_bytes())


@lru_cache(maxsize=8)
def _user_notation(path: str, _mtime_ns: int, _size: int) -> str:
    return f"{Path(path).name}-{_digest(Path(path).read_bytes())}"


def notation_fields(extra: str | None = None) -> dict[str, str]:
    """``{"notation": "bundled-<hash>[+<file>-<hash>]"}``: the packaged notation table and the
    user extension (``extra`` or ``$TRANSTED_NOTATION``), each named with its content hash."""
    value = _bundled_notation()
    extra = extra or os.environ.get(NOTATION_ENV)
    if extra:
        try:
            stat = os.stat(extra)
        except OSError:  # the parser reports the unreadable file; name it as given here
            return {"notation": f"{value}+{Path(extra).name}-unreadable"}
        value += "+" + _user_notation(os.path.abspath(extra), stat.st_mtime_ns, stat.st_size)
    return {"notation": value}


def tree_fields(options: TreeOptions, *, field: str = "statement") -> dict[str, object]:
    """How a statement became an operator tree: extraction rules (which text of a raw output is
    read, and when it is invalid), parser version, notation table, tree shape and which text
    was parsed. Every tree-based metric and command puts exactly these fields."""
    from transted.extraction.statement import EXTRACTION_VERSION
    from transted.opt import PARSER_VERSION
    from transted.opt.elaborate import ELABORATION_VERSION, tables_version
    from transted.opt.normalize import NORMALIZE_VERSION, load_tables

    normalize = getattr(options, "normalize", False)
    norm = f"{NORMALIZE_VERSION}-{load_tables().sha256[:12]}" if normalize else "off"
    return {"extract": EXTRACTION_VERSION, "parser": PARSER_VERSION, **notation_fields(),
            "proposition": options.proposition, "split-binders": options.split_binders,
            "canonical-names": options.canonical_names, "norm": norm,
            "elab": f"{ELABORATION_VERSION}-{tables_version()}", "field": field}


@dataclass(frozen=True)
class Signature:
    """Ordered ``key:value`` fields describing how a score was made."""

    metric: str
    fields: tuple[tuple[str, str], ...] = field(default_factory=tuple)

    @classmethod
    def build(cls, metric: str, options: Mapping[str, object]) -> Signature:
        """The one builder: ``metric``, the transted version, then ``options`` in order."""
        from transted.version import __version__

        items = [("transted", __version__)]
        items += [(k, format_value(v)) for k, v in options.items()]
        return cls(metric, tuple(items))

    def __str__(self) -> str:
        return "|".join([f"metric:{self.metric}"] + [f"{k}:{v}" for k, v in self.fields])

    def as_dict(self) -> dict[str, str]:
        return {"metric": self.metric, **dict(self.fields)}

    def short(self, default: Signature | None = None) -> str:
        """The short form, as sacrebleu prints one: the metric, the transted version, the
        fields that differ from ``default`` (the same metric with default options; a field
        ``default`` lacks counts as differing, one only ``default`` has shows as ``key:-``)
        and ``hash:<8 hex>`` of the full string, which names it exactly."""
        base = dict(default.fields) if default is not None and default.metric == self.metric \
            else None
        mine = dict(self.fields)
        parts = [f"metric:{self.metric}", f"transted:{mine.get('transted', '?')}"]
        if base is None:
            parts.append("options:see-full")
        else:
            parts += [f"{k}:{v}" for k, v in self.fields
                      if k != "transted" and base.get(k) != v]
            parts += [f"{k}:-" for k in base if k not in mine]
        return "|".join([*parts, f"hash:{signature_hash(str(self))}"])

    @classmethod
    def parse(cls, text: str) -> Signature:
        parts = [p.split(":", 1) for p in text.split("|")]
        if not parts or parts[0][0] != "metric" or any(len(p) != 2 for p in parts):
            raise ValueError(f"`text` is not a transted signature: {text!r}")
        return cls(parts[0][1], tuple((k, v) for k, v in parts[1:]))
