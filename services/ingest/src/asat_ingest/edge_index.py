"""VectorIndex adapter for Qdrant Edge (``qdrant-edge-py``), in-process, one directory.

Layout of ``directory``::

    .asat-index.lock          exclusive fcntl lock, holds the owner's PID
    <collection>/shard/       the Edge shard (segments, WAL)
    <collection>/stamp.json   the IndexStamp (corpus generation, embedder identity, counts)

The stamp lives in a sidecar file because an Edge shard has no collection metadata; it is
written atomically (temporary file, then rename). The process that constructs the adapter owns
the directory until :meth:`close`; a second one gets :class:`IndexLockedError`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import threading
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

import qdrant_edge as qe

from asat_ingest.directory_lock import DirectoryLock
from asat_ingest.edge_query import edge_hybrid_query
from asat_ingest.index_errors import IndexMissingError, IndexSchemaError
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

STAMP_FILE = "stamp.json"
SHARD_DIR = "shard"
_COLLECTION_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def check_collection_name(collection: str) -> None:
    if not _COLLECTION_NAME.match(collection):
        raise IndexSchemaError(f"collection name {collection!r} is not allowed; use 1-64 letters, digits, '_' or '-'")


def _edge_point(point: IndexPoint) -> qe.Point:
    return qe.Point(point.uuid, named_vectors(point, qe.SparseVector), point.stored_payload())


class QdrantEdgeIndex:
    """The default VectorIndex: a Qdrant Edge shard in ``directory/<collection>``."""

    def __init__(self, directory: Path, collection: str = DEFAULT_COLLECTION, optimize_on_stamp: bool = False):
        check_collection_name(collection)
        self._directory = directory
        self._lock = DirectoryLock(directory)
        self._collection = collection
        self._optimize_on_stamp = optimize_on_stamp
        self._shard: qe.EdgeShard | None = None
        self._stamp: IndexStamp | None = None
        self._opening = threading.Lock()
        self._read: tuple[tuple[str, int, int, int], IndexStamp] | None = None  # the stamp file last read

    @property
    def collection(self) -> str:
        return self._collection

    @property
    def directory(self) -> Path:
        return self._directory

    def _collection_dir(self) -> Path:
        return self._directory / self._collection

    def _write_stamp(self, stamp: IndexStamp) -> None:
        path = self._collection_dir() / STAMP_FILE
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(stamp.to_json(), indent=2, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, path)
        self._stamp = stamp
        self._read = None  # this process wrote it: the next read reads the file

    def read_stamp(self) -> IndexStamp | None:
        """The stamp on disk; read again only when the file changed (a new stamp is a new file,
        moved into place), since every search asks."""
        path = self._collection_dir() / STAMP_FILE
        try:
            seen = path.stat()
        except FileNotFoundError:
            return None
        key = (str(path), seen.st_ino, seen.st_mtime_ns, seen.st_size)
        if self._read is not None and self._read[0] == key:
            return self._read[1]
        stamp = IndexStamp.from_json(json.loads(path.read_text(encoding="utf-8")))
        self._read = (key, stamp)
        return stamp

    def _require_open(self) -> tuple[qe.EdgeShard, IndexStamp]:
        if not self._lock.held:
            raise IndexSchemaError(f"the index at {self._directory} is closed; open a new QdrantEdgeIndex")
        with self._opening:  # concurrent first searches open the shard once (a second open fails on its WAL)
            if self._shard is None or self._stamp is None:
                stamp = self.read_stamp()
                shard_dir = self._collection_dir() / SHARD_DIR
                if stamp is None or not shard_dir.exists():
                    raise IndexMissingError(self._collection, str(self._directory))
                self._shard = qe.EdgeShard.load(str(shard_dir))
                self._stamp = stamp
            return self._shard, self._stamp

    def create(self, collection: str, dense_dim: int, corpus_generation: str, embedder_identity: str) -> None:
        check_collection_name(collection)
        stamp = new_stamp(collection, dense_dim, corpus_generation, embedder_identity)
        if self._shard is not None:
            self._shard.close()
            self._shard = None
        self._collection = collection
        target = self._collection_dir()
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
        config = qe.EdgeConfig(
            vectors={DENSE: qe.EdgeVectorParams(size=dense_dim, distance=qe.Distance.Cosine)},
            sparse_vectors={SPARSE: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
        )
        shard = qe.EdgeShard.create(str(target / SHARD_DIR), config)
        for name in INTEGER_FIELDS:
            shard.update(qe.UpdateOperation.create_field_index(name, qe.PayloadSchemaType.Integer))
        for name in KEYWORD_FIELDS:
            shard.update(qe.UpdateOperation.create_field_index(name, qe.PayloadSchemaType.Keyword))
        self._shard = shard
        self._write_stamp(stamp)

    def upsert(self, points: Iterable[IndexPoint]) -> int:
        shard, stamp = self._require_open()
        if stamp.complete:
            self._write_stamp(replace(stamp, complete=False))
        return upsert_in_batches(
            points,
            stamp.dense_dim,
            self._collection,
            _edge_point,
            lambda batch: shard.update(qe.UpdateOperation.upsert_points(batch)),
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
        shard, stamp = self._require_open()
        check_search_args(dense, sparse, income_year, limit, prefetch_limit, stamp.dense_dim, acts, kinds, axis)
        request = edge_hybrid_query(dense, sparse, income_year, limit, prefetch_limit, acts, kinds, axis)
        return [stored_hit(scored.id, scored.score, scored.payload) for scored in shard.query(request)]

    def count(self) -> int:
        try:
            shard, _ = self._require_open()
        except IndexMissingError:
            return 0
        return int(shard.count(qe.CountRequest(exact=True)))

    def _count_by_kind(self, shard: qe.EdgeShard) -> dict[str, int]:
        facets = shard.facet(qe.FacetRequest(key="kind", limit=1000, exact=True))
        return {str(hit.value): int(hit.count) for hit in facets.hits}

    def stamp(self) -> IndexStamp:
        shard, current = self._require_open()
        shard.flush()
        if self._optimize_on_stamp:
            shard.optimize()
        stamp = replace(
            current,
            complete=True,
            points=int(shard.count(qe.CountRequest(exact=True))),
            by_kind=self._count_by_kind(shard),
        )
        self._write_stamp(stamp)
        return stamp

    def close(self) -> None:
        if self._shard is not None:
            self._shard.flush()
            self._shard.close()
            self._shard = None
        self._stamp = None
        self._lock.release()
