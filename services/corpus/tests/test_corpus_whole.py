"""Issue checks over the real corpus: dating, the CLI, coverage, and bad input.

These parse whole compilations (cached under var/cache after the first run), so they are
marked ``corpus`` and ``slow``; the parse benchmark is scripts/bench_corpus_parse.py.
"""

from __future__ import annotations

import itertools
import json
import shutil
from datetime import date
from pathlib import Path

import pytest

from asat_corpus.cli import main
from asat_corpus.corpus_build import CorpusBuild, build_corpus, load_corpus
from asat_corpus.resolution import Status, resolve
from asat_corpus.sources import corpus_dir_from_env, load_sources

pytestmark = [pytest.mark.corpus, pytest.mark.slow]


@pytest.fixture(scope="module")
def whole() -> CorpusBuild:
    return load_corpus(include_rulings=False)


def _show(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["show", "--json", *args]) == 0
    body: dict[str, object] = json.loads(capsys.readouterr().out)
    return body


def test_small_business_threshold_at_two_dates(capsys: pytest.CaptureFixture[str]) -> None:
    early = _show(capsys, "--act", "itaa1997", "--provision", "328-110", "--as-of", "2015-06-30")
    late = _show(capsys, "--act", "itaa1997", "--provision", "328-110", "--as-of", "2026-06-30")
    v1, v2 = early["version"], late["version"]
    assert isinstance(v1, dict) and isinstance(v2, dict)
    assert "$2 million" in v1["text"] and "$10 million" in v2["text"]
    assert v1["valid_to"] is not None and v1["valid_to"] <= v2["valid_from"]
    assert "Act No. 41, 2017" in v1["to_bound"]["acts"]
    assert "Act No. 40, 2023" in v2["from_bound"]["acts"]


def test_text_not_held_names_the_amending_acts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "--json", "--act", "itaa1997", "--provision", "328-110", "--as-of", "2020-06-30"]) == 1
    body = json.loads(capsys.readouterr().out)
    assert body["status"] == Status.GAP.value
    assert "Act No. 92, 2020" in body["gap"]["acts"]


def test_no_two_versions_of_a_provision_overlap(whole: CorpusBuild) -> None:
    checked = 0
    for timeline in whole.timelines.values():
        spans = sorted((v.valid_from, v.valid_to or date.max, v.id) for v in timeline.versions)
        for (_, end, first), (start, _, second) in itertools.pairwise(spans):
            assert end <= start, f"{first} overlaps {second}"
        gaps = sorted((g.start, g.end) for g in timeline.gaps)
        for (_, end), (start, _) in itertools.pairwise(sorted([(s, e) for s, e, _ in spans] + gaps)):
            assert end <= start, f"{timeline.act} {timeline.number}: a gap overlaps a version"
        checked += 1
    assert checked > 10000


def test_every_version_lists_exactly_the_income_years_it_touches(whole: CorpusBuild) -> None:
    for timeline in itertools.islice(whole.timelines.values(), 0, None, 7):
        for version in timeline.versions:
            if version.income_years:
                assert version.in_force_on(version.valid_from)
                assert version.income_years == tuple(range(version.income_years[0], version.income_years[-1] + 1))


def test_added_after_2015_is_not_yet_enacted_in_2015(whole: CorpusBuild) -> None:
    timeline = whole.timeline("itaa1997", "104-107B")
    assert timeline is not None and timeline.added_by is not None and timeline.added_by.year == 2016
    result = resolve(timeline, date(2015, 6, 30))
    assert result.status is Status.NOT_YET_ENACTED
    assert "not yet enacted" in result.message


def test_stats_cover_every_compilation_and_list_what_was_not_parsed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    listed = {c["register_id"] for c in stats["compilations"]}
    assert listed == {c.register_id for c in load_sources().compilations}
    by_id = {c["register_id"]: c for c in stats["compilations"]}
    assert by_id["C2026C00122"]["provisions_parsed"] >= 4500
    for row in stats["compilations"]:
        if row["unparsed"]:
            assert row["unparsed_examples"], row["register_id"]
    assert len(stats["corpus_generation"]) == 64


def test_a_bad_file_is_reported_by_name_and_line_and_the_rest_builds(tmp_path: Path) -> None:
    source = corpus_dir_from_env()
    manifest = json.loads((source / "SOURCES.json").read_text())
    keep = [e for e in manifest["legislation"] if e["act_slug"] in ("abn1999", "lct1999")]
    for entry in keep:
        for rel in entry["files"]:
            (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source / rel, tmp_path / rel)
    broken = tmp_path / keep[1]["files"][0]
    broken.write_bytes(b"\x00\x01garbage\xff" * 50)
    (tmp_path / "SOURCES.json").write_text(json.dumps({"legislation": keep}))
    build = build_corpus(load_sources(tmp_path), include_rulings=False, workers=1)
    errors = [e for r in build.compilations for e in r.report.errors]
    assert errors and keep[1]["files"][0] in errors[0] and ":" in errors[0]
    assert any(act == "abn1999" for act, _ in build.timelines)
