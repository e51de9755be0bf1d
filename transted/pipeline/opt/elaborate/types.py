"""Types of elaborated nodes, metavariables and first-order unification.

A :class:`Ty` is a type constant applied to type arguments (``ℝ``, ``Finset ℕ``, ``ℕ → ℝ``,
``Prop``, an opaque ``Polynomial ℝ``); a :class:`Meta` is a type not yet known (Lean's
metavariable ``?α``): the type of a numeral before defaulting, of an untyped binder, of a
coercion arrow waiting for its target. :class:`MetaStore` solves metavariables by first-order
unification (Lean's ``isDefEq`` on these closed types is syntactic equality) and applies
Lean's default instances at the end (:meth:`MetaStore.default`).

Coercions between number types follow Mathlib's casts: ``ℕ → ℤ → ℚ → ℝ → ℂ`` (``NatCast``,
``IntCast``, ``RatCast`` reach every later type in one ``↑``; ``Complex.ofReal``), ``ℕ → ℝ≥0 → ℝ``
(``NNReal``) and ``ℕ+ → ℕ`` (``PNat.val``, so ``ℕ+ → ℝ`` prints as ``↑↑``). Never backwards:
there is no ``ℤ → ℕ`` coercion (``Int.toNat`` is a function). Between a number type and a type
the tables do not know (``ZMod p``, ``Fin n``, a type variable) a coercion may exist
(``NatCast R`` for any semiring): :func:`coe_known` says None and the elaborator abstains.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Ty", "Meta", "Type_", "MetaStore", "NUMBER_TYPES", "PROP", "SORT", "FLOAT",
           "arrow", "has_coe", "coe_known", "coe_steps", "is_number", "show"]

NUMBER_TYPES = ("ℕ", "ℤ", "ℚ", "ℝ", "ℂ")
"""Number types in coercion order (a coercion exists from each to every later one)."""


@dataclass(frozen=True, slots=True)
class Ty:
    """A type constant ``head`` applied to ``args`` (``Ty("Finset", (Ty("ℕ"),))``)."""

    head: str
    args: tuple[Type_, ...] = ()


@dataclass(frozen=True, slots=True)
class Meta:
    """An unknown type. Its *kind* (kept by the :class:`MetaStore`, since unifying two
    metavariables merges their kinds, the higher-priority default winning) says how Lean would
    default it: ``"numeral"`` (``OfNat``: default instance ℕ, priority low), ``"negated"``
    (a ``Neg`` instance is wanted at it: ``instNegInt``, ℤ, priority mid), ``"scientific"``
    (``OfScientific``: default instance Float, mid+1), ``"plain"`` (no default: stays
    unknown), ``"stuck"`` (an outParam the model cannot fill: never defaulted)."""

    id: int


Type_ = Ty | Meta

PROP = Ty("Prop")
SORT = Ty("Sort")
"""The type of a type (``ℝ : Type``, ``Prop : Type``): universes are not modelled."""
FLOAT = Ty("Float")


def arrow(dom: Type_, cod: Type_) -> Ty:
    return Ty("→", (dom, cod))


def is_number(t: Type_) -> bool:
    return isinstance(t, Ty) and not t.args and t.head in NUMBER_TYPES


_COE_EDGES = {"ℕ+": ("ℕ",), "ℕ": ("ℤ", "NNReal"), "ℤ": ("ℚ",), "ℚ": ("ℝ",), "NNReal": ("ℝ",),
              "ℝ": ("ℂ",)}
_CASTABLE = frozenset({*NUMBER_TYPES, "ℕ+", "NNReal"})
_CLOSED = frozenset({"Prop", "Sort", "Proof", "Float", "Bool", "→", "Finset", "Set"})


def _reach(src: str) -> set[str]:
    out, todo = set(), [src]
    while todo:
        for nxt in _COE_EDGES.get(todo.pop(), ()):
            if nxt not in out:
                out.add(nxt)
                todo.append(nxt)
    return out


def has_coe(src: Type_, dst: Type_) -> bool:
    """A (non-identity) coercion ``src → dst`` exists between these number types."""
    return (isinstance(src, Ty) and isinstance(dst, Ty) and not src.args and not dst.args
            and src.head in _CASTABLE and dst.head in _reach(src.head))


def coe_known(src: Type_, dst: Type_) -> bool | None:
    """Whether a coercion ``src → dst`` exists: True/False where the types are known here,
    None when either is a type the tables do not know (a coercion may exist), or a number
    cast into a function type (Mathlib's ``Pi.instNatCast``/``Pi.instIntCast``: ``↑a`` is the
    constant function)."""
    if has_coe(src, dst):
        return True
    if isinstance(dst, Ty) and dst.head == "→" and isinstance(src, Ty) and src.head in _CASTABLE:
        return None
    known = [isinstance(t, Ty) and (t.head in _CASTABLE or t.head in _CLOSED)
             for t in (src, dst)]
    return False if all(known) else None


def coe_steps(src: Type_, dst: Type_) -> int:
    """How many ``↑`` Lean prints for the coercion: two from ℕ+ past ℕ (``PNat.val`` then
    ``Nat.cast``), else one."""
    assert isinstance(src, Ty) and isinstance(dst, Ty)
    return 2 if src.head == "ℕ+" and dst.head != "ℕ" else 1


def show(t: Type_) -> str:
    """Lean-like text of a type (``Finset ℕ``, ``ℕ → ℝ``, ``?3``)."""
    if isinstance(t, Meta):
        return f"?{t.id}"
    if t.head == "→":
        dom = show(t.args[0])
        return f"({dom}) → {show(t.args[1])}" if " " in dom else f"{dom} → {show(t.args[1])}"
    return " ".join([t.head, *(f"({show(a)})" if isinstance(a, Ty) and a.args else show(a)
                               for a in t.args)])


@dataclass
class MetaStore:
    """Metavariables and their solutions (a union–find over :class:`Meta` ids)."""

    solution: dict[int, Type_] = field(default_factory=dict)
    kinds: dict[int, str] = field(default_factory=dict)

    def fresh(self, kind: str = "plain") -> Meta:
        m = Meta(len(self.kinds))
        self.kinds[m.id] = kind
        return m

    def resolve(self, t: Type_) -> Type_:
        """Follow solved metavariables at the top of ``t``."""
        while isinstance(t, Meta) and t.id in self.solution:
            t = self.solution[t.id]
        return t

    def zonk(self, t: Type_) -> Type_:
        """``t`` with every solved metavariable replaced, recursively."""
        t = self.resolve(t)
        if isinstance(t, Ty) and t.args:
            return Ty(t.head, tuple(self.zonk(a) for a in t.args))
        return t

    def unknown(self, t: Type_) -> bool:
        return isinstance(self.resolve(t), Meta)

    def unify(self, a: Type_, b: Type_) -> bool:
        """Make ``a`` and ``b`` equal; on failure nothing is assigned."""
        trial = dict(self.solution)
        kinds = dict(self.kinds)
        if self._unify(a, b, trial, kinds):
            self.solution, self.kinds = trial, kinds
            return True
        return False

    def _unify(self, a: Type_, b: Type_, sol: dict[int, Type_], kinds: dict[int, str]) -> bool:
        a, b = _walk(a, sol), _walk(b, sol)
        if a == b:
            return True
        if isinstance(a, Meta) or isinstance(b, Meta):
            meta, other = (a, b) if isinstance(a, Meta) else (b, a)
            assert isinstance(meta, Meta)
            if _occurs(meta, other, sol):
                return False
            if isinstance(other, Meta):  # the merged class keeps the stronger default
                kinds[other.id] = _stronger(kinds[meta.id], kinds[other.id])
            sol[meta.id] = other
            return True
        if a.head != b.head or len(a.args) != len(b.args):
            return False
        return all(self._unify(x, y, sol, kinds) for x, y in zip(a.args, b.args, strict=True))

    def mark(self, t: Type_, kind: str) -> None:
        """Raise the default kind of ``t``'s metavariable to ``kind`` (if ``t`` is one)."""
        root = self.resolve(t)
        if isinstance(root, Meta):
            self.kinds[root.id] = _stronger(self.kinds[root.id], kind)

    def default(self) -> list[tuple[Meta, Type_]]:
        """Lean's default instances for the metavariables still unsolved, the highest priority
        first (Lean core src/Init/Prelude.lean's note on priorities: ``low < mid < default``):
        a class holding a scientific literal is Float (``instance : OfScientific Float``,
        ``@[default_instance mid+1]``, src/Init/Data/OfScientific.lean), one that needs a
        ``Neg`` instance is ℤ (``@[default_instance mid] instance instNegInt : Neg Int``,
        src/Init/Data/Int/Basic.lean: "The `Neg Int` default instance must have priority
        higher than `low` since the default instance `OfNat Nat n` has `low` priority"), a
        numeral's type is ℕ (``@[default_instance low] instance instOfNatNat``). Returns what
        was defaulted."""
        done: list[tuple[Meta, Type_]] = []
        for mid in self.kinds:
            m = Meta(mid)
            root = self.resolve(m)
            if not isinstance(root, Meta) or root.id != mid:
                continue
            target = {"numeral": Ty("ℕ"), "negated": Ty("ℤ"),
                      "scientific": FLOAT}.get(self.kinds[mid])
            if target is not None:
                self.solution[mid] = target
                done.append((m, target))
        return done


_RANK = {"plain": 0, "numeral": 1, "negated": 2, "scientific": 3, "stuck": 4}


def _stronger(a: str, b: str) -> str:
    return a if _RANK[a] >= _RANK[b] else b


def _walk(t: Type_, sol: dict[int, Type_]) -> Type_:
    while isinstance(t, Meta) and t.id in sol:
        t = sol[t.id]
    return t


def _occurs(m: Meta, t: Type_, sol: dict[int, Type_]) -> bool:
    t = _walk(t, sol)
    if isinstance(t, Meta):
        return t.id == m.id
    return any(_occurs(m, a, sol) for a in t.args)
