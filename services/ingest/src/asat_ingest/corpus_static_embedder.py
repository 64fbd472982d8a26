"""Documents by the corpus-fitted static table, questions by MiniLM (``ASAT_EMBEDDER=static-corpus``).

The table in ``models/static-corpus/`` (written by :mod:`asat_ingest.fit_static`, its card says
how) was fitted so that the mean of a text's word-piece rows reproduces all-MiniLM-L6-v2's vector
of the same text: a document embeds by a lookup and a mean (the whole corpus in about a minute on
two cores, where MiniLM takes tens of minutes), and a question, one short text, by MiniLM itself,
in the same space.

``exact_up_to``: a document of at most that many MiniLM word pieces (``[CLS]`` and ``[SEP]``
counted) is embedded by MiniLM itself, exactly as the MiniLM embedder would. The table agrees with
MiniLM about as well on short texts as on long ones, but MiniLM is quickest on short ones: at the
default cut a third of the corpus's texts are exact for about three minutes of MiniLM on two cores,
and the first stage's recall is MiniLM's own (docs/ingest.md, "Short texts by MiniLM"). 0: every
document by the table. The identity names both models and the split, so a vector made by either
model alone, or under another split, is never read back as this embedder's.
"""

from __future__ import annotations

from collections.abc import Sequence

from asat_ingest.embedder import EmbedderError
from asat_ingest.minilm_embedder import DEFAULT_MAX_TOKENS, MiniLmOnnxEmbedder
from asat_ingest.static_embedder import StaticEmbedder

MODEL_NAME = "static-corpus"


def split_by_length(counts: Sequence[int], exact_up_to: int) -> tuple[list[int], list[int]]:
    """Positions of the texts MiniLM embeds (at most ``exact_up_to`` word pieces) and of those the
    table embeds (the rest), each in input order."""
    exact = [i for i, n in enumerate(counts) if n <= exact_up_to]
    by_table = [i for i, n in enumerate(counts) if n > exact_up_to]
    return exact, by_table


class CorpusStaticEmbedder:
    def __init__(self, documents: StaticEmbedder, queries: MiniLmOnnxEmbedder, exact_up_to: int = 0) -> None:
        if documents.dim != queries.dim:
            raise EmbedderError(
                f"the fitted table has dim={documents.dim} but MiniLM's vectors have {queries.dim}: "
                "the table was not fitted to this MiniLM; run `python -m asat_ingest.fit_static`"
            )
        if not 0 <= exact_up_to <= DEFAULT_MAX_TOKENS:
            raise EmbedderError(
                f"exact_up_to must be within 0..{DEFAULT_MAX_TOKENS} word pieces (MiniLM's cut), got {exact_up_to}: "
                "set ASAT_STATIC_CORPUS_EXACT_TOKENS within it"
            )
        self._documents = documents
        self._queries = queries
        self._exact_up_to = exact_up_to
        self._identity = (
            f"{MODEL_NAME}|documents={documents.identity}|queries={queries.identity}"
            f"|exact-up-to={exact_up_to}|dim={documents.dim}"
        )

    @property
    def identity(self) -> str:
        return self._identity

    @property
    def dim(self) -> int:
        return self._documents.dim

    @property
    def exact_up_to(self) -> int:
        return self._exact_up_to

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        if self._exact_up_to == 0:
            return self._documents.embed(texts)
        exact, by_table = split_by_length(self._queries.count_tokens_many(texts), self._exact_up_to)
        vectors: list[list[float]] = [[] for _ in texts]
        for positions, model in ((exact, self._queries), (by_table, self._documents)):
            if positions:
                for position, vector in zip(positions, model.embed([texts[i] for i in positions]), strict=True):
                    vectors[position] = vector
        return vectors

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return self._queries.embed(texts)
