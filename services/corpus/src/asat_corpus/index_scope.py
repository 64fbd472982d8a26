"""What goes into the index: which Acts, which rulings. Shared by the corpus CLI and ingest so
both compute the same ``corpus_generation`` for the same scope."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum


class RulingScope(StrEnum):
    NONE = "none"
    PUBLIC = "public"  # every ruling and guidance type except ATO Interpretative Decisions
    ALL = "all"


class IndexScopeError(ValueError):
    pass


@dataclass(frozen=True)
class IndexScope:
    acts: tuple[str, ...] | None  # None: every Act in SOURCES.json
    rulings: RulingScope = RulingScope.PUBLIC

    def includes_ruling(self, doc_type: str) -> bool:
        if self.rulings is RulingScope.NONE:
            return False
        return self.rulings is RulingScope.ALL or doc_type != "AID"

    def as_dict(self) -> dict[str, object]:
        return {"acts": list(self.acts) if self.acts is not None else "all", "rulings": self.rulings.value}


def index_scope_from_env(env: Mapping[str, str] | None = None) -> IndexScope:
    """``ASAT_INDEX_ACTS`` (comma-separated slugs; empty or unset: all) and ``ASAT_INDEX_RULINGS``
    (``public`` default, ``all``, ``none``). An unknown value is an error."""
    values = os.environ if env is None else env
    raw_acts = values.get("ASAT_INDEX_ACTS", "").strip()
    acts = tuple(a.strip() for a in raw_acts.split(",") if a.strip()) or None
    raw_rulings = values.get("ASAT_INDEX_RULINGS", RulingScope.PUBLIC.value)
    try:
        rulings = RulingScope(raw_rulings)
    except ValueError as exc:
        known = ", ".join(r.value for r in RulingScope)
        raise IndexScopeError(f"unknown ASAT_INDEX_RULINGS={raw_rulings!r}; use one of: {known}") from exc
    return IndexScope(acts, rulings)
