"""Logic Form identification scoring (paper 003): argument/predicate precision and recall and
the sentence-level Sent-A, Sent-P, Sent-AP, Sent-APSent.

A logic form is a flat conjunction of predicates, ``Earth:n (x1) provide:v (e1, x1, x2)``:
a name with an optional ``:pos`` suffix, then its arguments in brackets, optionally separated
by ``&``. ``;`` (the adjunct separator) counts as ``,``, as in the paper's first trial; an
empty slot (``rule(e2, , x2)``) is a missing argument.

Counting (paper 003 §5): system predicates are aligned one-to-one with gold predicates; an
argument is correct when it equals the gold argument in the same slot of the aligned
predicate; a predicate is correct when its name and *all* its arguments equal the gold ones.
Argument precision = correct / system arguments, recall = correct / gold arguments; the same
at predicate level. Sent-A: sentences with all arguments correct (none missing, none extra);
Sent-P: sentences whose predicate names are exactly the gold ones; Sent-APSent: both; each over
attempted sentences; Sent-AP = Sent-APSent sentences / Sent-P sentences (the four columns of
the paper's Table 2 satisfy this to rounding: 0.163/0.320 = 0.51).

The alignment is a maximum-weight assignment (scipy) that prefers equal names, then more
correct slots. Pairs with different names may be aligned and then still count their correct
arguments: Table 2 has Sent-A above Sent-P (MITRE 0.266 vs 0.213), which name-only alignment
cannot produce. Part-of-speech suffixes are ignored by default, as in the paper's scoring.
Arguments are compared as written (no renaming of variables). Hand-written ratios: these
denominators are counts of slots, not of labelled items, so sklearn's scorers do not fit.

References
----------
Paper 003, "Logic Form Identification" evaluation (Rus), §2, §5, Tables 1–2.
"""

from __future__ import annotations

import re
import warnings
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from scipy.optimize import linear_sum_assignment

from transted.errors import InputError, ParseError
from transted.reading.pairs import read_text
from transted.signature import Signature

__all__ = ["LFPredicate", "SentenceCounts", "LFiReport", "parse_logic_form",
           "score_sentence", "score_lfi", "read_logic_forms", "UndefinedLFiWarning", "LFI_VERSION", "lfi_signature"]

_NAME = re.compile(r"[^\s(),;&]+")
_ARG = re.compile(r"[A-Za-z0-9_'.\-]*\Z")


class UndefinedLFiWarning(UserWarning):
    """A ratio with a zero denominator; the value is reported as NaN."""


@dataclass(frozen=True)
class LFPredicate:
    """One predicate of a logic form: ``name`` without POS, ``pos`` or None, the arguments
    (``""`` for an empty slot) and the offset of the name in the source text."""

    name: str
    pos: str | None
    args: tuple[str, ...]
    offset: int = field(default=0, compare=False)

    def key(self, *, keep_pos: bool) -> str:
        return f"{self.name}:{self.pos}" if keep_pos and self.pos is not None else self.name


def parse_logic_form(text: str) -> tuple[LFPredicate, ...]:
    """Parse a flat logic form; malformed text raises :class:`ParseError` with its offset.

    >>> [p.args for p in parse_logic_form("Earth:n (x1) provide:v (e1, x1, x2)")]
    [('x1',), ('e1', 'x1', 'x2')]
    """
    preds: list[LFPredicate] = []
    i, n = 0, len(text)
    while True:
        while i < n and (text[i].isspace() or text[i] == "&"):
            i += 1
        if i >= n:
            break
        m = _NAME.match(text, i)
        if not m:
            raise ParseError(f"expected a predicate name, found {text[i]!r}", text, i)
        start, raw = i, m.group()
        i = m.end()
        while i < n and text[i].isspace():
            i += 1
        if i >= n or text[i] != "(":
            raise ParseError(f"expected '(' after predicate {raw!r}", text, i)
        close = text.find(")", i)
        if close < 0:
            raise ParseError(f"unterminated argument list of {raw!r} (missing ')')", text, i)
        args = _arguments(text, i + 1, close)
        name, colon, pos = raw.rpartition(":")
        preds.append(LFPredicate(name if colon else raw, pos if colon else None, args, start))
        i = close + 1
    if not preds:
        raise ParseError("empty logic form", text, 0)
    return tuple(preds)


