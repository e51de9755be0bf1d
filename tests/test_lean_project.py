"""Project files, pinned versions, and clean failure where no Lean is installed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from transted.cli import main
from transted.errors import LeanUnavailable
from transted.pipeline.lean.project import LeanProject
from transted.pipeline.lean.server import LeanInteractBackend, ServerConfig
from transted.pipeline.lean.versions import find_project_dir, read_versions

ROOT = Path(__file__).resolve().parents[1]
no_lake = pytest.mark.skipif(shutil.which("lake") is not None,
                             reason="tests the no-Lean path; `lake` is on PATH here")


def test_pinned_versions_come_from_the_manifest():
    v = read_versions(ROOT)
    # hand-copied from lean-toolchain and lake-manifest.json (mathlib4 tag v4.32.0 and
    # leanprover-community/repl tag v4.32.0)
    assert v.toolchain == "leanprover/lean4:v4.32.0" and v.lean == "v4.32.0"
    assert v.mathlib == "v4.32.0@81a5d257c8e4"
    assert v.repl == "v4.32.0@68a3b3a05978"
    fields = v.signature_fields()
    assert list(fields) == ["lean", "mathlib", "repl", "lean-interact"]


def test_manifest_matches_lakefile_requires():
    manifest = json.loads((ROOT / "lake-manifest.json").read_text(encoding="utf-8"))
    direct = {p["name"]: p for p in manifest["packages"] if not p["inherited"]}
    assert set(direct) == {"mathlib", "REPL"}
    lakefile = (ROOT / "lakefile.toml").read_text(encoding="utf-8")
    for pkg in direct.values():
        assert f'name = "{pkg["name"]}"' in lakefile and pkg["url"] in lakefile
        assert f'rev = "{pkg["inputRev"]}"' in lakefile
        assert len(pkg["rev"]) == 40


def test_no_project_is_lean_unavailable(tmp_path: Path):
    with pytest.raises(LeanUnavailable, match="no Lean project found"):
        find_project_dir(tmp_path)


@no_lake
def test_setup_fails_cleanly_without_lake():
    project = LeanProject(ROOT)
    with pytest.raises(LeanUnavailable, match="`lake` is not on PATH") as info:
        project.setup()
    assert "elan-init.sh" in str(info.value)


@no_lake
def test_backend_without_lean_is_unavailable_naming_the_fix():
    backend = LeanInteractBackend(ServerConfig(project=str(ROOT)))
    with pytest.raises(LeanUnavailable, match="Lean backend not ready") as info:
        backend.command("import Mathlib")
    assert "lake: not on PATH" in str(info.value) and "transted setup" in str(info.value)


@no_lake
def test_cli_setup_and_doctor_exit_codes(capsys):
    assert main(["setup", "--project", str(ROOT)]) == 1
    assert "`lake` is not on PATH" in capsys.readouterr().err
    assert main(["doctor", "--project", str(ROOT), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    status = {c["name"]: c["ok"] for c in report["checks"]}
    assert status["lake"] is False and status["project"] is True
    assert report["versions"]["mathlib"] == "v4.32.0@81a5d257c8e4"


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"timeout": 0}, "`timeout`"), ({"memory_mb": 10}, "`memory_mb`"),
    ({"max_total_memory": 1.5}, "`max_total_memory`"), ({"retries": -1}, "`retries`"),
])
def test_server_config_checks_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ServerConfig(**kwargs)
