"""The writer lock leaves no `<out>.lock` behind, and stays exclusive while doing so."""

from __future__ import annotations

import os

import pytest

from transted.reading.outputs import OutputLock, OutputLocked


def test_the_lock_file_is_removed_on_release(tmp_path):
    out = tmp_path / "out.jsonl"
    with OutputLock(out) as lock:
        assert lock.lock_path.read_text().startswith(f"pid={os.getpid()} ")
        with pytest.raises(OutputLocked):
            OutputLock(out).acquire()
    assert not lock.lock_path.exists()
    with OutputLock(out):  # and the next writer takes it afresh
        assert lock.lock_path.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_writer_that_locked_a_removed_lock_file_locks_the_current_one(tmp_path, monkeypatch):
    """The race removal opens: a second writer opened `<out>.lock` just before the first one
    removed it and unlocked, then locks the removed file. It must notice (the path names
    another file, or none) and lock the file at the path, so that no two writers ever hold
    locks on two different files of one name."""
    out = tmp_path / "out.jsonl"
    first = OutputLock(out)
    first.acquire()
    stale = os.open(first.lock_path, os.O_RDWR)  # the second writer's open, before removal
    first.release()  # removes the file, then unlocks it
    real_open = os.open
    opened = []

    def open_stale_first(path, flags, mode=0o777):
        opened.append(path)
        return stale if len(opened) == 1 else real_open(path, flags, mode)
    monkeypatch.setattr(os, "open", open_stale_first)
    second = OutputLock(out)
    second.acquire()  # locks the stale file, sees it is gone, locks a fresh one
    monkeypatch.setattr(os, "open", real_open)
    assert len(opened) == 2 and second.lock_path.exists()
    with pytest.raises(OutputLocked, match=f"pid={os.getpid()} "):
        OutputLock(out).acquire()  # the fresh file is the one held
    second.release()
    assert not second.lock_path.exists()
