"""Reproducibility signatures, in the manner of sacrebleu's ``Signature``.

A signature is an ordered list of ``key:value`` fields joined by ``|``, e.g.
``metric:ted|transted:0.1.0|v:1|parser:1|notation:bundled-1a2b3c4d|proposition:yes|…``. Two
scores with the same signature were made the same way; every reported score carries one.

One builder makes every signature (:meth:`Signature.build`); the fields describing how a
statement becomes a tree come from one function
(:func:`transted.pipeline.config.tree_fields`), so the ``ted`` command, ``score -m ted``,
``search`` and ``eval`` print the same string for the same computation.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from transted.version import __version__

__all__ = ["Signature", "format_value", "signature_hash"]


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


@dataclass(frozen=True)
class Signature:
    """Ordered ``key:value`` fields describing how a score was made."""

    metric: str
    fields: tuple[tuple[str, str], ...] = field(default_factory=tuple)

    @classmethod
    def build(cls, metric: str, options: Mapping[str, object]) -> Signature:
        """The one builder: ``metric``, the transted version, then ``options`` in order."""
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
