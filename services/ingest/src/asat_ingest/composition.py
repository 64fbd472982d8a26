"""The only place ingest adapters are built: reads the environment, raises on anything unknown.

| variable | values | default |
|---|---|---|
| ``ASAT_INDEX`` | ``edge`` (Qdrant Edge in-process), ``qdrant`` (server/cluster by URL), ``qdrant-local`` | ``edge`` |
| ``ASAT_INDEX_DIR`` | directory of the Edge index or qdrant-local | ``var/index`` |
| ``ASAT_QDRANT_URL`` / ``ASAT_QDRANT_API_KEY`` | server URL / key, for ``qdrant`` | |
| ``ASAT_INDEX_COLLECTION`` | collection name | ``asat`` |
| ``ASAT_VECTOR_CACHE_DIR`` | the build cache directory: vectors and BM25 term counts (shared by every checkout on the machine) | ``$XDG_CACHE_HOME/asat/vectors``, else ``~/.cache/asat/vectors`` |
| ``ASAT_EMBEDDER`` | ``minilm``, ``static-corpus`` (documents by a table fitted to MiniLM on the corpus, ``models/static-corpus``; questions by MiniLM), ``static`` (distilled from MiniLM, ``models/static-minilm``), ``hash`` (tests only), ``openai``, ``ollama`` | ``minilm`` |
| ``ASAT_STATIC_EMBEDDER_DIR`` | the static model's directory (artifacts and ``card.json``), for ``static`` | ``models/static-minilm`` of this checkout |
| ``ASAT_STATIC_CORPUS_DIR`` | the fitted table's directory, for ``static-corpus`` | ``models/static-corpus`` of this checkout |
| ``ASAT_STATIC_CORPUS_EXACT_TOKENS`` | for ``static-corpus``: documents of at most this many word pieces are embedded by MiniLM itself (0 to 256) | ``96`` |
| ``ASAT_EMBEDDER_MODEL`` / ``_DIM`` / ``_BASE_URL`` / ``_API_KEY`` | for ``openai`` / ``ollama`` | |
| ``ASAT_INDEX_ACTS`` / ``ASAT_INDEX_RULINGS`` | the index scope (see ``asat_corpus.index_scope``) | all / ``public`` |
| ``ASAT_INGEST_HOST`` / ``ASAT_INGEST_PORT`` | where ``python -m asat_ingest serve`` listens | ``127.0.0.1`` / ``8720`` |

Read as one :class:`~asat_ingest.settings.IngestSettings`; a bad value is a :class:`ConfigError`
naming the variable and what is allowed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from asat_corpus.env_settings import SettingsError, read_settings
from asat_corpus.index_scope import IndexScope, IndexScopeError, index_scope_from_env
from asat_corpus.vector_config import VectorConfig, VectorConfigError, vector_config_from_env
from asat_ingest.client_index import QdrantClientIndex
from asat_ingest.corpus_static_embedder import CorpusStaticEmbedder
from asat_ingest.edge_index import QdrantEdgeIndex
from asat_ingest.embedder import Embedder
from asat_ingest.hash_embedder import HashEmbedder
from asat_ingest.minilm_embedder import MiniLmOnnxEmbedder
from asat_ingest.ollama_embedder import OllamaEmbedder
from asat_ingest.openai_embedder import OpenAICompatibleEmbedder
from asat_ingest.settings import INDEX_KINDS as INDEX_KINDS
from asat_ingest.settings import STATIC_CORPUS_EXACT_TOKENS, IngestSettings
from asat_ingest.static_artifact import FITTED_MODEL_DIR, REFIT_HINT
from asat_ingest.static_embedder import StaticEmbedder
from asat_ingest.term_count_cache import TermCountCache
from asat_ingest.vector_cache import VectorCache
from asat_ingest.vector_index import VectorIndex


class ConfigError(ValueError):
    """A setting is unknown or missing; the message names the variable and the choices."""


@dataclass(frozen=True)
class IngestConfig:
    index_kind: str
    index_dir: Path
    qdrant_url: str | None
    qdrant_api_key: str | None
    collection: str
    cache_dir: Path
    vector_config: VectorConfig
    embedder_base_url: str | None
    embedder_api_key: str | None
    scope: IndexScope
    host: str = "127.0.0.1"
    port: int = 8720
    static_model_dir: Path | None = None  # None: models/static-minilm of this checkout
    static_corpus_model_dir: Path | None = None  # None: models/static-corpus of this checkout
    static_corpus_exact_tokens: int = STATIC_CORPUS_EXACT_TOKENS


def default_vector_cache_dir(values: Mapping[str, str]) -> Path:
    """The user's cache directory: vectors are keyed by the embedder's identity and the text, so a
    second checkout, CI, or a rebuild after a code change embeds nothing embedded before."""
    base = values.get("XDG_CACHE_HOME") or str(Path(values.get("HOME") or Path.home()) / ".cache")
    return Path(base) / "asat" / "vectors"


def config_from_env(env: Mapping[str, str] | None = None) -> IngestConfig:
    values = os.environ if env is None else env
    try:
        settings = read_settings(IngestSettings, values)
    except SettingsError as exc:
        raise ConfigError(str(exc)) from None
    kind, url = settings.index_kind, settings.qdrant_url
    if kind == "qdrant" and not url:
        raise ConfigError("ASAT_INDEX=qdrant needs ASAT_QDRANT_URL, e.g. http://localhost:6333")
    try:
        vector_config = vector_config_from_env(dict(values))
        scope = index_scope_from_env(values)
    except (VectorConfigError, IndexScopeError) as exc:
        raise ConfigError(str(exc)) from exc
    return IngestConfig(
        index_kind=kind,
        index_dir=settings.index_dir,
        qdrant_url=url,
        qdrant_api_key=settings.qdrant_api_key,
        collection=settings.collection,
        cache_dir=settings.cache_dir or default_vector_cache_dir(values),
        vector_config=vector_config,
        embedder_base_url=settings.embedder_base_url,
        embedder_api_key=settings.embedder_api_key,
        scope=scope,
        host=settings.host,
        port=settings.port,
        static_model_dir=settings.static_model_dir,
        static_corpus_model_dir=settings.static_corpus_model_dir,
        static_corpus_exact_tokens=settings.static_corpus_exact_tokens,
    )


# Queries come one per call and many at once: one onnxruntime thread per call answers more of them a
# second than two threads per call contending for two cores (ingest's CPU per question at 20
# concurrent clients fell from 47 to 27 ms; scripts/load_research.py). A build embeds one batch at a
# time, so it keeps onnxruntime's default (every core).
QUERY_THREADS = 1


def build_embedder(config: IngestConfig, for_queries: bool = False) -> Embedder:
    """The configured embedder; ``for_queries``: set up for many small concurrent calls."""
    vc = config.vector_config
    if vc.embedder == "minilm":
        return MiniLmOnnxEmbedder(threads=QUERY_THREADS if for_queries else None)
    if vc.embedder == "static":
        static = StaticEmbedder(config.static_model_dir)  # EmbedderError when missing or changed
        if static.dim != vc.dim:
            raise ConfigError(
                f"the static model in {config.static_model_dir or 'models/static-minilm'} has dim={static.dim}, but "
                f"ASAT_EMBEDDER=static declares {vc.dim} (asat_corpus.vector_config): rebuild it with `make static-embedder`"
            )
        return static
    if vc.embedder == "static-corpus":
        directory = config.static_corpus_model_dir or FITTED_MODEL_DIR
        # EmbedderError when the table is missing or changed
        table = StaticEmbedder(directory, REFIT_HINT, identity_name="static-corpus-table")
        if table.dim != vc.dim:
            raise ConfigError(
                f"the fitted table in {directory} has dim={table.dim}, but ASAT_EMBEDDER=static-corpus declares "
                f"{vc.dim} (asat_corpus.vector_config): refit it with `python -m asat_ingest.fit_static`"
            )
        minilm = MiniLmOnnxEmbedder(threads=QUERY_THREADS if for_queries else None)
        return CorpusStaticEmbedder(table, minilm, exact_up_to=config.static_corpus_exact_tokens)
    if vc.embedder == "hash":
        return HashEmbedder(vc.dim)
    if vc.embedder == "openai":
        if not config.embedder_base_url:
            raise ConfigError("ASAT_EMBEDDER=openai needs ASAT_EMBEDDER_BASE_URL, e.g. http://localhost:8000/v1")
        return OpenAICompatibleEmbedder(config.embedder_base_url, vc.model, vc.dim, api_key=config.embedder_api_key)
    if vc.embedder == "ollama":
        base = config.embedder_base_url or "http://127.0.0.1:11434"
        return OllamaEmbedder(vc.model, vc.dim, base_url=base)
    raise ConfigError(f"unknown embedder {vc.embedder!r}")  # vector_config_from_env already refuses these


def build_index(config: IngestConfig) -> VectorIndex:
    """Open (not create) the configured index. Edge takes the directory lock here."""
    if config.index_kind == "edge":
        return QdrantEdgeIndex(config.index_dir, config.collection)
    if config.index_kind == "qdrant-local":
        return QdrantClientIndex.local(str(config.index_dir), config.collection)
    assert config.qdrant_url is not None
    return QdrantClientIndex.from_url(config.qdrant_url, config.qdrant_api_key, config.collection)


def build_cache(config: IngestConfig) -> VectorCache:
    return VectorCache(config.cache_dir / "vectors.sqlite3")


def build_term_cache(config: IngestConfig) -> TermCountCache:
    """BM25 term counts, beside the vectors in the shared cache directory."""
    return TermCountCache(config.cache_dir / "term-counts.sqlite3")
