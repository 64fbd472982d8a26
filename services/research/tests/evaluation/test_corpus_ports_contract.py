"""The real corpus adapters of the evaluation and its unit-test fakes keep the same contracts."""

from __future__ import annotations

from asat_research.evaluation.corpus_checks import CorpusDates, ServedResolver
from asat_research.evaluation.temporal_check import VersionDates
from asat_research.gold import CorpusResolver
from asat_research.gold.validation import AuthorityResolver

from ..pipeline.fakes import SCOPE, corpus_view
from .builders import FakeDates, FakeResolver
from .corpus_ports_contract import AuthorityResolverContract, VersionDatesContract

BUILD = corpus_view().corpus


class TestCorpusDates(VersionDatesContract):
    def dates(self) -> VersionDates:
        return CorpusDates(BUILD)


class TestFakeDates(VersionDatesContract):
    def dates(self) -> VersionDates:
        return FakeDates()


class TestCorpusResolver(AuthorityResolverContract):
    def resolver(self) -> AuthorityResolver:
        return CorpusResolver(BUILD)


class TestServedResolver(AuthorityResolverContract):
    def resolver(self) -> AuthorityResolver:
        return ServedResolver(BUILD, SCOPE)


class TestFakeResolver(AuthorityResolverContract):
    def resolver(self) -> AuthorityResolver:
        return FakeResolver(missing=("999-999",))
