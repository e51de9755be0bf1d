"""Exceptions raised by transted.

::

    TranstedError
    ├── InputError              bad user input (file, record, argument value)
    │   └── ParseError          text that does not parse; carries text, line, column, caret
    ├── ResourceLimitError      input over a size/depth/time cap (never a hang or a crash)
    │   ├── TooLarge            a computation whose predicted time/memory is over its bound
    │   │   └── TooDeep         a term nesting deeper than the tree-depth cap; positioned
    │   └── PairTimeout         a wall-clock deadline ended the pair (status timeout)
    ├── LeanUnavailable         no Lean toolchain / lean-interact where one is needed
    ├── LeanTimeout             a Lean request exceeded its time limit (process killed)
    └── LeanCrashed             the Lean process died or stopped answering

Lean-level failures (an elaboration error, an unproved goal) are *values*, not exceptions;
only transport failures raise (the two tiers of lean-interact).
"""

from __future__ import annotations

__all__ = [
    "TranstedError",
    "InputError",
    "ParseError",
    "InvalidCandidate",
    "ResourceLimitError",
    "TooLarge",
    "TooDeep",
    "PairTimeout",
    "LeanUnavailable",
    "LeanTimeout",
    "LeanCrashed",
    "caret_excerpt",
    "escape_control",
]


class TranstedError(Exception):
    """Root of every exception transted raises on purpose."""


class InputError(TranstedError, ValueError):
    """User input that cannot be used; the message names the input and the position."""


