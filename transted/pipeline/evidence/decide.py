"""Decision: close a sub-goal ``A = B`` between aligned components, named after a Lean tactic.

A component pair is closed when ``A`` and ``B`` are the same term (``rfl``), the same
polynomial side by side (sympy ``expand``, as ``ring_nf`` normalises), or z3 proves ``A ↔ B``
valid for every value of the variables of their declared types; otherwise, if both are built
by the same connective, componentwise (``and_congr``/``or_congr``/``imp_congr``/
``iff_congr``/``not_congr``).

VACUITY GUARD (docs/EVIDENCE.md): a decision closes ``A = B`` only if ``A`` is *contingent*:
some assignment of the variables makes it true and another makes it false (both exhibited,
by exact evaluation or by z3 models). ``A ↔ B`` valid for a contingent ``A`` says ``A`` and
``B`` hold at exactly the same points, which is what a faithful restatement means; for a
valid or unsatisfiable ``A`` (in particular a closed numeric fact) ``A ↔ B`` only says both
are true (or both false), so two different true theorems are never closed. The decision is
made without the hypotheses of the statement (only the binder types), so a conclusion is
never closed by using the hypotheses to prove it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from transted.budget import Budget
from transted.pipeline.evidence.evaluate import assignments, evaluate_term
from transted.pipeline.evidence.lean_text import term_to_lean
from transted.pipeline.evidence.model import Evidence
from transted.pipeline.evidence.refute import RefuteOptions, engine_budget, left_ms, solve
from transted.pipeline.evidence.scripts import (
    SCRIPT_STATUS,
    Procedure,
    congruence,
    proof_of,
    z3_comment,
)
from transted.pipeline.evidence.smt import Encoder, known_unencodable
from transted.pipeline.evidence.terms import (
    NUMBER_TYPES,
    Big,
    Num,
    Op,
    Quant,
    Term,
    Unsupported,
    Var,
    free_vars,
    rename_vars,
)
from transted.pipeline.evidence.translate import Shape, lower_prop, shape_of, translate_prop
from transted.pipeline.opt.elaborate import Elaboration, Ty
from transted.pipeline.opt.elaborate.type_nodes import type_of_node
from transted.pipeline.opt.node import Node

if TYPE_CHECKING:  # annotations only: the engines import these where they run
    import sympy

Statement = Node | Elaboration
"""A proposition-form statement: its elaboration (the tree as written under its header), or a
tree elaborated with no header."""

__all__ = ["Closing", "TermMemo", "decide_terms", "decide_trees", "decide_pair", "is_contingent",
           "same_polynomial", "tactic_for", "procedure_for"]

_CONNECTIVES = {"and": "and_congr", "or": "or_congr", "imp": "imp_congr", "iff": "iff_congr",
                "not": "not_congr"}
_RELATIONS = ("eq", "ne", "lt", "le")


@dataclass
class Closing:
    """How a component goal ``A ↔ B`` was closed: the Lean tactic names and procedures of its
    decided parts, a Lean proof term of ``A ↔ B`` (None when a part was decided by z3 with no
    tactic claimed), and the engines used."""

    tactics: list[str] = field(default_factory=list)
    procedures: list[str] = field(default_factory=list)
    proof: str | None = "Iff.rfl"
    engines: set[str] = field(default_factory=set)


# -- vacuity guard -------------------------------------------------------------------------
def is_contingent(term: Term, variables: dict[str, str], budget: Budget,
                  options: RefuteOptions) -> bool:
    """True only if assignments making ``term`` true and false were both exhibited."""
    import z3  # heavy to import (~0.3 s): only when a term reaches the solver
    if not free_vars(term):
        return False
    seen: set[bool] = set()
    for env in assignments(variables, limit=64, seed=options.seed):
        try:
            seen.add(bool(evaluate_term(term, env)))
        except Unsupported:
            continue
        if len(seen) == 2:
            return True
    if left_ms(budget) <= 0:
        return False
    try:
        enc = Encoder()
        formula = enc.encode(term)
    except Unsupported:
        return False
    for goal in (formula, z3.Not(formula)):
        if (goal is formula and True in seen) or (goal is not formula and False in seen):
            continue
        if solve(enc, goal, budget, options).status != "sat":
            return False
    return True


# -- ring_nf -------------------------------------------------------------------------------
def _poly(term: Term) -> sympy.Expr:
    """The term as a sympy polynomial, only where ring normalisation is sound in its type."""
    import sympy  # heavy to import (~0.5 s): only when a term reaches it
    if isinstance(term, Var):
        return sympy.Symbol(f"{term.name}:{term.type}")
    if isinstance(term, Num):
        return sympy.Rational(term.value.numerator, term.value.denominator)
    if isinstance(term, (Quant, Big)):
        raise Unsupported("binder in a ring expression")
    a = term.args
    if term.op == "add":
        return _poly(a[0]) + _poly(a[1])
    if term.op == "mul":
        return _poly(a[0]) * _poly(a[1])
    if term.op == "sub" and term.type != "ℕ":  # Nat.sub truncates: not a ring operation
        return _poly(a[0]) - _poly(a[1])
    if term.op == "neg":
        return -_poly(a[0])
    if term.op == "pow" and isinstance(a[1], Num):
        return _poly(a[0]) ** int(a[1].value)
    if term.op == "div" and term.type in ("ℚ", "ℝ") and isinstance(a[1], Num) and a[1].value:
        return _poly(a[0]) / sympy.Rational(a[1].value.numerator, a[1].value.denominator)
    if term.op == "cast" and isinstance(a[0], Var):  # a cast variable is an atom
        return sympy.Symbol(f"↑{a[0].name}:{a[0].type}:{term.type}")
    raise Unsupported(f"{term.op} is not a ring operation here")


def same_polynomial(a: Term, b: Term) -> bool:
    """Both propositions are the same relation between the same polynomials, side by side."""
    import sympy  # heavy to import (~0.5 s): only when a term reaches it
    if not (isinstance(a, Op) and isinstance(b, Op) and a.op == b.op and a.op in _RELATIONS):
        return False
    if a.args[0].type != b.args[0].type:
        return False
    try:
        return all(sympy.expand(_poly(x) - _poly(y)) == 0 for x, y in zip(a.args, b.args,
                                                                            strict=True))
    except Unsupported:
        return False


# -- tactic naming -------------------------------------------------------------------------
def _ops(term: Term) -> list[Term]:
    out, stack = [], [term]
    while stack:
        t = stack.pop()
        out.append(t)
        if isinstance(t, Op):
            stack.extend(t.args)
        elif isinstance(t, Quant):
            stack.append(t.body)
        elif isinstance(t, Big):
            stack.extend((t.lo, t.hi, t.body))
    return out


def _linear(term: Term) -> bool:
    for t in _ops(term):
        if isinstance(t, Op) and t.op == "mul" and all(free_vars(x) for x in t.args):
            return False
        if isinstance(t, Op) and t.op in ("div", "mod", "pow") and free_vars(t.args[1]):
            return False
        if isinstance(t, Op) and t.op in ("pow", "dvd") and free_vars(t.args[0]):
            return False
    return True


_SPECIAL = frozenset({"sqrt", "abs", "min", "max", "floor", "ceil", "fact", "gcd", "lcm",
                      "prime", "inv"})


def _conjuncts(term: Term) -> list[Term]:
    if isinstance(term, Op) and term.op == "and":
        return _conjuncts(term.args[0]) + _conjuncts(term.args[1])
    return [term]


def _field_atoms(term: Term) -> bool:
    """Every variable a ℚ/ℝ variable used as itself (no cast of a ℕ/ℤ variable), no
    division by a variable: linarith's atoms."""
    return all(not (isinstance(t, Var) and t.type not in ("ℚ", "ℝ"))
               and not (isinstance(t, Op) and t.op == "cast") for t in _ops(term))


