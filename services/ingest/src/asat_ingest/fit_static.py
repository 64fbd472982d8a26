"""A static table fitted to MiniLM's own vectors of the corpus (``ASAT_EMBEDDER=static-corpus``).

tokenlearn's idea (train a static model to reproduce its teacher's sentence vectors on the
domain's texts), solved as the linear least-squares problem it is: a text's static vector is
the mean of its word pieces' rows, ``A E`` with ``A`` the texts x tokens matrix of each token's
share of the text, so the table ``E`` that best reproduces MiniLM's vectors ``Y`` of the corpus's
texts solves the ridge problem

    min_E  |A E - Y|^2 + ridge * |E - P|^2

where ``P``, the prior, is the distilled table (``distill_static``'s token pass, before PCA)
mapped into MiniLM's sentence space by one least-squares linear map; a token the corpus never
uses keeps its prior row. Conjugate gradients on the normal equations, a fixed number of
iterations from ``P``: no sampling, so no seed; the same inputs give the same table.

Which ``ridge`` is served is decided on texts held out of the fit (every twentieth text by
the sha256 of its text, so the split never depends on the corpus's order): the one whose
held-out mean cosine to MiniLM's vectors is highest. Nothing from ``gold-set/`` is read.

Documents are then embedded by the table (a lookup and a mean: the whole corpus in about a
minute) and questions by MiniLM itself (``corpus_static_embedder``), in the same space.

    .venv/bin/python -m asat_ingest.fit_static [--out models/static-corpus] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from asat_ingest.distill_static import TOKEN_REMOVE_PATTERN, clean_vocabulary, quantise, token_embeddings
from asat_ingest.embedder import EmbedderError
from asat_ingest.minilm_embedder import MINILM_DIM, default_model_path, default_tokenizer_path
from asat_ingest.static_artifact import (
    BASE_MODEL,
    FITTED_MODEL_DIR,
    model2vec_config,
    package_version,
    write_static_model,
)

MAX_TOKENS = 254  # MiniLM reads 256 word pieces, [CLS] and [SEP] among them
RIDGES = (1e-4, 3e-4, 1e-3)
ITERATIONS = 150
# Only a vector's direction is served (every vector is L2-normalised), but least squares also
# charges the length a mean of rows gets wrong. Each rescaling round refits the table (from the
# last one, towards it) against MiniLM's vectors scaled by the table's own projection on them, so
# the length stops counting; kept only while the held-out cosine rises.
SCALE_ROUNDS = 2
ROUND_ITERATIONS = 60
HOLDOUT_EVERY = 20  # a text is held out when the sha256 of its text is 0 modulo this
DTYPE = "int8"

Matrix = npt.NDArray[np.float32]


def held_out(texts: Sequence[str], every: int = HOLDOUT_EVERY) -> npt.NDArray[np.bool_]:
    """Which texts are held out of the fit: sha256 of the text modulo ``every`` is 0 (pure)."""
    if every < 2:
        raise EmbedderError(f"the hold-out needs every >= 2, got {every}")
    return np.array([int.from_bytes(hashlib.sha256(t.encode()).digest()[:8], "big") % every == 0 for t in texts])


def share_matrix(ids_per_text: Sequence[Sequence[int]], vocabulary: int) -> Any:
    """texts x tokens CSR matrix: each token's share of its text's word pieces (pure); an empty
    text is an empty row."""
    from scipy import sparse  # type: ignore[import-untyped]

    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    for row, ids in enumerate(ids_per_text):
        if not ids:
            continue
        tokens, counts = np.unique(np.asarray(ids, dtype=np.int64), return_counts=True)
        if tokens[-1] >= vocabulary or tokens[0] < 0:
            raise EmbedderError(f"text {row} has a token id outside the vocabulary of {vocabulary}")
        rows.extend([row] * len(tokens))
        cols.extend(tokens.tolist())
        vals.extend((counts / len(ids)).tolist())
    return sparse.csr_matrix(
        (np.asarray(vals, dtype=np.float32), (rows, cols)), shape=(len(ids_per_text), vocabulary), dtype=np.float32
    )


def unit_rows(matrix: npt.NDArray[np.floating[Any]]) -> Matrix:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.asarray(matrix / np.where(norms > 0, norms, 1.0), dtype=np.float32)


def mean_cosine(shares: Any, table: Matrix, targets: Matrix) -> float:
    """Mean cosine between the texts' static vectors and their targets (pure)."""
    if shares.shape[0] == 0:
        raise EmbedderError("no texts to measure the fit on")
    return float(np.mean(np.sum(unit_rows(shares @ table) * unit_rows(targets), axis=1)))


