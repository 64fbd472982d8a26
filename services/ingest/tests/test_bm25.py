"""BM25 sparse vectors: term weights, stable dimensions, the query side."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asat_ingest.bm25 import Bm25Encoder, token_index
from asat_ingest.legal_tokenizer import legal_tokenize


def test_token_index_is_stable_and_below_2_31() -> None:
    assert token_index("8-1") == int.from_bytes(hashlib.sha256(b"8-1").digest()[:4], "big") & 0x7FFFFFFF
    assert token_index("8-1") == token_index("8-1")
    assert token_index("8-1") != token_index("sec:8-1")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_token_index_range(token: str) -> None:
    assert 0 <= token_index(token) < 2**31


def _weight(vector_indices: tuple[int, ...], values: tuple[float, ...], token: str) -> float:
    return dict(zip(vector_indices, values, strict=True))[token_index(token)]


def test_document_weights_follow_bm25_tf_saturation() -> None:
    encoder = Bm25Encoder(avg_doc_len=4.0)
    vector = encoder.encode_document("deduction deduction deduction business")  # 4 tokens, dl = avgdl
    k1 = 1.2
    assert _weight(vector.indices, vector.values, "deduction") == pytest.approx(3 * (k1 + 1) / (3 + k1))
    assert _weight(vector.indices, vector.values, "business") == pytest.approx(1 * (k1 + 1) / (1 + k1))


def test_longer_documents_weigh_a_term_less() -> None:
    encoder = Bm25Encoder(avg_doc_len=5.0)
    short = encoder.encode_document("deduction business")
    long = encoder.encode_document("deduction business income capital loss outgoing private domestic")
    assert _weight(short.indices, short.values, "deduction") > _weight(long.indices, long.values, "deduction")


def test_weights_saturate() -> None:
    encoder = Bm25Encoder(avg_doc_len=1000.0, b=0.0)
    many = encoder.encode_document(" ".join(["deduction"] * 500))
    assert _weight(many.indices, many.values, "deduction") < 1.2 + 1


def test_query_side_is_presence() -> None:
    encoder = Bm25Encoder(avg_doc_len=10.0)
    vector = encoder.encode_query("section 8-1 deduction deduction")
    assert sorted(vector.indices) == sorted({token_index(t) for t in ("8-1", "sec:8-1", "deduction")})
    assert set(vector.values) == {1.0}
    assert list(vector.indices) == sorted(vector.indices)


def test_empty_text_gives_an_empty_vector() -> None:
    encoder = Bm25Encoder(avg_doc_len=10.0)
    assert encoder.encode_document("the of and").is_empty
    assert encoder.encode_query("").is_empty


def test_fit_measures_the_average_length() -> None:
    texts = ["deduction business", "income capital loss outgoing"]
    encoder = Bm25Encoder.fit(texts)
    assert encoder.avg_doc_len == pytest.approx((2 + 4) / 2)
    assert Bm25Encoder.fit([]).avg_doc_len == 1.0


@pytest.mark.parametrize(("avg", "k1", "b"), [(0.0, 1.2, 0.75), (10.0, -1.0, 0.75), (10.0, 1.2, 1.5)])
def test_bad_parameters_are_refused(avg: float, k1: float, b: float) -> None:
    with pytest.raises(ValueError, match=r"BM25|avg_doc_len"):
        Bm25Encoder(avg_doc_len=avg, k1=k1, b=b)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_document_vector_has_one_dimension_per_distinct_token(text: str) -> None:
    vector = Bm25Encoder(avg_doc_len=20.0).encode_document(text)
    distinct = {token_index(t) for t in legal_tokenize(text)}
    assert set(vector.indices) == distinct
    assert all(v > 0 for v in vector.values)
