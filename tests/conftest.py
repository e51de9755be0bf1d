"""Shared fixtures: the bundled data (copied from the project's shared data, see tests/data/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


@pytest.fixture(scope="session")
def dev_pairs():
    from transted.pairs import read_pairs

    return read_pairs(DATA / "gted" / "proofnet.jsonl")


@pytest.fixture(scope="session")
def statement_rows() -> list[dict]:
    rows = []
    for name in ("minif2f.jsonl", "proofnet.jsonl"):
        rows += [dict(r, _file=name) for r in read_jsonl(DATA / "statements" / name)]
    return rows


@pytest.fixture
def runner():
    """typer's CLI runner (the CLI tests' entry point besides ``transted.cli.main``)."""
    from typer.testing import CliRunner

    return CliRunner()
