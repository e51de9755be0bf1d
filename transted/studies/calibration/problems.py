"""The ProofNet problem a pair belongs to, across labelled files.

The GTED dev pairs and the strict dev files draw on the same ProofNet exercises (27 problems
of the GTED file recur in BEq's set, 32 in ProofNet-Verified's), so a cross-validation that
groups by file or by reference text would put one exercise in training and test at once.
:func:`problem_key` names the exercise from the reference's theorem name: the part from
``exercise`` on (``Artin_exercise_10_4_6``, ``exercise_10_4_6`` → ``exercise_10_4_6``),
lower-cased; a name without ``exercise`` is kept whole. Two books' exercises with one number
(Rudin's and Herstein's ``exercise_1_1``) share a key: folds are then coarser than the problems,
never finer, so no problem is split.
"""

from __future__ import annotations

import re

from transted.reading.pairs import Pair

__all__ = ["problem_key"]

_NAME = re.compile(r"(?:theorem|lemma|example)\s+([^\s:({\[⦃]+)")


def problem_key(pair: Pair) -> str:
    """The pair's ProofNet exercise (``meta.group`` when set; see the module docstring)."""
    group = pair.meta.get("group")
    if group is not None:
        return str(group)
    m = _NAME.search(pair.reference.statement)
    if m is None:
        return " ".join(pair.reference.statement.split())
    name = m.group(1)
    at = name.find("exercise")
    return (name[at:] if at >= 0 else name).lower()
