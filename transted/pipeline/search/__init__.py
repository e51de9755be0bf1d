"""TransTED search (ASSESS §3.3, Algorithm 1): best-first transformation search with TED as
heuristic over goals ``lhs = rhs``; moves from providers (offline rule file, Lean)."""

from transted.budget import Budget, BudgetExceeded
from transted.pipeline.search.engine import SearchConfig, SearchResult, Step, search, search_state
from transted.pipeline.search.providers.base import Evidence, Move, MoveProvider, Provider
from transted.pipeline.search.providers.offline import OfflineProvider
from transted.pipeline.search.ruleset import Rule, RuleSet, load_rules
from transted.pipeline.search.state import Local, State

__all__ = ["Budget", "BudgetExceeded", "SearchConfig", "SearchResult", "Step", "search",
           "search_state", "Evidence", "Move", "MoveProvider", "Provider", "OfflineProvider",
           "Rule", "RuleSet", "load_rules", "Local", "State"]
