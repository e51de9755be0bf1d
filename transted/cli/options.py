"""Options every command spells the same way: ``-m`` (repeatable, comma lists too), ``-O key=value``
(checked against the metric's declared options), ``--format text|json|jsonl`` (``--json`` kept as
a hidden alias; also before the subcommand), ``--signature short|full``, ``--quiet`` (before or
after the subcommand: :class:`TranstedGroup` adds it to every command), ``--out`` (``-`` or
absent = stdout) and ``-`` for stdin."""

from __future__ import annotations

import difflib
import functools
import inspect
import json
from collections.abc import Callable
from dataclasses import fields
from functools import lru_cache
from pathlib import Path
from typing import Any

import typer

from transted.cli.console import FORMATS, SIGNATURE_FORMS, state
from transted.errors import TranstedError
from transted.loading import collector_paused, keep_loaded
from transted.metrics.options import declared_options
from transted.metrics.registry import get_metric, metric_class
from transted.running.executors.run_options import POOL_PAYS_OFF_SECONDS, RunOptions
from transted.signature import Signature

__all__ = ["FORMATS", "SIGNATURE_FORMS", "metric_list", "metric_options", "output_format",
           "FormatOption", "JsonAlias", "MetricOption", "OptionOption", "SignatureOption",
           "KeyOption", "ReferenceKeyOption", "CandidateKeyOption", "LineOrderOption",
           "TextFieldOption", "signature_form", "choice", "with_run_options", "RUN_FLAGS",
           "is_stdout", "metric_specs", "load_metrics", "signature_text",
           "ConventionOption"]


def FormatOption() -> Any:  # noqa: N802 - reads as a typer option
    return typer.Option(None, "--format", metavar="text|json|jsonl",
                        help="Output format: text | json | jsonl (also accepted before the "
                             "subcommand).", show_default=False)


def SignatureOption() -> Any:  # noqa: N802
    return typer.Option(None, "--signature", metavar="short|full", show_default=False,
                        help="How the signature is printed: short (the default: the options "
                             "that differ from the metric's defaults and a hash of the full "
                             "signature) or full. Result files always hold the full one.")


def JsonAlias() -> Any:  # noqa: N802
    return typer.Option(False, "--json", hidden=True, help="Same as --format json.")


def MetricOption(default: list[str] | None, help_text: str = "") -> Any:  # noqa: N802
    return typer.Option(default, "--metric", "--metrics", "-m",
                        help=help_text or "Metric name (repeatable, or a comma list), e.g. -m ted -m bleu.")


def OptionOption() -> Any:  # noqa: N802
    return typer.Option([], "--option", "-O",
                        help="Metric option key=value (repeatable); `transted metrics` lists them.")


def KeyOption() -> Any:  # noqa: N802
    return typer.Option(None, "--key", metavar="FIELD",
                        help="Join field of both sides (default: id, then name, on every line "
                             "of both files).")


def ReferenceKeyOption() -> Any:  # noqa: N802
    return typer.Option(None, "--reference-key", metavar="FIELD",
                        help="Join field of the references, when the sides name it differently.")


def CandidateKeyOption() -> Any:  # noqa: N802
    return typer.Option(None, "--candidate-key", metavar="FIELD",
                        help="Join field of the candidates (outputs), e.g. problem_id.")


def TextFieldOption() -> Any:  # noqa: N802
    return typer.Option(None, "--text-field", metavar="FIELD",
                        help="Field of the candidates (outputs) holding the text (default: the "
                             "first of statement, candidate, output, prediction, completion, "
                             "response a line has).")


def LineOrderOption() -> Any:  # noqa: N802
    return typer.Option(False, "--by-line-order",
                        help="Join by line order (the n-th output goes with the n-th "
                             "reference), never done unless asked.")


def TheoremOption() -> Any:  # noqa: N802
    return typer.Option(None, "--theorem", metavar="NAME",
                        help="Take the theorem NAME from candidate texts with several (default: "
                             "the one named like the reference's, else the last); metrics that "
                             "read Lean statements.")


def ConventionOption() -> Any:  # noqa: N802
    return typer.Option(None, "--convention", metavar="strict|lenient",
                        help="Label convention of the verdicts: strict = mutual provability "
                             "(the default), lenient = the GTED labels' reading (docs/VERDICTS.md);"
                             " applies to every metric that has one (in its signature).")


RUN_FLAGS = {"jobs": "--jobs", "executor": "--executor", "ray_address": "--ray-address",
             "pair_timeout": "--pair-timeout", "out": "--out", "resume": "--resume"}
"""The flag of each :class:`~transted.running.executors.run_options.RunOptions` field."""


def _run_parameters(out_help: str, out_required: bool) -> dict[str, tuple[Any, Any]]:
    """``name → (annotation, typer option)`` of every RunOptions field; the defaults are the
    record's own."""
    d = RunOptions()
    return {
        "out": (str | None, typer.Option(... if out_required else d.out, "--out", "-o",
                                         metavar="PATH", help=out_help)),
        "resume": (bool, typer.Option(d.resume, "--resume/--no-resume",
                                      help="Keep the results already in --out (a re-run "
                                           "scores only the pairs not done).")),
        "pair_timeout": (float | None, typer.Option(
            d.pair_timeout, "--pair-timeout", min=0.001, metavar="S",
            help="Hard wall-clock seconds per pair: pairs run in a worker process, killed "
                 "past S; such a pair is re-run alone, then gets status timeout (no score) "
                 "and the batch goes on.")),
        "jobs": (int | None, typer.Option(
            d.jobs, "--jobs", "-j", min=0, metavar="N", show_default=False,
            help="Worker processes. Default: every core, with the pool started only once the "
                 f"batch is projected to take over {POOL_PAYS_OFF_SECONDS:g} s in one process; "
                 "1 = this process; 0 = every core at once. Ray: actors (default: the "
                 "cluster's CPUs). Results stay in input order and resumable (docs/SCALE.md).")),
        "executor": (str, typer.Option(d.executor, "--executor", metavar="local|ray",
                                       help="Where workers run: local processes, or Ray "
                                            "tasks (extra `ray`).")),
        "ray_address": (str | None, typer.Option(
            d.ray_address, "--ray-address", metavar="ADDR",
            help="Ray cluster to join (default: a local Ray for --executor ray).")),
    }


