"""Static embeddings distilled from all-MiniLM-L6-v2 (``ASAT_EMBEDDER=static``): a table lookup per word piece.

The model in ``models/static-minilm/`` (written by :mod:`asat_ingest.distill_static`; its card says
how) is a model2vec ``StaticModel``: a text's vector is the mean of its word pieces' rows (at most
``max_tokens`` of them, no ``[CLS]``/``[SEP]``), L2-normalised in float32. No neural network runs,
so a corpus embeds in about a minute on two cores where MiniLM takes tens of minutes; what it costs
in retrieval quality is measured by ``make eval``.

Every artifact's bytes are checked against the card's sha256 before they are used, and the
identity names the digest of them all, so a vector cached for one model is never served for
another. A text whose word pieces all have zero rows (``""``, or only the most frequent symbols:
the SIF weighting and int8 storage zero the rows of the special tokens and of ``! " # $ % & '``)
gets the normalised mean of the whole table, never a zero vector (cosine is undefined for one). Serving needs numpy, tokenizers, safetensors and model2vec;
no PyTorch, no download.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from asat_ingest.embedder import EmbedderError
from asat_ingest.static_artifact import DEFAULT_MODEL_DIR, REBUILD_HINT, read_checked

MODEL_NAME = "static-minilm"


class StaticEmbedder:
    """The distilled static model; the artifact is read, checked and loaded when constructed."""

    def __init__(
        self, model_dir: Path | None = None, hint: str = REBUILD_HINT, identity_name: str = MODEL_NAME
    ) -> None:
        """``hint``: what an error tells the user to run; ``identity_name``: the identity's first field
        (the corpus-fitted table is served by this class under its own name and command)."""
        from model2vec import StaticModel
        from safetensors.numpy import load as load_safetensors
        from tokenizers import Tokenizer

        checked = read_checked(model_dir if model_dir is not None else DEFAULT_MODEL_DIR, hint)
        for name in ("model.safetensors", "tokenizer.json", "config.json"):
            if name not in checked.blobs:
                raise EmbedderError(f"{checked.directory}/card.json does not list {name}: {hint}")
        tensors = load_safetensors(checked.blobs["model.safetensors"])
        if "embeddings" not in tensors:
            raise EmbedderError(f"{checked.directory}/model.safetensors holds no embeddings: {hint}")
        table = np.asarray(tensors["embeddings"]).astype(np.float32)
        if table.ndim != 2 or table.shape[1] != checked.dim:
            raise EmbedderError(
                f"{checked.directory}: the table is {table.shape}, but the card says dim={checked.dim}: {hint}"
            )
        tokenizer = Tokenizer.from_str(checked.blobs["tokenizer.json"].decode("utf-8"))
        config = json.loads(checked.blobs["config.json"])
        self._max_tokens = checked.max_tokens
        self._model = StaticModel(
            vectors=table, tokenizer=tokenizer, config=config, normalize=True, max_length=self._max_tokens
        )
        self._empty = _unit(table.mean(axis=0, keepdims=True))[0]
        if not np.any(self._empty):
            raise EmbedderError(f"{checked.directory}/model.safetensors is all zeros: {hint}")
        self._dim = checked.dim
        self._identity = (
            f"{identity_name}|artifacts-sha256={checked.digest[:16]}|dim={self._dim}"
            f"|max-tokens={self._max_tokens}|pool=mean|norm=l2"
        )

    @property
    def identity(self) -> str:
        return self._identity

    @property
    def dim(self) -> int:
        return self._dim

    def count_tokens(self, text: str) -> int:
        """Word pieces of ``text`` that count towards its vector (at most ``max_tokens``)."""
        return len(self._model.tokenize([text])[0][: self._max_tokens])

    def embed_array(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """One unit-length float32 row per text."""
        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        means = self._model.encode(list(texts), use_multiprocessing=False)
        vectors = _unit(np.asarray(means, dtype=np.float32).reshape(len(texts), self._dim))
        empty = ~np.any(vectors, axis=1)
        vectors[empty] = self._empty
        return vectors

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """Questions are embedded as documents are."""
        return self.embed(texts)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors: list[list[float]] = self.embed_array(texts).tolist()
        return vectors


def _unit(rows: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Each row scaled to unit length; an all-zero row stays zero."""
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    result: npt.NDArray[np.float32] = (rows / np.where(norms > 0, norms, 1.0)).astype(np.float32)
    return result
