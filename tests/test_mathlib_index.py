"""The bundled Mathlib declaration index (transted/pipeline/opt/data/mathlib_index.sqlite): opening it,
point queries on declarations whose source is known, the class hierarchy, rewrite lemmas,
provenance, its size cap, and what a fresh process pays to open it and look names up.

Expected trees are derived by transted's own parser from the declaration's text as written in
the pinned Mathlib (cited per test), not copied from the index."""

from __future__ import annotations

import gzip
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from transted.pipeline.opt.mathlib import SIZE_CAP_BYTES, index_path, load_index
from transted.pipeline.opt.mathlib.index import MathlibIndex
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.parser import TermParser

REPO = Path(__file__).resolve().parents[1]
MATHLIB_COMMIT = "81a5d257c8e410db227a6665ed08f64fea08e997"
BATTERIES_COMMIT = "023ce7d62a0531e22a5331e20b587817a80d49ff"


def term(text: str) -> Node:
    return TermParser(text).parse()


@pytest.fixture(scope="module")
def index() -> MathlibIndex:
    return load_index()


def test_bundled_file_is_package_data_under_the_size_cap() -> None:
    path = index_path()
    assert path == REPO / "transted" / "pipeline" / "opt" / "data" / "mathlib_index.sqlite"
    assert path.stat().st_size <= SIZE_CAP_BYTES
    assert (path.parent / "LICENSE").read_text().strip().startswith("Apache License")
    pyproject = (REPO / "pyproject.toml").read_text()
    assert '"**/*.sqlite"' in pyproject  # shipped in the wheel


def test_opened_read_only(index: MathlibIndex) -> None:
    assert index.declaration("Set.Nonempty") is not None  # opens the connection
    with pytest.raises(sqlite3.OperationalError):
        index._query("CREATE TABLE t (x)")  # noqa: SLF001 — the connection refuses writes


def test_version_names_the_pinned_commits(index: MathlibIndex) -> None:
    v = index.version
    assert (v.mathlib_commit, v.batteries_commit) == (MATHLIB_COMMIT, BATTERIES_COMMIT)
    assert str(v) == f"mathlib-index-{v.generator}-81a5d257-{v.content_sha256[:8]}"
    assert index.lean_version == "leanprover/lean4:v4.32.0"


def test_set_nonempty_is_a_def_whose_body_parses(index: MathlibIndex) -> None:
    # Mathlib/Data/Set/Defs.lean:275  protected def Nonempty (s : Set α) : Prop := ∃ x, x ∈ s
    d = index.declaration("Set.Nonempty")
    assert d is not None and d.kind == "def" and d.protected
    assert d.source.file == "mathlib:Mathlib/Data/Set/Defs.lean" and d.source.line == 275
    assert d.scope.namespace == "Set"
    body = index.unfolding("Set.Nonempty")
    assert body is not None and body.value.tree == term("∃ x, x ∈ s")
    assert [(b.names, b.kind) for b in d.binders] == [(("α",), "implicit"), (("s",), "explicit")]


def test_curated_core_surjective(index: MathlibIndex) -> None:
    d = index.declaration("Function.Surjective")
    assert d is not None and d.source.file == "lean4:src/Init/Core.lean" and d.curated
    assert d.body is not None and d.body.value.tree == term("∀ b, ∃ a, f a = b")
    injective = index.unfolding("Function.Injective")
    assert injective is not None
    assert injective.value.tree == term("∀ ⦃a₁ a₂⦄, f a₁ = f a₂ → a₁ = a₂")
    gcd = index.declaration("Nat.gcd")
    assert gcd is not None and gcd.body is not None and gcd.body.why_not == "recursive"


def test_monotone_and_antitone_bodies(index: MathlibIndex) -> None:
    # Mathlib/Order/Monotone/Defs.lean:62, :68
    monotone, antitone = index.unfolding("Monotone"), index.unfolding("Antitone")
    assert monotone is not None and monotone.value.tree == term("∀ ⦃a b⦄, a ≤ b → f a ≤ f b")
    assert antitone is not None and antitone.value.tree == term("∀ ⦃a b⦄, a ≤ b → f b ≤ f a")


