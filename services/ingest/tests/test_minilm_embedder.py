"""The MiniLM ONNX embedder: the Embedder contract and a semantic sanity check."""

from __future__ import annotations

from pathlib import Path

import pytest

from asat_ingest.embedder import EmbedderError
from asat_ingest.minilm_embedder import MINILM_DIM, MiniLmOnnxEmbedder, default_tokenizer_path
from asat_ingest.testing.embedder_contract import EmbedderContract


@pytest.fixture(scope="module")
def minilm() -> MiniLmOnnxEmbedder:
    return MiniLmOnnxEmbedder(threads=1)


class TestMiniLmOnnxEmbedder(EmbedderContract):
    @pytest.fixture
    def embedder(self, minilm: MiniLmOnnxEmbedder) -> MiniLmOnnxEmbedder:
        return minilm


def _cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_a_paraphrase_ranks_above_an_unrelated_sentence(minilm: MiniLmOnnxEmbedder) -> None:
    query, paraphrase, unrelated = minilm.embed(
        [
            "Can I deduct expenses I incur to earn my income?",
            "You may claim a deduction for outgoings incurred in producing assessable income.",
            "The recipe needs two cups of flour and an egg.",
        ]
    )
    assert _cosine(query, paraphrase) > _cosine(query, unrelated) + 0.2


def test_vectors_are_unit_length(minilm: MiniLmOnnxEmbedder) -> None:
    (vector,) = minilm.embed(["general deductions"])
    assert len(vector) == MINILM_DIM
    assert sum(x * x for x in vector) == pytest.approx(1.0, abs=1e-4)


def test_identity_names_the_weights_and_settings(minilm: MiniLmOnnxEmbedder) -> None:
    assert minilm.identity.startswith("all-MiniLM-L6-v2-onnx-int8|model-sha256=8199be6f699a395f")
    assert "max-tokens=256" in minilm.identity and "pool=mean" in minilm.identity


def test_long_input_is_truncated_not_refused(minilm: MiniLmOnnxEmbedder) -> None:
    assert len(minilm.embed(["deduction " * 2000])[0]) == MINILM_DIM


def test_a_missing_model_file_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(EmbedderError, match="does not exist"):
        MiniLmOnnxEmbedder(model_path=tmp_path / "missing.onnx", tokenizer_path=default_tokenizer_path())


def test_bad_settings_are_refused() -> None:
    with pytest.raises(EmbedderError, match="batch_size"):
        MiniLmOnnxEmbedder(batch_size=0)
    with pytest.raises(EmbedderError, match="max_tokens"):
        MiniLmOnnxEmbedder(max_tokens=4096)
