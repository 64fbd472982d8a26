"""``corpus_generation``: one hash that changes whenever what the index would serve changes.

sha256 over, for every chunk in id order: the chunk id, the sha256 of its text and its payload
(canonical JSON); then the vector configuration. Vector values are excluded, so the generation
can be computed from the corpus alone and compared with the one stamped on the index.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

from asat_corpus.vector_config import VectorConfig


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def corpus_generation(chunks: Iterable[tuple[str, str, dict[str, Any]]], vector_config: VectorConfig) -> str:
    """``chunks``: (chunk id, chunk text, payload) triples, in any order."""
    digest = hashlib.sha256()
    for chunk_id, text, payload in sorted(chunks, key=lambda c: c[0]):
        digest.update(chunk_id.encode("utf-8"))
        digest.update(b"\0")
        digest.update(hashlib.sha256(text.encode("utf-8")).hexdigest().encode("ascii"))
        digest.update(b"\0")
        digest.update(canonical_json(payload).encode("utf-8"))
        digest.update(b"\n")
    digest.update(canonical_json(vector_config.as_dict()).encode("utf-8"))
    return digest.hexdigest()
