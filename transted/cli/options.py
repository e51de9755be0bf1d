"""Options every command spells the same way: ``-m`` (repeatable, comma lists too), ``-O key=value``
(checked against the metric's declared options), ``--format text|json|jsonl`` (``--json`` kept as
a hidden alias), ``--out`` (``-`` or absent = stdout) and ``-`` for stdin."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

__all__ = ["FORMATS", "metric_list", "metric_options", "output_format", "FormatOption",
           "JsonAlias", "MetricOption", "OptionOption", "is_stdout"]

FORMATS = ("text", "json", "jsonl")


def FormatOption(default: str = "text") -> Any:  # noqa: N802 - reads as a typer option
    return typer.Option(default, "--format", help="Output format: text | json | jsonl.")


def JsonAlias() -> Any:  # noqa: N802
    return typer.Option(False, "--json", hidden=True, help="Same as --format json.")


def MetricOption(default: list[str] | None, help_text: str = "") -> Any:  # noqa: N802
    return typer.Option(default, "--metric", "--metrics", "-m",
                        help=help_text or "Metric name (repeatable, or a comma list), e.g. -m ted -m bleu.")


def OptionOption() -> Any:  # noqa: N802
    return typer.Option([], "--option", "-O",
                        help="Metric option key=value (repeatable); `transted metrics` lists them.")


def output_format(fmt: str, as_json: bool = False, *, allowed: tuple[str, ...] = FORMATS) -> str:
    """The one format of a command; ``--json`` means ``json``. A refused value exits with 2."""
    fmt = "json" if as_json else fmt
    if fmt not in allowed:
        raise typer.BadParameter(f"must be one of {', '.join(allowed)}, got {fmt!r}",
                                 param_hint="--format")
    return fmt


def metric_list(values: list[str] | None) -> list[str]:
    """``["ted,bleu", "identity"]`` → ``["ted", "bleu", "identity"]``; empty or repeated names
    are a usage error."""
    names = [n.strip() for v in values or [] for n in v.split(",") if n.strip()]
    if not names:
        raise typer.BadParameter("give at least one metric name", param_hint="--metric")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise typer.BadParameter(f"{', '.join(repeated)} given more than once",
                                 param_hint="--metric")
    return names


def metric_options(items: list[str]) -> dict[str, object]:
    """``key=value`` strings → kwargs; values are read as JSON when they parse (``true``, ``3``).
    Names are checked by the library (``get_metric``) against the metric's declared options."""
    options: dict[str, object] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"expected key=value, got {item!r}", param_hint="--option")
        try:
            options[key.replace("-", "_")] = json.loads(raw)
        except json.JSONDecodeError:
            options[key.replace("-", "_")] = raw
    return options


def is_stdout(out: Path | str | None) -> bool:
    return out is None or str(out) == "-"
