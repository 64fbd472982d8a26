"""One provision's timeline as the source endpoint returns it (pure): both time axes, the gaps and
the retrospective amendments, as a JSON-ready list sorted by ``valid_from``.

* ``"version"``: ``id``, ``valid_from``/``valid_to`` (the certain days, ``valid_to`` exclusive and
  ``None`` while current) and ``register_ids`` as before; then each end of the validity with its
  evidence (``valid_from_bound``/``valid_to_bound``: the certain ``day``, the ``widest`` day the
  end may reach when uncertain, the ``candidates`` commencements and the ``acts``), and the known
  time, when this was the text on the books (``known_from``/``known_to`` with their bounds), the
  ``compilation_dates`` that show it and whether the text is ``authorised``.
* ``"gap"``: ``valid_from``/``valid_to``, ``acts`` and ``reason`` as before; then ``held``:
  ``"one_of_two"`` where the text on each day is one of the two held texts ``between`` and only the
  commencement is uncertain (its ``candidates``), else ``"not_held"``; and ``retrospective``.
* ``"retrospective"``: an amending Act with a commencement before its assent: ``act``, ``assent``,
  ``commencement`` (the earliest day it reaches back to) and every candidate before the assent;
  ``valid_from``/``valid_to`` are the commencement and the assent, the stretch it reached back over.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from datetime import date
from typing import Any

from asat_corpus.act import ActRef
from asat_corpus.corpus_build import CompilationResult
from asat_corpus.provision import Bound, ProvisionTimeline, ProvisionVersion, VersionGap

HELD_ONE_OF_TWO = "one_of_two"
HELD_NOT = "not_held"

JsonItem = dict[str, Any]


def act_assents(compilations: Iterable[CompilationResult], act: str) -> dict[ActRef, date]:
    """The assent of every Act listed in ``act``'s endnotes (Endnote 3, the Act itself included)."""
    assents: dict[ActRef, date] = {}
    for result in compilations:
        if result.compilation.act != act or result.endnotes is None:
            continue
        rows = (result.endnotes.original, *result.endnotes.acts)
        for row in rows:
            if row is not None and row.assent is not None:
                assents.setdefault(row.ref, row.assent)
    return assents


def timeline_json(timeline: ProvisionTimeline, assents: Mapping[ActRef, date]) -> list[JsonItem]:
    """The versions, gaps and retrospective amendments of ``timeline``, sorted by ``valid_from``.

    ``assents`` gives each amending Act's assent (see :func:`act_assents`); a retrospective Act
    whose assent is not in it has no arrow to draw and is left out.
    """
    items = [_version_json(v) for v in timeline.versions]
    items += [_gap_json(g) for g in timeline.gaps]
    items += retrospective_json(timeline, assents)
    items.sort(key=lambda item: str(item["valid_from"]))
    return items


def bound_json(bound: Bound | None) -> JsonItem | None:
    if bound is None:
        return None
    return {
        "day": _iso(bound.day),
        "widest": _iso(bound.widest) if bound.uncertain else None,
        "uncertain": bound.uncertain,
        "candidates": _isos(bound.candidates),
        "acts": [str(a) for a in bound.acts],
        "method": bound.method.value,
        "detail": bound.detail,
        "retrospective": bound.retrospective,
    }


def retrospective_json(timeline: ProvisionTimeline, assents: Mapping[ActRef, date]) -> list[JsonItem]:
    """One item per amending Act of the timeline with a candidate commencement before its assent."""
    reached: dict[ActRef, set[date]] = {}
    for act, candidates in _retrospective_evidence(timeline):
        assent = assents.get(act)
        back = {day for day in candidates if assent is not None and day < assent}
        if back:
            reached.setdefault(act, set()).update(back)
    items = []
    for act, days in sorted(reached.items(), key=lambda pair: pair[0].sort_key):
        commencement = min(days)
        items.append(
            {
                "type": "retrospective",
                "act": str(act),
                "assent": assents[act].isoformat(),
                "commencement": commencement.isoformat(),
                "candidates": _isos(sorted(days)),
                "valid_from": commencement.isoformat(),
                "valid_to": assents[act].isoformat(),
            }
        )
    return items


def _retrospective_evidence(timeline: ProvisionTimeline) -> Iterator[tuple[ActRef, tuple[date, ...]]]:
    """(Act, its candidate commencements) of every bound or gap marked retrospective that names one
    Act: a gap naming several holds the candidates of the first and the last together, not saying
    which Act each belongs to (their own bounds, on the versions either side, do)."""
    for version in timeline.versions:
        for bound in (version.from_bound, version.to_bound, version.known_from_bound, version.known_to_bound):
            if bound is not None and bound.retrospective and len(bound.acts) == 1:
                yield bound.acts[0], bound.candidates
    for gap in timeline.gaps:
        if gap.retrospective and len(gap.acts) == 1:
            yield gap.acts[0], gap.candidates


def _version_json(version: ProvisionVersion) -> JsonItem:
    return {
        "type": "version",
        "id": version.id,
        "valid_from": version.valid_from.isoformat(),
        "valid_to": _iso(version.valid_to),
        "register_ids": list(version.register_ids),
        "valid_from_bound": bound_json(version.from_bound),
        "valid_to_bound": bound_json(version.to_bound),
        "known_from": _iso(version.known_from),
        "known_to": _iso(version.known_to),
        "known_from_bound": bound_json(version.known_from_bound),
        "known_to_bound": bound_json(version.known_to_bound),
        "compilation_dates": _isos(version.compilation_dates),
        "authorised": version.authorised,
    }


def _gap_json(gap: VersionGap) -> JsonItem:
    return {
        "type": "gap",
        "valid_from": gap.start.isoformat(),
        "valid_to": gap.end.isoformat(),
        "acts": [str(a) for a in gap.acts],
        "reason": gap.reason,
        "held": HELD_ONE_OF_TWO if gap.one_of_two_held_texts else HELD_NOT,
        "between": list(gap.between) if gap.between is not None else None,
        "candidates": _isos(gap.candidates),
        "retrospective": gap.retrospective,
    }


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day is not None else None


def _isos(days: Iterable[date]) -> list[str]:
    return [d.isoformat() for d in days]
