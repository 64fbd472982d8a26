"""An :class:`AuthorityResolver` over the dated corpus built by ``asat_corpus`` (no I/O)."""

from __future__ import annotations

from datetime import date, timedelta

from asat_corpus.corpus_build import CorpusBuild
from asat_corpus.income_year import income_year_end, income_year_start
from asat_corpus.provision import ProvisionTimeline, ProvisionVersion
from asat_corpus.resolution import Status, resolve
from asat_corpus.ruling import Ruling
from asat_corpus.ruling_validity import RulingValidity, ruling_validity
from asat_corpus.then_stood import then_stood_stretches
from asat_research.gold.models import ProvisionRef, RulingRef
from asat_research.gold.validation import AuthorityLookup, CaseDate


def _reference_day(when: CaseDate) -> date:
    if when.as_of is not None:
        return when.as_of
    assert when.income_year is not None
    return income_year_end(when.income_year) - timedelta(days=1)


class CorpusResolver:
    """Looks authorities up in a :class:`CorpusBuild` (``load_corpus()``)."""

    def __init__(self, build: CorpusBuild) -> None:
        self._build = build
        self._rulings: dict[str, Ruling] = {r.id: r for r in build.rulings}

    def lookup(self, authority: ProvisionRef | RulingRef, when: CaseDate) -> AuthorityLookup:
        if isinstance(authority, RulingRef):
            return self._ruling(authority, when)
        return self._provision(authority, when)

    def _provision(self, authority: ProvisionRef, when: CaseDate) -> AuthorityLookup:
        timeline = self._build.timeline(authority.act, authority.provision)
        if timeline is None:
            acts = sorted({act for act, _ in self._build.timelines})
            hint = "" if authority.act in acts else f"; act slugs held: {', '.join(acts)}"
            return AuthorityLookup(False, False, message=f"no provision {authority.provision} in {authority.act}{hint}")
        resolution = resolve(timeline, _reference_day(when))
        if when.as_of is not None or resolution.status is Status.IN_FORCE:
            versions = [resolution.version] if resolution.version is not None else []
        else:
            versions = [v for v in timeline.versions if when.income_year in v.income_years]
        then_stood = not versions
        if then_stood:
            versions = _then_stood_versions(timeline, when)  # served as it then stood, with its caveat
        if not versions:
            return AuthorityLookup(True, False, message=resolution.message)
        register_ids = tuple(dict.fromkeys(r for v in versions for r in v.register_ids))
        texts = tuple(v.text for v in versions)
        return AuthorityLookup(True, True, texts, register_ids, resolution.message, then_stood)

    def _ruling(self, authority: RulingRef, when: CaseDate) -> AuthorityLookup:
        ruling = self._rulings.get(authority.ruling)
        if ruling is None:
            return AuthorityLookup(
                False, False, message=f"no ruling {authority.ruling!r} (write it as the ATO cites it)"
            )
        validity = self._build.ruling_validities.get(ruling.id) or ruling_validity(ruling, self._build.horizon)
        if not _reachable(validity, when):
            return AuthorityLookup(
                True,
                False,
                message=f"{ruling.id} ({ruling.status}) is reachable from {validity.valid_from} "
                f"to {validity.valid_to or 'now'} ({validity.from_basis}), not {when}",
            )
        return AuthorityLookup(True, True, (ruling.text,), (), f"{ruling.id} reachable {when}")


def _reachable(validity: RulingValidity, when: CaseDate) -> bool:
    if when.as_of is not None:
        return validity.valid_from <= when.as_of and (validity.valid_to is None or when.as_of < validity.valid_to)
    return when.income_year in validity.income_years


def _then_stood_versions(timeline: ProvisionTimeline, when: CaseDate) -> list[ProvisionVersion]:
    """The texts served for ``when`` as they then stood where the law as it now stands is not held."""
    if when.as_of is not None:
        start, end = when.as_of, when.as_of + timedelta(days=1)
    else:
        assert when.income_year is not None
        start, end = income_year_start(when.income_year), income_year_end(when.income_year)
    ids = {s.version_id for s in then_stood_stretches(timeline) if s.start < end and s.end > start}
    return [v for v in timeline.versions if v.id in ids]
