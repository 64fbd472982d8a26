"""The corpus side of the checks: version dates and gold resolution in the *served* corpus.

:class:`CorpusDates` answers :class:`~asat_research.evaluation.temporal_check.VersionDates` from
a :class:`CorpusBuild`; :class:`ServedResolver` wraps :class:`~asat_research.gold.CorpusResolver`
so that an authority outside the index scope (``ASAT_INDEX_ACTS`` / ``ASAT_INDEX_RULINGS``) does
not count as resolving: research cannot cite what the index does not hold.
"""

from __future__ import annotations

from asat_corpus.corpus_build import CorpusBuild
from asat_corpus.index_scope import IndexScope
from asat_corpus.ruling_validity import ruling_validity
from asat_corpus.then_stood import stretches_of, then_stood_stretches
from asat_research.evaluation.temporal_check import HeldDates
from asat_research.gold import AuthorityLookup, CaseDate, CorpusResolver, ProvisionRef, RulingRef


class CorpusDates:
    """Every provision version and ruling of ``build`` by the id research cites it by."""

    def __init__(self, build: CorpusBuild) -> None:
        self._held: dict[str, HeldDates] = {}
        for timeline in build.timelines.values():
            stretches = then_stood_stretches(timeline)
            for version in timeline.versions:
                self._held[version.id] = HeldDates(
                    version.valid_from,
                    version.valid_to,
                    version.act,
                    version.number,
                    tuple((s.start, s.end) for s in stretches_of(stretches, version.id)),
                )
        for ruling in build.rulings:
            validity = build.ruling_validities.get(ruling.id) or ruling_validity(ruling, build.horizon)
            self._held[ruling.id] = HeldDates(validity.valid_from, validity.valid_to)

    def held(self, source_id: str) -> HeldDates | None:
        return self._held.get(source_id)


class ServedResolver:
    """Gold lookups against ``build`` limited to what an index of ``scope`` serves."""

    def __init__(self, build: CorpusBuild, scope: IndexScope) -> None:
        self._resolver = CorpusResolver(build)
        self._scope = scope
        self._doc_types = {r.id: r.doc_type for r in build.rulings}

    def lookup(self, authority: ProvisionRef | RulingRef, when: CaseDate) -> AuthorityLookup:
        acts = self._scope.acts
        if isinstance(authority, ProvisionRef) and acts is not None and authority.act not in acts:
            return AuthorityLookup(
                True, False, message=f"{authority.act} is not served (ASAT_INDEX_ACTS={','.join(acts)})"
            )
        if isinstance(authority, RulingRef):
            doc_type = self._doc_types.get(authority.ruling)
            if doc_type is not None and not self._scope.includes_ruling(doc_type):
                return AuthorityLookup(
                    True,
                    False,
                    message=f"{authority.ruling} ({doc_type}) is not served "
                    f"(ASAT_INDEX_RULINGS={self._scope.rulings.value})",
                )
        return self._resolver.lookup(authority, when)
