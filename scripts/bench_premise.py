"""Premise benchmark: the contradiction model beside baselines, on statements from ATO
Interpretative Decisions about sections never trained on.

The statements and slices are those of ``python -m asat_research.premise.train_cli`` (rebuilt
from the corpus, deterministic): the test slice, balanced between supported and contradicted,
asks about sections whose text the model never saw. Each method scores a statement against the
texts of the provisions its decision cites (the versions in force on the decision's date, or
the nearest held):

- ``contradiction model``: models/premise, contradicted where the calibrated probability is at
  least 0.5; and where it reaches the model's out-of-fold rejection threshold;
- ``lexical overlap``: the share of the statement's topic words in the provision line that
  covers it best;
- ``lexical cosine``: the cosine of the statement's and the provisions' content-word sets;
- ``negation-cue rule``: contradicted where that best line (or the line leading into it) carries
  a negation or an exclusion;
- ``MiniLM cosine``: the best cosine between the statement and a chunk of the provisions (the
  index's chunk embeddings, read from the vector cache, embedded where missing);
- ``relevance model``: models/relevance's calibrated probability that a chunk answers the
  statement (the best chunk), with the chunk's MiniLM cosine as its dense score and the dense
  order standing in for the fused (dense + BM25) one, which needs the running index; the
  decision's own citations are left out of the model's citation prior.

A baseline's score becomes a decision at the cut and direction with the best balanced accuracy
on the dev slice (statements the model was fitted on, about other sections than the test's).
Prints accuracy and the confusion matrix ("contradicted" is positive) for each, or ``--json``;
progress goes to stderr. Exits 1 when the model is missing, or the test slice is under 400
statements, unbalanced, or shares a section with the statements fitted on.

    .venv/bin/python scripts/bench_premise.py [--model-dir models/premise] [--no-dense] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from asat_corpus.chunking import chunk_version
from asat_corpus.corpus_build import CorpusBuild
from asat_corpus.index_payload import provision_payload
from asat_corpus.index_scope import index_scope_from_env
from asat_corpus.provision import ProvisionVersion
from asat_ingest.cached_embedding import embed_with_cache
from asat_ingest.composition import build_cache, build_embedder, config_from_env
from asat_research.premise.contradiction_features import FEATURE_NAMES, contradiction_features, topic_words
from asat_research.premise.contradiction_model import DEFAULT_MODEL_DIR, ContradictionModel, ContradictionModelError
from asat_research.premise.id_statements import IdStatement, statements_digest
from asat_research.premise.rule_conflicts import rule_conflict
from asat_research.premise.train_cli import MIN_TEST, classification_metrics, confusion, load, slices, trained_sections
from asat_research.question_words import content_words
from asat_research.relevance.domain_reranker import DEFAULT_MODEL_DIR as RELEVANCE_DIR
from asat_research.relevance.features import candidate_features
from asat_research.relevance.ltr_model import LtrModel
from asat_research.relevance.stats import RelevanceStats
from asat_research.retrieval import Hit

EXIT_OK, EXIT_FAILED = 0, 1
RRF_K = 60
CANDIDATES = 20


def progress(message: str) -> None:
    sys.stderr.write(f"[bench-premise] {message}\n")


@dataclass(frozen=True)
class Cut:
    threshold: float
    contradicted_above: bool  # contradicted where score >= threshold (else where score < threshold)

    def decide(self, scores: Sequence[float]) -> list[float]:
        """1.0 for contradicted, 0.0 for supported (as probabilities at 0.5)."""
        return [float((s >= self.threshold) == self.contradicted_above) for s in scores]


def balanced_accuracy(predicted: Sequence[float], labels: Sequence[int]) -> float:
    c = confusion(predicted, labels)
    pos, neg = c["tp"] + c["fn"], c["tn"] + c["fp"]
    return 0.5 * ((c["tp"] / pos if pos else 0.0) + (c["tn"] / neg if neg else 0.0))


def best_cut(scores: Sequence[float], labels: Sequence[int]) -> Cut:
    """The cut and direction with the best balanced accuracy on ``scores`` (the dev slice)."""
    candidates = [*sorted(set(scores)), math.inf]
    best = Cut(math.inf, True)
    best_value = -1.0
    for t in candidates:
        for above in (True, False):
            cut = Cut(t, above)
            value = balanced_accuracy(cut.decide(scores), labels)
            if value > best_value:
                best, best_value = cut, value
    return best


def lexical_scores(statements: Sequence[IdStatement]) -> dict[str, list[float]]:
    overlap: list[float] = []
    cosine: list[float] = []
    rule: list[float] = []
    index = {name: i for i, name in enumerate(FEATURE_NAMES)}
    for s in statements:
        texts = [e.text for e in s.evidence]
        row = contradiction_features(s.statement, texts).row
        overlap.append(row[index["best_overlap"]])
        negative = any(row[index[n]] for n in ("best_negated", "best_excluding", "best_inherits"))
        rule.append(float(negative))
        mine = topic_words(s.statement)
        theirs = frozenset().union(*(content_words(t) for t in texts))
        cosine.append(len(mine & theirs) / math.sqrt(len(mine) * len(theirs)) if mine and theirs else 0.0)
    return {"lexical overlap (best line)": overlap, "lexical cosine (word sets)": cosine, "negation-cue rule": rule}


def rule_scores(statements: Sequence[IdStatement]) -> list[float]:
    """1.0 where a fixed rule of ``premise.rule_conflicts`` reads the evidence as denying the
    statement (no parameter fitted: any statement may be scored)."""
    return [float(rule_conflict([s.statement], [e.text for e in s.evidence]) is not None) for s in statements]


def rule_precision(statements: Sequence[IdStatement]) -> dict[str, Any]:
    """The fixed rules over every statement built (they fit nothing, so none is held out): how
    many they reject and how many of those the Decision says were contradicted."""
    scores = rule_scores(statements)
    rejected = [s for s, v in zip(statements, scores, strict=True) if v]
    right = sum(1 for s in rejected if s.contradicted)
    return {
        "statements": len(statements),
        "contradicted": sum(1 for s in statements if s.contradicted),
        "rejected": len(rejected),
        "rejected_contradicted": right,
        "precision": round(right / len(rejected), 4) if rejected else None,
        "rejected_examples": [
            {"statement": s.statement, "contradicted": s.contradicted, "about": sorted(s.about)} for s in rejected[:12]
        ],
    }


@dataclass(frozen=True)
class ChunkOf:
    hit_id: str
    version: ProvisionVersion
    text: str
    embed_text: str
    payload: dict[str, Any]


def _chunks(corpus: CorpusBuild, statement: IdStatement) -> list[ChunkOf]:
    out: list[ChunkOf] = []
    for e in statement.evidence:
        timeline = corpus.timeline(e.act, e.number)
        version = next((v for v in timeline.versions if v.id == e.version_id), None) if timeline else None
        if version is None:
            continue
        context = f"{version.act} s {version.number} {version.heading}"
        for chunk in chunk_version(version):
            payload = {**provision_payload(chunk, version), "text": chunk.text}
            out.append(ChunkOf(chunk.id, version, chunk.text, f"{context}\n{chunk.text}", payload))
    return out


def dense_scores(
    corpus: CorpusBuild, statements: Sequence[IdStatement], relevance: LtrModel | None
) -> dict[str, list[float]]:
    """The MiniLM cosine of each statement's best chunk and (with ``relevance``) the relevance
    model's best calibrated probability."""
    config = config_from_env()
    embedder = build_embedder(config)
    cache = build_cache(config)
    chunks = [_chunks(corpus, s) for s in statements]
    texts = list(dict.fromkeys(c.embed_text for cs in chunks for c in cs))
    progress(f"chunk embeddings: {len(texts)} chunk texts (from the vector cache where held)")
    embedded = embed_with_cache(embedder, cache, texts)
    progress(f"  {embedded.hits} from the cache, {embedded.embedded} embedded")
    vectors = dict(zip(texts, (np.asarray(v, dtype=np.float32) for v in embedded.vectors), strict=True))
    progress(f"embedding {len(statements)} statements")
    queries = [np.asarray(v, dtype=np.float32) for v in embedder.embed_queries([s.statement for s in statements])]
    cache.close()
    stats: RelevanceStats | None = None
    if relevance is not None:
        progress("relevance statistics over the index's chunk texts")
        scope = index_scope_from_env()
        stats = RelevanceStats.build(corpus, (i.text for i in corpus.index_items(scope) if i.chunk is not None))
    cosine: list[float] = []
    relevant: list[float] = []
    for n, (s, cs, q) in enumerate(zip(statements, chunks, queries, strict=True), start=1):
        sims = [float(np.dot(q, vectors[c.embed_text])) for c in cs]
        cosine.append(max(sims, default=0.0))
        if relevance is not None and stats is not None:
            order = sorted(range(len(cs)), key=lambda i: -sims[i])[:CANDIDATES]
            hits = [
                Hit(cs[i].hit_id, cs[i].version.id, 1.0 / (RRF_K + r + 1), sims[i], cs[i].payload)
                for r, i in enumerate(order)
            ]
            rows = candidate_features(s.statement, hits, stats, exclude_citations_of=s.ruling_id)
            relevant.append(max(relevance.probabilities(rows), default=0.0))
        if n % 200 == 0:
            progress(f"dense scores {n}/{len(statements)}")
    out = {"MiniLM cosine (best chunk)": cosine}
    if relevance is not None:
        out["relevance model (best chunk)"] = relevant
    return out


