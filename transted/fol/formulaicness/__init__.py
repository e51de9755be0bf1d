"""Formulaicness of logic-to-text output (paper 004): how closely a text mirrors its formula.

* verbalisers that make texts of graded formulaicness from a formula: :mod:`.literal`,
  :mod:`.optimised` (after the equivalent rewrites of :mod:`.equivalents`), sharing the phrases
  of :mod:`.lexicon`;
* the tiered dataset with its bins and split (:mod:`.tiers`), the regressor's features
  (:mod:`.features`) and model (:mod:`.model`, trained by :mod:`.training`, shipped as
  ``model.json``);
* naturalness M and paper 004's eq. 1 (:mod:`.naturalness`);
* the report behind ``docs/FORMULAICNESS.md`` (:mod:`.report`).

The ``formulaicness`` metric object and the text-file format are in
:mod:`transted.metrics.formulaicness`; ``transted.api.score_formulaicness`` scores a file
(streamed, resumable) like ``score_many``.
"""

from transted.fol.formulaicness.literal import verbalise_literal
from transted.fol.formulaicness.naturalness import combine, naturalness
from transted.fol.formulaicness.optimised import verbalise_optimised

__all__ = ["verbalise_literal", "verbalise_optimised", "combine", "naturalness"]