def procedure_for(a: Term, b: Term) -> tuple[str, Procedure]:
    """The Lean tactic and the procedure (:mod:`~transted.pipeline.evidence.scripts`) whose fragment
    holds ``a ↔ b``, once z3 has shown it valid."""
    nodes = _ops(a) + _ops(b)
    ops = {t.op for t in nodes if isinstance(t, Op)}
    types = {t.type for t in nodes if isinstance(t, (Var, Num))}
    if any(isinstance(t, (Quant, Big)) for t in nodes) or ops & _SPECIAL:
        return "z3", "z3"
    linear = _linear(a) and _linear(b)
    if types <= {"ℕ", "ℤ"} and linear:
        return "omega", "linear-int"
    sides = (_conjuncts(a), _conjuncts(b))
    atoms = all(isinstance(t, Op) and t.op in ("eq", "lt", "le") for side in sides for t in side)
    if atoms and linear and _field_atoms(a) and _field_atoms(b):
        single = len(sides[0]) == len(sides[1]) == 1
        return "linarith", "linear-field" if single else "linear-field-system"
    if atoms and len(sides[0]) == len(sides[1]) == 1 and _field_atoms(a) and _field_atoms(b):
        return "nlinarith", "polynomial"
    return "z3", "z3"


def tactic_for(a: Term, b: Term) -> tuple[str, list[str]]:
    """The Lean tactic that decides ``a ↔ b`` in its fragment, and the script line(s)."""
    tactic, procedure = procedure_for(a, b)
    proof = proof_of(procedure, parity=bool({"even", "odd"} & _op_names(a, b)),
                     conjuncts=(len(_conjuncts(a)), len(_conjuncts(b))))
    return tactic, [_script_line(a, b, proof)]