def _row(name: str, probabilities: Sequence[float], labels: Sequence[int], cut: Cut | None) -> dict[str, Any]:
    c = confusion(probabilities, labels)
    row: dict[str, Any] = {"method": name, "accuracy": round((c["tp"] + c["tn"]) / len(labels), 4), "confusion": c}
    if cut is not None:
        row["cut"] = {
            "threshold": round(cut.threshold, 6),
            "contradicted": "at or above" if cut.contradicted_above else "below",
        }
    return row


def run(model_dir: Path, dense: bool) -> dict[str, Any]:
    started = time.perf_counter()
    model = ContradictionModel.load(model_dir)
    corpus, statement_set = load(progress)
    parts = slices(statement_set.statements)
    test, dev = parts.test, [s for s in parts.fit if s.split == "dev"]
    y_test = [int(s.contradicted) for s in test]
    y_dev = [int(s.contradicted) for s in dev]
    problems: list[str] = []
    if len(test) < MIN_TEST:
        problems.append(f"the balanced test slice has {len(test)} statements (< {MIN_TEST})")
    if sum(y_test) * 2 != len(test):
        problems.append("the test slice is not balanced")
    shared = trained_sections(parts.fit) & trained_sections(parts.test_all)
    if shared:
        problems.append(f"{len(shared)} sections are both fitted on and tested")
    card_path = model_dir / "card.json"
    card = json.loads(card_path.read_text()) if card_path.is_file() else {}
    digest = statements_digest(test)
    progress(f"scoring {len(test)} test statements with the contradiction model")
    rows = [contradiction_features(s.statement, [e.text for e in s.evidence]).row for s in test]
    p = model.probabilities(rows)
    metrics = classification_metrics(p, y_test, model.threshold)
    in_force = [i for i, s in enumerate(test) if s.in_force]
    metrics_in_force = classification_metrics([p[i] for i in in_force], [y_test[i] for i in in_force], model.threshold)
    at_threshold = (
        f"contradiction model (p >= threshold {model.threshold:.3f})"
        if model.threshold <= 1.0
        else "contradiction model (its threshold: never rejects)"
    )
    table = [
        _row("contradiction model (p >= 0.5)", p, y_test, None),
        _row(at_threshold, [float(v >= model.threshold) for v in p], y_test, None),
    ]
    progress("the fixed rules (premise.rule_conflicts)")
    table.append(_row("fixed rules (exclusion, eligibility, limitation, deeming)", rule_scores(test), y_test, None))
    rules_everywhere = rule_precision(statement_set.statements)
    progress("lexical baselines")
    baselines = lexical_scores(dev + test)
    skipped: str | None = None
    if dense:
        try:
            relevance = LtrModel.load(RELEVANCE_DIR)
        except Exception as exc:  # the relevance model is optional here: say why it is missing
            relevance = None
            skipped = f"relevance model not scored: {exc}"
        baselines.update(dense_scores(corpus, dev + test, relevance))
    else:
        skipped = "MiniLM cosine and relevance model not scored (--no-dense)"
    for name, scores in baselines.items():
        dev_scores, test_scores = scores[: len(dev)], scores[len(dev) :]
        cut = Cut(0.5, True) if name == "negation-cue rule" else best_cut(dev_scores, y_dev)
        table.append(_row(name, cut.decide(test_scores), y_test, cut))
    return {
        "test_statements": len(test),
        "test_contradicted": sum(y_test),
        "test_sections": len({k for s in test for k in s.about}),
        "test_evidence_in_force": len(in_force),
        "test_slice_digest": digest,
        "test_slice_matches_card": card.get("test_slice", {}).get("digest") == digest,
        "dev_statements_for_baseline_cuts": len(dev),
        "model": {
            "dir": str(model_dir),
            "threshold": model.threshold,
            "threshold_out_of_fold": card.get("threshold"),
            "metrics": metrics,
            "metrics_evidence_in_force": metrics_in_force,
        },
        "table": table,
        "rules_all_statements": rules_everywhere,
        "skipped": skipped,
        "problems": problems,
        "seconds": round(time.perf_counter() - started, 1),
    }