def linear_prior(shares: Any, table: Matrix, targets: Matrix) -> Matrix:
    """``table`` mapped by the affine map that best takes ``shares @ table`` to ``targets`` (pure)."""
    mapped = np.asarray(shares @ table, dtype=np.float64)
    ones = np.ones((mapped.shape[0], 1))
    weights, *_ = np.linalg.lstsq(np.hstack([mapped, ones]), targets.astype(np.float64), rcond=None)
    prior = np.hstack([table.astype(np.float64), np.ones((table.shape[0], 1))]) @ weights
    return prior.astype(np.float32)


def ridge_fit(
    shares: Any,
    targets: Matrix,
    prior: Matrix,
    ridge: float,
    iterations: int,
    on_iteration: Callable[[int], None] | None = None,
) -> Matrix:
    """``argmin_E |shares E - targets|^2 + ridge |E - prior|^2`` by conjugate gradients from
    ``prior``, every column at once, ``iterations`` steps (pure, deterministic)."""
    if ridge <= 0 or iterations < 1:
        raise EmbedderError(f"ridge must be > 0 and iterations >= 1, got {ridge} and {iterations}")
    shares = shares.astype(np.float32)
    transposed = shares.T.tocsr()

    def normal(table: Matrix) -> Matrix:
        result: Matrix = transposed @ (shares @ table) + np.float32(ridge) * table
        return result

    # float32 products (scipy multiplies a float32 sparse matrix by a float32 table several times
    # faster than by a float64 one); the sums that size each step are taken in float64.
    table = prior.astype(np.float32)
    residual = transposed @ targets.astype(np.float32) + np.float32(ridge) * table - normal(table)
    direction = residual.copy()
    squared = np.sum(residual * residual, axis=0, dtype=np.float64)
    for step in range(iterations):
        applied = normal(direction)
        alpha = (squared / np.maximum(np.sum(direction * applied, axis=0, dtype=np.float64), 1e-30)).astype(np.float32)
        table += alpha * direction
        residual -= alpha * applied
        new_squared = np.sum(residual * residual, axis=0, dtype=np.float64)
        direction = residual + (new_squared / np.maximum(squared, 1e-30)).astype(np.float32) * direction
        squared = new_squared
        if on_iteration is not None:
            on_iteration(step + 1)
    return table.astype(np.float32)


@dataclass(frozen=True)
class Fit:
    table: Matrix  # the served rows (before storage as DTYPE)
    ridge: float
    held_out_cosine: dict[str, float]  # ridge -> held-out mean cosine; plus "prior" and "stored"
    train_cosine: float
    texts: int
    held_out_texts: int