def _op_names(a: Term, b: Term) -> set[str]:
    return {t.op for t in _ops(a) + _ops(b) if isinstance(t, Op)}


def _script_line(a: Term, b: Term, proof: str | None) -> str:
    goal = f"{term_to_lean(a)} ↔ {term_to_lean(b)}"
    return z3_comment(goal) if proof is None else f"have : {goal} := {proof}"


# -- decision ------------------------------------------------------------------------------
def decide_terms(a: Term, b: Term, variables: dict[str, str], budget: Budget,
                 options: RefuteOptions | None = None) -> Closing | None:
    """Close ``a = b`` (propositions over ``variables``) or return None."""
    options = options or RefuteOptions()
    if a == b:
        return Closing(["rfl"], ["identical"], "Iff.rfl", set())
    if left_ms(budget) <= 0 or not (free_vars(a) or free_vars(b)):
        return None  # a closed component is never contingent: only `rfl` closes it
    contingent: bool | None = None
    if same_polynomial(a, b):
        contingent = is_contingent(a, variables, budget, options)
        if contingent:
            return Closing(["ring_nf"], ["ring-normal-form"], proof_of("ring-normal-form"),
                           {"sympy"})
    if _equivalent(a, b, budget, options):
        if contingent is None:
            contingent = is_contingent(a, variables, budget, options)
        if contingent:
            tactic, procedure = procedure_for(a, b)
            proof = proof_of(procedure, parity=bool({"even", "odd"} & _op_names(a, b)),
                             conjuncts=(len(_conjuncts(a)), len(_conjuncts(b))))
            whole = Closing([tactic], [procedure], proof, {"z3"})
            if proof is not None:
                return whole
            # no tactic covers the whole: the parts may each have one (congruence script)
            parts = _componentwise(a, b, variables, budget, options)
            return parts if parts is not None and parts.proof is not None else whole
    return _componentwise(a, b, variables, budget, options)


def _componentwise(a: Term, b: Term, variables: dict[str, str], budget: Budget,
                   options: RefuteOptions) -> Closing | None:
    """Both built by the same connective, each pair of parts closed: ``and_congr`` …"""
    if not (isinstance(a, Op) and isinstance(b, Op) and a.op == b.op and a.op in _CONNECTIVES):
        return None
    parts = [decide_terms(x, y, variables, budget, options)
             for x, y in zip(a.args, b.args, strict=True)]
    if not all(p is not None for p in parts):
        return None
    done = [p for p in parts if p is not None]
    return Closing([_CONNECTIVES[a.op], *(t for p in done for t in p.tactics)],
                   ["congruence", *(q for p in done for q in p.procedures)],
                   congruence(a.op, [p.proof for p in done]),
                   set().union(*(p.engines for p in done)))


def _equivalent(a: Term, b: Term, budget: Budget, options: RefuteOptions) -> bool:
    # `a` is refused by `encode` before any context is made; `b` is met after `a` made one
    if known_unencodable(b):
        return False
    try:
        enc = Encoder()
        formula = enc.encode(a) == enc.encode(b)
    except Unsupported:
        return False
    return solve(enc, formula, budget, options, valid=True).status == "unsat"


TermMemo = dict[tuple[int, tuple[tuple[str, Ty], ...]], tuple[Node, Term | None]]
"""Side tree (by identity) and locals → its term (None: Unsupported), for :func:`decide_trees`."""