def _print(report: dict[str, Any], out: Callable[[str], None]) -> None:
    m = report["model"]["metrics"]
    out(
        f"premise bench: {report['test_statements']} test statements ({report['test_contradicted']} contradicted) "
        f"about {report['test_sections']} sections never trained on; {report['test_evidence_in_force']} with "
        f"evidence in force on the decision's date; baseline cuts from {report['dev_statements_for_baseline_cuts']} dev statements"
    )
    if not report["test_slice_matches_card"]:
        out("  note: this test slice differs from the one the model card measured (corpus or code changed)")
    out(f"{'method':<52} {'accuracy':>8} {'tp':>5} {'fp':>5} {'tn':>5} {'fn':>5}  cut")
    for row in report["table"]:
        c = row["confusion"]
        cut = row.get("cut")
        described = f"{cut['contradicted']} {cut['threshold']}" if cut else ""
        out(
            f"{row['method']:<52} {row['accuracy']:>8.4f} {c['tp']:>5} {c['fp']:>5} {c['tn']:>5} {c['fn']:>5}  {described}"
        )
    t = m["at_threshold"]
    out(
        f"contradiction model: ROC AUC {m['roc_auc']}, log loss {m['log_loss']}; at its threshold {t['threshold']}: "
        f"{t['rejected']} rejected, precision {t['precision']}, recall {t['recall']}"
    )
    oof = report["model"]["threshold_out_of_fold"]
    if oof:
        out(
            f"threshold out of fold: {oof.get('value')} (precision {oof.get('precision')}, recall {oof.get('recall')}, "
            f"{oof.get('rejected')} rejected; target precision {oof.get('target_precision')}, the best reachable "
            f"rejecting {oof.get('min_rejected')} or more {oof.get('best_precision_reachable')})"
        )
    f = report["model"]["metrics_evidence_in_force"]
    out(
        f"contradiction model, evidence in force only ({f['statements']}): accuracy {f['accuracy']}, {f['confusion_at_0.5']}"
    )
    r = report["rules_all_statements"]
    out(
        f"fixed rules over all {r['statements']} statements ({r['contradicted']} contradicted): {r['rejected']} "
        f"rejected, {r['rejected_contradicted']} of them contradicted (precision {r['precision']})"
    )
    if report["skipped"]:
        out(f"note: {report['skipped']}")
    for problem in report["problems"]:
        out(f"error: {problem}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model-dir", type=Path, default=DEFAULT_MODEL_DIR)
    parser.add_argument("--no-dense", action="store_true", help="skip the MiniLM cosine and relevance baselines")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        report = run(args.model_dir, not args.no_dense)
    except ContradictionModelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print(report, print)
    return EXIT_FAILED if report["problems"] else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
