"""A configuration of the pair pipeline, and the signature fields of its tree computation."""

from __future__ import annotations

from dataclasses import dataclass

from transted.pipeline.evidence import RefuteOptions
from transted.pipeline.extraction.statement import EXTRACTION_VERSION
from transted.pipeline.opt import PARSER_VERSION, OptOptions
from transted.pipeline.opt.elaborate import elaboration_version
from transted.pipeline.opt.normalize import NORMALIZE_VERSION, load_tables
from transted.pipeline.opt.notation import notation_fields
from transted.pipeline.search.engine import SearchConfig
from transted.pipeline.sides import FIELDS, Field
from transted.pipeline.ted.backends import DEFAULT_BACKEND
from transted.pipeline.ted.statement_distance import COSTS
from transted.pipeline.verdict.conventions import DEFAULT_CONVENTION, convention_rule

__all__ = ["PipelineConfig", "tree_fields"]


@dataclass(frozen=True)
class PipelineConfig:
    """One configuration of the pair pipeline.

    Parameters
    ----------
    tree : tree shape and normalisation (:class:`~transted.pipeline.opt.OptOptions`)
    field : ``"statement"`` (as written), ``"pretty"`` (Lean's pretty-printed form) or
        ``"term"`` (each side one term)
    theorem : the theorem to take from candidate texts with several
    cost : the statement distance (``unit`` or ``semantic``), chosen once
    backend : the TED backend
    convention : which pairs the verdict calls equivalent (``strict`` or ``lenient``)
    search : the search's limits; None: no search, no evidence (``ted``)
    engines : the evidence engines' options; None: the engines are off (with a search, the
        providers' findings and the closed goal still make the evidence)
    """

    tree: OptOptions = OptOptions()
    field: Field = "statement"
    theorem: str | None = None
    cost: str = "unit"
    backend: str = DEFAULT_BACKEND
    convention: str = DEFAULT_CONVENTION
    search: SearchConfig | None = None
    engines: RefuteOptions | None = None

    def __post_init__(self) -> None:
        if self.field not in FIELDS:
            raise ValueError(f"`field` must be one of {', '.join(FIELDS)}, got {self.field!r}")
        if self.cost not in COSTS:
            raise ValueError(f"`cost` must be one of {', '.join(COSTS)}, got {self.cost!r}")
        if self.theorem is not None and (not isinstance(self.theorem, str)
                                         or not self.theorem.strip()):
            raise ValueError(f"`theorem` must be a non-empty name, got {self.theorem!r}")
        convention_rule(self.convention)  # a ValueError naming the convention


def tree_fields(options: OptOptions, *, field: str = "statement") -> dict[str, object]:
    """How a statement became an operator tree: extraction rules (which text of a raw output is
    read, and when it is invalid), parser version, notation table, tree shape and which text
    was parsed. Every tree-based metric and command puts exactly these fields."""
    norm = f"{NORMALIZE_VERSION}-{load_tables().sha256[:12]}" if options.normalize else "off"
    return {"extract": EXTRACTION_VERSION, "parser": PARSER_VERSION, **notation_fields(),
            "proposition": options.proposition, "split-binders": options.split_binders,
            "canonical-names": options.canonical_names, "norm": norm,
            "elab": elaboration_version(), "field": field}
