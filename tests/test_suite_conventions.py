"""The test suite's own rules: reproducible property tests, two tiers, CI runs the full one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parents[1]


def test_every_collected_property_test_is_derandomized(request):
    property_tests = {item.nodeid: item.obj for item in request.session.items
                      if getattr(getattr(item, "obj", None), "is_hypothesis_test", False)}
    random = [nodeid for nodeid, fn in property_tests.items()
              if not fn._hypothesis_internal_use_settings.derandomize
              or fn._hypothesis_internal_use_settings.database is not None]
    assert not random, f"property tests not derandomized (or with an example database): {random}"
    assert settings.default.derandomize and settings.default.database is None


_UNSEEDED = re.compile(r"os\.urandom|uuid\.uuid4|uuid4\(|random\.Random\(\)|default_rng\(\)"
                       r"|np\.random\.(rand|randn|randint|random|choice|shuffle|seed)\(")


@pytest.mark.parametrize("folder", ["transted", "tests", "benchmarks"])
def test_no_unseeded_randomness(folder):
    found = [f"{path.relative_to(REPO)}:{n}" for path in sorted((REPO / folder).rglob("*.py"))
             if path != Path(__file__).resolve()
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if _UNSEEDED.search(line)]
    assert not found, f"randomness without a fixed seed: {found}"


def _readme_test_command() -> str:
    """The command on the README's first screen under 'run the tests'."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = text.split("```bash", 1)[1].split("```", 1)[0]
    step = block.split("# 2. run the tests", 1)[1]
    command = next(line for line in step.splitlines() if "pytest" in line)
    return command.split("&&")[-1].strip()


def test_ci_runs_the_readme_test_command_and_it_is_the_full_tier():
    readme = _readme_test_command()
    assert readme.endswith("-m pytest -q --full")
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    runs = [line.strip() for line in ci.splitlines() if "pytest" in line and not line.lstrip().startswith("#")]
    # .ci/run uses its own venv's interpreter ($PY); the arguments are the README's
    assert runs == ["$PY -m pytest -q --full"]
    assert readme.split("python", 1)[1] == runs[0].split("$PY", 1)[1]


class _Item:
    def __init__(self, name: str, slow: bool):
        self.name, self.slow = name, slow

    def get_closest_marker(self, name: str) -> object | None:
        return object() if name == "slow" and self.slow else None


class _Config:
    def __init__(self, full: bool, markexpr: str):
        self.options = {"--full": full, "markexpr": markexpr}
        self.deselected: list[_Item] = []
        self.hook = self

    def getoption(self, name: str) -> object:
        return self.options[name]

    def pytest_deselected(self, items: list[_Item]) -> None:
        self.deselected += items


@pytest.mark.parametrize("full, markexpr, kept", [
    (False, "", ["a", "c"]),                 # the fast tier: slow tests deselected
    (True, "", ["a", "b", "c"]),             # --full: everything
    (False, "slow", ["a", "b", "c"]),        # an explicit -m decides alone
])
def test_the_tiers_select_by_the_slow_marker(full, markexpr, kept):
    from conftest import pytest_collection_modifyitems

    items = [_Item("a", False), _Item("b", True), _Item("c", False)]
    config = _Config(full, markexpr)
    pytest_collection_modifyitems(config, items)  # type: ignore[arg-type]
    assert [i.name for i in items] == kept
    assert [i.name for i in config.deselected] == (["b"] if kept == ["a", "c"] else [])


def test_this_run_is_the_tier_its_header_says(request):
    slow = [item.nodeid for item in request.session.items if item.get_closest_marker("slow")]
    if not (request.config.getoption("--full") or request.config.getoption("markexpr")):
        assert slow == []
