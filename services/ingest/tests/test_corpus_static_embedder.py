"""Documents by the fitted table, questions by MiniLM: the Embedder contract on the committed model."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_corpus.vector_config import KNOWN_EMBEDDERS
from asat_ingest.composition import ConfigError, build_embedder, config_from_env
from asat_ingest.corpus_static_embedder import CorpusStaticEmbedder, split_by_length
from asat_ingest.embedder import EmbedderError
from asat_ingest.minilm_embedder import MiniLmOnnxEmbedder
from asat_ingest.static_artifact import DEFAULT_MODEL_DIR, FITTED_MODEL_DIR
from asat_ingest.static_embedder import StaticEmbedder
from asat_ingest.testing.embedder_contract import EmbedderContract

QUESTION = "Can my client deduct the cost of travelling between home and work?"
ON_POINT = (
    "Travel between home and a regular place of work is private travel: its cost is not an outgoing "
    "incurred in gaining or producing assessable income."
)
OFF_POINT = "The GST payable on a taxable supply is 10% of the value of the supply."


@pytest.fixture(scope="module")
def minilm() -> MiniLmOnnxEmbedder:
    return MiniLmOnnxEmbedder()


@pytest.fixture(scope="module")
def fitted(minilm: MiniLmOnnxEmbedder) -> CorpusStaticEmbedder:
    return CorpusStaticEmbedder(StaticEmbedder(FITTED_MODEL_DIR, identity_name="static-corpus-table"), minilm)


@pytest.fixture(scope="module")
def split(minilm: MiniLmOnnxEmbedder) -> CorpusStaticEmbedder:
    """Documents of at most 16 word pieces by MiniLM, longer ones by the table."""
    return CorpusStaticEmbedder(StaticEmbedder(FITTED_MODEL_DIR, identity_name="static-corpus-table"), minilm, 16)


class TestCorpusStaticEmbedder(EmbedderContract):
    @pytest.fixture
    def embedder(self, fitted: CorpusStaticEmbedder) -> CorpusStaticEmbedder:
        return fitted


class TestCorpusStaticEmbedderShortTextsByMiniLm(EmbedderContract):
    @pytest.fixture
    def embedder(self, split: CorpusStaticEmbedder) -> CorpusStaticEmbedder:
        return split


@given(st.lists(st.integers(min_value=0, max_value=300), max_size=40), st.integers(min_value=0, max_value=256))
def test_the_split_by_length_is_a_partition_in_order(counts: list[int], cut: int) -> None:
    exact, by_table = split_by_length(counts, cut)
    assert sorted(exact + by_table) == list(range(len(counts)))
    assert exact == sorted(exact) and by_table == sorted(by_table)
    assert all(counts[i] <= cut for i in exact) and all(counts[i] > cut for i in by_table)


def test_short_documents_come_from_minilm_and_long_ones_from_the_table(
    split: CorpusStaticEmbedder, fitted: CorpusStaticEmbedder, minilm: MiniLmOnnxEmbedder
) -> None:
    short = "Section 8-1: general deductions."
    assert minilm.count_tokens(short) <= 16 < minilm.count_tokens(ON_POINT)
    vectors = split.embed([ON_POINT, short, OFF_POINT])
    assert vectors[1] == minilm.embed([short])[0]
    assert vectors[0] == fitted.embed([ON_POINT])[0] and vectors[2] == fitted.embed([OFF_POINT])[0]
    assert vectors[0] != minilm.embed([ON_POINT])[0]


def test_the_identity_names_the_split(split: CorpusStaticEmbedder, fitted: CorpusStaticEmbedder) -> None:
    assert "|exact-up-to=16|" in split.identity and "|exact-up-to=0|" in fitted.identity
    assert split.identity != fitted.identity


@pytest.mark.parametrize("cut", [-1, 257])
def test_a_cut_beyond_minilms_reach_is_refused(minilm: MiniLmOnnxEmbedder, cut: int) -> None:
    with pytest.raises(EmbedderError, match="ASAT_STATIC_CORPUS_EXACT_TOKENS"):
        CorpusStaticEmbedder(StaticEmbedder(FITTED_MODEL_DIR, identity_name="static-corpus-table"), minilm, cut)


def test_the_cut_is_read_from_the_environment(tmp_path: Path) -> None:
    env = {"ASAT_EMBEDDER": "static-corpus", "HOME": str(tmp_path), "ASAT_STATIC_CORPUS_EXACT_TOKENS": "48"}
    embedder = build_embedder(config_from_env(env))
    assert isinstance(embedder, CorpusStaticEmbedder) and embedder.exact_up_to == 48
    with pytest.raises(ConfigError, match="ASAT_STATIC_CORPUS_EXACT_TOKENS"):
        config_from_env(dict(env, ASAT_STATIC_CORPUS_EXACT_TOKENS="300"))


def test_documents_come_from_the_table_and_questions_from_minilm(
    fitted: CorpusStaticEmbedder, minilm: MiniLmOnnxEmbedder
) -> None:
    assert fitted.embed_queries([QUESTION]) == minilm.embed([QUESTION])
    assert fitted.embed([ON_POINT]) != minilm.embed([ON_POINT])


def test_the_table_reproduces_minilm_closely_on_a_legal_text(
    fitted: CorpusStaticEmbedder, minilm: MiniLmOnnxEmbedder
) -> None:
    """What the fit is for: the table's vector of a text is near MiniLM's own, and a question
    ranks the on-point text above the off-point one against either."""
    table, teacher = np.asarray(fitted.embed([ON_POINT, OFF_POINT])), np.asarray(minilm.embed([ON_POINT, OFF_POINT]))
    assert float(np.sum(table[0] * teacher[0])) > 0.8
    question = np.asarray(fitted.embed_queries([QUESTION])[0])
    assert question @ table[0] > question @ table[1]


def test_the_identity_names_both_models(fitted: CorpusStaticEmbedder, minilm: MiniLmOnnxEmbedder) -> None:
    assert fitted.identity.startswith("static-corpus|documents=static-corpus-table|artifacts-sha256=")
    assert f"|queries={minilm.identity}|" in fitted.identity and fitted.identity.endswith("|dim=384")


def test_a_table_of_another_dimension_is_refused(minilm: MiniLmOnnxEmbedder) -> None:
    with pytest.raises(EmbedderError, match="not fitted to this MiniLM"):
        CorpusStaticEmbedder(StaticEmbedder(DEFAULT_MODEL_DIR), minilm)  # the 256-d distilled model


def test_asat_embedder_static_corpus_builds_it(tmp_path: Path) -> None:
    embedder = build_embedder(config_from_env({"ASAT_EMBEDDER": "static-corpus", "HOME": str(tmp_path)}))
    assert isinstance(embedder, CorpusStaticEmbedder)
    assert embedder.dim == KNOWN_EMBEDDERS["static-corpus"][1]


def test_a_missing_or_changed_table_says_what_to_run(tmp_path: Path) -> None:
    env = {"ASAT_EMBEDDER": "static-corpus", "ASAT_STATIC_CORPUS_DIR": str(tmp_path / "none"), "HOME": str(tmp_path)}
    with pytest.raises(EmbedderError, match="make models"):
        build_embedder(config_from_env(env))
    copy = tmp_path / "copy"
    shutil.copytree(FITTED_MODEL_DIR, copy)
    (copy / "config.json").write_text(json.dumps({"changed": True}))
    with pytest.raises(EmbedderError, match="ASAT_STATIC_CORPUS_DIR"):
        build_embedder(config_from_env(dict(env, ASAT_STATIC_CORPUS_DIR=str(copy))))
