"""BM25 sparse vectors over :func:`legal_tokenize` tokens, the same for every index adapter.

Document side: the BM25 term-frequency part, ``tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))``
with ``k1 = 1.2`` and ``b = 0.75``; ``avgdl`` is fitted on the corpus (or passed in). Query side:
weight 1 for every distinct token. The IDF part comes from the index: the ``sparse`` vector is
declared with Qdrant's IDF modifier, so ``score = sum over shared tokens of idf * doc weight``.

A token's dimension is the first four bytes of its sha256, as an unsigned integer with the top
bit cleared (``< 2**31``), so documents, queries and both adapters agree without a vocabulary.
Two tokens that collide on a dimension add their weights (documents) or count once (queries).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from asat_ingest.legal_tokenizer import legal_tokenize
from asat_ingest.sparse_vector import SparseVector
from asat_ingest.term_counts import TermCounts, tokens_to_counts
from asat_ingest.token_dimension import token_index

BM25_K1 = 1.2
BM25_B = 0.75

__all__ = ["BM25_B", "BM25_K1", "Bm25Encoder", "token_index"]


@dataclass(frozen=True)
class Bm25Encoder:
    """Encodes documents and queries into sparse vectors; ``avg_doc_len`` in tokens."""

    avg_doc_len: float
    k1: float = BM25_K1
    b: float = BM25_B

    def __post_init__(self) -> None:
        if not self.avg_doc_len > 0:
            raise ValueError(f"avg_doc_len must be positive, got {self.avg_doc_len}; fit it on the corpus")
        if self.k1 < 0 or not 0 <= self.b <= 1:
            raise ValueError(f"BM25 needs k1 >= 0 and 0 <= b <= 1, got k1={self.k1}, b={self.b}")

    @staticmethod
    def fit(texts: Iterable[str], k1: float = BM25_K1, b: float = BM25_B) -> Bm25Encoder:
        """An encoder whose ``avg_doc_len`` is the mean token count of ``texts`` (1 if empty)."""
        return Bm25Encoder.fit_lengths((len(legal_tokenize(text)) for text in texts), k1=k1, b=b)

    @staticmethod
    def fit_lengths(lengths: Iterable[int], k1: float = BM25_K1, b: float = BM25_B) -> Bm25Encoder:
        """An encoder whose ``avg_doc_len`` is the mean of the documents' token counts (1 if empty)."""
        total = 0
        count = 0
        for length in lengths:
            total += length
            count += 1
        average = total / count if count and total else 1.0
        return Bm25Encoder(avg_doc_len=average, k1=k1, b=b)

    def encode_document(self, text: str) -> SparseVector:
        tokens = legal_tokenize(text)
        return self.encode_document_tokens(tokens)

    def encode_document_tokens(self, tokens: list[str]) -> SparseVector:
        return self.encode_counts(tokens_to_counts(tokens))

    def encode_counts(self, counts: TermCounts) -> SparseVector:
        """The document vector from its term counts (the same as from its tokens)."""
        if not counts.length:
            return SparseVector((), ())
        norm = self.k1 * (1 - self.b + self.b * counts.length / self.avg_doc_len)
        weights: dict[int, float] = {}
        for index, tf in zip(counts.dims, counts.tfs, strict=True):
            weights[index] = weights.get(index, 0.0) + tf * (self.k1 + 1) / (tf + norm)
        return SparseVector.from_weights(weights)

    def encode_query(self, text: str) -> SparseVector:
        return SparseVector.from_weights({token_index(token): 1.0 for token in legal_tokenize(text)})