def caret_excerpt(text: str, line: int, column: int, *, width: int = 100) -> str:
    """Return the source line ``line`` (1-based) with a caret under ``column`` (1-based).

    The caret is placed on the raw line: at most ``width`` characters around the column are
    shown (pass the terminal width, and print without wrapping, so the caret stays under its
    character), and control characters are escaped (:func:`escape_control`) before the
    caret's offset is measured, so an ESC in the input can neither act on the terminal nor
    shift the caret.
    """
    lines = text.splitlines() or [""]
    src = lines[min(max(line, 1), len(lines)) - 1]
    col = min(max(column, 1) - 1, len(src))
    width = max(width, 10)
    start = max(0, col - width // 2) if len(src) > width else 0
    shown = escape_control(src[start : start + width], keep_newlines=False)
    return f"{shown}\n{' ' * len(escape_control(src[start:col], keep_newlines=False))}^"


class ParseError(InputError):
    """Text that does not parse.

    Attributes
    ----------
    text : the whole input text
    offset : 0-based character offset of the error
    line, column : 1-based position of the error
    reason : what was expected or found
    source : optional name of the input (file, pair id and side)
    """

    def __init__(self, reason: str, text: str, offset: int, *, source: str | None = None):
        self.reason = reason
        self.text = text
        self.offset = max(0, min(offset, len(text)))
        before = text[: self.offset]
        self.line = before.count("\n") + 1
        self.column = self.offset - (before.rfind("\n") + 1) + 1
        self.source = source
        super().__init__(self._message())

    @property
    def excerpt(self) -> str:
        return caret_excerpt(self.text, self.line, self.column)

    def _message(self) -> str:
        where = f"{self.source}:" if self.source else ""
        return f"{where}{self.line}:{self.column}: {self.reason}\n{self.excerpt}"

    def with_source(self, source: str) -> ParseError:
        """A copy of this error naming its input (e.g. ``pairs.jsonl:12 candidate``)."""
        return ParseError(self.reason, self.text, self.offset, source=source)


class InvalidCandidate(ParseError):
    """A candidate that is confidently not valid Lean 4 (cut off inside a bracket or before
    its type, Lean 3…; :mod:`transted.pipeline.extraction.validity`) against a reference that parses:
    an answer (not equivalent), not a failure. ``kind`` names the rule that recognised it."""

    def __init__(self, reason: str, text: str, offset: int, *, kind: str,
                 source: str | None = None):
        self.kind = kind
        super().__init__(reason, text, offset, source=source)

    def with_source(self, source: str) -> InvalidCandidate:
        return InvalidCandidate(self.reason, self.text, self.offset, kind=self.kind, source=source)

    def details(self) -> dict[str, int | str]:
        return {"kind": self.kind, "line": self.line, "column": self.column}


class ResourceLimitError(TranstedError):
    """An input exceeded a configured cap (length, depth, atoms, time)."""


class TooLarge(ResourceLimitError):
    """A computation predicted (before it starts) to need more time or memory than its bound.

    A metric turns it into a ``status: too_large`` result with ``size1``, ``size2``,
    ``needed`` and ``bound`` in its details, so a batch records the pair and goes on.
    """

    def __init__(self, message: str, *, size1: int, size2: int, needed: int, bound: int,
                 resource: str):
        super().__init__(message)
        self.size1, self.size2 = size1, size2
        self.needed, self.bound, self.resource = needed, bound, resource

    def details(self) -> dict[str, int | str]:
        return {"size1": self.size1, "size2": self.size2, "needed": self.needed,
                "bound": self.bound, "resource": self.resource}


class TooDeep(TooLarge):
    """A term whose operator tree nests deeper than ``bound`` levels, positioned like a
    :class:`ParseError` (``line``, ``column``, ``excerpt``, ``source``) at the token where the
    depth passed the bound. Every stage after parsing walks the tree, some recursively, so
    such a term is refused once, here, as ``status: too_large`` (``resource: depth``)."""

    def __init__(self, depth: int, bound: int, text: str, offset: int, *,
                 source: str | None = None):
        self.position = ParseError(f"the term nests deeper than {bound} levels here (its tree "
                                   f"is at least {depth} deep: a long chain of operators or "
                                   "binders); such a tree is refused, not scored", text, offset,
                                   source=source)
        super().__init__(str(self.position), size1=0, size2=0, needed=depth, bound=bound,
                         resource="depth")
        self.depth, self.text, self.offset, self.source = depth, text, offset, source
        self.line, self.column = self.position.line, self.position.column

    def details(self) -> dict[str, int | str]:
        return {"needed": self.depth, "bound": self.bound, "resource": "depth",
                "line": self.line, "column": self.column}

    def with_source(self, source: str) -> TooDeep:
        """A copy naming its input (e.g. ``pairs.jsonl:12 candidate``)."""
        return TooDeep(self.depth, self.bound, self.text, self.offset, source=source)


class PairTimeout(ResourceLimitError):
    """A wall-clock deadline (the pair's ``max_time``, or an evidence engine's safety net)
    ended the pair before its deterministic budgets did. What the work had reached by then
    depends on machine load, so the pair gets no score: ``status: "timeout"``."""


class LeanUnavailable(TranstedError):
    """Lean (elan/lake, a built project, or lean-interact) is not available here."""


class LeanTimeout(TranstedError, TimeoutError):
    """A Lean request exceeded its time limit; the process was killed."""


class LeanCrashed(TranstedError):
    """The Lean process died or stopped answering; ``stderr`` keeps what it printed."""

    def __init__(self, message: str, *, stderr: str = ""):
        super().__init__(message)
        self.stderr = stderr


_CONTROL = {i: f"\\x{i:02x}" for i in (*range(0x00, 0x20), 0x7F) if i not in (0x0A,)}
_CONTROL.update({0x09: "\\t", 0x0D: "\\r", 0x1B: "\\x1b"})
_CONTROL.update({i: f"\\x{i:02x}" for i in range(0x80, 0xA0)})  # C1 controls (CSI = 0x9b)


def escape_control(text: str, *, keep_newlines: bool = True) -> str:
    """``text`` with terminal control characters (ESC, BEL, C1, CR ...) shown as escapes.

    For echoing user input (a statement, a file name) to a terminal: a raw ``ESC [ 2 J``
    would otherwise clear the screen. Newlines are kept unless ``keep_newlines=False``.
    """
    table = dict(_CONTROL)
    if not keep_newlines:
        table[0x0A] = "\\n"
    return text.translate(table)
