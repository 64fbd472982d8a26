"""Fitting the static table to MiniLM's vectors: the pure steps, and serving what was fitted."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asat_ingest.distill_static import TOKEN_REMOVE_PATTERN, clean_vocabulary
from asat_ingest.embedder import EmbedderError
from asat_ingest.fit_static import (
    MAX_TOKENS,
    corpus_digest,
    fit_table,
    held_out,
    linear_prior,
    mean_cosine,
    model_card_markdown,
    ridge_fit,
    served_token_ids,
    share_matrix,
    unit_rows,
)
from asat_ingest.minilm_embedder import default_tokenizer_path
from asat_ingest.static_artifact import write_static_model
from asat_ingest.static_embedder import StaticEmbedder


@given(st.lists(st.lists(st.integers(0, 9), max_size=12), min_size=1, max_size=8))
@settings(max_examples=60, deadline=None)
def test_each_row_holds_its_tokens_shares(ids_per_text: list[list[int]]) -> None:
    shares = share_matrix(ids_per_text, 10).toarray()
    for row, ids in zip(shares, ids_per_text, strict=True):
        if ids:
            assert row.sum() == pytest.approx(1.0, abs=1e-6)
            assert all(row[t] == pytest.approx(ids.count(t) / len(ids)) for t in set(ids))
        else:
            assert not row.any()


def test_a_token_outside_the_vocabulary_is_refused() -> None:
    with pytest.raises(EmbedderError, match="outside the vocabulary"):
        share_matrix([[1, 12]], 10)


def test_the_hold_out_is_a_stable_twentieth_by_the_text() -> None:
    texts = [f"section {n}" for n in range(4000)]
    mask = held_out(texts)
    assert 0.03 < mask.mean() < 0.07
    assert (held_out(list(reversed(texts))) == mask[::-1]).all()  # by the text, never the order
    with pytest.raises(EmbedderError):
        held_out(texts, every=1)


def _planted(seed: int = 0) -> tuple[object, np.ndarray, np.ndarray]:
    """Texts drawn over 40 tokens whose targets are exactly the mean of a planted table's rows."""
    rng = np.random.default_rng(seed)
    table = rng.normal(size=(40, 8)).astype(np.float32)
    ids = [rng.integers(0, 40, size=rng.integers(3, 15)).tolist() for _ in range(600)]
    shares = share_matrix(ids, 40)
    return shares, np.asarray(shares @ table, dtype=np.float32), table


def test_ridge_fit_recovers_a_planted_table() -> None:
    shares, targets, _table = _planted()
    start = np.zeros((40, 8), dtype=np.float32)
    fitted = ridge_fit(shares, targets, start, ridge=1e-6, iterations=200)
    assert mean_cosine(shares, fitted, targets) > 0.999
    assert mean_cosine(shares, start + 1.0, targets) < 0.5


def test_ridge_pulls_an_unused_token_to_its_prior_row() -> None:
    shares, targets, _table = _planted()
    shares = shares[:, :39].tocsr()
    shares.resize((shares.shape[0], 41))  # token 40 never appears
    prior = np.full((41, 8), 0.5, dtype=np.float32)
    fitted = ridge_fit(shares, targets, prior, ridge=1e-3, iterations=50)
    assert np.allclose(fitted[40], prior[40])


def test_ridge_fit_refuses_bad_settings() -> None:
    shares, targets, _ = _planted()
    with pytest.raises(EmbedderError):
        ridge_fit(shares, targets, np.zeros((40, 8), np.float32), ridge=0.0, iterations=10)


def test_the_linear_prior_maps_a_linearly_related_table_exactly() -> None:
    shares, targets, table = _planted()
    rotation = np.linalg.qr(np.random.default_rng(1).normal(size=(8, 8)))[0].astype(np.float32)
    distilled = (table @ rotation.T + 0.3).astype(np.float32)  # the planted table, rotated and shifted
    prior = linear_prior(shares, distilled, targets)
    assert mean_cosine(shares, prior, targets) > 0.999


def test_the_fit_keeps_the_ridge_best_on_held_out_texts_and_reports_each() -> None:
    shares, targets, table = _planted()
    noisy = (table + np.random.default_rng(2).normal(scale=2.0, size=table.shape)).astype(np.float32)
    holdout = np.arange(shares.shape[0]) % 5 == 0
    fit = fit_table(shares, targets, noisy, holdout, ridges=(1e-6, 10.0), iterations=60, scale_rounds=0)
    assert fit.ridge == 1e-6
    assert fit.held_out_cosine["1e-06"] > fit.held_out_cosine["10.0"]
    assert set(fit.held_out_cosine) == {"prior", "1e-06", "10.0", "stored"}
    assert fit.held_out_cosine["stored"] > 0.99 and fit.texts + fit.held_out_texts == shares.shape[0]
    with pytest.raises(EmbedderError, match="hold-out"):
        fit_table(shares, targets, noisy, np.zeros(shares.shape[0], dtype=bool))


