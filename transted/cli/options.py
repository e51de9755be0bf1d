"""Options every command spells the same way: ``-m`` (repeatable, comma lists too), ``-O key=value``
(checked against the metric's declared options), ``--format text|json|jsonl`` (``--json`` kept as
a hidden alias), ``--out`` (``-`` or absent = stdout) and ``-`` for stdin."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer

from transted.executors.local import POOL_PAYS_OFF_SECONDS

__all__ = ["FORMATS", "metric_list", "metric_options", "output_format", "FormatOption",
           "JsonAlias", "MetricOption", "OptionOption", "is_stdout", "metric_specs", "load_metrics",
           "ConventionOption"]

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


def ConventionOption() -> Any:  # noqa: N802
    return typer.Option(None, "--convention", metavar="strict|lenient",
                        help="Label convention of the verdicts: strict = mutual provability "
                             "(the default), lenient = the GTED labels' reading (docs/VERDICTS.md);"
                             " applies to every metric that has one (in its signature).")


def PairTimeoutOption() -> Any:  # noqa: N802
    return typer.Option(None, "--pair-timeout", min=0.001, metavar="S",
                        help="Hard wall-clock seconds per pair: pairs run in a worker process, "
                             "killed past S; such a pair is re-run alone, then gets status "
                             "timeout (no score) and the batch goes on.")


def JobsOption() -> Any:  # noqa: N802
    return typer.Option(None, "--jobs", "-j", min=0, metavar="N", show_default=False,
                        help="Worker processes. Default: every core, with the pool started only "
                             "once the batch is projected to take over "
                             f"{POOL_PAYS_OFF_SECONDS:g} s in one process; 1 = this process; "
                             "0 = every core at once. Ray: actors (default: the cluster's CPUs). "
                             "Results stay in input order and resumable (docs/SCALE.md).")


def ExecutorOption() -> Any:  # noqa: N802
    return typer.Option("local", "--executor", metavar="local|ray",
                        help="Where workers run: local processes, or Ray tasks (extra `ray`).")


def RayAddressOption() -> Any:  # noqa: N802
    return typer.Option(None, "--ray-address", metavar="ADDR",
                        help="Ray cluster to join (default: a local Ray for --executor ray).")


@contextmanager
def batch_executor(jobs: int | None, executor: str, ray_address: str | None,
                   pair_timeout: float | None) -> Iterator[Any]:
    """The executor the flags ask for (:func:`transted.executors.executor_for`; None: score in
    this process), shut down on leaving; it carries ``--pair-timeout``. A refused flag is a
    usage error naming it."""
    from transted.executors import EXECUTORS, executor_for

    if executor not in EXECUTORS:
        raise typer.BadParameter(f"must be one of {', '.join(EXECUTORS)}, got {executor!r}",
                                 param_hint="--executor")
    if ray_address is not None and executor != "ray":
        raise typer.BadParameter("--ray-address needs --executor ray", param_hint="--ray-address")
    pool = executor_for(jobs, executor, ray_address=ray_address, pair_timeout=pair_timeout)
    if pool is None:
        yield None
        return
    with pool:
        yield pool


def output_format(fmt: str, as_json: bool = False, *, allowed: tuple[str, ...] = FORMATS) -> str:
    """The one format of a command; ``--json`` means ``json``. A refused value exits with 2."""
    fmt = "json" if as_json else fmt
    if fmt not in allowed:
        raise typer.BadParameter(f"must be one of {', '.join(allowed)}, got {fmt!r}",
                                 param_hint="--format")
    return fmt


def metric_list(values: list[str] | None) -> list[str]:
    """``["ted,bleu", "identity"]`` → ``["ted", "bleu", "identity"]``; empty or repeated names
    are a usage error. A ``name:key=value,key=value`` spec stays one item (its options)."""
    names: list[str] = []
    for value in values or []:
        for chunk in (c.strip() for c in value.split(",")):
            if not chunk:
                continue
            if "=" in chunk and ":" not in chunk[: chunk.index("=")]:
                if not names or "=" not in names[-1]:
                    raise typer.BadParameter(f"option {chunk!r} does not follow a "
                                             "name:key=value metric", param_hint="--metric")
                names[-1] += "," + chunk  # a further option of the spec before it
            else:
                names.append(chunk)
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


def _split_spec(spec: str) -> tuple[str, list[str]]:
    """``"ted:cost=semantic,normalize=false"`` → ``("ted", ["cost=semantic", ...])``; the
    name may itself hold ``:`` (``published:gted``), so it ends at the last ``:`` before the
    first ``=``."""
    if "=" not in spec:
        return spec, []
    colon = spec.rfind(":", 0, spec.index("="))
    return spec[:colon], [item for item in spec[colon + 1:].split(",") if item]


def metric_specs(values: list[str] | None) -> list[tuple[str, dict[str, object]]]:
    """``-m`` values → ``[(name, options)]``: ``-m ted:cost=semantic -m bleu`` →
    ``[("ted", {"cost": "semantic"}), ("bleu", {})]``."""
    specs = []
    for spec in metric_list(values):
        name, items = _split_spec(spec)
        try:
            specs.append((name, metric_options(items)))
        except typer.BadParameter as e:
            raise typer.BadParameter(f"{spec!r}: {e.message}", param_hint="--metric") from e
    return specs


def load_metrics(values: list[str] | None, extra: dict[str, object] | None = None, *,
                 distinct_names: bool = False, convention: str | None = None) -> list[Any]:
    """The metric objects of ``-m`` (per-metric ``name:key=value`` options over ``extra``,
    the ``-O`` options), each checked by the registry's option validation (an unknown name or
    option is a ``ValueError`` naming it → exit 2). ``distinct_names``: refuse the same metric
    twice (commands that file results by metric name). ``convention`` (``--convention``) goes
    to every metric that declares the option, unless its own spec sets it."""
    from transted.api import load_metric
    from transted.metrics.options import declared_options
    from transted.metrics.registry import metric_class

    specs = metric_specs(values)
    if convention is not None:
        specs = [(name, {"convention": convention, **options}
                  if "convention" in declared_options(metric_class(name)) else options)
                 for name, options in specs]
    if distinct_names:
        names = [name for name, _ in specs]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise typer.BadParameter(f"{', '.join(repeated)} given twice (results are filed by "
                                     "metric name; run it again with another --out)",
                                     param_hint="--metric")
    return [load_metric(name, **{**(extra or {}), **options}) for name, options in specs]


def is_stdout(out: Path | str | None) -> bool:
    return out is None or str(out) == "-"
