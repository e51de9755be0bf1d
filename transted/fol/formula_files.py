"""Reading FOL formulas from the files users have: FOLIO-style JSONL (``premises-FOL`` lists,
``conclusion-FOL`` when asked), a pair file (``reference.statement``), or plain text, one
formula a line."""

from __future__ import annotations

from pathlib import Path

from transted.errors import InputError
from transted.reading.pairs import iter_jsonl, read_text

__all__ = ["read_formulas"]


def read_formulas(path: Path, *, conclusions: bool = False) -> list[str]:
    """Distinct formulas of ``path`` in order of first appearance (see the module docstring)."""

    found: dict[str, None] = {}
    if path.suffix == ".jsonl":
        for number, obj in iter_jsonl(path):
            if "premises-FOL" in obj:
                texts = list(obj["premises-FOL"])
                if conclusions and "conclusion-FOL" in obj:
                    texts.append(obj["conclusion-FOL"])
            elif isinstance(obj.get("reference"), dict) and "statement" in obj["reference"]:
                texts = [obj["reference"]["statement"]]
            else:
                raise InputError(f"{path}:{number}: expected `premises-FOL` or `reference.statement`")
            for text in texts:
                found.setdefault(text, None)
    else:

        for line in read_text(path).splitlines():  # bad bytes name file:line:col
            if line.strip():
                found.setdefault(line, None)
    return list(found)
