"""The pinned sources: a ``git archive`` tarball (as in ``../shared/data/mathlib/``) or a
checkout directory → its ``.lean`` files, in path order, and its commit.

A ``git archive`` tarball records the commit it was made from in its pax global header
(``comment``); when the command line names a commit too, the two must agree.
"""

from __future__ import annotations

import tarfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Source", "open_source"]


@dataclass
class Source:
    label: str
    """``mathlib`` / ``batteries``: the prefix of its files' names in the index."""
    path: Path
    subdir: str
    """``Mathlib`` / ``Batteries``: the directory whose ``.lean`` files are read."""
    repository: str
    commit: str

    def lean_files(self) -> Iterator[tuple[str, str]]:
        """``(label:relative/path.lean, text)`` in path order."""
        for rel, text in _files(self.path, lambda rel: rel.startswith(self.subdir + "/")
                                and rel.endswith(".lean")):
            yield f"{self.label}:{rel}", text

    def read(self, rel: str) -> str:
        for _rel, text in _files(self.path, lambda r: r == rel):
            return text
        raise FileNotFoundError(f"{self.path}: no {rel}")


def open_source(label: str, path: Path, subdir: str, repository: str,
                commit: str | None) -> Source:
    archived = _archive_commit(path) if path.is_file() else None
    if commit and archived and commit != archived:
        raise ValueError(f"{path} is an archive of commit {archived}, not {commit}")
    found = commit or archived
    if not found:
        raise ValueError(f"{path}: give the commit (--{label}-commit): a directory has none")
    return Source(label, path, subdir, repository, found)


def _archive_commit(path: Path) -> str | None:
    with tarfile.open(path) as tf:
        comment = tf.pax_headers.get("comment")
    return comment if comment and len(comment) == 40 else None


def _files(path: Path, wanted) -> Iterator[tuple[str, str]]:  # type: ignore[no-untyped-def]
    if path.is_dir():
        for file in sorted(p for p in path.rglob("*") if p.is_file()):
            rel = file.relative_to(path).as_posix()
            if wanted(rel):
                yield rel, file.read_text(encoding="utf-8")
        return
    found = []
    with tarfile.open(path) as tf:  # read in archive order: an xz stream only seeks forward
        for m in tf:
            if not m.isfile():
                continue
            # `git archive --prefix=name/` puts every file under one top directory
            rel = next((r for r in (m.name, m.name.partition("/")[2]) if r and wanted(r)), None)
            if rel is not None:
                handle = tf.extractfile(m)
                assert handle is not None
                found.append((rel, handle.read().decode("utf-8")))
    yield from sorted(found)
