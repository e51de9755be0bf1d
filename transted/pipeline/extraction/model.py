"""The typed result of extracting a statement from a translator's raw output.

Every position is a 0-based character offset into the raw output, with its 1-based line and
column, so an error can point at the user's own text (fences and prose included).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from transted.errors import ParseError

__all__ = ["Span", "Problem", "ContextDeclaration", "TheoremDeclaration", "ProseSpan",
           "Extraction", "Status", "ChosenBy", "ContextKind", "InvalidKind", "span_at"]

Status = Literal["ok", "invalid", "error"]
"""``ok``: a statement was extracted; ``invalid``: the output is not valid Lean 4 in a way
recognised with confidence (an answer: not equivalent); ``error``: nothing to score (no
theorem, a requested name not found, unreadable input) — never a verdict."""

ChosenBy = Literal["requested", "reference-name", "only", "last"]

ContextKind = Literal["import", "open", "set_option", "variable", "universe", "namespace",
                      "section", "notation", "def", "abbrev", "instance", "structure", "class",
                      "inductive", "axiom", "opaque", "attribute", "include", "omit", "other"]

InvalidKind = Literal["unclosed-bracket", "mismatched-bracket", "ends-inside-term", "no-type",
                      "no-name", "unterminated-comment", "unterminated-string", "lean3",
                      "broken-context", "empty"]

_FROZEN = ConfigDict(extra="forbid", frozen=True)


class Span(BaseModel):
    """A stretch of the raw output: ``[start, end)`` and where ``start`` is."""

    model_config = _FROZEN

    start: int
    end: int
    line: int
    column: int


def span_at(text: str, start: int, end: int) -> Span:
    """The :class:`Span` of ``text[start:end]`` (line and column 1-based)."""
    before = text[:start]
    return Span(start=start, end=end, line=before.count("\n") + 1,
                column=start - (before.rfind("\n") + 1) + 1)


class Problem(BaseModel):
    """Why an output is ``invalid`` or an ``error``, and where."""

    model_config = _FROZEN

    reason: str
    offset: int
    line: int
    column: int
    kind: InvalidKind | None = None
    """Set when the problem makes the output confidently invalid Lean 4."""

    def to_error(self, text: str, *, source: str | None = None) -> ParseError:
        """A positioned :class:`~transted.errors.ParseError` on the raw output ``text``."""
        return ParseError(self.reason, text, self.offset, source=source)


class ContextDeclaration(BaseModel):
    """A command in scope at the chosen theorem: what the theorem may depend on."""

    model_config = _FROZEN

    kind: ContextKind
    name: str
    """What it declares: the definition's name as written, the binder names of ``variable``,
    the namespaces of ``open``, the option of ``set_option``, the notation's first atom."""
    text: str
    """The command's source (modifiers included, ``… in`` excluded)."""
    span: Span
    namespace: str = ""
    """The namespace the command sits in (``A.B``; empty at the root)."""
    only_next: bool = False
    """``open … in`` / ``set_option … in``: applies to the theorem only."""


class TheoremDeclaration(BaseModel):
    """The chosen ``theorem``/``lemma``/``example`` (or, in an output without one, a typed
    ``def``/``abbrev``/``instance``), its proof dropped."""

    model_config = _FROZEN

    keyword: Literal["theorem", "lemma", "example", "def", "abbrev", "instance"]
    name: str | None
    full_name: str | None
    """``name`` prefixed by the enclosing namespaces."""
    statement: str
    """From the keyword to the end of the type (no modifiers, no ``:=``, no proof)."""
    span: Span
    has_proof: bool
    declaration: str = ""
    """From the keyword to the end of the command, the proof as written included (what the
    string metrics compare)."""


class ProseSpan(BaseModel):
    """Text that is not Lean: the reason it was left out."""

    model_config = _FROZEN

    role: Literal["preamble", "between", "trailing", "other-fence"]
    span: Span


class Extraction(BaseModel):
    """What :func:`transted.pipeline.extraction.extract` found in one raw output."""

    model_config = _FROZEN

    status: Status
    theorem: TheoremDeclaration | None = None
    chosen_by: ChosenBy | None = None
    reason: str
    """Why this theorem (or why ``invalid``/``error``), in one sentence."""
    context: tuple[ContextDeclaration, ...] = ()
    other_theorems: tuple[str, ...] = ()
    """Names of the theorems not chosen (``example`` shows as ``example``)."""
    prose: tuple[ProseSpan, ...] = ()
    fences: tuple[str, ...] = ()
    """Language tags of the markdown fenced blocks, in order (``""`` for an untagged one)."""
    warnings: tuple[str, ...] = ()
    problem: Problem | None = None

    def header(self, base: str | None = None) -> str | None:
        """``base`` followed by the context's source, one command per line (``… in`` prefixes
        become plain commands): the header the statement is read under."""
        parts = [base.rstrip("\n")] if base and base.strip() else []
        parts += [c.text for c in self.context]
        return "\n".join(parts) if parts else None