def fit_table(
    shares: Any,
    targets: Matrix,
    distilled: Matrix,
    holdout: npt.NDArray[np.bool_],
    ridges: Sequence[float] = RIDGES,
    iterations: int = ITERATIONS,
    dtype: str = DTYPE,
    progress: Callable[[str], None] | None = None,
    scale_rounds: int = SCALE_ROUNDS,
) -> Fit:
    """The prior from the training texts, a fit per ridge, the best on the held-out texts, then
    up to ``scale_rounds`` rescaling rounds while they raise the held-out cosine (pure)."""
    if not holdout.any() or holdout.all():
        raise EmbedderError("the hold-out must keep some texts in the fit and some out of it")
    say = progress or (lambda _message: None)
    train, test = shares[~holdout], shares[holdout]
    train_y, test_y = targets[~holdout], targets[holdout]
    prior = linear_prior(train, distilled, train_y)
    scores: dict[str, float] = {"prior": round(mean_cosine(test, prior, test_y), 4)}
    say(f"prior: held-out cosine {scores['prior']}")
    best: tuple[float, float, Matrix] | None = None
    for ridge in ridges:

        def step(done: int, ridge: float = ridge) -> None:
            say(f"ridge {ridge}: step {done}/{iterations}")

        table = ridge_fit(train, train_y, prior, ridge, iterations, step)
        score = mean_cosine(test, table, test_y)
        scores[str(ridge)] = round(score, 4)
        say(f"ridge {ridge}: held-out cosine {score:.4f}")
        if best is None or score > best[0]:
            best = (score, ridge, table)
    assert best is not None
    score, ridge, table = best
    for round_number in range(1, scale_rounds + 1):
        lengths = np.clip(np.sum(np.asarray(train @ table) * train_y, axis=1, keepdims=True), 0.05, None)
        rescaled = ridge_fit(train, (train_y * lengths).astype(np.float32), table, ridge, ROUND_ITERATIONS)
        rescaled_score = mean_cosine(test, rescaled, test_y)
        scores[f"rescaled {round_number}"] = round(rescaled_score, 4)
        say(f"rescaling round {round_number}: held-out cosine {rescaled_score:.4f}")
        if rescaled_score <= score:
            break
        score, table = rescaled_score, rescaled
    stored = quantise(table.astype(np.float64), dtype).astype(np.float32)
    scores["stored"] = round(mean_cosine(test, stored, test_y), 4)
    return Fit(
        table=table,
        ridge=ridge,
        held_out_cosine=scores,
        train_cosine=round(mean_cosine(train, stored, train_y), 4),
        texts=int((~holdout).sum()),
        held_out_texts=int(holdout.sum()),
    )


def served_token_ids(tokenizer_json: str, texts: Sequence[str], max_tokens: int) -> list[list[int]]:
    """The word pieces model2vec's ``StaticModel.encode`` pools for each text (its cut at
    ``max_tokens`` times the vocabulary's median token length in characters, truncation at
    ``max_tokens``, unknown tokens dropped), so the fit sees what serving will."""
    from model2vec import StaticModel
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_str(tokenizer_json)
    model = StaticModel(
        vectors=np.zeros((tokenizer.get_vocab_size(), 1), dtype=np.float32),
        tokenizer=tokenizer,
        config={},
        normalize=True,
        max_length=max_tokens,
    )
    cut = max_tokens * model.median_token_length
    model.tokenizer.enable_truncation(max_tokens)
    return model.tokenize([text[:cut] for text in texts])


