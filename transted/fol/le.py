"""Logical equivalence (LE) of two FOL formulas, as LogicLLaMA computes it (issue 6 item 3).

Steps (a)–(d) are the :data:`~transted.fol.syntax.LOGICLLAMA` grammar of the one FOL parser
(:func:`transted.fol.syntax.parse_formula`):

(a) quantifiers (a ``∀``/``∃`` token and the variable after it) are dropped wherever they are;
(b) the formula is tokenised by :func:`transted.fol.tokens.fol_tokens`;
(c) the grammar has no precedence: ``F := T (OP T)*`` folded left to right, so
    ``A → B ∧ C`` is ``(A → B) ∧ C``; ``T := '¬' '(' F ')' | '(' F ')' | ['¬'] ATOM``
    (negation applies to a literal or a bracketed formula, so ``¬¬P(x)`` is rejected);
    ``ATOM := SYM '(' TERM (',' TERM)* ')'``. Two extensions, which change no score that
    LogicLLaMA computes (it fails on such input): nested function terms ``f(g(x))`` and the
    equality atom ``t1 = t2``;
(d) an atom is the string of its tokens without spaces and without a leading ``¬``
    (``Drinks(Rina)``); ``P(x)`` and ``P(y)`` are different atoms;
(e) the shorter atom list is padded with dummies;
(f) candidate atoms are bound to reference atoms depth-first over the reference atoms, trying
    unused candidate atoms in ascending Levenshtein distance (ties by position), stopping after
    ``top_n`` (1000) complete bindings;
(g) LE is the best fraction of the ``2**n`` truth assignments on which both formulas agree.

Atoms are kept in order of first appearance (LogicLLaMA uses a ``set``, whose order — and so
which 1000 bindings are tried — varies between runs). Truth tables are Python integers used
as bitsets (one bit per assignment): ``n`` atoms cost ``n·2**n/8`` bytes, so ``max_atoms``
(default 20, at most 24) bounds memory, and a wall-clock ``timeout`` bounds time; either limit
raises :class:`~transted.errors.ResourceLimitError` rather than returning a truncated score.

References
----------
Yang et al. 2024 (LogicLLaMA), ``fol_parser.VecRuleEvaluator.find_best_LE_score`` with
``soft_binding=True, greedy_match=True, top_n=1000``; used by paper 000 (§5) and paper 001.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from transted.budget import Budget
from transted.errors import ResourceLimitError
from transted.fol.ast import BinOp, Formula, Not, Pred
from transted.fol.syntax import LOGICLLAMA, parse_formula

__all__ = ["LEResult", "parse_le", "logical_equivalence", "levenshtein",
           "ATOM_CEILING"]

ATOM_CEILING = 24
"""Largest accepted ``max_atoms``: 24 atoms already take 24 × 2 MiB of truth table."""
_DUMMY = "#DUMMY"
_DUMMY_DISTANCE = 10000


def parse_le(text: str, *, max_length: int = 2000) -> Formula:
    """Parse ``text`` as LE reads it (steps (a)–(d)): :func:`~transted.fol.syntax.parse_formula`
    in the :data:`~transted.fol.syntax.LOGICLLAMA` grammar; atoms come back as
    ``Pred(atom_string, ())``.

    Raises
    ------
    ParseError
        Positioned in the space-joined token string (``source`` = ``LE tokens``).
    ResourceLimitError
        Input longer than ``max_length`` or nested too deeply.
    """
    return parse_formula(text, max_length=max_length, max_atoms=None, grammar=LOGICLLAMA)


def levenshtein(a: str, b: str) -> int:
    """Levenshtein distance (hand-written: nltk's takes 1 s to import, python-Levenshtein is
    not a dependency)."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def _atom_names(formula: Formula) -> list[str]:
    """Atom strings in order of first appearance (left to right)."""
    seen: dict[str, None] = {}
    stack = [formula]
    while stack:
        node = stack.pop()
        if isinstance(node, Pred):
            seen.setdefault(node.name, None)
        elif isinstance(node, Not):
            stack.append(node.body)
        elif isinstance(node, BinOp):
            stack.extend((node.right, node.left))
    return list(seen)


def _postfix(formula: Formula, index: dict[str, int]) -> list[int | str]:
    """The formula as a postfix program: an ``int`` pushes an atom's column, a str applies."""
    program: list[int | str] = []
    stack: list[tuple[Formula, bool]] = [(formula, False)]
    while stack:
        node, expanded = stack.pop()
        if isinstance(node, Pred):
            program.append(index[node.name])
        elif expanded:
            program.append("¬" if isinstance(node, Not) else node.op)  # type: ignore[union-attr]
        elif isinstance(node, Not):
            stack += [(node, True), (node.body, False)]
        elif isinstance(node, BinOp):
            stack += [(node, True), (node.right, False), (node.left, False)]
    return program


