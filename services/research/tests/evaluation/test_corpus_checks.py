"""The corpus side of the checks on one small Act of the shared corpus (SIS Act, one compilation)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from asat_corpus.corpus_build import CorpusBuild, load_corpus
from asat_corpus.index_scope import IndexScope, RulingScope
from asat_research.evaluation.corpus_checks import CorpusDates, ServedResolver
from asat_research.evaluation.records import CitedSource
from asat_research.evaluation.temporal_check import temporal_violations
from asat_research.gold import CaseDate, ProvisionRef, RulingRef

pytestmark = pytest.mark.corpus


@pytest.fixture(scope="module")
def sis(tmp_path_factory: pytest.TempPathFactory) -> CorpusBuild:
    cache: Path = tmp_path_factory.mktemp("corpus-cache")
    return load_corpus(acts=["sis1993"], include_rulings=False, cache_dir=cache)


def test_every_held_version_is_known_by_its_id_with_its_dates(sis: CorpusBuild) -> None:
    dates = CorpusDates(sis)
    timeline = sis.timeline("sis1993", "62")
    assert timeline is not None and timeline.versions
    version = timeline.versions[0]
    held = dates.held(version.id)
    assert held is not None
    assert (held.valid_from, held.valid_to, held.act, held.provision) == (
        version.valid_from,
        version.valid_to,
        "sis1993",
        "62",
    )
    assert dates.held("sis1993:62@C1999C99999") is None


def test_a_real_citation_in_force_passes_and_one_dated_outside_fails(sis: CorpusBuild) -> None:
    timeline = sis.timeline("sis1993", "62")
    assert timeline is not None
    version = timeline.versions[0]
    citation = CitedSource(
        source_id=version.id,
        act="sis1993",
        provision="62",
        register_ids=version.register_ids,
        quote=version.text[:40],
        valid_from=version.valid_from.isoformat(),
        valid_to=version.valid_to.isoformat() if version.valid_to else None,
    )
    dates = CorpusDates(sis)
    assert temporal_violations((citation,), CaseDate(None, version.valid_from), dates) == ()
    before = date.fromordinal(version.valid_from.toordinal() - 1)
    assert len(temporal_violations((citation,), CaseDate(None, before), dates)) == 1


def test_served_resolver_refuses_what_the_index_scope_leaves_out(sis: CorpusBuild) -> None:
    timeline = sis.timeline("sis1993", "62")
    assert timeline is not None
    when = CaseDate(None, timeline.versions[0].valid_from)
    gold = ProvisionRef(act="sis1993", provision="62")
    assert ServedResolver(sis, IndexScope(None)).lookup(gold, when).in_force
    refused = ServedResolver(sis, IndexScope(("itaa1997",))).lookup(gold, when)
    assert not refused.in_force and "not served" in refused.message
    unknown = ServedResolver(sis, IndexScope(None, RulingScope.NONE)).lookup(RulingRef(ruling="TR 2020/1"), when)
    assert not unknown.in_force
