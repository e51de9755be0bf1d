"""The Mathlib index generator (scripts/mathlib_index) on synthetic sources written for these
tests (tests/data/mathlib_index): context, kinds, values, variables, attributes, to_additive,
hierarchy, and determinism (one process and two give the same bytes)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scripts.mathlib_index.additive_terms import AdditiveTranslator, Untranslatable
from scripts.mathlib_index.build import main
from scripts.mathlib_index.declarations import read_file
from scripts.mathlib_index.signature import cut
from scripts.mathlib_index.sources import open_source
from transted.pipeline.opt.mathlib import MathlibIndex
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.parser import TermParser

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data" / "mathlib_index"
MATHLIB_COMMIT = "a" * 40
BATTERIES_COMMIT = "b" * 40


def _arguments(out: Path, jobs: int) -> list[str]:
    return ["--mathlib", str(DATA / "mathlib"), "--mathlib-commit", MATHLIB_COMMIT,
            "--batteries", str(DATA / "batteries"), "--batteries-commit", BATTERIES_COMMIT,
            "--out", str(out), "--jobs", str(jobs)]


def _build(out: Path, jobs: int) -> Path:
    assert main(_arguments(out, jobs)) == 0
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """One build in this process, one in a new process with another string-hash seed and two
    workers: set iteration order must not reach the output."""
    root = tmp_path_factory.mktemp("index")
    one = _build(root / "one.sqlite", 1)
    two = root / "two.sqlite"
    seed = "1" if os.environ.get("PYTHONHASHSEED") != "1" else "2"
    subprocess.run([sys.executable, "-m", "scripts.mathlib_index.build", *_arguments(two, 2)],
                   check=True, capture_output=True, cwd=REPO,
                   env={**os.environ, "PYTHONHASHSEED": seed})
    return one, two


@pytest.fixture(scope="module")
def index(built: tuple[Path, Path]) -> MathlibIndex:
    return MathlibIndex(built[0])


def term(text: str) -> Node:
    return TermParser(text).parse()


def test_generator_is_deterministic_across_processes_and_hash_seeds(
        built: tuple[Path, Path]) -> None:
    one, two = built
    assert one.read_bytes() == two.read_bytes()


def test_regeneration_replaces_the_file(tmp_path: Path) -> None:
    out = tmp_path / "index.sqlite"
    out.write_bytes(b"stale")
    _build(out, 1)
    assert out.read_bytes()[:16] == b"SQLite format 3\x00"
    # the index and its companion of instance headers, made from it; no temporary left
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "index.sqlite", "mathlib_instance_headers.json.gz"]
    assert MathlibIndex(out)._instance_headers is not None


def test_version_records_the_commits(index: MathlibIndex) -> None:
    v = index.version
    assert (v.mathlib_commit, v.batteries_commit) == (MATHLIB_COMMIT, BATTERIES_COMMIT)
    assert str(v).startswith("mathlib-index-2-aaaaaaaa-") and len(v.content_sha256) == 64


def test_variables_a_theorem_mentions_are_its_first_binders(index: MathlibIndex) -> None:
    one_mul = index.declaration("Toy.one_mul_toy")
    assert one_mul is not None
    assert [(b.names, b.kind, b.from_variable) for b in one_mul.binders] == [
        (("M",), "implicit", True), ((), "instance", True), (("a",), "explicit", False)]
    # `n` is a variable of the section, but this statement does not mention it
    pow_toy = index.declaration("Toy.pow_toy")
    assert pow_toy is not None and ("n",) in [b.names for b in pow_toy.binders]
    uses_m = index.declaration("Toy.uses_m")  # `variable (m : ℕ) in`
    assert uses_m is not None and [b.names for b in uses_m.binders] == [("m",)]


def test_statement_split_and_scope(index: MathlibIndex) -> None:
    opened = index.declaration("Toy.opened")
    assert opened is not None and opened.scope.opens == ("Nat",)
    assert opened.scope.namespace == "Toy"
    s = index.statement("Toy.opened")
    assert s is not None and s.relation == "="
    assert [(h.name, h.type) for h in s.hypotheses] == [("h", term("0 < k"))]
    assert (s.lhs, s.rhs) == (term("k - 1 + 1"), term("k"))
    after = index.declaration("ToyPoint")  # the `open … in` ended with its command
    assert after is not None and after.scope.opens == ()


def test_definition_values_and_why_not(index: MathlibIndex) -> None:
    nonempty = index.unfolding("Toy.ToyNonempty")
    assert nonempty is not None and nonempty.value.tree == term("∃ x, s x")
    twice = index.declaration("Toy.twice")
    assert twice is not None and twice.kind == "abbrev" and twice.reducibility == "reducible"
    fact, countdown = index.declaration("Toy.fact"), index.declaration("Toy.countdown")
    assert fact is not None and fact.body is not None and not fact.body.unfoldable
    assert fact.body.why_not == "defined by pattern matching"
    assert countdown is not None and countdown.body is not None
    assert countdown.body.why_not == "recursive" and index.unfolding("Toy.countdown") is None
    assert index.declaration("Toy.hidden") is None  # private


def test_unparsed_signature_keeps_text_and_error(index: MathlibIndex) -> None:
    hom = index.declaration("Toy.hom_toy")
    assert hom is not None and not hom.signature_parsed
    assert hom.parse_error is not None and "⟶" in hom.parse_error
    assert hom.type is not None and "C ⟶ C" in hom.type.text and hom.type.tree is None


def test_attributes_commands_and_deprecations(index: MathlibIndex) -> None:
    twice_eq = index.declaration("Toy.twice_eq")
    assert twice_eq is not None and twice_eq.simp  # from `attribute [simp] twice_eq`
    old = index.declaration("Toy.twice_eq_old")
    assert old is not None and old.deprecated is not None
    assert (old.deprecated.new_name, old.deprecated.since) == ("Toy.twice_eq", "2025-01-01")
    assert index.current_name("Toy.twice_eq'") == "Toy.twice_eq"  # deprecated alias


def test_to_additive_generates_name_and_statement(index: MathlibIndex) -> None:
    source = index.declaration("Toy.one_mul_toy")
    generated = index.declaration("Toy.zero_add_toy")
    assert source is not None and source.additive == "Toy.zero_add_toy"
    assert generated is not None and generated.generated is not None
    assert generated.generated.statement == "translated"
    assert generated.simp  # `(attr := simp)`
    assert generated.type is not None and generated.type.tree == term("0 + a = a")
    assert [b.type.tree for b in generated.binders if b.kind == "instance"] == [
        term("ToyAddMonoid M")]
    add_monoid = index.declaration("ToyAddMonoid")  # a generated class: its fields translated
    assert add_monoid is not None and add_monoid.generated is not None
    assert [(f.name, f.type.tree) for f in add_monoid.fields] == [("zero_add'", term("0 + a = a"))]


def test_hierarchy_from_extends_and_instances(index: MathlibIndex) -> None:
    parents = {(e.parent, e.by) for e in index.parents("ToyGroup")}
    assert parents == {("ToyMonoid", "extends"), ("Inv", "extends"), ("ToyDiv", "instance")}
    assert {"ToyMonoid", "Mul", "One", "Inv", "ToyDiv"} <= index.ancestors("ToyGroup")
    assert index.provides("ToyGroup", "One") and not index.provides("ToyMonoid", "Inv")
    assert index.instances_of("ToyDiv") == ("ToyGroup.toToyDiv", "ToyMul.toToyDiv'")
    # `attribute [instance] ToyMul.toToyDiv'` made the def an instance, and an edge
    assert ("ToyDiv", "instance") in {(e.parent, e.by) for e in index.parents("ToyMul")}


def test_no_edge_from_a_scoped_instance_or_one_with_unread_section_instances(
        index: MathlibIndex) -> None:
    # `scoped[ToyScope] attribute [instance] ToyMul.toToyNorm` holds only with ToyScope open
    assert "ToyNorm" not in {e.parent for e in index.parents("ToyMul")}
    scoped = index.declaration("ToyMul.toToyNorm")
    assert scoped is not None and scoped.instance is None
    # the instance's proof uses the section's `[hv : ToyValued G V]`: Lean adds it
    unread = index.declaration("ToyGroup.toToyNorm")
    assert unread is not None and unread.unread_instances == ("[hv : ToyValued G V]",)
    assert not index.provides("ToyGroup", "ToyNorm")


def test_structure_members(index: MathlibIndex) -> None:
    point = index.declaration("ToyPoint")
    assert point is not None and [f.name for f in point.fields] == ["x", "y", "z"]
    assert [p.projection for p in point.parents] == ["toToyMul"]
    projection = index.declaration("ToyPoint.toToyMul")
    assert projection is not None and projection.kind == "field"
    assert projection.type is not None and projection.type.tree == term("ToyMul α")
    assert [b.names for b in projection.binders] == [("α",), ("self",)]
    green = index.declaration("ToyColor.green")
    assert green is not None and green.kind == "constructor" and green.owner == "ToyColor"


def test_rewrite_lemmas_simp_first_and_keyed(index: MathlibIndex) -> None:
    by_head = [lemma.name for lemma in index.rewrite_lemmas("Toy.twice <SLOT>")]
    assert by_head == ["Toy.twice_eq", "Toy.twice_eq_old"]  # simp first
    assert [lemma.name for lemma in index.rewrite_lemmas("Toy.twice <SLOT>", simp_only=True)
            ] == ["Toy.twice_eq"]
    assert "Toy.twice <SLOT>" in index.rewrite_heads()
    lemma = next(index.rewrite_lemmas("Toy.twice <SLOT>"))
    assert (lemma.lhs, lemma.rhs, lemma.relation) == (term("twice k"), term("2 * k"), "=")
    names = {lemma.name for lemma in index.rewrite_lemmas()}
    assert {"Toy.opened", "Toy.zero_add_toy", "Nat.gcd_comm"} <= names


def test_cut_finds_the_signature_end() -> None:
    assert cut(" foo (x : ℕ := 1) : x = x := by simp").signature == " foo (x : ℕ := 1) : x = x "
    c = cut(" f : ℕ → ℕ\n  | 0 => 1\n  | n + 1 => 2")
    assert c.separator == "|" and c.value.startswith(" 0 => 1")
    assert cut(' s : "a := b" = t where').separator == "where"


def test_a_directory_needs_a_commit() -> None:
    with pytest.raises(ValueError, match="give the commit"):
        open_source("mathlib", DATA / "mathlib", "Mathlib", "x", None)


def _translator(binders: dict[str, str]) -> AdditiveTranslator:
    t = AdditiveTranslator(lambda name: {"Monoid": "AddMonoid"}.get(name),
                           {"prod": "sum", "mul": None})
    for name, ty in binders.items():
        t.bind(name, term(ty))
    return t


def test_additive_operations_follow_their_type() -> None:
    # Mathlib/Tactic/Translate/ToAdditive.lean, "Heuristics": an operation on a fixed type
    # (its type argument has an unapplied constant such as ℕ) is not translated
    t = _translator({"M": "Type*", "ι": "Type*", "s": "Finset ι", "n": "ℕ", "f": "ι → M",
                     "a": "M"})
    assert t.term(term("∏ i ∈ s, f i ^ n = (∏ i ∈ s, f i) ^ n")) == term(
        "∑ i ∈ s, n • f i = n • ∑ i ∈ s, f i")
    assert t.term(term("a ^ (n * 2) * 1 = a⁻¹")) == term("(n * 2) • a + 0 = -a")
    assert t.term(term("n * 2 = n / 1")) == term("n * 2 = n / 1")  # ℕ stays multiplicative
    assert t.term(term("(a * a)ˣ = Mˣ")) == term("AddUnits (a + a) = AddUnits M")
    assert t.term(term("n • a = a")) == term("n • a = a")  # a scalar in ℕ: HSMul stays
    smul = t.term(term("a • a = a"))
    assert smul.children[0].label == "<SLOT> +ᵥ <SLOT>"  # M acting on itself: HVAdd


def test_additive_translation_refuses_an_undecided_operation() -> None:
    t = _translator({"x": "M", "M": "Type*"})
    with pytest.raises(Untranslatable):
        t.term(term("g x * g x = 1"))  # `g` is not bound: its result type is unknown
    parser = TermParser("x.mul x = x")
    with parser.binding(["x"]):  # `x.mul` on a bound `x` is field notation
        field = parser.parse()
    with pytest.raises(Untranslatable, match="receiver"):
        t.term(field)  # `.mul` translates differently by the receiver's type


def test_context_variables_rekind_include_and_omit() -> None:
    text = """
namespace N
variable {α : Type*} [Preorder α] (a b : α) {h : a ≤ b}
variable {a}
include h in
theorem t1 : b = b := rfl
omit [Preorder α] in
theorem t2 : a = a := rfl
theorem t3 : a = b := rfl
end N
"""
    decls = {d.name: d for d in read_file(text, "mathlib:T.lean").declarations}
    t1, t2, t3 = decls["N.t1"], decls["N.t2"], decls["N.t3"]
    assert [(b.names, b.kind) for b in t1.binders] == [
        (("α",), "implicit"), ((), "instance"), (("a",), "implicit"), (("b",), "explicit"),
        (("h",), "implicit")]  # `h` included, with what its type mentions
    assert [(b.names, b.kind) for b in t2.binders] == [(("α",), "implicit"), (("a",), "implicit")]
    assert [(b.names, b.kind) for b in t3.binders] == [
        (("α",), "implicit"), ((), "instance"), (("a",), "implicit"), (("b",), "explicit")]
