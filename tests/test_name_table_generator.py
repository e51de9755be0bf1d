"""The generator's reading of Lean declaration headers (scripts/name_table), on small inputs
written for these tests in Mathlib's style, and its port of Mathlib's to_additive name guessing."""

from __future__ import annotations

from scripts.name_table.declarations import read_file_facts
from scripts.name_table.lean_source import blank_comments, commands
from scripts.name_table.translate import GuessData, guess_name, split_case, target_name

SOURCE = '''/-
Copyright header with a `def fake` inside a comment.
-/
module

public import Mathlib.Data.Nat.Basic

@[expose] public section

namespace Foo

/-- A docstring mentioning `theorem not_a_decl`. -/
@[simp, to_additive (attr := simp) /-- doc -/]
protected noncomputable def prod (s : ℕ) :
    ℕ := s -- trailing comment: def nope

private def hidden : ℕ := 0

theorem bar_baz {a : ℕ}
    (h : a = a) : True := trivial

open Bar in
lemma scoped_lemma : True := trivial

scoped notation "⋆" => Foo.prod
local notation "♯" => Foo.prod

structure Point (α : Type*) extends Base α where
  /-- x -/
  x : α
  y z : α
  protected w : α := x

inductive Color where
  | red
  | green : Color

def _root_.rootDef : ℕ := 'a'.toNat

alias ⟨mp_alias, _⟩ := Iff.rfl

export Nat (succ)

end Foo

scoped[Real] notation "τ" => 2 * Real.pi
'''


def test_comments_are_blanked_and_positions_kept():
    text = "def a := 1 -- def b\n/- def c /- nested -/ -/ def d := \"--\" ++ 'x'.toString\n"
    blanked = blank_comments(text)
    assert len(blanked) == len(text) and blanked.count("\n") == 2
    assert "def b" not in blanked and "def c" not in blanked and "nested" not in blanked
    assert 'def d := "--"' in blanked  # the string keeps its dashes


def test_declarations_namespaces_and_modifiers():
    facts = read_file_facts(SOURCE)
    names = {d.name: d for d in facts.decls}
    assert names["Foo.prod"].protected and names["Foo.prod"].kind == "def"
    assert names["Foo.prod"].line == 14  # the keyword's line, after the attribute line
    assert "Foo.hidden" not in names and facts.private == 1
    assert names["Foo.bar_baz"].kind == "theorem"
    assert "Foo.scoped_lemma" in names  # `open Bar in` prefixes the command
    assert {"Foo.Point.x", "Foo.Point.y", "Foo.Point.z", "Foo.Point.toBase", "Foo.Point.mk"} <= set(names)
    assert names["Foo.Point.w"].protected
    assert {"Foo.Color.red", "Foo.Color.green"} <= set(names)
    assert "rootDef" in names and "Foo.mp_alias" in names
    assert not any("fake" in n or "nope" in n or "not_a_decl" in n for n in names)
    assert [(e.alias, e.target) for e in facts.exports] == [("Foo.succ", "Nat.succ")]


def test_notations_keep_their_scope():
    facts = read_file_facts(SOURCE)
    scopes = {n.atoms: n.namespace for n in facts.notations}
    assert scopes == {("⋆",): "Foo", ("τ",): "Real"}
    assert facts.local_notations == 1


def test_translation_requests_are_recorded():
    (request,) = read_file_facts(SOURCE).translations
    assert request.attribute == "to_additive" and request.source == "Foo.prod"
    assert request.target is None and request.protected


def test_attribute_lines_join_their_declaration():
    text = "@[simp]\n@[to_additive]\nnoncomputable\ndef f : ℕ := 0\n"
    (cmd,) = [c for c in commands(text) if c.keyword]
    assert cmd.keyword == "def" and cmd.attributes == ["simp", "to_additive"]
    assert cmd.modifiers == ["noncomputable"] and cmd.line == 4


# Entries quoted from Mathlib/Tactic/Translate/ToAdditive.lean (nameDict, abbreviationDict).
DATA = GuessData(
    name_dict={"prod": ["Sum"], "mul": ["Add"], "inv": ["Neg"], "smul": ["VAdd"], "one": ["Zero"],
               "monoid": ["Add", "Monoid"], "hmul": ["HAdd"]},
    abbreviation_dict={"zero_le": "Nonneg", "addSupport": "Support"},
)


def test_split_case_matches_mathlib_docstring():
    # Mathlib/Tactic/Translate/GuessName.lean: `"InvHMulLEConjugate₂SMul_ne_top".splitCase`.
    assert split_case("InvHMulLEConjugate₂SMul_ne_top") == [
        "Inv", "HMul", "LE", "Conjugate₂", "SMul", "_", "ne", "_", "top"]


def test_guess_name_translates_words_and_abbreviations():
    assert guess_name(DATA, "prod") == "sum"
    assert guess_name(DATA, "prod_comm") == "sum_comm"
    assert guess_name(DATA, "one_le_mul") == "nonneg_add"
    assert guess_name(DATA, "mulSupport") == "support"
    assert guess_name(DATA, "Monoid") == "AddMonoid"
    assert guess_name(DATA, "mul_inv'") == "add_neg'"


def test_target_name_translates_namespaces_and_explicit_names():
    translated = {"Monoid": "AddMonoid"}.get
    assert target_name(DATA, "Monoid.npow", None, translated) == "AddMonoid.npow"
    assert target_name(DATA, "Finset.prod", None, translated) == "Finset.sum"
    assert target_name(DATA, "Finset.prod_foo", "sum_bar", translated) == "Finset.sum_bar"
    assert target_name(DATA, "A.B.prod", "C.sum", translated) == "A.C.sum"
    assert target_name(DATA, "A.prod", "_root_.top", translated) == "top"
