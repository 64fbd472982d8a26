"""An on-disk cache of BM25 term counts in one SQLite file, beside the vector cache.

The key is ``sha256(tokenizer identity + "\\0" + text)``: a text is tokenized once for as long as
the tokenizer is unchanged, and counts made by another tokenizer are never read back (its identity
names the source of every module that decides a token). Dimensions and counts are stored as
little-endian uint32 arrays.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from asat_ingest.term_counts import TOKENIZER_IDENTITY, TermCounts, count_terms

_SCHEMA = "CREATE TABLE IF NOT EXISTS term_counts (key BLOB PRIMARY KEY, length INTEGER NOT NULL, dims BLOB NOT NULL, tfs BLOB NOT NULL)"
_LOOKUP_CHUNK = 500
FLUSH_EVERY = 2048


def term_cache_key(identity: str, text: str) -> bytes:
    return hashlib.sha256(f"{identity}\0{text}".encode()).digest()


class TermCountCache:
    """``get_many`` / ``put_many`` by text under one tokenizer identity; counts hits and misses."""

    def __init__(self, path: Path, identity: str = TOKENIZER_IDENTITY) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.identity = identity
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)
        self._db.commit()
        self._guard = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get_many(self, texts: Sequence[str]) -> list[TermCounts | None]:
        keys = [term_cache_key(self.identity, text) for text in texts]
        found: dict[bytes, TermCounts] = {}
        with self._guard:
            for start in range(0, len(keys), _LOOKUP_CHUNK):
                chunk = keys[start : start + _LOOKUP_CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(f"SELECT key, length, dims, tfs FROM term_counts WHERE key IN ({marks})", chunk)
                for key, length, dims, tfs in rows:
                    dim_array = np.frombuffer(dims, dtype="<u4")
                    tf_array = np.frombuffer(tfs, dtype="<u4")
                    if dim_array.shape == tf_array.shape and int(tf_array.sum()) == length:
                        found[bytes(key)] = TermCounts(length, tuple(dim_array.tolist()), tuple(tf_array.tolist()))
        result = [found.get(key) for key in keys]
        hit_count = sum(1 for counts in result if counts is not None)
        self.hits += hit_count
        self.misses += len(result) - hit_count
        return result

    def put_many(self, texts: Sequence[str], counts: Sequence[TermCounts]) -> None:
        if len(texts) != len(counts):
            raise ValueError(f"put_many got {len(texts)} texts but {len(counts)} term counts")
        rows = [
            (
                term_cache_key(self.identity, text),
                item.length,
                np.asarray(item.dims, dtype="<u4").tobytes(),
                np.asarray(item.tfs, dtype="<u4").tobytes(),
            )
            for text, item in zip(texts, counts, strict=True)
        ]
        with self._guard:
            self._db.executemany(
                "INSERT OR REPLACE INTO term_counts (key, length, dims, tfs) VALUES (?, ?, ?, ?)", rows
            )
            self._db.commit()

    def __len__(self) -> int:
        with self._guard:
            (count,) = self._db.execute("SELECT COUNT(*) FROM term_counts").fetchone()
        return int(count)

    def close(self) -> None:
        with self._guard:
            self._db.close()


def term_counts_with_cache(
    cache: TermCountCache,
    texts: Sequence[str],
    on_progress: Callable[[int], None] | None = None,
    flush_every: int = FLUSH_EVERY,
) -> dict[str, TermCounts]:
    """The term counts of each distinct text: cached ones read back, the rest counted and written
    to the cache every ``flush_every`` texts (an interrupted build keeps its work).
    ``on_progress(n)`` is called with the number of texts newly done after each step."""
    distinct = list(dict.fromkeys(texts))
    by_text: dict[str, TermCounts] = {}
    missing: list[str] = []
    for text, counts in zip(distinct, cache.get_many(distinct), strict=True):
        if counts is None:
            missing.append(text)
        else:
            by_text[text] = counts
    if on_progress is not None and by_text:
        on_progress(len(by_text))
    for start in range(0, len(missing), flush_every):
        chunk = missing[start : start + flush_every]
        counted = [count_terms(text) for text in chunk]
        cache.put_many(chunk, counted)
        by_text.update(zip(chunk, counted, strict=True))
        if on_progress is not None:
            on_progress(len(chunk))
    return by_text