def test_field_extends_comm_ring_and_division_ring(index: MathlibIndex) -> None:
    # Mathlib/Algebra/Field/Defs.lean:180  class Field (K : Type u) extends CommRing K, DivisionRing K
    field = index.declaration("Field")
    assert field is not None and field.kind == "class"
    assert [(p.name, p.projection) for p in field.parents] == [
        ("CommRing", "toCommRing"), ("DivisionRing", "toDivisionRing")]
    assert {"CommRing", "DivisionRing", "Ring", "Semiring", "Semifield"} <= index.ancestors("Field")
    assert index.provides("Field", "Ring") and not index.provides("Ring", "Field")


def test_subgroup_extends_submonoid(index: MathlibIndex) -> None:
    # Mathlib/Algebra/Group/Subgroup/Defs.lean:295
    d = index.declaration("Subgroup")
    assert d is not None and d.kind == "structure"
    assert [p.name for p in d.parents] == ["Submonoid"]
    projection = index.declaration("Subgroup.toSubmonoid")
    assert projection is not None and projection.kind == "field"
    assert projection.type is not None and projection.type.tree == term("Submonoid G")
    assert d.additive == "AddSubgroup" and index.kind("AddSubgroup") == "structure"


def test_choose_two_right_is_a_rewrite_lemma(index: MathlibIndex) -> None:
    # Mathlib/Data/Nat/Choose/Basic.lean:110  choose n 2 = n * (n - 1) / 2
    s = index.statement("Nat.choose_two_right")
    assert s is not None and s.relation == "="
    assert (s.lhs, s.rhs) == (term("choose n 2"), term("n * (n - 1) / 2"))
    keyed = [lemma.name for lemma in index.rewrite_lemmas("Nat.choose <SLOT> <SLOT>")]
    assert "Nat.choose_two_right" in keyed


def test_sqrt_eq_rpow(index: MathlibIndex) -> None:
    # Mathlib/Analysis/SpecialFunctions/Pow/Real.lean:984  √x = x ^ (1 / (2 : ℝ))
    s = index.statement("Real.sqrt_eq_rpow")
    assert s is not None and s.relation == "="
    assert (s.lhs, s.rhs) == (term("√x"), term("x ^ (1 / (2 : ℝ))"))


def test_to_additive_generated_statement(index: MathlibIndex) -> None:
    # Mathlib/Algebra/Group/Defs.lean: @[to_additive (attr := simp)] mul_inv_cancel (a : G) :
    # a * a⁻¹ = 1 generates add_neg_cancel
    source, generated = index.declaration("mul_inv_cancel"), index.declaration("add_neg_cancel")
    assert source is not None and source.additive == "add_neg_cancel"
    assert generated is not None and generated.generated is not None
    assert generated.generated.source == "mul_inv_cancel"
    assert generated.generated.statement == "translated"
    s = index.statement("add_neg_cancel")
    assert s is not None and (s.lhs, s.rhs) == (term("a + -a"), term("0"))


def test_instances_and_deprecations(index: MathlibIndex) -> None:
    assert "Real.linearOrder" in index.instances_of("LinearOrder")  # Data/Real/Basic.lean:490
    linear = index.declaration("Real.linearOrder")
    assert linear is not None and linear.instance is not None
    assert linear.instance.arguments == (term("ℝ"),)
    deprecated = [d for d in (index.declaration(n) for n in index.instances_of("LinearOrder"))
                  if d is not None and d.deprecated]
    assert all(d.deprecated and d.deprecated.since for d in deprecated)


def test_instance_header_is_the_declarations_own_fields(index: MathlibIndex) -> None:
    """What instance resolution reads, decoded alone, is the full record's: every instance of
    a few classes of the number hierarchy, and a non-instance."""
    names = [n for c in ("CommRing", "LinearOrder", "Fintype", "Module")
             for n in index.instances_of(c)]
    assert len(names) > 100
    for name in [*names, "Nat.choose"]:
        full, header = index.declaration(name), index.instance_header(name)
        assert full is not None and header is not None
        groups = tuple((b.names, b.kind) for b in full.binders)
        assert (header.keyword, header.groups, header.instance, header.unread_instances) == (
            full.keyword, groups, full.instance, full.unread_instances), name
    assert index.instance_header("Nat.no_such_lemma_anywhere") is None


