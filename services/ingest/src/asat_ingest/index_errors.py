"""Errors the vector index adapters raise; each says what is wrong and what to do."""

from __future__ import annotations

from pathlib import Path


class VectorIndexError(Exception):
    """Base class of vector index errors."""


class IndexLockedError(VectorIndexError):
    """Another process owns the index directory."""

    def __init__(self, directory: Path, holder_pid: int | None) -> None:
        self.directory = directory
        self.holder_pid = holder_pid
        holder = f"process {holder_pid}" if holder_pid is not None else "another process"
        super().__init__(
            f"the index directory {directory} is in use by {holder}; one process owns a Qdrant Edge "
            "directory at a time: stop that process (or use its service) instead of opening the "
            "directory a second time"
        )


class IndexMissingError(VectorIndexError):
    """The collection does not exist yet."""

    def __init__(self, collection: str, location: str) -> None:
        self.collection = collection
        self.location = location
        super().__init__(
            f"no index collection {collection!r} at {location}; build it first with `python -m asat_ingest build`"
        )


class IndexSchemaError(VectorIndexError):
    """A point or query does not fit the collection (wrong dense dimension, bad arguments)."""
