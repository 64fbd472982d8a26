"""The searcher embeds a question with ``embed_queries``: an embedder whose questions and documents
are embedded by different models (``static-corpus``) searches and scores in one space."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from asat_ingest.edge_index import QdrantEdgeIndex
from asat_ingest.hash_embedder import HashEmbedder
from asat_ingest.search import IndexSearcher, cosines
from asat_ingest.testing.vector_index_contract import point
from asat_ingest.vector_cache import VectorCache

TEXTS = {
    "a": "A loss or outgoing is deductible to the extent it is incurred in gaining assessable income.",
    "b": "The GST payable on a taxable supply is 10% of its value.",
}


class QuestionsElsewhere(HashEmbedder):
    """Documents by the hash of their text; a question by the hash of the text it is asked about
    (``"about b"`` embeds as document ``b``): only ``embed_queries`` finds the right document."""

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed([TEXTS[t.removeprefix("about ")] for t in texts])


def test_the_question_is_embedded_by_embed_queries_and_scored_against_the_documents(tmp_path: Path) -> None:
    embedder = QuestionsElsewhere(16)
    index = QdrantEdgeIndex(tmp_path / "index", "asat")
    index.create("asat", embedder.dim, "generation", embedder.identity)
    vectors = dict(zip(TEXTS, embedder.embed(list(TEXTS.values())), strict=True))
    index.upsert([point(key, vectors[key], embed_text=TEXTS[key]) for key in TEXTS])
    cache = VectorCache(tmp_path / "vectors.sqlite3")
    searcher = IndexSearcher(index, embedder, cache, frozenset({"ITAA1997"}))
    try:
        for asked in ("a", "b"):
            hits = searcher.search(f"about {asked}", 2020, limit=2)
            assert hits[0].chunk_id == asked
            expected = cosines(embedder.embed_queries([f"about {asked}"])[0], [vectors[asked]])[0]
            assert abs(hits[0].dense_score - expected) < 1e-6
            assert abs(hits[0].dense_score - 1.0) < 1e-5  # the query's vector is its document's
    finally:
        cache.close()
        index.close()
