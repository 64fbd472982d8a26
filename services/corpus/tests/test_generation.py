from __future__ import annotations

import pytest

from asat_corpus.generation import corpus_generation
from asat_corpus.vector_config import VectorConfig, VectorConfigError, vector_config_from_env

CONFIG = VectorConfig("minilm", "m", 384)
CHUNKS = [("a/1", "text one", {"income_years": [2015]}), ("a/2", "text two", {"income_years": [2016]})]


def test_generation_is_order_independent_and_sensitive_to_everything_it_covers() -> None:
    base = corpus_generation(CHUNKS, CONFIG)
    assert corpus_generation(list(reversed(CHUNKS)), CONFIG) == base
    assert corpus_generation([CHUNKS[0], ("a/2", "text two!", CHUNKS[1][2])], CONFIG) != base
    assert corpus_generation([CHUNKS[0], ("a/2", "text two", {"income_years": [2017]})], CONFIG) != base
    assert corpus_generation([CHUNKS[0], ("a/3", "text two", CHUNKS[1][2])], CONFIG) != base
    assert corpus_generation(CHUNKS, VectorConfig("minilm", "m", 768)) != base


def test_vector_config_refuses_unknown_embedders() -> None:
    assert vector_config_from_env({}).embedder == "minilm"
    with pytest.raises(VectorConfigError, match="unknown ASAT_EMBEDDER"):
        vector_config_from_env({"ASAT_EMBEDDER": "bert"})
    with pytest.raises(VectorConfigError, match="ASAT_EMBEDDER_MODEL"):
        vector_config_from_env({"ASAT_EMBEDDER": "openai"})


def test_the_static_embedder_is_known_and_makes_its_own_generation() -> None:
    static = vector_config_from_env({"ASAT_EMBEDDER": "static"})
    assert (static.embedder, static.dim) == ("static", 256)
    assert corpus_generation(CHUNKS, static) != corpus_generation(CHUNKS, vector_config_from_env({}))
