"""The hand-curated Lean core declarations (``lean_core.yaml``) → records.

Each entry's text is read by the same reader as a Mathlib file (:func:`read_file`), under the
file name ``lean4:<path in leanprover/lean4>``; line 0 marks a curated entry (its text is not
the core file's), and ``curated`` keeps the documentation page it was written from.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import yaml

from scripts.mathlib_index.declarations import FileIndex, read_file
from transted.pipeline.opt.mathlib.records import SourceRef

__all__ = ["CORE_FILE", "read_core"]

CORE_FILE = Path(__file__).with_name("lean_core.yaml")


def read_core(path: Path = CORE_FILE) -> list[FileIndex]:
    entries = yaml.safe_load(path.read_text(encoding="utf-8"))["declarations"]
    out = []
    for i, entry in enumerate(entries):
        for key in ("file", "doc", "text"):
            if not isinstance(entry.get(key), str):
                raise ValueError(f"{path}: entry {i + 1} needs a string {key!r}")
        index = read_file(entry["text"], f"lean4:{entry['file']}")
        if not index.declarations:
            raise ValueError(f"{path}: entry {i + 1} ({entry['file']}) declares nothing")
        index.declarations = [replace(d, source=SourceRef(d.source.file, 0), curated=entry["doc"])
                              for d in index.declarations]
        out.append(index)
    return out
