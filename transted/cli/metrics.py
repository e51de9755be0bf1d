"""``transted metrics``: every registered metric with its declared options, defaults and the
fields of its signature (from a default instance; a metric that cannot be built here says why)."""

from __future__ import annotations

from typing import Any

import typer

from transted.cli.console import console, print_json
from transted.cli.options import FormatOption, output_format
from transted.errors import TranstedError
from transted.metrics.options import declared_options
from transted.metrics.registry import METRICS, PUBLISHED_PREFIX, get_metric, metric_class

__all__ = ["register", "metrics_command", "describe_metrics"]

def describe_metrics() -> list[dict[str, Any]]:
    """``[{name, options: [{name, type, default}], signature_fields | unavailable}]``."""
    rows = []
    for name in [*sorted(METRICS), PUBLISHED_PREFIX + "<key>"]:
        row: dict[str, Any] = {"name": name}
        try:
            cls = metric_class(name)
        except (ImportError, ValueError) as e:
            rows.append({**row, "options": [], "unavailable": str(e)})
            continue
        row["options"] = [{"name": s.name, "type": s.annotation,
                           "default": None if s.required else _plain(s.default),
                           "required": s.required}
                          for s in declared_options(cls).values()]
        if name.startswith(PUBLISHED_PREFIX):
            row["signature_fields"] = ["metric", "transted", "v", "key"]
        else:
            try:
                row["signature_fields"] = list(get_metric(name).signature.as_dict())
            except (TranstedError, ImportError, OSError, ValueError) as e:
                row["unavailable"] = f"{type(e).__name__}: {e}"
        rows.append(row)
    return rows

def _plain(value: Any) -> Any:
    return value if isinstance(value, (str, int, float, bool, type(None))) else repr(value)


def metrics_command(fmt: str | None = FormatOption()) -> int:
    """List every metric with its options (-O key=value), defaults and signature fields."""
    fmt = output_format(fmt)
    rows = describe_metrics()
    if fmt == "json":
        print_json(rows)
        return 0
    if fmt == "jsonl":
        for row in rows:
            print_json(row, indent=False)
        return 0
    for row in rows:
        console.print(f"[bold]{row['name']}[/]", highlight=False)
        for opt in row["options"]:
            default = "required" if opt["required"] else f"default {opt['default']!r}"
            console.print(f"  -O {opt['name']}=…  ({opt['type']}; {default})", markup=False,
                          highlight=False)
        if "signature_fields" in row:
            console.print("  signature: " + "|".join(row["signature_fields"]), soft_wrap=True, markup=False,
                          highlight=False)
        if "unavailable" in row:
            console.print(f"  (not loadable here: {row['unavailable']})", markup=False,
                          highlight=False)
    return 0

def register(app: typer.Typer) -> None:
    """Add ``metrics`` to the transted CLI."""
    app.command("metrics")(metrics_command)
