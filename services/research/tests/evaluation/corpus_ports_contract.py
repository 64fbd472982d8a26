"""The contracts of the evaluation's two corpus ports, kept by the real adapters and the fakes.

:class:`~asat_research.evaluation.temporal_check.VersionDates` says when a cited version was in
force; :class:`~asat_research.gold.validation.AuthorityResolver` says whether the corpus holds an
authority for a case's date. The real adapters read a :class:`CorpusBuild`; the fakes stand in for
them in unit tests, so both must behave alike. Each suite runs over the same small world: s 328-110
of ITAA 1997 with a text for income year 2015 and one for 2026, no text held for 2020.
"""

from __future__ import annotations

from asat_research.evaluation.temporal_check import VersionDates
from asat_research.gold import CaseDate, ProvisionRef
from asat_research.gold.validation import AuthorityResolver

from ..pipeline.fakes import SBE_2015, SBE_2026

SBE = ProvisionRef(act="itaa1997", provision="328-110")
UNKNOWN = ProvisionRef(act="itaa1997", provision="999-999")


class VersionDatesContract:
    def dates(self) -> VersionDates:
        raise NotImplementedError

    def test_a_cited_version_has_its_dates_act_and_provision(self) -> None:
        for source_id in (SBE_2015, SBE_2026):
            held = self.dates().held(source_id)
            assert held is not None, source_id
            assert held.valid_to is None or held.valid_from < held.valid_to
            assert (held.act, held.provision) == ("itaa1997", "328-110")
            assert all(start < end for start, end in held.then_stood)

    def test_the_two_texts_do_not_overlap(self) -> None:
        early, late = self.dates().held(SBE_2015), self.dates().held(SBE_2026)
        assert early is not None and late is not None and early.valid_to is not None
        assert early.valid_to <= late.valid_from

    def test_an_id_not_held_is_none(self) -> None:
        assert self.dates().held("itaa1997:999-999@C2015C00285") is None
        assert self.dates().held("") is None


class AuthorityResolverContract:
    def resolver(self) -> AuthorityResolver:
        raise NotImplementedError

    def test_a_held_text_in_force_resolves_with_its_texts_and_registers(self) -> None:
        for year in (2015, 2026):
            found = self.resolver().lookup(SBE, CaseDate(year, None))
            assert found.known and found.in_force, (year, found.message)
            assert found.texts and all(found.texts) and found.register_ids

    def test_the_two_years_resolve_to_different_compilations(self) -> None:
        early = self.resolver().lookup(SBE, CaseDate(2015, None))
        late = self.resolver().lookup(SBE, CaseDate(2026, None))
        assert set(early.register_ids).isdisjoint(late.register_ids)

    def test_an_authority_not_held_does_not_resolve_and_says_why(self) -> None:
        found = self.resolver().lookup(UNKNOWN, CaseDate(2015, None))
        assert not found.in_force and not found.texts and found.message
