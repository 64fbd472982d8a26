"""The project's own suite, gold-set/pit_suite.yaml: well-formed, balanced, and true to the corpus."""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import pytest

from asat_corpus.corpus_build import CorpusBuild, load_corpus
from asat_research.gold import CorpusResolver, Expect, GoldSuite, ProvisionRef, load_suite, validate_suite

REPO_ROOT = Path(__file__).resolve().parents[4]
SUITE_PATH = REPO_ROOT / "gold-set" / "pit_suite.yaml"


@pytest.fixture(scope="module")
def suite() -> GoldSuite:
    return load_suite(SUITE_PATH)


@pytest.fixture(scope="module")
def corpus() -> CorpusBuild:
    cache = Path(os.environ.get("ASAT_CACHE_DIR", str(REPO_ROOT / "var" / "cache")))
    return load_corpus(cache_dir=cache)


def test_suite_is_large_enough_and_covers_every_kind(suite: GoldSuite) -> None:
    assert len(suite.cases) >= 150
    tags = Counter(tag for case in suite.cases for tag in case.tags)
    minimum = {
        "temporal": 40,
        "version-gap": 15,
        "not-yet-enacted": 10,
        "stable": 45,
        "ruling": 12,
        "false-premise": 12,
        "out-of-scope": 15,
        "div7a": 5,
        "part-iva": 5,
        "gst": 5,
        "taa-sch1": 5,
        "fbtaa": 5,
        "sis": 5,
    }
    short = {tag: (tags[tag], want) for tag, want in minimum.items() if tags[tag] < want}
    assert not short, f"too few cases (have, want): {short}"


def test_expectations_match_tags(suite: GoldSuite) -> None:
    for case in suite.cases:
        if {"version-gap", "not-yet-enacted", "out-of-scope"} & set(case.tags):
            assert case.expect is Expect.ABSTAIN, case.id
        if "false-premise" in case.tags:
            assert case.expect is Expect.REJECT_PREMISE, case.id
        if "out-of-scope" in case.tags:
            assert case.gold == (), case.id
        assert case.notes.strip(), f"{case.id}: notes must say which text was checked"


def test_temporal_pairs_ask_about_the_same_provision_in_two_years_and_trap_each_other(suite: GoldSuite) -> None:
    by_id = {case.id: case for case in suite.cases}
    pairs = sorted({m.group(1) for case in suite.cases if (m := re.fullmatch(r"(PIT-T\d+)[ab]", case.id))})
    assert len(pairs) >= 20
    for stem in pairs:
        early, late = by_id[f"{stem}a"], by_id[f"{stem}b"]
        assert early.gold == late.gold, stem
        assert early.income_year is not None and late.income_year is not None
        assert early.income_year < late.income_year, stem
        for case in (early, late):
            traps = [t for t in case.must_not_cite if isinstance(t, ProvisionRef)]
            assert traps and all(t.register_id for t in traps), f"{case.id}: a pair case traps the other version"
            assert case.must_not_quote, f"{case.id}: a pair case traps the other version's wording"


@pytest.mark.corpus
def test_every_gold_authority_resolves_and_every_quote_is_in_its_text(suite: GoldSuite, corpus: CorpusBuild) -> None:
    problems = validate_suite(suite, CorpusResolver(corpus))
    assert [str(p) for p in problems] == []


@pytest.mark.corpus
def test_validation_against_the_corpus_catches_a_wrong_year(suite: GoldSuite, corpus: CorpusBuild) -> None:
    """The check above is not vacuous: the 2015 small business case moved into the 2016-2023 gap fails."""
    case = next(c for c in suite.cases if c.id == "PIT-T01a")
    moved = case.model_copy(update={"income_year": 2020})
    wrong_quote = case.model_copy(update={"must_quote_any": ("less than $10 million",)})
    problems = validate_suite(GoldSuite(schema="asat-gold/1", cases=(moved,)), CorpusResolver(corpus))
    assert [(p.case_id, p.field) for p in problems] == [("PIT-T01a", "gold[0]")]
    assert "text not held" in problems[0].message
    problems = validate_suite(GoldSuite(schema="asat-gold/1", cases=(wrong_quote,)), CorpusResolver(corpus))
    assert [(p.case_id, p.field) for p in problems] == [("PIT-T01a", "must_quote_any[0]")]
