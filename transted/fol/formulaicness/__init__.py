"""Formulaicness of logic-to-text output (paper 004): how closely a text mirrors its formula.

Verbalisers make texts of graded formulaicness from a formula (:mod:`.literal`,
:mod:`.optimised` after :mod:`.equivalents`, sharing :mod:`.lexicon`).
"""

from transted.fol.formulaicness.literal import verbalise_literal
from transted.fol.formulaicness.optimised import verbalise_optimised

__all__ = ["verbalise_literal", "verbalise_optimised"]
