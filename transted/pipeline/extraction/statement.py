"""One side of a pair as the pipeline reads it: the extracted theorem, its header and context.

:func:`prepare` is the one seam between raw text and the parser: the tree metrics call it on
both sides (the reference first, its theorem name then preferred in the candidate), so
``score``, ``--references/--candidates``, ``regress`` and the API all read translator output
the same way, and the pair keeps the original text.

The context of a side is everything declared before its theorem: the pair's ``header`` (and,
for a reference, ``meta.reference_helper``, where ProofNet-Verified keeps the reference's own
helper definitions), then the declarations the extractor found in the text itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from transted.errors import InvalidCandidate
from transted.pipeline.extraction.commands import lex, split_commands
from transted.pipeline.extraction.context import context_at
from transted.pipeline.extraction.extract import EMPTY_OUTPUT, extract
from transted.pipeline.extraction.model import ContextDeclaration, Extraction

__all__ = ["Prepared", "prepare", "header_context", "declaration_text", "empty_answer",
           "EXTRACTION_VERSION"]

EXTRACTION_VERSION = "3"  # 3: `include`/`omit` kept in the context (Lean's variable inclusion);
# 2: a named theorem is chosen over a later `example`; 1: the last
"""Bump when the extraction or the invalid-output rules change which text is scored (it goes
into the signature as ``extract``). 2: an empty output is ``invalid`` (was an input error)."""


@dataclass(frozen=True)
class Prepared:
    """The statement to parse and what it is read under."""

    extraction: Extraction
    statement: str
    """The theorem from its keyword to the end of its type (``""`` unless extraction is ok)."""
    header: str | None
    """The pair's header, the helper, then the context's source: what ``open`` lines are
    read from."""
    context: tuple[ContextDeclaration, ...]
    """The declarations in scope at the theorem, the header's first."""

    @property
    def ok(self) -> bool:
        return self.extraction.status == "ok" and self.extraction.theorem is not None

    @property
    def theorem_name(self) -> str | None:
        theorem = self.extraction.theorem
        return theorem.full_name if theorem is not None else None


def prepare(text: str, header: str | None = None, *, helper: str | None = None,
            theorem: str | None = None, reference_name: str | None = None) -> Prepared:
    """Extract the statement of one side (see :func:`transted.pipeline.extraction.extract`).

    ``helper``: declarations the statement depends on that are kept outside it (read after the
    header); ``theorem``/``reference_name`` choose among several theorems.
    """
    base = "\n".join(part.rstrip("\n") for part in (header, helper) if part and part.strip())
    ex = extract(text, theorem=theorem, reference_name=reference_name)
    if ex.status != "ok" or ex.theorem is None:
        return Prepared(ex, "", base or None, ())
    return Prepared(ex, ex.theorem.statement, ex.header(base or None),
                    (*header_context(base), *ex.context))


def declaration_text(text: str, *, theorem: str | None = None,
                     reference_name: str | None = None) -> str:
    """The chosen declaration of a raw output, its proof as written included (fences, prose,
    other declarations left out); ``text`` itself when nothing can be extracted. What the
    string metrics (``bleu``, ``identity``) compare: a bare statement comes back unchanged."""
    ex = extract(text, theorem=theorem, reference_name=reference_name)
    if ex.status != "ok" or ex.theorem is None:
        return text
    return ex.theorem.declaration


def empty_answer(candidate: str) -> InvalidCandidate | None:
    """The ``invalid`` answer of an empty or blank candidate (for metrics that compare text and
    never call :func:`prepare`); None otherwise. An empty reference is never an answer."""
    if candidate.strip():
        return None
    return InvalidCandidate(EMPTY_OUTPUT, candidate, 0, kind="empty")


def header_context(header: str | None) -> tuple[ContextDeclaration, ...]:
    """The declarations a header leaves in scope at its end (Lean's scoping rules, as for the
    declarations before a theorem: :func:`transted.pipeline.extraction.context.context_at`)."""
    if not header or not header.strip():
        return ()
    tokens, _problems = lex(header)
    commands = split_commands(header, tokens)
    return tuple(context_at(header, header, commands, len(commands)).declarations)