def test_unknown_name_is_none(index: MathlibIndex) -> None:
    assert index.declaration("Nat.no_such_lemma_anywhere") is None
    assert "Nat.no_such_lemma_anywhere" not in index and "Nat.choose" in index


def test_coverage_counts(index: MathlibIndex) -> None:
    by_kind = {k.kind: k for k in index.coverage.kinds}
    assert by_kind["theorem"].declarations > 150_000
    assert by_kind["def"].signatures_parsed <= by_kind["def"].declarations
    assert index.coverage.lean_core_curated > 0


def test_fresh_process_opens_and_looks_up_a_thousand_names() -> None:
    """Open + 1,000 lookups of distinct names in a new process (figures in docs)."""
    script = (
        "import json, time\n"
        "t0 = time.perf_counter()\n"
        "from transted.pipeline.opt.mathlib import load_index\n"
        "index = load_index()\n"
        "firsts = [f for (f,) in index._query('SELECT first FROM blocks')]\n"
        "names = firsts[:: max(1, len(firsts) // 1000)][:1000]\n"
        "t1 = time.perf_counter()\n"
        "found = sum(index.declaration(n) is not None for n in names)\n"
        "t2 = time.perf_counter()\n"
        "print(json.dumps({'found': found, 'open_ms': (t1 - t0) * 1e3,"
        " 'lookups_ms': (t2 - t1) * 1e3}))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, cwd=REPO)
    figures = json.loads(out.stdout)
    assert figures["found"] == 1000
    assert figures["lookups_ms"] < 5_000  # ~1 ms a cold lookup; generous for a loaded machine


def test_the_instance_headers_companion_is_this_indexs_and_reads_as_the_index(index) -> None:
    # the companion (mathlib_instance_headers.json.gz) was written from the bundled index and
    # gives, for every instance declaration, the header the index's own record gives
    from transted.pipeline.opt.mathlib.index import _header
    assert index._instance_headers is not None  # present, and made from this index
    names = index.instance_declarations()
    assert len(names) == len(index._instance_headers) > 20000
    for name in names:
        assert index.instance_header(name) == _header(index._plain(name)), name


def test_the_companion_is_regenerated_byte_for_byte_and_refused_beside_another_index(
        tmp_path: Path) -> None:
    from scripts.mathlib_index.instance_headers import write_instance_headers
    from transted.pipeline.opt.mathlib.index import INSTANCE_HEADERS_FILE
    linked = tmp_path / "mathlib_index.sqlite"
    linked.symlink_to(index_path())
    out = write_instance_headers(linked)
    assert out.read_bytes() == (index_path().parent / INSTANCE_HEADERS_FILE).read_bytes()
    stored = json.loads(gzip.decompress(out.read_bytes()))
    stored["index_content_sha256"] = "0" * 64  # as if written from another index
    out.write_bytes(gzip.compress(json.dumps(stored).encode()))
    other = MathlibIndex(linked)
    assert other._instance_headers is None  # not used: the index's own records are read
    name = other.instance_declarations()[0]
    assert other.instance_header(name) == load_index().instance_header(name)


def test_a_companion_that_does_not_decode_is_an_error_naming_it(tmp_path: Path) -> None:
    from transted.pipeline.opt.mathlib.index import INSTANCE_HEADERS_FILE
    linked = tmp_path / "mathlib_index.sqlite"
    linked.symlink_to(index_path())
    (tmp_path / INSTANCE_HEADERS_FILE).write_bytes(b"not gzip")
    with pytest.raises(ValueError, match=f"{INSTANCE_HEADERS_FILE}: does not decode.*regenerate"):
        MathlibIndex(linked).instance_header("instAddNat")
