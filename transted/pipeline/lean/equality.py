"""Lean source for a pair: both statements as declarations, and the equality between them.

ASSESS §3.3.2 / Algorithm 1 line 2 form ``eq ← (FL1 = FL2)``, "an equality between their
respective types". We declare the reference as ``thm_P`` and the candidate as ``thm_Q``
(the paper's naming for proof-based metrics, §4.2), each inside its own ``section`` under
its own header's ``open``/``set_option`` lines, and state

    example : type_of% @thm_P = type_of% @thm_Q := by sorry

``type_of% e`` elaborates to the type of ``e``; with ``@`` the implicit and instance binders
stay in the proposition instead of being instantiated, so the equality is between the two
statements exactly as declared. The ``sorry`` gives the proof state the search starts from.
Everything here is text: no Lean is needed to build the commands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from transted.errors import InputError
from transted.reading.pairs import Statement

__all__ = ["Header", "split_header", "declaration", "in_section", "EqualityCommand",
           "equality_command", "merged_imports",
           "DEFAULT_HEADER", "REFERENCE_NAME", "CANDIDATE_NAME"]

DEFAULT_HEADER = "import Mathlib"
REFERENCE_NAME = "thm_P"
CANDIDATE_NAME = "thm_Q"

_DECL = re.compile(r"^\s*(?:/--.*?-/\s*)?(?:@\[[^\]]*\]\s*)?(?:(?:private|protected|nonrec)\s+)*"
                   r"(theorem|lemma|example)\b", re.S)
_OPEN = "([{⟨⦃"
_CLOSE = ")]}⟩⦄"


@dataclass(frozen=True)
class Header:
    """A statement's header split into its ``import`` lines and the rest (opens, options)."""

    imports: tuple[str, ...]
    body: tuple[str, ...]

    @property
    def opens(self) -> tuple[str, ...]:
        return tuple(line for line in self.body if line.startswith("open "))


def split_header(header: str | None) -> Header:
    """Split a header; a missing header means ``import Mathlib`` (the benchmarks' default)."""
    lines = [ln.strip() for ln in (header or DEFAULT_HEADER).splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("--")]
    imports = tuple(dict.fromkeys(ln for ln in lines if ln.startswith("import ")))
    body = tuple(dict.fromkeys(ln for ln in lines if not ln.startswith("import ")))
    return Header(imports or (DEFAULT_HEADER,), body)


def _proof_start(text: str) -> int | None:
    """Offset of the top-level ``:=`` that starts the proof (followed by ``by``/``sorry``/end)."""
    depth, found = 0, None
    for i, ch in enumerate(text):
        if ch in _OPEN:
            depth += 1
        elif ch in _CLOSE:
            depth = max(0, depth - 1)
        elif ch == ":" and depth == 0 and text.startswith(":=", i):
            rest = text[i + 2:].strip()
            if not rest or rest.startswith("by") or rest == "sorry":
                found = i
    return found


def declaration(statement: str, name: str, *, keyword: str = "theorem",
                body: str = "sorry", source: str = "statement") -> str:
    """Rename a ``theorem``/``lemma``/``example`` to ``name`` and give it ``body``.

    ``theorem foo (x : ℝ) : p x := by simp`` with ``name="thm_P"`` becomes
    ``theorem thm_P (x : ℝ) : p x := sorry``; ``keyword="axiom"`` drops the body.

    Raises
    ------
    InputError
        If ``statement`` is not a theorem, lemma or example declaration.
    """
    match = _DECL.match(statement)
    if match is None:
        raise InputError(f"{source}: expected a `theorem`, `lemma` or `example` declaration, "
                         f"got {statement[:60]!r}")
    rest = statement[match.end():]
    if match.group(1) != "example":
        rest = re.sub(r"^\s*\S+", "", rest, count=1)  # the declared name
    cut = _proof_start(rest)
    signature = (rest if cut is None else rest[:cut]).strip()
    if not signature:
        raise InputError(f"{source}: declaration has no statement: {statement[:60]!r}")
    text = f"{keyword} {name} {signature}"
    return text if keyword == "axiom" else f"{text} := {body}"


def merged_imports(*headers: Header) -> str:
    """The union of the headers' import lines, in first-seen order (one command)."""
    return "\n".join(dict.fromkeys(line for h in headers for line in h.imports))


@dataclass(frozen=True)
class EqualityCommand:
    """The commands that put a pair's equality goal in front of Lean."""

    imports: str
    """The import lines, sent first as a fresh command (its env is cached per import set)."""
    command: str
    """The declarations and the ``example`` whose ``sorry`` is the equality goal."""
    goal_line: int
    """1-based line of the ``example`` in ``command`` (to pick its sorry)."""


def in_section(header: Header, decl: str, *, auto_implicit: bool) -> list[str]:
    """Lines putting ``decl`` in its own ``section`` under its header's opens/options."""
    prefix = "" if auto_implicit else "set_option autoImplicit false in\n"
    return ["section", *header.body, prefix + decl, "end", ""]


def equality_command(reference: Statement, candidate: Statement, *,
                     auto_implicit: bool = False) -> EqualityCommand:
    """Build the equality commands for a pair (see the module docstring).

    Parameters
    ----------
    reference, candidate : the two sides of the pair (statement + header).
    auto_implicit : keep Lean's auto-bound implicits; off by default so that an unknown
        identifier is an error instead of a silently generalised statement (USER_NEEDS 12).
    """
    ref_h, cand_h = split_header(reference.header), split_header(candidate.header)
    imports = merged_imports(ref_h, cand_h)
    lines = in_section(ref_h, declaration(reference.statement, REFERENCE_NAME,
                                          source="reference"), auto_implicit=auto_implicit)
    lines += in_section(cand_h, declaration(candidate.statement, CANDIDATE_NAME,
                                            source="candidate"), auto_implicit=auto_implicit)
    lines += list(dict.fromkeys(ref_h.opens + cand_h.opens))
    command = "\n".join(lines)
    goal_line = command.count("\n") + 2
    command += (f"\nexample : type_of% @{REFERENCE_NAME} = type_of% @{CANDIDATE_NAME} "
                ":= by sorry")
    return EqualityCommand(imports=imports, command=command, goal_line=goal_line)
