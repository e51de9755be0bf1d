"""Lean language server (leanclient, optional): operator trees from hover ranges, and goals.

An alternative tree source to our own parser, after GTED (Liu et al. 2025, §3.2): hover
every character of the statement; each distinct hover range is a syntax node, ranges nest
into a tree, and a node's label is its own text with every child range replaced by ``_``
(parentheses dropped). That is GTED's ``{"content", "children"}`` format, which
:func:`transted.pipeline.opt.lsp_trees.lsp_tree_to_node` maps to our labels. Needs a built project
(``transted setup``); tested live only (``tests/test_lean_live.py``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from transted.errors import LeanCrashed, LeanUnavailable
from transted.pipeline.lean.equality import declaration, split_header
from transted.pipeline.lean.project import LeanProject
from transted.pipeline.opt.lsp_trees import lsp_tree_to_node
from transted.pipeline.opt.node import Node

__all__ = ["Span", "ranges_to_tree", "LeanLanguageServer"]

Span = tuple[int, int]
"""A half-open ``[start, end)`` character range inside the statement text."""


def ranges_to_tree(text: str, owner: list[Span | None]) -> dict[str, Any] | None:
    """Build a GTED-style tree from the innermost hover range of each character.

    Parameters
    ----------
    text : the statement text.
    owner : for each character of ``text``, the span of the innermost syntax node that
        contains it (what a hover there returned), or None.

    Returns
    -------
    ``{"content": ..., "children": [...]}`` for the outermost span, or None if no
    character had a hover.
    """
    if len(owner) != len(text):
        raise ValueError(f"`owner` has {len(owner)} entries for {len(text)} characters")
    spans = sorted({s for s in owner if s is not None}, key=lambda s: (s[0], -s[1]))
    if not spans:
        return None
    root: Span = (min(s[0] for s in spans), max(s[1] for s in spans))
    kids: dict[Span, list[Span]] = {root: []}
    stack = [root]
    for span in spans:
        if span == root:
            continue
        while stack[-1] != root and not (stack[-1][0] <= span[0] and span[1] <= stack[-1][1]):
            stack.pop()
        kids[stack[-1]].append(span)
        kids.setdefault(span, [])
        stack.append(span)

    def build(span: Span) -> dict[str, Any]:
        content, i = [], span[0]
        for child in kids[span]:
            content.append(_own_text(text, owner, span, i, child[0]))
            content.append(" _ ")
            i = child[1]
        content.append(_own_text(text, owner, span, i, span[1]))
        label = "".join(content).replace("(", "").replace(")", "")
        return {"content": label, "children": [build(c) for c in kids[span]]}

    return build(root)


def _own_text(text: str, owner: list[Span | None], span: Span, start: int, end: int) -> str:
    return "".join(ch if owner[i] in (span, None) else " "
                   for i, ch in enumerate(text[start:end], start))


class LeanLanguageServer:
    """``lake serve`` through leanclient, on the transted project; a context manager."""

    def __init__(self, project: str | Path | None = None, *, max_opened_files: int = 2):
        self.project = LeanProject(project)
        self.max_opened_files = max_opened_files
        self._client: Any = None
        self._scratch = Path(".lake") / "transted" / f"Scratch{os.getpid()}.lean"

    def _start(self) -> Any:
        if self._client is None:
            self.project.require_built()
            try:
                from leanclient import LeanLSPClient
            except ImportError as e:
                raise LeanUnavailable("leanclient is not installed: pip install "
                                      "'transted[lean]'") from e
            self._client = LeanLSPClient(str(self.project.directory),
                                         max_opened_files=self.max_opened_files,
                                         prevent_cache_get=True)
        return self._client

    def _open(self, source: str) -> str:
        client = self._start()
        path = self.project.directory / self._scratch
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")
        rel = str(self._scratch)
        try:
            client.open_file(rel, force_reopen=True)
            client.get_diagnostics(rel)  # waits until the file is elaborated
        except Exception as e:  # leanclient raises LSPProtocolError / EOFError / RuntimeError
            raise LeanCrashed(f"the Lean language server failed: {e}") from e
        return rel

    def statement_tree(self, statement: str, header: str | None = None) -> Node:
        """The operator tree of ``statement`` from hover ranges (see the module docstring)."""

        h = split_header(header)
        decl = declaration(statement, "thm", body="by sorry")
        prefix = "\n".join(h.imports + h.body) + "\n"
        rel = self._open(prefix + decl + "\n")
        line0 = prefix.count("\n")
        owner: list[Span | None] = []
        offsets = _line_offsets(decl)
        for i in range(len(decl)):
            line, col = _position(offsets, i)
            hover = self._client.get_hover(rel, line0 + line, col)
            owner.append(_span(hover, offsets, line0) if hover else None)
        tree = ranges_to_tree(decl, owner)
        if tree is None:
            raise LeanCrashed("the language server returned no hover for the statement")
        return lsp_tree_to_node(tree)

    def goals_at(self, source: str, line: int, character: int) -> list[str]:
        """Goals Lean shows at a 0-based ``line``/``character`` of ``source`` (plainGoal)."""
        rel = self._open(source)
        answer = self._client.get_goal(rel, line, character)
        return list(answer.get("goals", [])) if answer else []

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def __enter__(self) -> LeanLanguageServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _line_offsets(text: str) -> list[int]:
    offsets = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            offsets.append(i + 1)
    return offsets


def _position(offsets: list[int], index: int) -> tuple[int, int]:
    line = max(i for i, start in enumerate(offsets) if start <= index)
    return line, index - offsets[line]


def _span(hover: dict[str, Any], offsets: list[int], line0: int) -> Span | None:
    rng = hover.get("range")
    if not rng:
        return None
    start, end = rng["start"], rng["end"]
    if start["line"] < line0 or end["line"] - line0 >= len(offsets):
        return None
    # LSP characters are UTF-16 units; the statement's symbols are all in the BMP, where
    # one unit is one Python character.
    return (offsets[start["line"] - line0] + start["character"],
            offsets[end["line"] - line0] + end["character"])
