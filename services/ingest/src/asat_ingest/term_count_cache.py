"""An on-disk cache of BM25 term counts in one SQLite file, beside the vector cache.

The key is ``sha256(tokenizer identity + "\\0" + text)``: a text is tokenized once for as long as
the tokenizer is unchanged, and counts made by another tokenizer are never read back (its identity
names the source of every module that decides a token). Dimensions and counts are stored as
little-endian uint32 arrays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from asat_ingest.keyed_table import KeyedTable, cache_key
from asat_ingest.term_counts import TOKENIZER_IDENTITY, TermCounts, count_terms

FLUSH_EVERY = 2048
_COLUMNS = (("length", "INTEGER NOT NULL"), ("dims", "BLOB NOT NULL"), ("tfs", "BLOB NOT NULL"))


class TermCountCache:
    """``get_many`` / ``put_many`` by text under one tokenizer identity; counts hits and misses."""

    def __init__(self, path: Path, identity: str = TOKENIZER_IDENTITY) -> None:
        self.path = path
        self.identity = identity
        self._table = KeyedTable(path, "term_counts", _COLUMNS)
        self.hits = 0
        self.misses = 0

    def get_many(self, texts: Sequence[str]) -> list[TermCounts | None]:
        keys = [cache_key(self.identity, text) for text in texts]
        found: dict[bytes, TermCounts] = {}
        for key, (length, dims, tfs) in self._table.rows(keys).items():
            dim_array = np.frombuffer(dims, dtype="<u4")
            tf_array = np.frombuffer(tfs, dtype="<u4")
            if dim_array.shape == tf_array.shape and int(tf_array.sum()) == length:
                found[key] = TermCounts(length, tuple(dim_array.tolist()), tuple(tf_array.tolist()))
        result = [found.get(key) for key in keys]
        hit_count = sum(1 for counts in result if counts is not None)
        self.hits += hit_count
        self.misses += len(result) - hit_count
        return result

    def put_many(self, texts: Sequence[str], counts: Sequence[TermCounts]) -> None:
        if len(texts) != len(counts):
            raise ValueError(f"put_many got {len(texts)} texts but {len(counts)} term counts")
        self._table.put(
            [
                (
                    cache_key(self.identity, text),
                    item.length,
                    np.asarray(item.dims, dtype="<u4").tobytes(),
                    np.asarray(item.tfs, dtype="<u4").tobytes(),
                )
                for text, item in zip(texts, counts, strict=True)
            ]
        )

    def __len__(self) -> int:
        return len(self._table)

    def close(self) -> None:
        self._table.close()


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
