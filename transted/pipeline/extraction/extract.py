"""Raw translator output → the theorem to score, its context, and what was left out.

The steps: :mod:`~transted.pipeline.extraction.regions` finds the Lean code (fences, preamble and
trailing prose left out), :mod:`~transted.pipeline.extraction.commands` splits it into commands,
the theorem is chosen (a requested name, else the one named like the reference, else the only
or the last ``theorem``/``lemma``/``example``), :mod:`~transted.pipeline.extraction.context` gathers
what is in scope at it, and :mod:`~transted.pipeline.extraction.validity` says whether the output is
confidently invalid Lean 4. Proofs are dropped.
"""

from __future__ import annotations

from transted.errors import ResourceLimitError
from transted.pipeline.extraction.commands import (
    THEOREM_KEYWORDS,
    Command,
    LexProblem,
    lex,
    read_head,
    split_commands,
)
from transted.pipeline.extraction.context import context_at, context_kind
from transted.pipeline.extraction.model import (
    ChosenBy,
    Extraction,
    ProseSpan,
    Status,
    TheoremDeclaration,
    span_at,
)
from transted.pipeline.extraction.regions import Regions, find_regions
from transted.pipeline.extraction.validity import (
    context_problem,
    lean3_problem,
    lex_problem,
    problem_at,
    proof_warnings,
    theorem_problem,
)

__all__ = ["extract", "same_name", "DATA_STATEMENTS", "MAX_OUTPUT_CHARS", "EMPTY_OUTPUT"]

MAX_OUTPUT_CHARS = 1_000_000
"""Outputs longer than this are refused (the statement parser's own cap is 100,000)."""
EMPTY_OUTPUT = "the output is empty"
"""Why an empty or blank output (``""``, whitespace, JSON ``null``) is ``invalid``: a
translator that answered nothing gave a wrong answer, not one we cannot read."""
DATA_STATEMENTS = ("def", "abbrev", "instance")
"""Declarations read as the statement when the output has no theorem (as the parser does)."""


def same_name(a: str, b: str) -> bool:
    """``a`` and ``b`` name the same declaration up to namespace prefixes (``N.foo`` ~ ``foo``)."""
    return a == b or a.endswith("." + b) or b.endswith("." + a)


def extract(text: str, *, theorem: str | None = None,
            reference_name: str | None = None) -> Extraction:
    """The theorem to score in a raw LLM output ``text``.

    Parameters
    ----------
    text : the output as the translator produced it (markdown, prose, several declarations)
    theorem : the name of the theorem to take (``--theorem NAME``); an error if absent
    reference_name : the reference theorem's name, preferred when no ``theorem`` is given

    Returns
    -------
    Extraction
        ``status`` ``ok`` with the theorem, its context and what was left out; ``invalid``
        (not Lean 4, recognised with confidence) or ``error`` (nothing to score) with the
        positioned ``problem``.

    Raises
    ------
    TypeError
        if ``text`` is not a string.
    transted.errors.ResourceLimitError
        for an output over :data:`MAX_OUTPUT_CHARS`.
    """
    if not isinstance(text, str):
        raise TypeError(f"`text` must be a string, got {type(text).__name__}")
    if len(text) > MAX_OUTPUT_CHARS:
        raise ResourceLimitError(f"output of {len(text)} characters exceeds the cap of "
                                 f"{MAX_OUTPUT_CHARS}")
    if not text.strip():  # an empty answer is an answer (Lean parses no declaration from it)
        return Extraction(status="invalid", reason=EMPTY_OUTPUT,
                          problem=problem_at(text, 0, EMPTY_OUTPUT, "empty"))
    regions = find_regions(text)
    tokens, lex_problems = lex(regions.code)
    commands = split_commands(regions.code, tokens)
    notes = _region_warnings(text, regions) + _command_warnings(text, commands)
    prose = tuple(ProseSpan(role=role, span=span_at(text, a, b))  # type: ignore[arg-type]
                  for role, a, b in regions.prose)
    fences = tuple(f.lang for f in regions.fences)
    theorems = _statement_commands(regions.code, commands)
    if not theorems:
        return _no_theorem(text, commands, lex_problems, prose, notes).model_copy(
            update={"fences": fences})
    chosen = _choose(regions.code, commands, theorems, theorem, reference_name)
    if isinstance(chosen, str):
        names = ", ".join(_display(regions.code, commands[i]) for i in theorems)
        return Extraction(status="error", reason=chosen, prose=prose, fences=fences,
                          warnings=tuple(notes),
                          problem=problem_at(text, 0, f"{chosen} (found: {names})", None))
    index, chosen_by, why = chosen
    return _extraction(text, regions, commands, theorems, index, chosen_by, why,
                       lex_problems, prose, notes)


