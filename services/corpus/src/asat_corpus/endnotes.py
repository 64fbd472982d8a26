"""The endnote facts of one compilation, as the endnote parsers return them."""

from __future__ import annotations

from dataclasses import dataclass

from asat_corpus.amendment import AmendingAct, AmendmentEntry


@dataclass(frozen=True)
class Endnotes:
    """Endnote 3 rows and Endnote 4 entries of one compilation.

    ``original`` is the first row of Endnote 3: the Act itself, whose commencement dates every
    provision never added or substituted by a later Act.
    """

    register_id: str
    original: AmendingAct | None
    acts: tuple[AmendingAct, ...]
    entries: tuple[AmendmentEntry, ...]
