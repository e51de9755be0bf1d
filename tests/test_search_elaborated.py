"""A goal side's elaboration kept for the process and shared by the move sources that read it
(``search/elaborated.py``): the offline ``subst`` moves and the lemma provider."""

from __future__ import annotations

import transted.pipeline.search.elaborated as elaborated
from transted.budget import Budget
from transted.pipeline.opt import parse_statement_normalized, parse_term
from transted.pipeline.opt.elaborate import Scope, elaborate
from transted.pipeline.opt.elaborate.types import Ty
from transted.pipeline.opt.mathlib import load_index
from transted.pipeline.search.elaborated import elaborated_side, local_env
from transted.pipeline.search.lemmas.instances import InstanceOracle
from transted.pipeline.search.lemmas.rewrite import SideRewriter
from transted.pipeline.search.lemmas.table import load_table
from transted.pipeline.search.state import Local, State
from transted.pipeline.search.subst import subst_moves

_TEXT = "theorem t (s : ℕ) (h₀ : s = Nat.choose 7 2) : s % 7 = 0 := sorry"


def _tree(text: str):
    return parse_statement_normalized(text).tree


def test_a_kept_elaboration_is_a_fresh_one():
    tree = _tree("theorem t (x : ℝ) (h : 0 < x) : Real.log (x * x) = 2 * Real.log x := sorry")
    outer = {"n": parse_term("ℕ")}
    kept = elaborated_side(tree, outer)
    fresh = elaborate(tree, Scope(), locals=local_env(outer))
    assert kept.nodes == fresh.nodes and kept.issues == fresh.issues
    # an equal tree built apart, with equal locals, is answered from the memo
    assert elaborated_side(_tree("theorem t (x : ℝ) (h : 0 < x) : Real.log (x * x) = "
                                 "2 * Real.log x := sorry"), dict(outer)) is kept
    # other locals are another elaboration
    assert elaborated_side(tree, {"n": parse_term("ℤ")}) is not kept


def test_local_env_types_type_variables_first():
    env = local_env({"X": parse_term("Type"), "s": parse_term("Set X"), "y": None})
    assert set(env) == {"X", "s"}
    assert env["s"] == Ty("Set", (Ty("X"),))


def test_subst_and_the_lemma_provider_elaborate_a_side_once(monkeypatch):
    calls: list[object] = []

    def counted(tree, scope, **kwargs):
        calls.append(tree)
        return elaborate(tree, scope, **kwargs)

    monkeypatch.setattr(elaborated, "elaborate", counted)
    monkeypatch.setattr(elaborated, "_SIDES", elaborated.Memo(16))
    # a local context no other test builds, so the memo cannot answer from another test
    state = State(_tree(_TEXT), _tree(_TEXT), (Local("q₉", parse_term("ℤ")),))
    assert list(subst_moves(state, Budget()))  # the definition of `s` is substituted
    rewriter = SideRewriter(load_table(), InstanceOracle(load_index()))
    found = rewriter.rewrites(state.lhs, state.local_types(), Budget())
    assert found  # `Nat.choose 7 2` has lemmas (`Nat.choose_two_right`, …)
    assert calls == [state.lhs]  # the rhs is the same tree: one elaboration for both sides