def _arguments(text: str, start: int, end: int) -> tuple[str, ...]:
    args, pos = [], start
    for piece in re.split(r"[,;]", text[start:end]):
        arg = piece.strip()
        if not _ARG.match(arg):
            offset = pos + len(piece) - len(piece.lstrip())
            reason = ("missing ')' before the next predicate" if "(" in arg
                      else f"bad argument {arg!r}")
            raise ParseError(reason, text, offset)
        args.append(arg)
        pos += len(piece) + 1
    return tuple(args)


@dataclass(frozen=True)
class SentenceCounts:
    """Counts for one attempted sentence."""

    gold_args: int
    system_args: int
    correct_args: int
    gold_preds: int
    system_preds: int
    correct_preds: int
    names_match: bool
    """Sent-P: the multiset of predicate names equals the gold one."""

    @property
    def all_args(self) -> bool:
        """Sent-A: every gold argument found and no extra one."""
        return self.correct_args == self.gold_args == self.system_args


def _slots_correct(sys_args: tuple[str, ...], gold_args: tuple[str, ...]) -> int:
    return sum(1 for s, g in zip(sys_args, gold_args, strict=False) if s and s == g)


def score_sentence(gold: tuple[LFPredicate, ...], system: tuple[LFPredicate, ...], *,
                   keep_pos: bool = False) -> SentenceCounts:
    """Align ``system`` to ``gold`` predicates and count correct arguments and predicates."""
    weight = np.zeros((len(system), len(gold)))
    for i, s in enumerate(system):
        for j, g in enumerate(gold):
            same = s.key(keep_pos=keep_pos) == g.key(keep_pos=keep_pos)
            # a name match outweighs any number of slots; slots break ties between namesakes
            weight[i, j] = (1000.0 if same else 0.0) + _slots_correct(s.args, g.args)
    rows, cols = linear_sum_assignment(weight, maximize=True)
    correct_args = correct_preds = 0
    for i, j in zip(rows, cols, strict=True):
        s, g = system[i], gold[j]
        correct_args += _slots_correct(s.args, g.args)
        if s.key(keep_pos=keep_pos) == g.key(keep_pos=keep_pos) and s.args == g.args:
            correct_preds += 1
    names = Counter(p.key(keep_pos=keep_pos) for p in system)
    return SentenceCounts(
        gold_args=sum(1 for p in gold for a in p.args if a),
        system_args=sum(1 for p in system for a in p.args if a),
        correct_args=correct_args, gold_preds=len(gold), system_preds=len(system),
        correct_preds=correct_preds,
        names_match=names == Counter(p.key(keep_pos=keep_pos) for p in gold))


def _ratio(num: int, den: int, what: str) -> float:
    if den == 0:
        warnings.warn(f"{what} is undefined (denominator 0); reported as NaN",
                      UndefinedLFiWarning, stacklevel=3)
        return float("nan")
    return num / den


@dataclass(frozen=True)
class LFiReport:
    """Corpus-level LFi scores (paper 003 §5) with the counts they come from."""

    arg_precision: float
    arg_recall: float
    pred_precision: float
    pred_recall: float
    sent_a: float
    sent_p: float
    sent_ap: float
    sent_apsent: float
    n_gold: int
    n_attempted: int
    counts: dict[str, int]
    per_sentence: dict[str, SentenceCounts]

    def scores(self) -> dict[str, float]:
        return {k: getattr(self, k) for k in (
            "arg_precision", "arg_recall", "pred_precision", "pred_recall",
            "sent_a", "sent_p", "sent_ap", "sent_apsent")}


