"""``python -m asat_research.premise.train_cli``: build the statements, train, measure, write the model.

    python -m asat_research.premise.train_cli counts [--json]   # statements per slice and label only
    python -m asat_research.premise.train_cli train [--out models/premise] [--json]

Needs the corpus only (no index, no service). Statements come from the ATO Interpretative
Decisions (:mod:`asat_research.premise.id_statements`), split by the sections they are about
with the relevance ranker's provision hash: the train and dev slices are fitted on, the test
slice (sections never trained on, balanced between supported and contradicted with a fixed
seed) is measured. On the fitted statements, five folds by provision give out-of-fold scores:
they choose the rounds, fit the calibration (Platt) and set the rejection threshold (the lowest
calibrated probability at which at least 80% of the premises rejected are contradicted). The
shipped model is fitted on every fitted statement with those rounds; the test slice never
reaches it. Writes ``contradiction.txt``, ``calibration.json`` and ``card.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import lightgbm as lgb
import numpy as np

from asat_corpus.corpus_build import CorpusBuild, load_corpus
from asat_corpus.sources import corpus_dir_from_env
from asat_research.premise.contradiction_features import FEATURE_NAMES, contradiction_features
from asat_research.premise.contradiction_model import (
    CALIBRATION_FILE,
    DEFAULT_MODEL_DIR,
    FOLDS,
    MAX_ROUNDS,
    MIN_REJECTED,
    MODEL_FILE,
    PARAMS,
    TARGET_PRECISION,
    ContradictionModel,
    Threshold,
    best_precision,
    fold_of,
    out_of_fold,
    rejection_threshold,
    train_booster,
)
from asat_research.premise.id_statements import IdStatement, Label, StatementSet, build_statement_set, statements_digest
from asat_research.relevance.ltr_model import Calibration
from asat_research.relevance.train_cli import evaluation_questions

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
SEED = 13
FIT_SLICES = ("train", "dev")
TEST_SLICE = "test"
MIN_TEST = 400

Matrix = np.ndarray[Any, Any]


def progress(message: str) -> None:
    sys.stderr.write(f"[premise] {message}\n")


def load(report: Callable[[str], None] | None = progress) -> tuple[CorpusBuild, StatementSet]:
    """The corpus (``ASAT_CORPUS_DIR``) and every labelled statement it gives, guarded against ``gold-set/``."""
    if report is not None:
        report("loading the corpus")
    corpus = load_corpus()
    if report is not None:
        report("building statements from the Interpretative Decisions")
    return corpus, build_statement_set(corpus, evaluation_questions())


def load_statements(report: Callable[[str], None] | None = progress) -> StatementSet:
    return load(report)[1]


def balanced(statements: Sequence[IdStatement], seed: int = SEED) -> list[IdStatement]:
    """As many supported as contradicted statements: the larger side sampled down (fixed seed), in id order."""
    by_label = {label: sorted((s for s in statements if s.label is label), key=lambda s: s.id) for label in Label}
    size = min(len(v) for v in by_label.values())
    rng = random.Random(seed)
    kept = [s for side in by_label.values() for s in (side if len(side) == size else rng.sample(side, size))]
    return sorted(kept, key=lambda s: s.id)


@dataclass(frozen=True)
class Slices:
    fit: list[IdStatement]  # train and dev: what the model is fitted on (out of fold)
    test: list[IdStatement]  # balanced, about sections never fitted on
    test_all: list[IdStatement]  # every test-slice statement, before balancing


def slices(statements: Sequence[IdStatement], seed: int = SEED) -> Slices:
    fit = [s for s in statements if s.split in FIT_SLICES]
    test_all = [s for s in statements if s.split == TEST_SLICE]
    return Slices(fit, balanced(test_all, seed), test_all)


def trained_sections(statements: Sequence[IdStatement]) -> set[tuple[str, str]]:
    """Every section whose text or question a statement brings into training."""
    return {k for s in statements for k in (*s.about, *(e.key for e in s.evidence))}


def feature_matrix(
    statements: Sequence[IdStatement], report: Callable[[str], None] | None = None
) -> tuple[Matrix, Matrix]:
    rows: list[list[float]] = []
    for i, s in enumerate(statements, start=1):
        rows.append(contradiction_features(s.statement, [e.text for e in s.evidence]).row)
        if report is not None and i % 1000 == 0:
            report(f"features {i}/{len(statements)}")
    labels = np.asarray([int(s.contradicted) for s in statements])
    return np.asarray(rows, dtype=float).reshape(len(rows), len(FEATURE_NAMES)), labels


def confusion(probabilities: Sequence[float], contradicted: Sequence[int], at: float = 0.5) -> dict[str, int]:
    """Counts with "contradicted" as the positive class, predicted where the probability reaches ``at``."""
    c: Counter[str] = Counter()
    for p, y in zip(probabilities, contradicted, strict=True):
        predicted = p >= at
        c["tp" if predicted and y else "fp" if predicted else "fn" if y else "tn"] += 1
    return {k: c[k] for k in ("tp", "fp", "tn", "fn")}


def classification_metrics(
    probabilities: Sequence[float], contradicted: Sequence[int], threshold: float
) -> dict[str, Any]:
    """Accuracy and the confusion matrix at 0.5, precision and recall of "contradicted" at the
    rejection threshold, log loss and the area under the ROC curve."""
    p = np.clip(np.asarray(probabilities, dtype=float), 1e-9, 1 - 1e-9)
    y = np.asarray(contradicted, dtype=int)
    half = confusion(p.tolist(), y.tolist())
    at = confusion(p.tolist(), y.tolist(), threshold)
    rejected = at["tp"] + at["fp"]
    return {
        "statements": len(y),
        "contradicted": int(y.sum()),
        "accuracy": round((half["tp"] + half["tn"]) / len(y), 4) if len(y) else 0.0,
        "confusion_at_0.5": half,
        "at_threshold": {
            "threshold": round(threshold, 6),
            "rejected": rejected,
            "precision": round(at["tp"] / rejected, 4) if rejected else None,
            "recall": round(at["tp"] / int(y.sum()), 4) if y.sum() else None,
            "confusion": at,
        },
        "log_loss": round(float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))), 4) if len(y) else None,
        "roc_auc": round(roc_auc(p.tolist(), y.tolist()), 4),
    }


def roc_auc(scores: Sequence[float], labels: Sequence[int]) -> float:
    """The probability that a contradicted statement scores above a supported one (ties count half)."""
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]
    if not pos or not neg:
        return 0.5
    order = np.argsort(np.asarray(list(pos) + list(neg)), kind="stable")
    values = np.asarray(list(pos) + list(neg))[order]
    ranks = np.empty(len(values))
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[i]:
            j += 1
        ranks[i : j + 1] = (i + j) / 2 + 1
        i = j + 1
    rank_of = np.empty(len(values))
    rank_of[order] = ranks
    return float((rank_of[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def _source_summary(statements: Sequence[IdStatement]) -> dict[str, Any]:
    labels = Counter(s.label.value for s in statements)
    return {
        "statements": len(statements),
        "supported": labels[Label.SUPPORTED.value],
        "contradicted": labels[Label.CONTRADICTED.value],
        "evidence_in_force_on_decision_date": sum(s.in_force for s in statements),
        "sections_asked_about": len({k for s in statements for k in s.about}),
        "digest": statements_digest(statements),
    }


def _sources_manifest_digest() -> str:
    manifest = corpus_dir_from_env() / "SOURCES.json"
    return hashlib.sha256(manifest.read_bytes()).hexdigest() if manifest.is_file() else "missing"


@dataclass(frozen=True)
class Trained:
    model: ContradictionModel
    rounds: int
    oof_logloss: float
    threshold: Threshold
    oof_metrics: dict[str, Any]
    best_precision: float  # the highest out-of-fold precision of any threshold rejecting MIN_REJECTED or more


def fit(
    statements: Sequence[IdStatement], report: Callable[[str], None] | None = None, max_rounds: int = MAX_ROUNDS
) -> Trained:
    """Out-of-fold rounds, calibration and threshold on ``statements``, then the model on all of them."""
    rows, labels = feature_matrix(statements, report)
    folds = [fold_of(s.group) for s in statements]
    if report is not None:
        report(f"{FOLDS}-fold out-of-fold training on {len(statements)} statements")
    oof = out_of_fold(rows, labels, folds, max_rounds)
    calibration = Calibration.fit(oof.raw.tolist(), labels.tolist())
    probabilities = [calibration.probability(v) for v in oof.raw]
    threshold = rejection_threshold(probabilities, labels.tolist())
    if report is not None:
        report(f"fitting the shipped model ({oof.rounds} rounds)")
    booster = train_booster(rows, labels, oof.rounds)
    model = ContradictionModel(booster, calibration, threshold.value)
    oof_metrics = classification_metrics(probabilities, labels.tolist(), threshold.value)
    reachable = best_precision(probabilities, labels.tolist())
    return Trained(model, oof.rounds, oof.logloss, threshold, oof_metrics, reachable)


def run_counts(as_json: bool) -> int:
    statements = load_statements(None if as_json else progress)
    parts = slices(statements.statements)
    summary = {
        "counts": dict(sorted(statements.counts.items())),
        "statements": len(statements.statements),
        "fit": _source_summary(parts.fit),
        "test_balanced": _source_summary(parts.test),
        "digest": statements.digest(),
    }
    if as_json:
        print(json.dumps(summary, indent=2))
    else:
        for key, value in sorted(statements.counts.items()):
            print(f"{value:>6}  {key}")
        print(f"{len(parts.fit):>6}  statements fitted on; {len(parts.test)} in the balanced test slice")
    return EXIT_OK


def run_train(out: Path, as_json: bool) -> int:
    started = time.perf_counter()
    statements = load_statements()
    parts = slices(statements.statements)
    overlap = trained_sections(parts.fit) & trained_sections(parts.test_all)
    if overlap:
        print(f"error: {len(overlap)} sections are in both the fitted and the test slice", file=sys.stderr)
        return EXIT_FAILED
    if len(parts.test) < MIN_TEST:
        print(f"error: the balanced test slice has {len(parts.test)} statements (< {MIN_TEST})", file=sys.stderr)
        return EXIT_FAILED
    trained = fit(parts.fit, progress)
    model = trained.model
    progress(f"measuring on the test slice ({len(parts.test)} statements, balanced)")
    test_rows, test_labels = feature_matrix(parts.test)
    test_p = model.probabilities(test_rows.tolist())
    test_metrics = classification_metrics(test_p, test_labels.tolist(), model.threshold)
    in_force = [i for i, s in enumerate(parts.test) if s.in_force]
    test_in_force = classification_metrics(
        [test_p[i] for i in in_force], [int(test_labels[i]) for i in in_force], model.threshold
    )
    model.save(
        out,
        trained.rounds,
        {
            "target_precision": TARGET_PRECISION,
            "min_rejected": MIN_REJECTED,
            "threshold_out_of_fold": trained.threshold.as_dict(),
            "fitted_on": f"out-of-fold raw scores of the {len(parts.fit)} fitted statements ({FOLDS} folds by provision)",
        },
    )
    importance = dict(zip(FEATURE_NAMES, (int(v) for v in model.booster.feature_importance("gain")), strict=True))
    card: dict[str, Any] = {
        "model": "premise contradiction model: LightGBM binary over (statement, provision text) features, "
        "Platt-calibrated out of fold, with an out-of-fold rejection threshold",
        "trained_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "seconds": round(time.perf_counter() - started, 1),
        "lightgbm": lgb.__version__,
        "python": platform.python_version(),
        "corpus_sources_json_sha256": _sources_manifest_digest(),
        "training_data": {
            "sources": {"aid": _source_summary(parts.fit)},
            "digest": statements_digest(parts.fit),
            "all_statements_digest": statements.digest(),
            "counts": dict(sorted(statements.counts.items())),
            "split": "by the sections a statement asks about (the relevance ranker's provision hash); "
            "train + dev fitted, test measured; a cited section in another slice is left out of the evidence",
            "leakage_guard": "every Issue and statement checked against every question under gold-set/ "
            "(an 8-word shingle or token Jaccard >= 0.5 drops it)",
        },
        "test_slice": {
            **_source_summary(parts.test),
            "before_balancing": _source_summary(parts.test_all),
            "balanced_with_seed": SEED,
        },
        "hyper_parameters": {**PARAMS, "rounds": trained.rounds, "max_rounds": MAX_ROUNDS, "folds": FOLDS},
        "features": list(FEATURE_NAMES),
        "feature_gain": importance,
        "calibration": {"a": model.calibration.a, "b": model.calibration.b, "fitted_on": "out-of-fold raw scores"},
        "threshold": {
            **trained.threshold.as_dict(),
            "target_precision": TARGET_PRECISION,
            "min_rejected": MIN_REJECTED,
            "best_precision_reachable": round(trained.best_precision, 4),
            "chosen_on": "out-of-fold calibrated probabilities of the fitted statements",
        },
        "metrics_out_of_fold": {**trained.oof_metrics, "held_out_logloss_at_rounds": round(trained.oof_logloss, 4)},
        "metrics_test_slice": test_metrics,
        "metrics_test_slice_evidence_in_force": test_in_force,
        "shipped_fit": "every fitted (train + dev) statement, rounds from the out-of-fold curve; the test slice never fitted",
        "artifacts": {
            name: hashlib.sha256((out / name).read_bytes()).hexdigest() for name in (MODEL_FILE, CALIBRATION_FILE)
        },
    }
    (out / "card.json").write_text(json.dumps(card, indent=2) + "\n")
    if as_json:
        print(json.dumps(card, indent=2))
    else:
        t = trained.threshold
        print(f"trained in {card['seconds']} s ({trained.rounds} rounds) on {len(parts.fit)} statements")
        print(
            f"out of fold: accuracy {trained.oof_metrics['accuracy']}, threshold {t.value:.3f} "
            f"(precision {t.precision:.3f}, recall {t.recall:.3f}, {t.rejected} rejected; the best precision "
            f"reachable rejecting {MIN_REJECTED} or more: {trained.best_precision:.3f})"
        )
        print(
            f"test slice ({len(parts.test)} statements, sections never trained on): accuracy "
            f"{test_metrics['accuracy']}, confusion {test_metrics['confusion_at_0.5']}, AUC {test_metrics['roc_auc']}"
        )
        print(f"wrote {out}/{MODEL_FILE}, {CALIBRATION_FILE}, card.json")
    return EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m asat_research.premise.train_cli", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    counts = sub.add_parser("counts", help="build the statements and print them per slice and label")
    counts.add_argument("--json", action="store_true")
    train = sub.add_parser("train", help="train, measure and write the model")
    train.add_argument("--out", type=Path, default=DEFAULT_MODEL_DIR)
    train.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.command == "counts":
        return run_counts(args.json)
    return run_train(args.out, args.json)


if __name__ == "__main__":
    sys.exit(main())
