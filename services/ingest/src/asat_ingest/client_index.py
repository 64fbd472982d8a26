"""VectorIndex adapter for ``qdrant-client``: a Qdrant server or cluster by URL, or local mode.

The stamp is kept in the collection's metadata under ``asat_stamp`` (a JSON string, replaced
whole on every write). Local mode (``QdrantClient(path=...)`` or ``":memory:"``) speaks the same
API and is what the contract tests run against.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import replace

from qdrant_client import QdrantClient, models

from asat_ingest.client_query import client_filter, client_hybrid_prefetches, client_rrf_query
from asat_ingest.index_errors import IndexMissingError
from asat_ingest.index_point import IN_FORCE, IndexPoint, ScoredHit
from asat_ingest.index_stamp import IndexStamp
from asat_ingest.index_upsert import named_vectors, upsert_in_batches
from asat_ingest.search_args import check_search_args
from asat_ingest.sparse_vector import SparseVector
from asat_ingest.vector_index import (
    DEFAULT_COLLECTION,
    DENSE,
    INTEGER_FIELDS,
    KEYWORD_FIELDS,
    SPARSE,
    new_stamp,
    stored_hit,
)

STAMP_KEY = "asat_stamp"


def _client_point(point: IndexPoint) -> models.PointStruct:
    vectors = named_vectors(point, lambda indices, values: models.SparseVector(indices=indices, values=values))
    return models.PointStruct(id=point.uuid, vector=vectors, payload=point.stored_payload())


class QdrantClientIndex:
    """VectorIndex over a ``QdrantClient``; build one with :meth:`from_url` or :meth:`local`."""

    def __init__(self, client: QdrantClient, collection: str = DEFAULT_COLLECTION, location: str = "") -> None:
        self._client = client
        self._collection = collection
        self._location = location or "the Qdrant server"
        self._stamp: IndexStamp | None = None

    @classmethod
    def from_url(
        cls, url: str, api_key: str | None = None, collection: str = DEFAULT_COLLECTION, timeout: int = 30
    ) -> QdrantClientIndex:
        """A Qdrant server or cluster, e.g. ``http://localhost:6333``."""
        return cls(QdrantClient(url=url, api_key=api_key, timeout=timeout), collection, url)

    @classmethod
    def local(cls, path: str, collection: str = DEFAULT_COLLECTION) -> QdrantClientIndex:
        """``qdrant-client`` local mode: a directory, or ``":memory:"``."""
        client = QdrantClient(location=":memory:") if path == ":memory:" else QdrantClient(path=path)
        return cls(client, collection, path)

    @property
    def collection(self) -> str:
        return self._collection

    def _exists(self) -> bool:
        return bool(self._client.collection_exists(self._collection))

    def _write_stamp(self, stamp: IndexStamp) -> None:
        self._client.update_collection(
            collection_name=self._collection, metadata={STAMP_KEY: json.dumps(stamp.to_json(), sort_keys=True)}
        )
        self._stamp = stamp

    def read_stamp(self) -> IndexStamp | None:
        if not self._exists():
            return None
        metadata = self._client.get_collection(self._collection).config.metadata or {}
        raw = metadata.get(STAMP_KEY)
        if raw is None:
            raise IndexMissingError(self._collection, self._location)
        return IndexStamp.from_json(json.loads(str(raw)))

    def _require_stamp(self) -> IndexStamp:
        if self._stamp is None:
            stamp = self.read_stamp()
            if stamp is None:
                raise IndexMissingError(self._collection, self._location)
            self._stamp = stamp
        return self._stamp

    def create(self, collection: str, dense_dim: int, corpus_generation: str, embedder_identity: str) -> None:
        stamp = new_stamp(collection, dense_dim, corpus_generation, embedder_identity)
        self._collection = collection
        self._stamp = None
        if self._exists():
            self._client.delete_collection(collection)
        self._client.create_collection(
            collection_name=collection,
            vectors_config={DENSE: models.VectorParams(size=dense_dim, distance=models.Distance.COSINE)},
            sparse_vectors_config={SPARSE: models.SparseVectorParams(modifier=models.Modifier.IDF)},
            metadata={STAMP_KEY: json.dumps(stamp.to_json(), sort_keys=True)},
        )
        # Local mode has no payload indexes and says so with a warning; a server builds them.
        if self._client.init_options.get("location") is None and self._client.init_options.get("path") is None:
            for name in INTEGER_FIELDS:
                self._client.create_payload_index(collection, name, models.PayloadSchemaType.INTEGER)
            for name in KEYWORD_FIELDS:
                self._client.create_payload_index(collection, name, models.PayloadSchemaType.KEYWORD)
        self._stamp = stamp

    def upsert(self, points: Iterable[IndexPoint]) -> int:
        stamp = self._require_stamp()
        if stamp.complete:
            self._write_stamp(replace(stamp, complete=False))
        return upsert_in_batches(
            points,
            stamp.dense_dim,
            self._collection,
            _client_point,
            lambda batch: self._client.upsert(self._collection, batch, wait=True),
        )

    def hybrid_search(
        self,
        dense: Sequence[float] | None,
        sparse: SparseVector | None,
        income_year: int,
        limit: int,
        prefetch_limit: int,
        acts: Sequence[str] | None = None,
        kinds: Sequence[str] | None = None,
        axis: str = IN_FORCE,
    ) -> list[ScoredHit]:
        stamp = self._require_stamp()
        check_search_args(dense, sparse, income_year, limit, prefetch_limit, stamp.dense_dim, acts, kinds, axis)
        response = self._client.query_points(
            collection_name=self._collection,
            prefetch=client_hybrid_prefetches(dense, sparse, income_year, prefetch_limit, acts, kinds, axis),
            query=client_rrf_query(),
            query_filter=client_filter(income_year, acts, kinds, axis),
            limit=limit,
            with_payload=True,
            with_vectors=False,
        )
        return [stored_hit(scored.id, scored.score, scored.payload) for scored in response.points]

    def count(self) -> int:
        if not self._exists():
            return 0
        return int(self._client.count(self._collection, exact=True).count)

    def _count_by_kind(self) -> dict[str, int]:
        response = self._client.facet(self._collection, key="kind", limit=1000, exact=True)
        return {str(hit.value): int(hit.count) for hit in response.hits}

    def stamp(self) -> IndexStamp:
        current = self._require_stamp()
        stamp = replace(current, complete=True, points=self.count(), by_kind=self._count_by_kind())
        self._write_stamp(stamp)
        return stamp

    def close(self) -> None:
        self._stamp = None
        self._client.close()
