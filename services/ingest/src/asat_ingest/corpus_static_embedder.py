"""Documents by the corpus-fitted static table, questions by MiniLM (``ASAT_EMBEDDER=static-corpus``).

The table in ``models/static-corpus/`` (written by :mod:`asat_ingest.fit_static`, its card says
how) was fitted so that the mean of a text's word-piece rows reproduces all-MiniLM-L6-v2's vector
of the same text: a document embeds by a lookup and a mean (the whole corpus in about a minute on
two cores, where MiniLM takes tens of minutes), and a question, one short text, by MiniLM itself,
in the same space. The identity names both, so a vector made by either model alone is never read
back as this embedder's.
"""

from __future__ import annotations

from collections.abc import Sequence

from asat_ingest.embedder import EmbedderError
from asat_ingest.minilm_embedder import MiniLmOnnxEmbedder
from asat_ingest.static_embedder import StaticEmbedder

MODEL_NAME = "static-corpus"


class CorpusStaticEmbedder:
    def __init__(self, documents: StaticEmbedder, queries: MiniLmOnnxEmbedder) -> None:
        if documents.dim != queries.dim:
            raise EmbedderError(
                f"the fitted table has dim={documents.dim} but MiniLM's vectors have {queries.dim}: "
                "the table was not fitted to this MiniLM; run `python -m asat_ingest.fit_static`"
            )
        self._documents = documents
        self._queries = queries
        self._identity = f"{MODEL_NAME}|documents={documents.identity}|queries={queries.identity}|dim={documents.dim}"

    @property
    def identity(self) -> str:
        return self._identity

    @property
    def dim(self) -> int:
        return self._documents.dim

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self._documents.embed(texts)

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return self._queries.embed(texts)
