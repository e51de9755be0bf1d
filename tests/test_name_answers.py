"""The bundled name table answers as recorded (tests/data/names/answers.json.gz).

The answers were recorded by ``scripts/name_table/record_answers.py`` with the JSON-backed table
that the SQLite file replaced (the same content: ``content_sha256`` 41faeca6…), on a seeded
sample of the table: ~10,700 identifiers (the first 1,500 names, 3,000 random ones, 600
protected ones, every ``export`` alias and target, last components, ``x.y.z`` field accesses,
``_root_.`` names, non-names) resolved under 14 headers (``open Real Nat``, ``namespace``,
``open X in``, ``open X (a)``, ``hiding``, ``renaming``, sections, a header declaration, an
unknown namespace), membership/protection/constant of ~11,300 names, ~11,000 namespace
queries, and the notations active per header and per symbol (as digests).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from scripts.name_table.record_answers import (
    checked_names,
    digest,
    plain,
    resolution,
)
from transted.pipeline.opt.names import load_name_table

ANSWERS = Path(__file__).parent / "data" / "names" / "answers.json.gz"


@pytest.fixture(scope="module")
def recorded() -> dict:
    return json.loads(gzip.decompress(ANSWERS.read_bytes()))


@pytest.fixture(scope="module")
def table():
    return load_name_table()


@pytest.fixture(scope="module")
def scopes(table, recorded):
    found = [table.scope(header) for header in recorded["headers"]]
    assert [plain(s) for s in found] == recorded["scopes"]
    return found


def test_same_table(table, recorded):
    assert table.version == recorded["version"]


def test_resolutions(table, recorded, scopes):
    assert len(recorded["identifiers"]) > 10_000
    mismatches = []
    for identifier, expected in zip(recorded["identifiers"], recorded["resolutions"], strict=True):
        found = [resolution(table, identifier, scope) for scope in scopes]
        if found != expected:
            mismatches.append((identifier, found, expected))
    assert mismatches == []
    kinds = {answer[0] for row in recorded["resolutions"] for answer in row}
    assert kinds == {"C", "A", "U", "E"}  # the sample reaches every kind of answer


def test_membership_protection_and_constants(table, recorded):
    names = checked_names(recorded["identifiers"], recorded["resolved_names"])
    found = [[n in table, table.is_protected(n), table.constant(n).kind, table.constant(n).source]
             for n in names]
    assert found == recorded["constants"]
    assert any(protected for _, protected, _, _ in found)
    assert any(not known for known, _, _, _ in found)


def test_namespaces(table, recorded):
    found = [table.is_namespace(q) for q in recorded["namespace_queries"]]
    assert found == recorded["namespaces"]
    assert True in found and False in found


def test_notations(table, recorded, scopes):
    symbols = recorded["symbols"]
    assert len(symbols) > 500
    assert plain(table.notations()) == recorded["global_notations"]
    assert [digest(table.notations_for(s)) for s in symbols] == recorded["notations_for"]
    for scope, expected in zip(scopes, recorded["notations"], strict=True):
        assert digest(table.notations(scope)) == expected["all"]
        assert [digest(table.notations(scope, symbol=s)) for s in symbols] == expected["by_symbol"]
