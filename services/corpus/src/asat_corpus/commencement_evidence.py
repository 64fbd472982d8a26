"""Narrowing an amending Act's candidate commencements with what the compilations show (item 2).

An Act that commenced in parts on several days (Endnote 3) does not say which part touched which
section. For one provision, the compilations narrow it (pure):

* a candidate later than the first compilation that shows the change is impossible: the text was
  already changed on that compilation's date;
* a candidate on or before the last compilation that does not show the change is impossible,
  unless the Act's assent came after that compilation (then the part may be retrospective, and the
  compilation could not have shown it) or the compilation was closed to amendments before the Act
  (its "includes amendments up to" names an earlier Act).

When the evidence rules out every candidate the candidates are left as they were and the result
says so (:attr:`NarrowedCommencement.contradicted`): the caller must not treat that as a narrowing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from asat_corpus.act import ActRef, Compilation
from asat_corpus.amendment import AmendingAct


@dataclass(frozen=True)
class NarrowedCommencement:
    """The candidate commencements of ``act`` for one provision, after the compilations' evidence."""

    act: ActRef
    candidates: tuple[date, ...]  # sorted, those still possible
    excluded: tuple[date, ...]
    confident: bool  # Endnote 3 was read in full (else a day not listed is possible too)
    retrospective: bool  # a remaining candidate lies on or before a compilation that could not show it
    assent: date | None
    contradicted: bool = False
    reasons: tuple[str, ...] = ()

    @property
    def earliest(self) -> date | None:
        return self.candidates[0] if self.candidates else None

    @property
    def latest(self) -> date | None:
        return self.candidates[-1] if self.candidates else None

    @property
    def certain(self) -> bool:
        """One possible day, read with confidence."""
        return self.confident and len(self.candidates) == 1


def could_show(act: AmendingAct, compilation: Compilation) -> bool:
    """Whether ``compilation`` would show a part of ``act`` that had commenced by its date."""
    day = compilation.compilation_date
    if day is None or act.assent is None or act.assent > day:
        return False
    cutoff = compilation.amendments_up_to
    return cutoff is None or act.ref.sort_key <= cutoff.sort_key


def narrow_commencement(
    act: AmendingAct, not_shown_in: Compilation | None, shown_in: Compilation | None
) -> NarrowedCommencement:
    """The candidates of ``act`` still possible for a change absent from ``not_shown_in`` (the last
    compilation without it) and present in ``shown_in`` (the first compilation with it)."""
    dates = tuple(sorted(set(act.commencement.dates)))
    kept: list[date] = []
    excluded: list[date] = []
    reasons: list[str] = []
    after = shown_in.compilation_date if shown_in is not None else None
    before = not_shown_in.compilation_date if not_shown_in is not None else None
    closed_before = before is not None and not_shown_in is not None and could_show(act, not_shown_in)
    for day in dates:
        if after is not None and day > after:
            excluded.append(day)
            assert shown_in is not None
            reasons.append(f"{day} is after {shown_in.register_id} ({after}), which already shows the change")
        elif closed_before and before is not None and day <= before:
            excluded.append(day)
            assert not_shown_in is not None
            reasons.append(
                f"{day} is on or before {not_shown_in.register_id} ({before}), which does not show the change "
                f"though compiled after assent ({act.assent})"
            )
        else:
            kept.append(day)
    if not kept:
        return NarrowedCommencement(
            act.ref,
            dates,
            (),
            act.commencement.confident,
            _retrospective(dates, act.assent),
            act.assent,
            contradicted=bool(dates),
            reasons=("the compilations rule out every candidate; left as Endnote 3 gives them",),
        )
    return NarrowedCommencement(
        act.ref,
        tuple(kept),
        tuple(excluded),
        act.commencement.confident,
        _retrospective(tuple(kept), act.assent),
        act.assent,
        reasons=tuple(reasons),
    )


def _retrospective(candidates: tuple[date, ...], assent: date | None) -> bool:
    """A candidate earlier than the Act's assent: the change reached back before it was made."""
    if assent is None:
        return False
    return any(day < assent for day in candidates)