def corpus_digest(texts: Sequence[str]) -> str:
    """sha256 over the sorted distinct texts (pure): names the training data."""
    digest = hashlib.sha256()
    for text in sorted(set(texts)):
        digest.update(text.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def model_card_markdown(card: dict[str, Any]) -> str:
    """``MODEL_CARD.md``: the card for people, from ``card.json`` (pure)."""
    hp, data, metrics = card["hyper_parameters"], card["training_data"], card["metrics"]
    sources = "\n".join(f"| {kind} | {count:,} |" for kind, count in sorted(data["texts_by_kind"].items()))
    ridges = "\n".join(
        f"| {ridge} | {score} |"
        for ridge, score in metrics["held_out_cosine"].items()
        if ridge not in ("prior", "stored")
    )
    artifacts = "\n".join(
        f"| `{name}` | {card['sizes_bytes'][name]:,} | `{digest}` |"
        for name, digest in sorted(card["artifacts"].items())
    )
    return f"""# Static MiniLM fitted to the corpus

Written by `python -m asat_ingest.fit_static` (part of `make models`); `card.json` holds the same
facts for the code. Served by `ASAT_EMBEDDER=static-corpus` (`asat_ingest.corpus_static_embedder`):
documents are embedded by this table (the mean of a text's word pieces' rows, at most
{hp["max_tokens"]} of them, L2-normalised), questions by all-MiniLM-L6-v2 int8 itself, in the same space.
Every artifact below is checked against its sha256 when loaded; a changed or missing one is refused.

## Training data

The distinct texts the index embeds for the default scope ({data["scope"]}), their MiniLM vectors
(`{data["teacher"]}`) as targets. Nothing from `gold-set/` is read.

| kind | texts |
|---|---|
{sources}

{data["texts"]:,} texts, sha256 of the sorted texts `{data["texts_sha256"]}`; corpus generation
`{data["corpus_generation"]}`. Held out of the fit: every text whose sha256 is 0 modulo
{hp["holdout_every"]} ({metrics["held_out_texts"]:,} texts; {metrics["fit_texts"]:,} in the fit).

## Method

1. The prior: MiniLM's vocabulary less `{hp["token_remove_pattern"]}` ({card["vocabulary"]["tokens"]:,} tokens),
   each token through the model as `[CLS] token [SEP]`, mean-pooled ({MINILM_DIM} dimensions), mapped into
   MiniLM's sentence space by the affine map that best reproduces the fit texts' vectors.
2. Ridge regression towards the prior, `min |A E - Y|^2 + ridge |E - P|^2` (`A`: each token's share of a
   text), by conjugate gradients, {hp["iterations"]} iterations from the prior; no sampling, no seed.
3. The ridge with the highest held-out cosine is kept: {hp["ridge"]}.
4. Rescaling rounds (at most {hp.get("scale_rounds", 0)}, {hp.get("round_iterations", 0)} iterations each): only a vector's
   direction is served, so the table is refitted against MiniLM's vectors scaled by its own projection on
   them, from and towards the last table, while the held-out cosine rises.
5. Stored as {hp["dtype"]} (one scale).

## Metrics (mean cosine to MiniLM's own vector, held-out texts)

| ridge (or rescaling round) | held-out cosine |
|---|---|
{ridges}

The prior alone: {metrics["held_out_cosine"]["prior"]}; the stored ({hp["dtype"]}) table:
{metrics["held_out_cosine"]["stored"]} held out, {metrics["fit_cosine"]} on the fit texts.

## Run

{card["fitted_at"]}, {card["seconds"]} s in all ({card["seconds_teacher"]} s for MiniLM's vectors, {card["teacher_embedded"]:,}
of them embedded and the rest read from the vector cache; {card["seconds_token_pass"]} s for the token pass),
Python {card["versions"]["python"]}, numpy {card["versions"]["numpy"]}, scipy {card["versions"]["scipy"]}, on {card["machine"]}.

## Artifacts ({card["size_bytes"]:,} bytes)

| file | bytes | sha256 |
|---|---|---|
{artifacts}

## Rebuild

    make models   # or: .venv/bin/python -m asat_ingest.fit_static --out models/static-corpus
"""


def fit_from_corpus(
    out: Path,
    ridges: Sequence[float] = RIDGES,
    iterations: int = ITERATIONS,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Fit the table on the default scope's texts and write the model into ``out``; returns its card."""
    from tokenizers import Tokenizer

    from asat_corpus.corpus_build import load_corpus
    from asat_ingest.cached_embedding import embed_with_cache
    from asat_ingest.composition import build_cache, config_from_env
    from asat_ingest.minilm_embedder import MiniLmOnnxEmbedder

    say = progress or (lambda _message: None)
    started = time.monotonic()
    config = config_from_env({k: v for k, v in os.environ.items() if k != "ASAT_EMBEDDER"})
    corpus = load_corpus(progress=say)
    items = list(corpus.index_items(config.scope))
    texts = sorted({item.embed_text for item in items})
    kinds: dict[str, int] = {}
    kind_of = {item.embed_text: str(item.payload.get("kind", "other")) for item in items}
    for text in texts:
        kinds[kind_of[text]] = kinds.get(kind_of[text], 0) + 1
    say(f"{len(texts):,} distinct texts in the scope {config.scope.as_dict()}")

    teacher = MiniLmOnnxEmbedder()
    cache = build_cache(config)
    done = 0

    def on_embedded(n: int) -> None:
        nonlocal done
        done += n
        say(f"MiniLM vectors: {done:,} of {len(texts):,}")

    teacher_started = time.monotonic()
    by_length = sorted(texts, key=len)  # MiniLM batches texts of one length with little padding
    try:
        embedded = embed_with_cache(teacher, cache, by_length, on_progress=on_embedded)
    finally:
        cache.close()
    by_text = dict(zip(by_length, embedded.vectors, strict=True))
    targets = np.asarray([by_text[t] for t in texts], dtype=np.float32)
    teacher_seconds = time.monotonic() - teacher_started

    tokenizer_bytes = default_tokenizer_path().read_bytes()
    source = json.loads(tokenizer_bytes)
    cleaned, original_ids = clean_vocabulary(source, TOKEN_REMOVE_PATTERN)
    tokenizer_json = json.dumps(cleaned)
    say("tokenizing")
    shares = share_matrix(served_token_ids(tokenizer_json, texts, MAX_TOKENS), len(original_ids))
    say(f"the token pass: {len(original_ids):,} tokens through MiniLM")
    pass_started = time.monotonic()
    vocab = source["model"]["vocab"]
    distilled = token_embeddings(default_model_path(), original_ids, vocab["[CLS]"], vocab["[SEP]"]).astype(np.float32)
    token_pass = time.monotonic() - pass_started
    fit = fit_table(shares, targets, distilled, held_out(texts), ridges, iterations, DTYPE, say)
    vectors = quantise(fit.table.astype(np.float64), DTYPE)
    model_config = model2vec_config(MINILM_DIM, MAX_TOKENS)
    card: dict[str, Any] = {
        "model": "static embeddings fitted to all-MiniLM-L6-v2 (int8 ONNX) on the corpus's texts",
        "base_model": BASE_MODEL,
        "fitted_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds": round(time.monotonic() - started, 1),
        "seconds_teacher": round(teacher_seconds, 1),
        "teacher_embedded": embedded.embedded,
        "seconds_token_pass": round(token_pass, 1),
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs",
        "versions": {
            "python": platform.python_version(),
            "model2vec": package_version("model2vec"),
            "onnxruntime": package_version("onnxruntime"),
            "numpy": np.__version__,
            "scipy": package_version("scipy"),
            "tokenizers": package_version("tokenizers"),
        },
        "training_data": {
            "scope": config.scope.as_dict(),
            "corpus_generation": corpus.generation(config.vector_config, config.scope),
            "texts": len(texts),
            "texts_by_kind": kinds,
            "texts_sha256": corpus_digest(texts),
            "teacher": teacher.identity,
            "tokenizer_sha256": hashlib.sha256(tokenizer_bytes).hexdigest(),
        },
        "vocabulary": {"source_tokens": len(vocab), "tokens": len(original_ids)},
        "hyper_parameters": {
            "ridges_tried": list(ridges),
            "ridge": fit.ridge,
            "iterations": iterations,
            "scale_rounds": SCALE_ROUNDS,
            "round_iterations": ROUND_ITERATIONS,
            "holdout_every": HOLDOUT_EVERY,
            "token_remove_pattern": TOKEN_REMOVE_PATTERN,
            "prior": "token pass (mean over [CLS] token [SEP]) mapped by a least-squares affine map",
            "dtype": DTYPE,
            "max_tokens": MAX_TOKENS,
            "seed": None,
        },
        "metrics": {
            "held_out_cosine": fit.held_out_cosine,
            "fit_cosine": fit.train_cosine,
            "fit_texts": fit.texts,
            "held_out_texts": fit.held_out_texts,
        },
        "dim": MINILM_DIM,
        "rebuild": "make models (or .venv/bin/python -m asat_ingest.fit_static)",
    }
    return write_static_model(out, vectors, Tokenizer.from_str(tokenizer_json), model_config, card, model_card_markdown)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m asat_ingest.fit_static", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=FITTED_MODEL_DIR, help="the model directory (models/static-corpus)")
    parser.add_argument("--iterations", type=int, default=ITERATIONS, help=f"conjugate-gradient steps ({ITERATIONS})")
    parser.add_argument("--json", action="store_true", help="print the card as JSON")
    args = parser.parse_args(argv)
    last = [0.0]

    def progress(message: str) -> None:
        now = time.monotonic()
        if now - last[0] >= 2.0 or "cosine" in message:
            print(f"[fit_static] {message}", file=sys.stderr, flush=True)
            last[0] = now

    try:
        card = fit_from_corpus(args.out, iterations=args.iterations, progress=progress)
    except EmbedderError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(card))
    else:
        print(
            f"wrote {args.out}: ridge {card['hyper_parameters']['ridge']}, held-out cosine "
            f"{card['metrics']['held_out_cosine']['stored']}, {card['size_bytes']:,} bytes, in {card['seconds']} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