def _run(program: list[int | str], columns: list[int], mask: int) -> int:
    stack: list[int] = []
    for step in program:
        if isinstance(step, int):
            stack.append(columns[step])
        elif step == "¬":
            stack.append(mask ^ stack.pop())
        else:
            q, p = stack.pop(), stack.pop()
            stack.append(p & q if step == "∧" else p | q if step == "∨" else p ^ q if step == "⊕"
                         else (mask ^ p) | q if step == "→" else mask ^ p ^ q)
    return stack[0]


def _columns(n: int, budget: Budget) -> tuple[list[int], int]:
    """Truth-table columns as bitsets; row ``r`` gives atom ``i`` bit ``n-1-i`` of ``r``
    (``itertools.product([False, True], repeat=n)`` order)."""
    rows = 1 << n
    columns = []
    for i in range(n):
        half = 1 << (n - 1 - i)
        pattern, width = ((1 << half) - 1) << half, 2 * half
        while width < rows:
            pattern |= pattern << width
            width *= 2
        columns.append(pattern)
        if budget.spent():
            raise ResourceLimitError(f"LE: exceeded `timeout` of {budget.max_time} s building "
                                     "the truth table")
    return columns, (1 << rows) - 1


def _bindings(distances: list[list[int]], top_n: int) -> Iterator[tuple[int, ...]]:
    """Depth-first bindings: reference atom ``i`` tries unused candidates by distance."""
    n = len(distances)
    orders = [sorted(range(n), key=row.__getitem__) for row in distances]  # stable: ties by index
    used, chosen, produced = [False] * n, [0] * n, 0
    stack = [(0, 0)]  # (reference atom, next position in its order)
    while stack:
        i, k = stack.pop()
        if i == n:
            yield tuple(chosen)
            produced += 1
            if produced >= top_n:
                return
            continue
        if k > 0:
            used[chosen[i]] = False
        while k < n and used[orders[i][k]]:
            k += 1
        if k == n:
            continue
        chosen[i] = orders[i][k]
        used[chosen[i]] = True
        stack += [(i, k + 1), (i + 1, 0)]


@dataclass
class LEResult:
    """LE score with the atoms and the best binding (reference atom ↔ candidate atom)."""

    score: float
    reference_atoms: list[str]
    bound_candidate_atoms: list[str] | None
    bindings_tried: int = 0
    details: dict[str, object] = field(default_factory=dict)


def _distance(a: str, b: str) -> int:
    return _DUMMY_DISTANCE if a.startswith(_DUMMY) or b.startswith(_DUMMY) else levenshtein(a, b)


def logical_equivalence(reference: Formula, candidate: Formula, *, top_n: int = 1000,
                        max_atoms: int = 20, timeout: float = 10.0) -> LEResult:
    """LE of two formulas parsed by :func:`parse_le` (module docstring, steps (e)–(g)).

    Raises
    ------
    ResourceLimitError
        More than ``max_atoms`` atoms after padding, or more than ``timeout`` seconds.
    """
    budget = Budget(max_time=timeout)
    ref_atoms, cand_atoms = _atom_names(reference), _atom_names(candidate)
    n = max(len(ref_atoms), len(cand_atoms))
    if n > max_atoms:
        raise ResourceLimitError(f"LE: {n} atoms (2**{n} truth assignments); `max_atoms` is {max_atoms}")
    ref_atoms += [f"{_DUMMY}_{i}" for i in range(n - len(ref_atoms))]
    cand_atoms += [f"{_DUMMY}_{i}" for i in range(n - len(cand_atoms))]
    columns, mask = _columns(n, budget)
    ref_value = _run(_postfix(reference, {a: i for i, a in enumerate(ref_atoms)}), columns, mask)
    distances = [[_distance(r, c) for c in cand_atoms] for r in ref_atoms]
    best, best_binding, tried = 0.0, None, 0
    for binding in _bindings(distances, top_n):
        index = {cand_atoms[c]: position for position, c in enumerate(binding)}
        cand_value = _run(_postfix(candidate, index), columns, mask)
        tried += 1
        score = (mask ^ ref_value ^ cand_value).bit_count() / (1 << n)
        if score > best:
            best, best_binding = score, [cand_atoms[c] for c in binding]
        if best == 1.0:
            break  # no later binding can be strictly better
        if budget.spent():
            raise ResourceLimitError(f"LE: exceeded `timeout` of {timeout} s after {tried} bindings")
    return LEResult(best, ref_atoms, best_binding, tried)
