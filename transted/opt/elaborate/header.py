"""The scopes a statement is elaborated under, read from its header.

Lean resolves a name against the local context, then the current ``namespace`` (and its
prefixes), then the ``open`` namespaces and the root; ``open X`` also activates ``X``'s
``scoped`` notations (``π``, ``n !``), ``open scoped X`` activates only those, and
``open X (a b)`` brings ``X.a``, ``X.b`` even when they are ``protected``. ``autoImplicit``
and ``relaxedAutoImplicit`` are on unless a ``set_option`` turns them off (Lean core
``src/Lean/Elab/AutoBound.lean``: both ``defValue := true``; Mathlib sets them off only for its
own files).

This reads more of the header than :func:`transted.opt.declaration.header_opens` (which keeps
the namespaces opened for names only); the two are meant to become one (docs/ELABORATION.md,
migration step 1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Scope", "scope_from_header"]


@dataclass(frozen=True)
class Scope:
    opens: tuple[str, ...] = ()
    """``open X``: names of ``X`` (not the protected ones) and its scoped notations."""
    scoped: tuple[str, ...] = ()
    """``open scoped X``: scoped notations only."""
    explicit: dict[str, str] = field(default_factory=dict)
    """``open X (a)``: short name → full name, protected or not."""
    namespaces: tuple[str, ...] = ()
    """Enclosing namespaces, outermost first (``namespace A.B`` gives ``A``, ``A.B``)."""
    auto_implicit: bool = True
    relaxed_auto_implicit: bool = True
    declared: tuple[str, ...] = ()
    """Names the header declares (``def f``): constants of unknown signature."""

    def notation_active(self, namespace: str | None) -> bool:
        """Whether a notation (``scoped`` in ``namespace``, or global when None) is usable."""
        return namespace is None or namespace in self.opens or namespace in self.scoped

    def __hash__(self) -> int:
        return hash((self.opens, self.scoped, tuple(sorted(self.explicit.items())),
                     self.namespaces, self.auto_implicit, self.relaxed_auto_implicit,
                     self.declared))


_OPEN = re.compile(r"^open\s+(scoped\s+)?(.*?)(?:\s+in)?$")
_OPTION = re.compile(r"^set_option\s+(autoImplicit|relaxedAutoImplicit)\s+(true|false)\b")
_NAMESPACE = re.compile(r"^namespace\s+(\S+)")
_END = re.compile(r"^end\s+(\S+)")
_DECL = re.compile(r"^(?:@\[[^\]]*\]\s*)?(?:(?:private|protected|noncomputable)\s+)*"
                   r"(?:def|abbrev|theorem|lemma|instance|structure|inductive|class|axiom|opaque)"
                   r"\s+([^\s:({\[]+)")


def scope_from_header(header: str | None) -> Scope:
    """The :class:`Scope` at the end of ``header`` (its ``open``, ``namespace``/``end``,
    ``set_option`` and declaration lines; comments after ``--`` ignored)."""
    opens: list[str] = []
    scoped: list[str] = []
    explicit: dict[str, str] = {}
    namespaces: list[str] = []
    options = {"autoImplicit": True, "relaxedAutoImplicit": True}
    declared: list[str] = []
    for raw in (header or "").splitlines():
        line = raw.split("--", 1)[0].strip()
        if m := _OPEN.match(line):
            _read_open(m.group(2), bool(m.group(1)), opens, scoped, explicit)
        elif m := _OPTION.match(line):
            options[m.group(1)] = m.group(2) == "true"
        elif m := _NAMESPACE.match(line):
            base = namespaces[-1] + "." if namespaces else ""
            for part in m.group(1).split("."):
                namespaces.append(base + part)
                base = namespaces[-1] + "."
        elif (m := _END.match(line)) and namespaces:
            depth = m.group(1).count(".") + 1
            if namespaces[-1].endswith(m.group(1)):
                del namespaces[len(namespaces) - depth:]
        elif m := _DECL.match(line):
            declared.append(m.group(1))
    return Scope(tuple(dict.fromkeys(opens)), tuple(dict.fromkeys(scoped)), explicit,
                 tuple(namespaces), options["autoImplicit"], options["relaxedAutoImplicit"],
                 tuple(declared))


def _read_open(text: str, only_scoped: bool, opens: list[str], scoped: list[str],
               explicit: dict[str, str]) -> None:
    """One ``open`` command's arguments: ``A B``, ``A (x y)``, ``A hiding x``,
    ``A renaming x → y`` (hiding and renaming keep the namespace open, as Lean does)."""
    words = re.findall(r"\([^)]*\)|\S+", text)
    last: str | None = None
    i = 0
    while i < len(words):
        w = words[i]
        if w.startswith("(") and last is not None:
            for name in w[1:-1].split():
                explicit[name] = f"{last}.{name}"
            if opens and opens[-1] == last:
                opens.pop()  # `open X (a)` opens only the names listed
        elif w in ("hiding", "renaming"):
            break
        else:
            last = w
            (scoped if only_scoped else opens).append(w)
        i += 1
