"""The premise probes under gold-set/: premise-probes.yaml (development), premise-probes-heldout.yaml
(held out, by the engineer who changes the rules) and premise-probes-blind.yaml (written by a helper
session; its questions are never read by whoever changes the rules, only its scores). Each
well-formed, apart from the project's suite and from the others, and true to the corpus (every gold
provision held in force in its year)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from asat_corpus.corpus_build import CorpusBuild, load_corpus
from asat_research.gold import CorpusResolver, Expect, load_suite, validate_suite

REPO_ROOT = Path(__file__).resolve().parents[4]
PROBES_PATH = REPO_ROOT / "gold-set" / "premise-probes.yaml"
HELDOUT_PATH = REPO_ROOT / "gold-set" / "premise-probes-heldout.yaml"
BLIND_PATH = REPO_ROOT / "gold-set" / "premise-probes-blind.yaml"
SUITE_PATH = REPO_ROOT / "gold-set" / "pit_suite.yaml"
# (file, false premises, true premises)
PROBE_FILES = [(PROBES_PATH, 15, 8), (HELDOUT_PATH, 15, 10), (BLIND_PATH, 16, 8)]
PATHS = [path for path, _, _ in PROBE_FILES]


@pytest.mark.parametrize(("path", "n_false", "n_true"), PROBE_FILES, ids=lambda v: getattr(v, "stem", str(v)))
def test_false_and_true_premises_each_tagged_and_expected(path: Path, n_false: int, n_true: int) -> None:
    probes = load_suite(path)
    false = [c for c in probes.cases if "false-premise" in c.tags]
    true = [c for c in probes.cases if "true-premise" in c.tags]
    assert len(false) == n_false and len(true) == n_true and len(probes.cases) == n_false + n_true
    assert all(c.expect is Expect.REJECT_PREMISE for c in false)
    assert all(c.expect is Expect.ANSWER for c in true)


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_no_probe_is_a_question_of_the_project_suite(path: Path) -> None:
    suite = {c.question.casefold() for c in load_suite(SUITE_PATH).cases}
    assert not [c.id for c in load_suite(path).cases if c.question.casefold() in suite]


@pytest.mark.parametrize(("one", "other"), [(0, 1), (0, 2), (1, 2)])
def test_no_two_probe_files_share_a_question_or_an_id(one: int, other: int) -> None:
    first, second = load_suite(PATHS[one]).cases, load_suite(PATHS[other]).cases
    assert not {c.question.casefold() for c in first} & {c.question.casefold() for c in second}
    assert not {c.id for c in first} & {c.id for c in second}


@pytest.fixture(scope="module")
def corpus() -> CorpusBuild:
    cache = Path(os.environ.get("ASAT_CACHE_DIR", str(REPO_ROOT / "var" / "cache")))
    return load_corpus(cache_dir=cache)


@pytest.mark.corpus
@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem)
def test_every_gold_provision_resolves_in_its_year(path: Path, corpus: CorpusBuild) -> None:
    problems = validate_suite(load_suite(path), CorpusResolver(corpus))
    assert [str(p) for p in problems] == []
