"""Quantifier removal and the DNF-like tree of paper 000 (§3–4, Figure 1).

A formula becomes a tree whose root is always ``OR``; below it one child per disjunct. A
disjunct of two or more literals is an ``AND`` node, numbered uniquely within the tree
(``∧1``, ``∧2`` ...) so that paths keep which group they belong to; a one-literal disjunct
hangs directly under the root (the paper's path ``[not, lowervitamincontent, var, y]`` for an
implication's antecedent has no AND). A literal is ``NOT`` over an atom or the atom itself; an
atom is its predicate symbol with one child per argument; a variable ``x`` is ``var(x)``, a
constant is a leaf, a function term nests like a predicate (the paper's nested predicate
terms). ``t1 = t2`` becomes the predicate ``equals(t1, t2)``.

Operator labels are symbols (``∨``, ``∧k``, ``¬``) that the FOL parser never produces as an
identifier, so an operator can never be confused with a predicate named ``not``.

Steps: quantifiers are dropped (their variables stay variables); ``→`` becomes ``¬A ∨ B``;
``↔`` and ``⊕`` are expanded (``A ↔ B`` = ``(A ∧ B) ∨ (¬A ∧ ¬B)``) or rejected, as the paper
did (it filtered them out of MALLS); negation is pushed to the atoms (negation normal form);
``∧`` is distributed over ``∨``. Nothing else is simplified: duplicate literals and disjuncts
stay, as the paper describes no simplification. Distribution can grow exponentially, so the
number of disjuncts is counted on the parsed formula *before* the NNF or the DNF is built
(:func:`count_clauses`, linear time; past the cap :class:`~transted.errors.ResourceLimitError`).

References
----------
Paper 000, "A Similarity Metric for Evaluating Natural Language to Logic Translation", §3–4.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from transted.errors import InputError, ResourceLimitError
from transted.fol.ast import BinOp, Eq, FolTerm, Formula, Func, Not, Pred, Quantified, Variable
from transted.pipeline.opt.node import Node

__all__ = ["OR", "NOT", "AND_PREFIX", "VAR", "EQUALS", "DNFOptions", "DNFLiteral", "dnf_clauses",
           "count_clauses",
           "dnf_tree", "is_and", "is_operator", "tree_paths", "path_text"]

OR = "∨"
NOT = "¬"
AND_PREFIX = "∧"
VAR = "var"
EQUALS = "equals"

_SHORT_VAR = re.compile(r"[a-z][0-9]*\Z")


@dataclass(frozen=True)
class DNFOptions:
    """How a formula becomes a DNF-like tree.

    Attributes
    ----------
    iff_xor : {"expand", "reject"}, default="expand"
        ``expand`` rewrites ``↔``/``⊕`` into ∧/∨/¬; ``reject`` raises :class:`InputError`, as
        the paper's evaluation excluded formulas with those operators.
    free_variables : {"short", "none"}, default="short"
        An unbound name that the parser read as a constant is still a variable when it looks
        like one (one lowercase letter, optional digits: ``x``, ``y2``). Paper 000 compares
        formulas *after* quantifier removal, yet its paths show ``var`` for those names.
    max_clauses : int, default=256
        Most disjuncts allowed in the tree; more raises :class:`ResourceLimitError`.
    """

    iff_xor: Literal["expand", "reject"] = "expand"
    free_variables: Literal["short", "none"] = "short"
    max_clauses: int = 256

    def __post_init__(self) -> None:
        if self.iff_xor not in ("expand", "reject"):
            raise ValueError(f"`iff_xor` must be 'expand' or 'reject', got {self.iff_xor!r}")
        if self.free_variables not in ("short", "none"):
            raise ValueError(f"`free_variables` must be 'short' or 'none', got {self.free_variables!r}")
        if not isinstance(self.max_clauses, int) or self.max_clauses < 1:
            raise ValueError(f"`max_clauses` must be a positive int, got {self.max_clauses!r}")


@dataclass(frozen=True)
class DNFLiteral:
    """An atom (:class:`Pred` or :class:`Eq`), possibly negated."""

    atom: Pred | Eq
    negated: bool = False


Clause = tuple[DNFLiteral, ...]


def _nnf(f: Formula, positive: bool, opts: DNFOptions) -> Formula:
    """Negation normal form over ∧/∨ with quantifiers removed; ``positive=False`` negates."""
    if isinstance(f, (Pred, Eq)):
        return f if positive else Not(f)
    if isinstance(f, Not):
        return _nnf(f.body, not positive, opts)
    if isinstance(f, Quantified):
        return _nnf(f.body, positive, opts)
    a, b = f.left, f.right
    if f.op in ("∧", "∨"):
        op = f.op if positive else ("∨" if f.op == "∧" else "∧")
        return BinOp(op, _nnf(a, positive, opts), _nnf(b, positive, opts))
    if f.op == "→":
        return _nnf(BinOp("∨", Not(a), b), positive, opts)
    if opts.iff_xor == "reject":
        raise InputError(f"operator {f.op} is not supported by Sim with `iff_xor='reject'` "
                         "(paper 000 filtered such formulas out)")
    same = f.op == "↔"
    if not positive:
        same = not same
    if same:  # (A ∧ B) ∨ (¬A ∧ ¬B)
        return BinOp("∨", BinOp("∧", _nnf(a, True, opts), _nnf(b, True, opts)),
                     BinOp("∧", _nnf(a, False, opts), _nnf(b, False, opts)))
    return BinOp("∨", BinOp("∧", _nnf(a, True, opts), _nnf(b, False, opts)),
                 BinOp("∧", _nnf(a, False, opts), _nnf(b, True, opts)))


def count_clauses(formula: Formula, options: DNFOptions | None = None) -> int:
    """Number of disjuncts the DNF of ``formula`` has, computed *without* building it.

    Each subformula gets a (positive, negated) pair of counts in one iterative post-order
    walk over the parsed formula (linear in its size), so an ``↔``/``⊕`` chain, whose NNF
    doubles at every level, is counted in microseconds (exact Python ints: a count has at
    most as many bits as the formula has operators).
    """
    opts = options or DNFOptions()
    counts: dict[int, tuple[int, int]] = {}
    stack: list[tuple[Formula, bool]] = [(formula, False)]
    while stack:
        f, ready = stack.pop()
        if id(f) in counts:
            continue
        parts = _parts(f)
        if not ready and parts:
            stack.append((f, True))
            stack.extend((p, False) for p in parts)
            continue
        if isinstance(f, (Pred, Eq)):
            counts[id(f)] = (1, 1)
        elif isinstance(f, Not):
            p, n = counts[id(f.body)]
            counts[id(f)] = (n, p)
        elif isinstance(f, Quantified):
            counts[id(f)] = counts[id(f.body)]
        else:
            (pa, na), (pb, nb) = counts[id(f.left)], counts[id(f.right)]
            if f.op in ("↔", "⊕") and opts.iff_xor == "reject":
                raise InputError(f"operator {f.op} is not supported by Sim with "
                                 "`iff_xor='reject'` (paper 000 filtered such formulas out)")
            pos, neg = {"∧": (pa * pb, na + nb), "∨": (pa + pb, na * nb),
                        "→": (na + pb, pa * nb), "↔": (pa * pb + na * nb, pa * nb + na * pb),
                        "⊕": (pa * nb + na * pb, pa * pb + na * nb)}[f.op]
            counts[id(f)] = (pos, neg)
    return counts[id(formula)][0]


def _parts(f: Formula) -> tuple[Formula, ...]:
    if isinstance(f, (Not, Quantified)):
        return (f.body,)
    if isinstance(f, BinOp):
        return (f.left, f.right)
    return ()


def _distribute(f: Formula) -> list[Clause]:
    if isinstance(f, BinOp):
        left, right = _distribute(f.left), _distribute(f.right)
        if f.op == "∨":
            return left + right
        return [lc + rc for lc in left for rc in right]
    if isinstance(f, Not):
        return [(DNFLiteral(f.body, True),)]  # type: ignore[arg-type]
    return [(DNFLiteral(f),)]  # type: ignore[arg-type]


def dnf_clauses(formula: Formula, options: DNFOptions | None = None) -> list[Clause]:
    """The disjuncts of ``formula`` in DNF, each a tuple of literals, in source order.

    Raises
    ------
    ResourceLimitError
        The DNF would have more than ``options.max_clauses`` disjuncts.
    InputError
        ``↔``/``⊕`` with ``iff_xor="reject"``.
    """
    opts = options or DNFOptions()
    n = count_clauses(formula, opts)
    if n > opts.max_clauses:
        raise ResourceLimitError(f"DNF of the formula has {n} disjuncts "
                                 f"(`max_clauses` is {opts.max_clauses}; ↔/⊕ chains double "
                                 "at each operator); raise max_clauses or simplify")
    return _distribute(_nnf(formula, True, opts))


def _term_node(t: FolTerm, opts: DNFOptions) -> Node:
    if isinstance(t, Variable):
        return Node(VAR, (Node(t.name),))
    if isinstance(t, Func):
        return Node(t.name, tuple(_term_node(a, opts) for a in t.args))
    if opts.free_variables == "short" and _SHORT_VAR.match(t.name):
        return Node(VAR, (Node(t.name),))
    return Node(t.name)


def _literal_node(lit: DNFLiteral, opts: DNFOptions) -> Node:
    atom = lit.atom
    if isinstance(atom, Eq):
        node = Node(EQUALS, (_term_node(atom.left, opts), _term_node(atom.right, opts)))
    else:
        node = Node(atom.name, tuple(_term_node(a, opts) for a in atom.args))
    return Node(NOT, (node,)) if lit.negated else node


def dnf_tree(formula: Formula, options: DNFOptions | None = None) -> Node:
    """The DNF-like tree of ``formula`` (paper 000, Figure 1).

    Examples
    --------
    >>> from transted.fol.syntax import parse_formula
    >>> str(dnf_tree(parse_formula("(R(w, v) ∧ ¬S(i, j)) ∨ P(x, Q(y, z))")))
    '{∨{∧1{R{var{w}}{var{v}}}{¬{S{var{i}}{var{j}}}}}{P{var{x}}{Q{var{y}}{var{z}}}}}'
    """
    opts = options or DNFOptions()
    children: list[Node] = []
    n_and = 0
    for clause in dnf_clauses(formula, opts):
        literals = tuple(_literal_node(lit, opts) for lit in clause)
        if len(literals) == 1:
            children.append(literals[0])
        else:
            n_and += 1
            children.append(Node(f"{AND_PREFIX}{n_and}", literals))
    return Node(OR, tuple(children))


def is_and(label: str) -> bool:
    return label.startswith(AND_PREFIX)


def is_operator(label: str) -> bool:
    """True for the operator labels ``∨``, ``¬`` and ``∧k``."""
    return label in (OR, NOT) or is_and(label)


def tree_paths(tree: Node) -> list[tuple[str, ...]]:
    """Root-to-leaf label paths, left to right, *without* the OR root.

    The root is the same in every tree and is never compared (paper 000 §4); the paper's
    example paths (``[and41, varyingangles, var, x]``) start below it.
    """
    paths: list[tuple[str, ...]] = []
    stack: list[tuple[Node, tuple[str, ...]]] = [(c, ()) for c in reversed(tree.children)]
    while stack:
        node, prefix = stack.pop()
        path = prefix + (node.label,)
        if node.is_leaf:
            paths.append(path)
        else:
            stack.extend((c, path) for c in reversed(node.children))
    return paths


def path_text(path: tuple[str, ...]) -> str:
    """Paper-style rendering, e.g. ``[not, LowerVitaminCContent, var, y]``."""
    names = {NOT: "not", OR: "or"}
    shown = [names.get(p, "and" + p[len(AND_PREFIX):] if is_and(p) else p) for p in path]
    return "[" + ", ".join(shown) + "]"
