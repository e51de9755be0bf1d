"""Perturbations of gold FOL formulas (paper 001 §3.1) and the sensitivity tables built on them.

Each perturbation maps a parsed formula to a new one; it *applies* to a formula only when the
result differs (paper 001 Table 1 counts these). They are defined on the syntax tree, where
the paper's notebook used string replacement; where the two differ, the tree version follows
the paper's text:

* ``quantifier``: swap every ``∀``/``∃`` (the notebook turns all ``∀`` into ``∃`` and leaves
  ``∃`` alone when both occur);
* ``negation``: negate each atom that is not negated, un-negate each that is (negations of
  compound formulas are kept); ∀x(¬W(x,C) → A(x,C)) → ∀x(W(x,C) → ¬A(x,C));
* ``and_or``: swap ``∧``/``∨``; ``or_xor``: swap ``∨``/``⊕`` (the notebook turns ``∨`` into
  ``∧`` when no ``⊕`` occurs);
* ``operator``: the distinct atoms, in order, joined by ``∨`` (quantifiers, negations and
  connectives removed; the notebook also renames their arguments to x, y, z);
* ``predicate``: ``¬P(...)`` → ``NotP(...)``;
* ``variable``: predicate and function names become A, B, C... in order of first appearance,
  then constants continue the sequence; bound variables stay (∀x(¬WantToBeAddictedTo(x,
  caffeine) → AwareThatDrug(x, caffeine)) → ∀x(¬A(x, C) → B(x, C))).

Scores compare the gold formula and the perturbed one, both rendered by
:func:`~transted.fol.syntax.format_formula` with ``explicit=True`` (so a score reflects the
perturbation, not a change of layout, and LE's precedence-free grammar reads the intended tree);
the ``reformat`` row compares the gold text as written with that rendering.

References
----------
Thatikonda et al. 2025, "Assessing the Alignment of FOL Closeness Metrics with Human
Judgement" (paper 001), §3.1, Tables 1–3 and 6–11.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import count

from transted.errors import ParseError, ResourceLimitError
from transted.fol.ast import BinOp, Const, Eq, FolTerm, Formula, Func, Not, Pred, Quantified
from transted.fol.syntax import atoms, format_formula, parse_formula
from transted.metrics.base import Metric, MetricResult
from transted.reading.pairs import Pair, Statement
from transted.running.executors import score_stream

__all__ = ["PERTURBATIONS", "perturb", "letter_names", "SensitivityTable", "perturbation_pairs",
           "sensitivity_table", "perturbation_scores"]


def _map_ops(f: Formula, swap: dict[str, str]) -> Formula:
    if isinstance(f, BinOp):
        return BinOp(swap.get(f.op, f.op), _map_ops(f.left, swap),  # type: ignore[arg-type]
                     _map_ops(f.right, swap))
    if isinstance(f, Not):
        return Not(_map_ops(f.body, swap))
    if isinstance(f, Quantified):
        return Quantified(f.quantifier, f.var, _map_ops(f.body, swap))
    return f


def _swap_quantifiers(f: Formula) -> Formula:
    if isinstance(f, Quantified):
        return Quantified("∃" if f.quantifier == "∀" else "∀", f.var, _swap_quantifiers(f.body))
    if isinstance(f, BinOp):
        return BinOp(f.op, _swap_quantifiers(f.left), _swap_quantifiers(f.right))
    if isinstance(f, Not):
        return Not(_swap_quantifiers(f.body))
    return f


def _flip_negations(f: Formula) -> Formula:
    if isinstance(f, (Pred, Eq)):
        return Not(f)
    if isinstance(f, Not):
        return f.body if isinstance(f.body, (Pred, Eq)) else Not(_flip_negations(f.body))
    if isinstance(f, Quantified):
        return Quantified(f.quantifier, f.var, _flip_negations(f.body))
    return BinOp(f.op, _flip_negations(f.left), _flip_negations(f.right))


def _remove_operators(f: Formula) -> Formula:
    found = atoms(f)
    result = found[0]
    for atom in found[1:]:
        result = BinOp("∨", result, atom)
    return result


def _not_predicates(f: Formula) -> Formula:
    if isinstance(f, Not):
        if isinstance(f.body, Pred):
            return Pred("Not" + f.body.name, f.body.args)
        return Not(_not_predicates(f.body))
    if isinstance(f, Quantified):
        return Quantified(f.quantifier, f.var, _not_predicates(f.body))
    if isinstance(f, BinOp):
        return BinOp(f.op, _not_predicates(f.left), _not_predicates(f.right))
    return f


def letter_names() -> Iterator[str]:
    """A, B, ..., Z, AA, AB, ... (spreadsheet column names)."""
    for n in count(1):
        name, k = "", n
        while k:
            k, rem = divmod(k - 1, 26)
            name = chr(65 + rem) + name
        yield name


def _collect_names(f: Formula, preds: dict[str, None], consts: dict[str, None]) -> None:
    def term(t: FolTerm) -> None:
        if isinstance(t, Func):
            preds.setdefault(t.name, None)
            for a in t.args:
                term(a)
        elif isinstance(t, Const):
            consts.setdefault(t.name, None)

    stack = [f]
    while stack:
        node = stack.pop()
        if isinstance(node, Pred):
            preds.setdefault(node.name, None)
            for a in node.args:
                term(a)
        elif isinstance(node, Eq):
            term(node.left)
            term(node.right)
        elif isinstance(node, (Not, Quantified)):
            stack.append(node.body)
        else:
            stack.extend((node.right, node.left))


def _abstract_text(f: Formula) -> Formula:
    preds: dict[str, None] = {}
    consts: dict[str, None] = {}
    _collect_names(f, preds, consts)
    letters = letter_names()
    names = {("p", n): next(letters) for n in preds}
    names.update({("c", n): next(letters) for n in consts})
    return _rename(f, names)


def _rename_term(t: FolTerm, names: dict[tuple[str, str], str]) -> FolTerm:
    if isinstance(t, Func):
        return Func(names[("p", t.name)], tuple(_rename_term(a, names) for a in t.args))
    if isinstance(t, Const):
        return Const(names[("c", t.name)])
    return t


def _rename(f: Formula, names: dict[tuple[str, str], str]) -> Formula:
    if isinstance(f, Pred):
        return Pred(names[("p", f.name)], tuple(_rename_term(a, names) for a in f.args))
    if isinstance(f, Eq):
        return Eq(_rename_term(f.left, names), _rename_term(f.right, names))
    if isinstance(f, Not):
        return Not(_rename(f.body, names))
    if isinstance(f, Quantified):
        return Quantified(f.quantifier, f.var, _rename(f.body, names))
    return BinOp(f.op, _rename(f.left, names), _rename(f.right, names))


PERTURBATIONS: dict[str, Callable[[Formula], Formula]] = {
    "quantifier": _swap_quantifiers,
    "negation": _flip_negations,
    "and_or": lambda f: _map_ops(f, {"∧": "∨", "∨": "∧"}),
    "or_xor": lambda f: _map_ops(f, {"∨": "⊕", "⊕": "∨"}),
    "operator": _remove_operators,
    "predicate": _not_predicates,
    "variable": _abstract_text,
}
"""Name → perturbation, in the row order of paper 001 Table 2."""


def perturb(formula: Formula, kind: str) -> Formula | None:
    """Apply perturbation ``kind``; None when it does not apply (the result equals the input).

    Raises
    ------
    ValueError
        Unknown ``kind``.
    """
    if kind not in PERTURBATIONS:
        raise ValueError(f"`kind`: unknown perturbation {kind!r}; known: {', '.join(PERTURBATIONS)}")
    result = PERTURBATIONS[kind](formula)
    return None if result == formula else result



@dataclass
class SensitivityTable:
    """Mean metric scores of gold vs perturbed formulas (paper 001 Tables 1–3, 6–11).

    Attributes
    ----------
    rows : ``match``, ``reformat``, then the perturbation names
    metrics : metric names, in the order given
    applied : row → number of formulas the row applies to (Table 1 numerator)
    total : formulas that parsed (Table 1 denominator)
    mean : row → metric → mean raw score over the items the metric scored
    normalized : row → metric → mean / mean self-match score of the same items (Table 2)
    combined : row → ``"m1+m2"`` → normalized mean of the per-item average of both metrics
        (Tables 3, 6–11; the diagonal is ``normalized``)
    errors : row → metric → items with no score (an error of the metric)
    skipped : (text, reason) of inputs that did not parse
    """

    rows: list[str]
    metrics: list[str]
    applied: dict[str, int]
    total: int
    mean: dict[str, dict[str, float | None]] = field(default_factory=dict)
    normalized: dict[str, dict[str, float | None]] = field(default_factory=dict)
    combined: dict[str, dict[str, float | None]] = field(default_factory=dict)
    errors: dict[str, dict[str, int]] = field(default_factory=dict)
    skipped: list[tuple[str, str]] = field(default_factory=list)


def perturbation_pairs(texts: Sequence[str], *, kinds: Sequence[str] = tuple(PERTURBATIONS),
                       skipped: list[tuple[str, str]] | None = None) -> list[Pair]:
    """Pairs (gold reference, perturbed candidate) for every formula a row applies to.

    Ids are ``<index>:<row>``; ``meta`` holds ``perturbation`` and ``gold`` (the text as
    written). Rows ``match`` and ``reformat`` come first for every formula. Unparseable
    texts are appended to ``skipped`` (when given) with the parse error.
    """
    unknown = [k for k in kinds if k not in PERTURBATIONS]
    if unknown:
        raise ValueError(f"`kinds`: unknown perturbation(s) {unknown}; known: {', '.join(PERTURBATIONS)}")
    pairs = []
    for index, text in enumerate(texts):
        try:
            tree = parse_formula(text)
        except (ParseError, ResourceLimitError) as e:
            if skipped is not None:
                skipped.append((text, str(e).splitlines()[0]))
            continue
        gold = format_formula(tree, explicit=True)
        candidates = {"match": gold, "reformat": gold}
        for kind in kinds:
            changed = perturb(tree, kind)
            if changed is not None:
                candidates[kind] = format_formula(changed, explicit=True)
        for row, candidate in candidates.items():
            reference = text if row == "reformat" else gold
            pairs.append(Pair(id=f"{index}:{row}", reference=Statement(statement=reference),
                              candidate=Statement(statement=candidate),
                              meta={"perturbation": row, "gold": text}))
    return pairs


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def sensitivity_table(pairs: Sequence[Pair], scores: dict[str, dict[str, float | None]],
                      *, total: int, over: str = "all") -> SensitivityTable:
    """Aggregate ``scores[metric][pair_id]`` over :func:`perturbation_pairs` output.

    Parameters
    ----------
    over : {"all", "applied"}, default="all"
        ``all``: every parsed formula counts in every row, a formula the perturbation does not
        change contributing its self-match score — what paper 001's script does (its
        ``run_eval_pert`` averages over all records, and its Table 2 values are reproduced
        only this way, e.g. Predicate applies to 22% and barely moves). ``applied``: only the
        formulas the perturbation changes.

    Each mean is divided by the mean ``match`` score of the same formulas under the same
    metric(s) (the self-match normalisation of paper 001 §3.1).
    """
    if over not in ("all", "applied"):
        raise ValueError(f"`over` must be 'all' or 'applied', got {over!r}")
    metrics = list(scores)
    present = {p.id for p in pairs}
    kinds = list(dict.fromkeys(p.meta["perturbation"] for p in pairs))
    rows = [r for r in ("match", "reformat", *PERTURBATIONS) if r in kinds]
    formulas = [p.id.split(":", 1)[0] for p in pairs if p.meta["perturbation"] == "match"]
    applied = {r: sum(f"{i}:{r}" in present for i in formulas) for r in rows}
    table = SensitivityTable(rows, metrics, applied, total)
    combos = [(a, b) for i, a in enumerate(metrics) for b in metrics[i:]]
    for row in rows:
        table.mean[row], table.normalized[row], table.combined[row] = {}, {}, {}
        ids = {i: f"{i}:{row}" if f"{i}:{row}" in present else f"{i}:match" for i in formulas}
        if over == "applied":
            ids = {i: pid for i, pid in ids.items() if pid.endswith(f":{row}")}
        table.errors[row] = {m: sum(scores[m].get(pid) is None for pid in ids.values())
                             for m in metrics}
        for a, b in combos:
            got, base = [], []
            for i, pid in ids.items():
                values = [scores[m].get(pid) for m in (a, b)]
                selves = [scores[m].get(f"{i}:match") for m in (a, b)]
                if None not in values and None not in selves:
                    got.append(sum(values) / 2)  # type: ignore[arg-type]
                    base.append(sum(selves) / 2)  # type: ignore[arg-type]
            mean, self_mean = _mean(got), _mean(base)
            norm = mean / self_mean if mean is not None and self_mean else None
            table.combined[row][f"{a}+{b}"] = norm
            if a == b:
                table.mean[row][a], table.normalized[row][a] = mean, norm
    return table


def perturbation_scores(pairs: Sequence[Pair], metrics: Sequence[Metric],
                        on_result: Callable[[MetricResult], None] | None = None
                        ) -> dict[str, dict[str, float | None]]:
    """``{metric name: {pair id: score or None}}`` (None: the metric recorded an error); each
    metric scores the pairs through :func:`transted.running.executors.score_stream` (in this process).
    ``on_result(result)`` is called after every scored pair (a progress bar of
    ``len(pairs) * len(metrics)`` steps; the errors, for the caller to report)."""
    out: dict[str, dict[str, float | None]] = {}
    for metric in metrics:
        scores = out.setdefault(metric.name, {})
        for result in score_stream(pairs, metric):
            scores[result.id] = result.score
            if on_result is not None:
                on_result(result)
    return out