def test_rescaling_fits_directions_and_is_kept_only_while_it_helps() -> None:
    """Unit targets (as MiniLM's are) that a mean of rows reaches only up to length: rescaling
    rounds are reported, and the table served is never worse on held-out texts than the best ridge."""
    shares, targets, table = _planted(4)
    unit_targets = unit_rows(targets)
    holdout = np.arange(shares.shape[0]) % 5 == 0
    plain = fit_table(shares, unit_targets, table, holdout, ridges=(1e-4,), iterations=40, scale_rounds=0)
    rescaled = fit_table(shares, unit_targets, table, holdout, ridges=(1e-4,), iterations=40, scale_rounds=2)
    assert "rescaled 1" in rescaled.held_out_cosine
    served = unit_rows(np.asarray(shares[holdout] @ rescaled.table))
    assert float(np.mean(np.sum(served * unit_targets[holdout], axis=1))) >= plain.held_out_cosine["0.0001"] - 1e-4


def test_the_corpus_digest_names_the_set_of_texts() -> None:
    assert corpus_digest(["b", "a", "a"]) == corpus_digest(["a", "b"]) != corpus_digest(["a", "b", "c"])


def _card(artifacts: dict[str, str], sizes: dict[str, int]) -> dict[str, object]:
    return {
        "fitted_at": "2026-12-05T00:00:00+00:00",
        "seconds": 1.0,
        "seconds_teacher": 0.5,
        "teacher_embedded": 0,
        "seconds_token_pass": 0.1,
        "machine": "test",
        "versions": {"python": "3.11", "numpy": np.__version__, "scipy": "1"},
        "training_data": {
            "scope": {"acts": "all", "rulings": "public"},
            "corpus_generation": "g",
            "texts": 3,
            "texts_by_kind": {"provision": 2, "ruling": 1},
            "texts_sha256": "abc",
            "teacher": "all-MiniLM-L6-v2-onnx-int8|dim=384",
        },
        "vocabulary": {"source_tokens": 30522, "tokens": 29528},
        "hyper_parameters": {
            "ridge": 1e-4,
            "iterations": 5,
            "holdout_every": 20,
            "token_remove_pattern": TOKEN_REMOVE_PATTERN,
            "dtype": "int8",
            "max_tokens": MAX_TOKENS,
        },
        "metrics": {
            "held_out_cosine": {"prior": 0.8, "0.0001": 0.9, "stored": 0.9},
            "fit_cosine": 0.92,
            "fit_texts": 2,
            "held_out_texts": 1,
        },
        "dim": 384,
        "artifacts": artifacts,
        "sizes_bytes": sizes,
        "size_bytes": sum(sizes.values()),
    }


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, np.ndarray, str]:
    """A random table over the real vocabulary, written as fit_static writes the fitted one."""
    from tokenizers import Tokenizer

    cleaned, original = clean_vocabulary(json.loads(default_tokenizer_path().read_text()), TOKEN_REMOVE_PATTERN)
    tokenizer_json = json.dumps(cleaned)
    table = np.random.default_rng(3).normal(size=(len(original), 384)).astype(np.float32)
    out = tmp_path_factory.mktemp("fitted")
    config = {"model_type": "model2vec", "normalize": True, "pooling": "mean", "max_length": MAX_TOKENS}
    base = _card({}, {})
    base = {k: v for k, v in base.items() if k not in ("artifacts", "sizes_bytes", "size_bytes")}
    write_static_model(out, table, Tokenizer.from_str(tokenizer_json), config, base, model_card_markdown)
    return out, table, tokenizer_json


def test_serving_pools_the_word_pieces_the_fit_saw(written: tuple[Path, np.ndarray, str]) -> None:
    """The fit's token ids (served_token_ids) are those model2vec pools when serving: a text's
    served vector is the normalised mean of exactly those rows, long texts cut at MAX_TOKENS."""
    out, table, tokenizer_json = written
    embedder = StaticEmbedder(out)
    texts = [
        "An outgoing of capital is not deductible under section 8-1.",
        "Division 7A loans: a private company's payment to a shareholder " * 60,
        "GST [UNK] \u2603 \u00e9t\u00e9",
    ]
    ids = served_token_ids(tokenizer_json, texts, MAX_TOKENS)
    assert len(ids[1]) == MAX_TOKENS and all(len(i) > 0 for i in ids)
    expected = unit_rows(np.stack([table[i].mean(axis=0) for i in ids]))
    assert np.allclose(np.asarray(embedder.embed(texts)), expected, atol=1e-5)


def test_the_card_is_written_with_the_artifacts_hashes(written: tuple[Path, np.ndarray, str]) -> None:
    out, _table, _ = written
    card = json.loads((out / "card.json").read_text())
    assert set(card["artifacts"]) == {"config.json", "model.safetensors", "modules.json", "tokenizer.json"}
    assert card["size_bytes"] == sum(card["sizes_bytes"].values())
    markdown = (out / "MODEL_CARD.md").read_text()
    assert "Nothing from `gold-set/` is read" in markdown and card["artifacts"]["model.safetensors"] in markdown
