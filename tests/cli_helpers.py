"""Shared helpers of the CLI tests: a pair file from (id, reference, candidate) rows."""

from __future__ import annotations

import json
from pathlib import Path


def write_rows(path: Path, rows: list[tuple[str, str, str]]) -> Path:
    """Write ``rows`` as pair JSONL at ``path`` and return it."""
    path.write_text("".join(json.dumps({"id": i, "reference": {"statement": r},
                                        "candidate": {"statement": c}}, ensure_ascii=False) + "\n"
                            for i, r, c in rows), "utf-8")
    return path
