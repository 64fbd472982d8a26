"""The ingest service's settings, read from the environment in one place (``composition``).

A bad value is a :class:`~asat_corpus.env_settings.SettingsError` naming the variable and what is
allowed. The embedder's and the index scope's variables (``ASAT_EMBEDDER*``, ``ASAT_INDEX_ACTS``,
``ASAT_INDEX_RULINGS``) are read by ``asat_corpus.vector_config`` and ``asat_corpus.index_scope``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field

from asat_corpus.env_settings import HOST_ALLOWED, PORT_ALLOWED, EnvSettings, HttpUrl, Port
from asat_ingest.minilm_embedder import DEFAULT_MAX_TOKENS
from asat_ingest.vector_index import DEFAULT_COLLECTION

IndexKind = Literal["edge", "qdrant", "qdrant-local"]
INDEX_KINDS: tuple[IndexKind, ...] = ("edge", "qdrant", "qdrant-local")
# Documents this short are embedded by MiniLM under ASAT_EMBEDDER=static-corpus: chosen in
# docs/ingest.md ("Short texts by MiniLM") from MiniLM's rate by length and the time a fresh clone
# may take (scripts/bench_static_split.py), never from the gold set.
STATIC_CORPUS_EXACT_TOKENS = 96


class IngestSettings(EnvSettings):
    host: str = Field(default="127.0.0.1", validation_alias="ASAT_INGEST_HOST", description=HOST_ALLOWED)
    port: Port = Field(default=8720, validation_alias="ASAT_INGEST_PORT", description=PORT_ALLOWED)
    index_kind: IndexKind = Field(
        default="edge",
        validation_alias="ASAT_INDEX",
        description="edge (Qdrant Edge in process), qdrant (a server, with ASAT_QDRANT_URL) or qdrant-local",
    )
    index_dir: Path = Field(
        default=Path("var/index"), validation_alias="ASAT_INDEX_DIR", description="the index directory"
    )
    qdrant_url: HttpUrl | None = Field(
        default=None,
        validation_alias="ASAT_QDRANT_URL",
        description="the Qdrant server's URL, e.g. http://localhost:6333",
    )
    qdrant_api_key: str | None = Field(default=None, validation_alias="ASAT_QDRANT_API_KEY")
    collection: str = Field(
        default=DEFAULT_COLLECTION, validation_alias="ASAT_INDEX_COLLECTION", description="a collection name"
    )
    cache_dir: Path | None = Field(
        default=None, validation_alias="ASAT_VECTOR_CACHE_DIR", description="the vector cache directory"
    )
    embedder_base_url: HttpUrl | None = Field(
        default=None,
        validation_alias="ASAT_EMBEDDER_BASE_URL",
        description="the embedder's http(s) URL, e.g. http://localhost:8000/v1",
    )
    embedder_api_key: str | None = Field(default=None, validation_alias="ASAT_EMBEDDER_API_KEY")
    static_model_dir: Path | None = Field(
        default=None,
        validation_alias="ASAT_STATIC_EMBEDDER_DIR",
        description="the static embedder's model directory (its artifacts and card.json)",
    )
    static_corpus_model_dir: Path | None = Field(
        default=None,
        validation_alias="ASAT_STATIC_CORPUS_DIR",
        description="the corpus-fitted static table's directory (ASAT_EMBEDDER=static-corpus)",
    )
    static_corpus_exact_tokens: int = Field(
        default=STATIC_CORPUS_EXACT_TOKENS,
        ge=0,
        le=DEFAULT_MAX_TOKENS,
        validation_alias="ASAT_STATIC_CORPUS_EXACT_TOKENS",
        description="for ASAT_EMBEDDER=static-corpus, documents of at most this many word pieces are embedded "
        "by MiniLM itself (0 to 256; 0: every document by the table)",
    )
