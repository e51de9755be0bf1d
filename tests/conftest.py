"""Shared fixtures: the bundled data (copied from the project's shared data, see tests/data/README.md).

Also the two things every run shares: the property-test profile (the same examples on every
run and machine) and the test tiers (``pytest`` = the fast everyday tier, ``pytest --full`` =
every test, what CI runs).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

DATA = Path(__file__).parent / "data"

# Derandomized: the examples come from a hash of each test, not from a random seed, and no
# example database carries failures from one run into the next. Deadlines and the too-slow
# health check read the wall clock, which a shared, loaded machine makes a coin toss.
settings.register_profile("transted", derandomize=True, database=None, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.load_profile("transted")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--full", action="store_true",
                     help="run every test, the ones marked slow included (what CI runs)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The fast tier: without ``--full`` (or an explicit ``-m``), slow tests are deselected."""
    if config.getoption("--full") or config.getoption("markexpr"):
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]


def pytest_report_header(config: pytest.Config) -> str:
    if config.getoption("--full") or config.getoption("markexpr"):
        return "tier: full (--full or -m given)"
    return "tier: fast (tests marked slow are deselected; `pytest --full` runs them, as CI does)"


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="session")
def data_dir() -> Path:
    return DATA


@pytest.fixture(scope="session")
def dev_pairs():
    from transted.reading.pairs import read_pairs

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
