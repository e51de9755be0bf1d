"""TransTED search (ASSESS §3.3, Algorithm 1): best-first transformation search with TED as
heuristic over goals ``lhs = rhs``; moves from providers (offline rule file, Lean)."""

from transted.budget import Budget, BudgetExceeded
from transted.search.engine import SearchConfig, SearchResult, Step, search, search_state
from transted.search.providers.base import Evidence, Move, MoveProvider, Provider
from transted.search.providers.offline import OfflineProvider
from transted.search.ruleset import Rule, RuleSet, load_rules
from transted.search.state import Local, State

__all__ = ["Budget", "BudgetExceeded", "SearchConfig", "SearchResult", "Step", "search",
           "search_state", "Evidence", "Move", "MoveProvider", "Provider", "OfflineProvider",
           "Rule", "RuleSet", "load_rules", "Local", "State"]
