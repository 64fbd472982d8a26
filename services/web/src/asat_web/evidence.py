"""The evidence of an outcome grouped by provision version (pure).

Research cites one verified quote per subsection, each carrying its version's title, register
ids, interval and authorisation. The pages show each cited version once, with its quotes beneath
in document order (by ``start``; a range quoted twice is shown once). Versions keep the order in
which they are first cited.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from asat_web.outcome import CitationView, OutcomeView, ReadingView


@dataclass(frozen=True)
class ProvisionEvidence:
    """One provision version (or ruling) and its verified quotes, in document order.

    ``authorised`` is ``None`` where nothing says (a reading-list entry without quotes); it is
    ``False`` if any of its quotes says the text is a third-party conversion.
    """

    source_id: str
    title: str
    act: str | None
    provision: str | None
    register_ids: tuple[str, ...]
    authorised: bool | None
    valid_from: str | None
    valid_to: str | None
    status: str | None = None
    quotes: tuple[CitationView, ...] = field(default=())


@dataclass(frozen=True)
class Evidence:
    """An outcome's evidence: per claim, its citations by provision; and the reading list."""

    claims: tuple[tuple[ProvisionEvidence, ...], ...]
    reading: tuple[ProvisionEvidence, ...]


def _from_citation(cited: CitationView) -> ProvisionEvidence:
    return ProvisionEvidence(
        source_id=cited.source_id,
        title=cited.title,
        act=cited.act,
        provision=cited.provision,
        register_ids=cited.register_ids,
        authorised=cited.authorised,
        valid_from=cited.valid_from,
        valid_to=cited.valid_to,
        status=cited.status,
    )


def _from_reading(item: ReadingView) -> ProvisionEvidence:
    return ProvisionEvidence(
        source_id=item.source_id,
        title=item.title,
        act=None,
        provision=None,
        register_ids=item.register_ids,
        authorised=None,
        valid_from=item.valid_from,
        valid_to=item.valid_to,
    )


def _with_quotes(group: ProvisionEvidence, quotes: Iterable[CitationView]) -> ProvisionEvidence:
    """``group`` with ``quotes`` added: one per range, sorted by (start, end); a third-party
    conversion if any quote says so."""
    by_range = {(q.start, q.end): q for q in (*group.quotes, *quotes)}
    ordered = tuple(by_range[r] for r in sorted(by_range))
    authorised = group.authorised
    for quote in ordered:
        authorised = quote.authorised if authorised is None else authorised and quote.authorised
    first = ordered[0] if ordered else None
    return replace(
        group,
        quotes=ordered,
        authorised=authorised,
        act=group.act or (first.act if first else None),
        provision=group.provision or (first.provision if first else None),
        status=group.status or (first.status if first else None),
    )


def group_by_provision(citations: Iterable[CitationView]) -> tuple[ProvisionEvidence, ...]:
    """``citations`` grouped by version (``source_id``): one group per version, in order of its
    first citation, each with its quotes in document order."""
    groups: dict[str, ProvisionEvidence] = {}
    quotes: dict[str, list[CitationView]] = {}
    for cited in citations:
        if cited.source_id not in groups:
            groups[cited.source_id] = _from_citation(cited)
            quotes[cited.source_id] = []
        quotes[cited.source_id].append(cited)
    return tuple(_with_quotes(group, quotes[key]) for key, group in groups.items())


def reading_by_provision(reading: Sequence[ReadingView]) -> tuple[ProvisionEvidence, ...]:
    """The reading list, one group per version (entries of the same version merged), each with
    its quotes in document order; an entry without quotes is kept (its text is still to read)."""
    groups: dict[str, ProvisionEvidence] = {}
    for item in reading:
        group = groups.get(item.source_id) or _from_reading(item)
        groups[item.source_id] = _with_quotes(group, item.quotes)
    return tuple(groups.values())


def outcome_evidence(outcome: OutcomeView) -> Evidence:
    """Each claim's citations by provision, and the reading list by provision."""
    return Evidence(
        claims=tuple(group_by_provision(claim.citations) for claim in outcome.claims),
        reading=reading_by_provision(outcome.reading_list),
    )
