"""Distilling the static model: the pure steps, and a small slice of the vocabulary end to end."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from asat_ingest.distill_static import (
    TOKEN_REMOVE_PATTERN,
    clean_vocabulary,
    distill,
    main,
    pca,
    quantise,
    zipf_sif_weights,
)
from asat_ingest.embedder import EmbedderError
from asat_ingest.minilm_embedder import default_tokenizer_path
from asat_ingest.static_embedder import StaticEmbedder

SLICE = 1200  # the first 1,200 tokens after cleaning: specials, characters and ~200 common words


def _tiny_tokenizer() -> dict[str, object]:
    vocab = {"[PAD]": 0, "[unused0]": 1, "[UNK]": 2, "[CLS]": 3, "[SEP]": 4, "[unused1]": 5, "tax": 6, "##es": 7}
    added = [{"id": i, "content": t, "special": True} for t, i in vocab.items() if t in ("[PAD]", "[UNK]", "[CLS]")]
    return {
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": vocab},
        "added_tokens": added,
        "post_processor": {"type": "TemplateProcessing"},
        "padding": {"pad_id": 0},
        "truncation": {"max_length": 128},
    }


def test_clean_vocabulary_drops_the_placeholders_and_renumbers_in_order() -> None:
    cleaned, original = clean_vocabulary(_tiny_tokenizer(), TOKEN_REMOVE_PATTERN)
    model = cleaned["model"]
    assert model["vocab"] == {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "tax": 4, "##es": 5}
    assert original == [0, 2, 3, 4, 6, 7]
    assert [(a["content"], a["id"]) for a in cleaned["added_tokens"]] == [("[PAD]", 0), ("[UNK]", 1), ("[CLS]", 2)]
    assert cleaned["post_processor"] is None and cleaned["padding"] is None and cleaned["truncation"] is None


def test_clean_vocabulary_with_a_limit_keeps_the_first_tokens_and_needs_the_unknown_token() -> None:
    cleaned, original = clean_vocabulary(_tiny_tokenizer(), TOKEN_REMOVE_PATTERN, limit=3)
    assert original == [0, 2, 3]
    assert [a["content"] for a in cleaned["added_tokens"]] == ["[PAD]", "[UNK]", "[CLS]"]
    with pytest.raises(EmbedderError, match="unknown token"):
        clean_vocabulary(_tiny_tokenizer(), TOKEN_REMOVE_PATTERN, limit=1)


def test_the_minilm_vocabulary_loses_its_994_placeholders() -> None:
    config = json.loads(default_tokenizer_path().read_text())
    cleaned, original = clean_vocabulary(config, TOKEN_REMOVE_PATTERN)
    assert len(original) == len(config["model"]["vocab"]) - 994 == 29528
    assert not any(token.startswith("[unused") for token in cleaned["model"]["vocab"])


def test_sif_weights_rise_with_rank_and_stay_below_one() -> None:
    weights = zipf_sif_weights(1000, 1e-4)
    assert weights.shape == (1000,)
    assert np.all(np.diff(weights) > 0) and 0 < weights[0] < weights[-1] < 1
    with pytest.raises(EmbedderError, match="sif_coefficient"):
        zipf_sif_weights(10, 1.5)


def test_pca_orders_components_by_variance_and_fixes_their_sign() -> None:
    rng = np.random.default_rng(7)
    data = rng.normal(size=(500, 6)) * np.array([5.0, 3.0, 1.0, 0.5, 0.2, 0.1])
    projected, explained = pca(data, 3)
    assert projected.shape == (500, 3)
    variances = projected.var(axis=0)
    assert variances[0] > variances[1] > variances[2]
    assert 0.9 < explained <= 1.0
    largest = np.abs(projected).argmax(axis=0)
    assert np.all(projected[largest, np.arange(3)] > 0)
    again, _ = pca(-data, 3)  # the sign convention makes the result independent of the data's sign
    assert np.allclose(np.abs(again), np.abs(projected))
    with pytest.raises(EmbedderError, match="pca dims"):
        pca(data, 7)


def test_int8_storage_keeps_the_directions() -> None:
    matrix = np.array([[1.0, -0.5], [0.25, 2.0]])
    stored = quantise(matrix, "int8")
    assert stored.dtype == np.int8 and int(np.abs(stored).max()) == 127
    restored = stored.astype(np.float64)
    cosines = (restored * matrix).sum(1) / np.linalg.norm(restored, axis=1) / np.linalg.norm(matrix, axis=1)
    assert np.all(cosines > 0.999)
    assert quantise(matrix, "float16").dtype == np.float16
    with pytest.raises(EmbedderError, match="dtype"):
        quantise(matrix, "bfloat16")


@pytest.fixture(scope="module")
def slice_models(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The same slice distilled twice."""
    first, second = tmp_path_factory.mktemp("first"), tmp_path_factory.mktemp("second")
    for out in (first, second):
        distill(out, pca_dims=16, vocab_limit=SLICE, threads=1)
    return first, second


def test_a_slice_distils_to_the_same_bytes_twice(slice_models: tuple[Path, Path]) -> None:
    first, second = slice_models
    card_a = json.loads((first / "card.json").read_text())
    card_b = json.loads((second / "card.json").read_text())
    assert card_a["artifacts"] == card_b["artifacts"]
    assert set(card_a["artifacts"]) == {"config.json", "model.safetensors", "modules.json", "tokenizer.json"}
    for name in card_a["artifacts"]:
        assert (first / name).read_bytes() == (second / name).read_bytes()


def test_the_card_says_how_it_was_made(slice_models: tuple[Path, Path]) -> None:
    card = json.loads((slice_models[0] / "card.json").read_text())
    assert card["dim"] == 16 and card["vocabulary"] == {"source_tokens": 30522, "tokens": SLICE, "limit": SLICE}
    assert card["source"]["model_sha256"].startswith("8199be6f699a395f")
    assert card["hyper_parameters"]["sif_coefficient"] == 1e-4 and card["hyper_parameters"]["dtype"] == "int8"
    assert card["size_bytes"] == sum(card["sizes_bytes"].values())
    markdown = (slice_models[0] / "MODEL_CARD.md").read_text()
    assert "make static-embedder" in markdown and card["source"]["model_sha256"] in markdown


def test_a_slice_model_serves(slice_models: tuple[Path, Path]) -> None:
    embedder = StaticEmbedder(slice_models[0])
    assert embedder.dim == 16
    vectors = embedder.embed(["the tax", "", "   "])
    assert all(abs(sum(x * x for x in v) - 1.0) < 1e-5 for v in vectors)
    assert vectors[1] == vectors[2]  # no word piece: the table's mean, not a zero vector


def test_the_command_refuses_bad_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--out", str(tmp_path / "m"), "--pca-dims", "1000"]) == 2
    assert "pca dims" in capsys.readouterr().err
    assert not (tmp_path / "m" / "card.json").exists()