def decide_trees(lhs: Node, rhs: Node, context: Mapping[str, str | Node | None],
                 options: RefuteOptions | None = None, budget: Budget | None = None,
                 *, memo: TermMemo | None = None,
                 elaborated: Callable[[Node], Elaboration] | None = None) -> Closing | None:
    """The search's goal ``lhs = rhs`` (proposition trees) with the goal's locals in
    ``context`` (name → type, as a string ``"ℝ"`` or a type tree, e.g.
    ``State.local_types()``). Both sides are elaborated with those locals (names as the
    normaliser wrote them: in full); any elaboration issue, or a local outside ℕ ℤ ℚ ℝ in
    use, abstains.
    ``budget``: the engines' stage (default: :func:`engine_budget` of ``options``).
    ``memo``: terms of sides already translated (a search's goals share most sides).
    ``elaborated``: a side's elaboration under these locals kept by the caller, exactly
    ``elaborate(side, Scope(), locals=…)`` with the locals read from ``context`` as here (the
    search keeps its goal sides' elaborations for the process:
    :func:`transted.pipeline.search.elaborated.elaborated_side`); lowered instead of
    elaborating the side again."""
    options = options or RefuteOptions()
    env: dict[str, Ty] = {}
    for name, typ in context.items():
        ty = type_of_node(typ, env) if isinstance(typ, Node) else Ty(typ) if typ else None
        if ty is not None:
            env[name] = ty
    a, b = _translated(lhs, env, memo, elaborated), _translated(rhs, env, memo, elaborated)
    if a is None or b is None:
        return None
    variables = {n: t.head for n, t in env.items() if not t.args and t.head in NUMBER_TYPES}
    return decide_terms(a, b, variables,
                        budget if budget is not None else engine_budget(options), options)


def _translated(side: Node, env: dict[str, Ty], memo: TermMemo | None,
                elaborated: Callable[[Node], Elaboration] | None = None) -> Term | None:
    key = (id(side), tuple(env.items()))
    hit = memo.get(key) if memo is not None else None
    if hit is not None and hit[0] is side:
        return hit[1]
    try:
        term: Term | None = translate_prop(side, env) if elaborated is None else \
            lower_prop(elaborated(side))
    except Unsupported:
        term = None
    if memo is not None:
        memo[key] = (side, term)
    return term


def _conj(terms: list[Term | None] | list[Term]) -> Term:
    out: Term = Op("true", (), "Prop")
    for t in terms:
        assert t is not None
        out = t if isinstance(out, Op) and out.op == "true" else Op("and", (out, t), "Prop")
    return out


def _align(ref: Shape, cand: Shape) -> dict[str, str] | None:
    """Candidate variable → reference variable: by name and type, else by position and type."""
    if ref.vars == cand.vars:
        return {n: n for n in cand.vars}
    if list(ref.vars.values()) == list(cand.vars.values()):
        return dict(zip(cand.vars, ref.vars, strict=True))
    return None


def decide_pair(reference: Statement, candidate: Statement, options: RefuteOptions | None = None,
                budget: Budget | None = None) -> Evidence:
    """``proved`` when hypotheses (as a conjunction) and conclusions are closed pairwise."""
    options = options or RefuteOptions()
    budget = budget if budget is not None else engine_budget(options)
    ref, cand = shape_of(reference), shape_of(candidate)
    if not (ref.complete and cand.complete):
        return Evidence(kind="none", reason="; ".join(ref.errors + cand.errors),
                        ms=budget.elapsed() * 1000)
    renaming = _align(ref, cand)
    if renaming is None:
        return Evidence(kind="none", reason="binders do not align by name or position and type",
                        ms=budget.elapsed() * 1000)
    try:
        cand_hyps = [rename_vars(h, renaming) for h in cand.hyps if h is not None]
        cand_concl = rename_vars(cand.concl, renaming) if cand.concl is not None else None
    except Unsupported as e:  # a bound variable would capture a renamed one: abstain
        return Evidence(kind="none", reason=str(e), ms=budget.elapsed() * 1000)
    closings = []
    for a, b in ((_conj(ref.hyps), _conj(cand_hyps)), (ref.concl, cand_concl)):
        assert a is not None and b is not None
        c = decide_terms(a, b, ref.vars, budget, options)
        if c is None:
            return Evidence(kind="none", reason="a component was not decided",
                            ms=budget.elapsed() * 1000)
        closings.append(c)
    if all(c.tactics == ["rfl"] for c in closings):
        return Evidence(kind="none", reason="statements are identical terms (nothing decided)",
                        ms=budget.elapsed() * 1000)
    tactics = [t for c in closings for t in c.tactics]
    pairs = ((_conj(ref.hyps), _conj(cand_hyps)), (ref.concl, cand_concl))
    script = [_script_line(a, b, c.proof) for (a, b), c in zip(pairs, closings, strict=True)
              if a is not None and b is not None]
    script.append("-- hypotheses ↔ and conclusions ↔ above give the statements' ↔ "
                  "(forall_congr, imp_congr)")
    engines = sorted(set().union(*(c.engines for c in closings)))
    return Evidence(kind="proved", engine="+".join(engines) or None, tactics=tactics,
                    procedures=[p for c in closings for p in c.procedures], script=script,
                    script_status=SCRIPT_STATUS,
                    reason="hypotheses and conclusions closed componentwise",
                    ms=budget.elapsed() * 1000)
