"""The static embedder: the Embedder contract on the committed model, its identity and its checks."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from asat_corpus.vector_config import KNOWN_EMBEDDERS
from asat_ingest.composition import build_embedder, config_from_env
from asat_ingest.embedder import EmbedderError
from asat_ingest.static_artifact import DEFAULT_MODEL_DIR
from asat_ingest.static_embedder import StaticEmbedder
from asat_ingest.testing.embedder_contract import EmbedderContract


@pytest.fixture(scope="module")
def static() -> StaticEmbedder:
    return StaticEmbedder()


class TestStaticEmbedder(EmbedderContract):
    @pytest.fixture
    def embedder(self, static: StaticEmbedder) -> StaticEmbedder:
        return static


def _cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_a_paraphrase_ranks_above_an_unrelated_sentence(static: StaticEmbedder) -> None:
    query, paraphrase, unrelated = static.embed(
        [
            "Can I deduct expenses I incur to earn my income?",
            "You may claim a deduction for outgoings incurred in producing assessable income.",
            "The recipe needs two cups of flour and an egg.",
        ]
    )
    assert _cosine(query, paraphrase) > _cosine(query, unrelated) + 0.2


def test_vectors_are_unit_length_with_the_declared_dimension(static: StaticEmbedder) -> None:
    vectors = static.embed(["general deductions", "", "deduction " * 2000])
    assert static.dim == KNOWN_EMBEDDERS["static"][1]
    for vector in vectors:
        assert len(vector) == static.dim
        assert sum(x * x for x in vector) == pytest.approx(1.0, abs=1e-5)


def test_the_same_text_gives_the_same_vector_in_a_new_embedder(static: StaticEmbedder) -> None:
    text = "Division 7A treats some loans by private companies as dividends."
    assert StaticEmbedder().embed([text]) == static.embed([text])


def test_identity_names_the_artifact_and_the_settings(static: StaticEmbedder) -> None:
    card = json.loads((DEFAULT_MODEL_DIR / "card.json").read_text())
    assert static.identity.startswith("static-minilm|artifacts-sha256=")
    assert f"dim={card['dim']}" in static.identity and "pool=mean" in static.identity
    assert "max-tokens=512" in static.identity


def test_long_input_counts_at_most_max_tokens(static: StaticEmbedder) -> None:
    assert static.count_tokens("deduction " * 2000) == 512
    assert static.count_tokens("") == 0


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    target = tmp_path / "static-minilm"
    shutil.copytree(DEFAULT_MODEL_DIR, target)
    return target


def _rewrite_card(directory: Path, **changes: object) -> None:
    card = json.loads((directory / "card.json").read_text())
    card.update(changes)
    (directory / "card.json").write_text(json.dumps(card))


def test_a_changed_artifact_is_refused(copy: Path) -> None:
    data = bytearray((copy / "model.safetensors").read_bytes())
    data[-1] ^= 0x01
    (copy / "model.safetensors").write_bytes(bytes(data))
    with pytest.raises(EmbedderError, match=r"does not match its model card.*make static-embedder"):
        StaticEmbedder(copy)


def test_a_missing_artifact_or_card_says_what_to_run(copy: Path, tmp_path: Path) -> None:
    (copy / "tokenizer.json").unlink()
    with pytest.raises(EmbedderError, match=r"tokenizer.json is missing.*make static-embedder"):
        StaticEmbedder(copy)
    with pytest.raises(EmbedderError, match=r"static embedding model is missing.*make static-embedder"):
        StaticEmbedder(tmp_path / "nowhere")


def test_a_card_without_artifacts_is_refused(copy: Path) -> None:
    _rewrite_card(copy, artifacts={})
    with pytest.raises(EmbedderError, match="lists no artifacts"):
        StaticEmbedder(copy)


def test_the_identity_changes_with_the_artifact(copy: Path, static: StaticEmbedder) -> None:
    # A rebuilt model (here: one setting changed, and the card updated to match) is another model.
    config = json.loads((copy / "config.json").read_text())
    (copy / "config.json").write_text(json.dumps(dict(config, tokenizer_name="rebuilt")))
    card = json.loads((copy / "card.json").read_text())
    artifacts = dict(
        card["artifacts"], **{"config.json": hashlib.sha256((copy / "config.json").read_bytes()).hexdigest()}
    )
    _rewrite_card(copy, artifacts=artifacts)
    rebuilt = StaticEmbedder(copy)
    assert rebuilt.identity != static.identity
    assert rebuilt.identity.split("|")[2:] == static.identity.split("|")[2:]


def test_asat_embedder_static_builds_it(tmp_path: Path) -> None:
    embedder = build_embedder(config_from_env({"ASAT_EMBEDDER": "static", "HOME": str(tmp_path)}))
    assert isinstance(embedder, StaticEmbedder)
    assert embedder.dim == KNOWN_EMBEDDERS["static"][1]


def test_asat_static_embedder_dir_is_read_and_checked(tmp_path: Path) -> None:
    env = {"ASAT_EMBEDDER": "static", "ASAT_STATIC_EMBEDDER_DIR": str(tmp_path / "none"), "HOME": str(tmp_path)}
    config = config_from_env(env)
    assert config.static_model_dir == tmp_path / "none"
    with pytest.raises(EmbedderError, match="make static-embedder"):
        build_embedder(config)