def with_run_options(*, out_help: str, out_required: bool = False
                     ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A command taking ``run: RunOptions`` gets the run flags (``--jobs``, ``--executor``,
    ``--ray-address``, ``--pair-timeout``, ``--out``, ``--resume``), declared once here from
    the record's fields and defaults; ``out_help`` says what ``--out`` is for that command. A
    refused value is a usage error naming its flag."""
    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(command)
        declared = _run_parameters(out_help, out_required)
        assert set(declared) == {f.name for f in fields(RunOptions)}
        own = [p for p in signature.parameters.values() if p.name != "run"]
        added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option,
                                   annotation=annotation)
                 for name, (annotation, option) in declared.items()]

        @functools.wraps(command)
        def run_command(*args: Any, **kwargs: Any) -> Any:
            values = {name: kwargs.pop(name) for name in declared}
            try:
                run = RunOptions(**values)
            except ValueError as e:
                raise typer.BadParameter(_flags(str(e))) from None
            return command(*args, run=run, **kwargs)

        run_command.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[*own, *added])
        run_command.__annotations__ = {
            **{k: v for k, v in command.__annotations__.items() if k != "run"},
            **{name: annotation for name, (annotation, _) in declared.items()}}
        return run_command
    return decorate


def _flags(message: str) -> str:
    for name, flag in RUN_FLAGS.items():
        message = message.replace(f"`{name}`", flag)
    return message


def output_format(fmt: str | None, as_json: bool = False, *,
                  allowed: tuple[str, ...] = FORMATS, default: str = "text") -> str:
    """The one format of a command: its own ``--format``, else the one given before the
    subcommand, else ``default``; ``--json`` means ``json``. A refused value exits with 2."""
    fmt = "json" if as_json else fmt or state.format or default
    if fmt not in allowed:
        raise typer.BadParameter(f"must be one of {', '.join(allowed)}, got {fmt!r}",
                                 param_hint="--format")
    return fmt


def choice(value: str | None, allowed: tuple[str, ...] | list[str], option: str) -> None:
    """A usage error (exit 2) naming ``option`` unless ``value`` is None or one of
    ``allowed`` (with the nearest one as a hint)."""
    if value is None or value in allowed:
        return
    near = difflib.get_close_matches(value, list(allowed), n=1)
    hint = f" (did you mean {near[0]}?)" if near else ""
    raise typer.BadParameter(f"{value!r} is not one of {', '.join(allowed)}{hint}",
                             param_hint=option)


def signature_form(form: str | None) -> str:
    """The command's ``--signature`` (else the one before the subcommand, else short),
    checked; it becomes the form :func:`signature_text` prints."""
    form = form or state.signature
    if form not in SIGNATURE_FORMS:
        raise typer.BadParameter(f"must be one of {', '.join(SIGNATURE_FORMS)}, got {form!r}",
                                 param_hint="--signature")
    state.signature = form
    return form


def signature_text(made: Any) -> str:
    """The signature of ``made`` (a metric, or a result: anything with ``signature``) as
    ``--signature`` asks: short (the fields differing from the metric's defaults plus a hash
    of the full string) or full."""
    full = str(made.signature)
    if state.signature == "full":
        return full
    construction = getattr(made, "construction", None)
    name = construction[0] if construction else getattr(made, "name", None) or made.metric
    try:
        parsed = Signature.parse(full)
    except ValueError:  # not one of ours (a third-party metric's own format): as it is
        return full
    return parsed.short(_default_signature(name))


@lru_cache(maxsize=16)
def _default_signature(name: str) -> Any:
    """The signature of metric ``name`` with its default options (None if it cannot be built
    that way: the short form then says to see the full one)."""
    try:
        return Signature.parse(str(get_metric(name).signature))
    except (TranstedError, ImportError, OSError, ValueError, TypeError):
        return None


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
                 distinct_names: bool = False, theorem: str | None = None,
                 convention: str | None = None) -> list[Any]:
    """The metric objects of ``-m`` (per-metric ``name:key=value`` options over ``extra``,
    the ``-O`` options), each checked by the registry's option validation (an unknown name or
    option is a ``ValueError`` naming it → exit 2). ``distinct_names``: refuse the same metric
    twice (commands that file results by metric name). ``theorem`` (``--theorem``) and
    ``convention`` (``--convention``) go to every metric that declares the option, unless its
    own spec sets it."""
    specs = metric_specs(values)
    shared = {k: v for k, v in (("theorem", theorem), ("convention", convention))
              if v is not None}
    if shared:
        specs = [(name, {**{k: v for k, v in shared.items()
                            if k in declared_options(metric_class(name))}, **options})
                 for name, options in specs]
    if distinct_names:
        names = [name for name, _ in specs]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise typer.BadParameter(f"{', '.join(repeated)} given twice (results are filed by "
                                     "metric name; run it again with another --out)",
                                     param_hint="--metric")
    with collector_paused():
        metrics = [get_metric(name, **{**(extra or {}), **options}) for name, options in specs]
        keep_loaded()
    return metrics


def is_stdout(out: Path | str | None) -> bool:
    return out is None or str(out) == "-"