def _extraction(text: str, regions: Regions, commands: list[Command], theorems: list[int],
                index: int, chosen_by: ChosenBy, why: str, lex_problems: list[LexProblem],
                prose: tuple[ProseSpan, ...], notes: list[str]) -> Extraction:
    code, command = regions.code, commands[index]
    sig = read_head(code, command)
    scoped = context_at(text, code, commands, index)
    stmt_end = command.tokens[sig.end - 1].end
    context_commands = [c for c in commands[:index] if context_kind(c) is not None]
    problem = (lean3_problem(text, code, [*context_commands, command],
                             [f.lang for f in regions.fences])
               or lex_problem(text, lex_problems, command.keyword_start,
                              stmt_end if sig.body else len(text))
               or context_problem(text, context_commands)
               or theorem_problem(text, code, command, sig))
    name = sig.name
    full = f"{scoped.namespace}.{name}" if name and scoped.namespace else name
    decl = TheoremDeclaration(
        keyword=command.keyword,  # type: ignore[arg-type]
        name=name, full_name=full, statement=text[command.keyword_start:stmt_end],
        span=span_at(text, command.keyword_start, stmt_end), has_proof=sig.body is not None,
        declaration=text[command.keyword_start:command.end])
    warnings = notes + scoped.warnings + proof_warnings(text, command, sig, lex_problems)
    status: Status = "ok" if problem is None else "invalid" if problem.kind else "error"
    return Extraction(
        status=status, theorem=decl, chosen_by=chosen_by,
        reason=why if problem is None else problem.reason,
        context=tuple(scoped.declarations),
        other_theorems=tuple(_display(code, commands[i]) for i in theorems if i != index),
        prose=prose, fences=tuple(f.lang for f in regions.fences), warnings=tuple(warnings), problem=problem)


def _statement_commands(code: str, commands: list[Command]) -> list[int]:
    """The theorems, lemmas and examples; without any, the ``def``/``abbrev``/``instance``
    declarations with a type (ProofNet states some problems as ``def … : CommGroup G``)."""
    theorems = [i for i, c in enumerate(commands) if c.keyword in THEOREM_KEYWORDS]
    return theorems or [i for i, c in enumerate(commands) if c.keyword in DATA_STATEMENTS
                        and read_head(code, c).colon is not None]


def _display(code: str, command: Command) -> str:
    return read_head(code, command).name or command.keyword


def _choose(code: str, commands: list[Command], theorems: list[int], requested: str | None,
            reference: str | None) -> tuple[int, ChosenBy, str] | str:
    names = {i: read_head(code, commands[i]).name for i in theorems}
    if requested is not None:
        hits = [i for i in theorems if names[i] and same_name(names[i] or "", requested)]
        if not hits:
            return f"no theorem named {requested!r} in the output"
        return hits[-1], "requested", f"the theorem named {requested!r} was requested"
    if reference:
        hits = [i for i in theorems if names[i] and same_name(names[i] or "", reference)]
        if hits:
            return hits[-1], "reference-name", f"named like the reference ({reference!r})"
    noun = "theorem" if commands[theorems[0]].keyword in THEOREM_KEYWORDS else \
        "declaration with a type (no theorem)"
    if len(theorems) == 1:
        return theorems[0], "only", f"the only {noun} in the output"
    unmatched = f"; none is named like the reference ({reference!r})" if reference else ""
    named = [i for i in theorems if commands[i].keyword != "example"]
    if named and named[-1] != theorems[-1]:  # an `example` after the theorem checks it
        return named[-1], "last", (f"the last named {noun} of {len(theorems)}{unmatched}; "
                                   "an `example` after it is a check, not the answer")
    return theorems[-1], "last", f"the last {noun} of {len(theorems)}{unmatched}"


def _no_theorem(text: str, commands: list[Command], lex_problems: list[LexProblem],
                prose: tuple[ProseSpan, ...], notes: list[str]) -> Extraction:
    cut = lex_problem(text, lex_problems, 0, len(text))
    if cut is not None and cut.kind is not None:
        return Extraction(status="invalid", reason=cut.reason, prose=prose,
                          warnings=tuple(notes), problem=cut)
    found = sorted({c.keyword for c in commands if c.keyword != "?"})
    seen = f" (found: {', '.join(found)})" if found else ""
    reason = f"no theorem, lemma or example in the output{seen}"
    return Extraction(status="error", reason=reason, prose=prose, warnings=tuple(notes),
                      problem=problem_at(text, 0, reason, None))


def _region_warnings(text: str, regions: Regions) -> list[str]:
    out = []
    for fence in regions.fences:
        if not fence.closed:
            line = span_at(text, fence.start, fence.start).line
            out.append(f"the fence opened at line {line} is never closed (output cut off?)")
    return out


def _command_warnings(text: str, commands: list[Command]) -> list[str]:
    out = []
    for command in commands:
        if command.keyword == "?" or command.keyword.startswith("#"):
            span = span_at(text, command.start, command.end)
            what = "text that starts no Lean command" if command.keyword == "?" else \
                f"`{command.keyword}`"
            out.append(f"{what} at line {span.line}, column {span.column} ignored")
    return out