def score_lfi(gold: Mapping[str, str], system: Mapping[str, str], *,
              keep_pos: bool = False) -> LFiReport:
    """Score system logic forms against gold ones, both keyed by sentence id.

    Gold sentences the system did not attempt count against recall only. A system id that is
    not in ``gold`` raises :class:`InputError`; a malformed logic form raises
    :class:`ParseError` naming the side and sentence.
    """
    unknown = [k for k in system if k not in gold]
    if unknown:
        raise InputError(f"`system`: sentence ids not in gold: {', '.join(unknown[:5])}")
    per: dict[str, SentenceCounts] = {}
    total = Counter({"gold_args": 0, "gold_preds": 0})
    for sid, gold_text in gold.items():
        g = _parse(gold_text, f"gold sentence {sid}")
        total["gold_args"] += sum(1 for p in g for a in p.args if a)
        total["gold_preds"] += len(g)
        if sid in system:
            per[sid] = score_sentence(g, _parse(system[sid], f"system sentence {sid}"),
                                      keep_pos=keep_pos)
    for c in per.values():
        total["system_args"] += c.system_args
        total["correct_args"] += c.correct_args
        total["system_preds"] += c.system_preds
        total["correct_preds"] += c.correct_preds
        total["sent_a"] += c.all_args
        total["sent_p"] += c.names_match
        total["sent_apsent"] += c.all_args and c.names_match
    n = len(per)
    return LFiReport(
        arg_precision=_ratio(total["correct_args"], total["system_args"], "argument precision"),
        arg_recall=_ratio(total["correct_args"], total["gold_args"], "argument recall"),
        pred_precision=_ratio(total["correct_preds"], total["system_preds"],
                              "predicate precision"),
        pred_recall=_ratio(total["correct_preds"], total["gold_preds"], "predicate recall"),
        sent_a=_ratio(total["sent_a"], n, "Sent-A"), sent_p=_ratio(total["sent_p"], n, "Sent-P"),
        sent_ap=_ratio(total["sent_apsent"], total["sent_p"], "Sent-AP"),
        sent_apsent=_ratio(total["sent_apsent"], n, "Sent-APSent"),
        n_gold=len(gold), n_attempted=n, counts=dict(total), per_sentence=per)


def _parse(text: str, source: str) -> tuple[LFPredicate, ...]:
    try:
        return parse_logic_form(text)
    except ParseError as e:
        raise e.with_source(source) from None


def read_logic_forms(path: str | Path) -> dict[str, str]:
    """Read one logic form per line, keyed by sentence id.

    Accepted lines: ``ID :: LF``, the submission format ``INST Y000 ID SCORE :: LF`` (paper
    003 §7; the id is the third field), or a bare ``LF`` (the id is the line number). Blank
    lines and lines starting with ``#`` are skipped. Malformed logic forms raise
    :class:`ParseError` positioned in the file.
    """
    path = Path(path)
    text = read_text(path)  # bad UTF-8 named by file:line:column
    out: dict[str, str] = {}
    line_start = 0
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        body_at = line_start
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            head, sep, body = line.partition("::")
            if sep:
                fields = head.split()
                sid = fields[2] if len(fields) >= 3 else (fields[0] if fields else str(number))
                body_at += len(head) + 2
            else:
                sid, body = str(number), line
            if sid in out:
                raise InputError(f"{path}:{number}: duplicate sentence id {sid!r}")
            try:
                parse_logic_form(body)
            except ParseError as e:
                raise ParseError(e.reason, text, body_at + e.offset, source=str(path)) from None
            out[sid] = body.strip()
        line_start += len(line)
    return out


LFI_VERSION = "1"


def lfi_signature(*, keep_pos: bool = False) -> str:
    """Signature of an LFi report (:func:`score_lfi`) made with ``keep_pos``."""

    return str(Signature.build("lfi", {"v": LFI_VERSION, "keep-pos": keep_pos}))
