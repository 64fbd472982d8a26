"""Fit the cascade: the cross-encoder rereads the ranker's top ``TOP_K`` candidates, and a logistic
blend of both scores becomes the probability that a passage answers.

The blend is fitted on the dev slice (held out from the shipped ranker and from the
cross-encoder's training). On the test slice (sections never trained on) it reports the ranker
fitted on the train slice alone, the cross-encoder alone over the same top ``TOP_K``, and their
cascade (its blend fitted on dev the same way). Writes ``models/relevance/cascade.json`` and adds
it, with the measurement, to ``models/relevance/card.json``.

    .venv/bin/python scripts/fit_cascade.py [--ingest-url URL] [--top-k 20]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from asat_research.relevance.blend import Blend, cascade
from asat_research.relevance.candidates import CandidateList
from asat_research.relevance.domain_reranker import passage
from asat_research.relevance.features import candidate_features
from asat_research.relevance.ltr_model import LtrModel
from asat_research.relevance.onnx_cross_encoder import OnnxCrossEncoder
from asat_research.relevance.ranking_metrics import ranked_sections, ranking_quality
from asat_research.relevance.stats import RelevanceStats
from asat_research.relevance.train_cli import CandidatesUnavailable, measure, prepare, split_lists

RELEVANCE = Path("models/relevance")
CROSS_ENCODER = Path("models/cross-encoder")


def _read(
    lists: Sequence[CandidateList], models: Sequence[LtrModel], encoder: OnnxCrossEncoder, stats: RelevanceStats, k: int
) -> list[tuple[CandidateList, list[list[float]], list[int], list[float]]]:
    """Per list: each model's raw scores, the top-k (by the first model) and their cross-encoder logits."""
    out = []
    for n, cl in enumerate(lists, start=1):
        if not cl.hits:
            continue
        rows = candidate_features(cl.example.question, cl.hits, stats, exclude_citations_of=cl.example.origin)
        raws = [m.raw_scores(rows) for m in models]
        top = sorted(range(len(cl.hits)), key=lambda i: -raws[0][i])[:k]
        logits = encoder.scores(cl.example.question, [passage(cl.hits[i].payload) for i in top])
        out.append((cl, raws, top, logits))
        if n % 100 == 0:
            sys.stderr.write(f"\r[cascade] {n}/{len(lists)}")
    sys.stderr.write("\n")
    return out


def _fit(read: Sequence[tuple[CandidateList, list[list[float]], list[int], list[float]]], model_index: int) -> Blend:
    ltr: list[float] = []
    ce: list[float] = []
    relevant: list[int] = []
    for cl, raws, top, logits in read:
        for i, logit in zip(top, logits, strict=True):
            ltr.append(raws[model_index][i])
            ce.append(logit)
            relevant.append(int(cl.labels[i] > 0))
    return Blend.fit(ltr, ce, relevant)


def _quality(
    read: Sequence[tuple[CandidateList, list[list[float]], list[int], list[float]]], model: LtrModel, blend: Blend
) -> dict[str, dict[str, float]]:
    rankings: dict[str, list[list[int]]] = {"ranker": [], "cross-encoder (top k)": [], "cascade": []}
    wanted: list[int] = []
    for cl, raws, top, logits in read:
        raw = raws[0]
        probabilities = [model.calibration.probability(v) for v in raw]
        blended = {i: blend.probability(raw[i], logit) for i, logit in zip(top, logits, strict=True)}
        ce_only = {i: 1.0 / (1.0 + math.exp(-logit)) for i, logit in zip(top, logits, strict=True)}
        for name, scores in (
            ("ranker", probabilities),
            ("cross-encoder (top k)", cascade(probabilities, ce_only)),
            ("cascade", cascade(probabilities, blended)),
        ):
            rankings[name].append([lab for _, _, lab in ranked_sections(cl.hits, scores, cl.labels)])
        wanted.append(len(cl.example.targets))
    return {name: ranking_quality(r, wanted).as_dict() for name, r in rankings.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ingest-url", default=os.environ.get("ASAT_INGEST_URL", "http://127.0.0.1:8720"))
    parser.add_argument("--cache-dir", type=Path, default=Path("var/relevance"))
    parser.add_argument("--top-k", type=int, default=20)
    args = parser.parse_args()
    try:
        prepared = prepare(args.ingest_url, args.cache_dir)
    except CandidatesUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    by_split = split_lists(prepared.lists)
    held_out = measure(by_split, prepared.stats).model
    shipped = LtrModel.load(RELEVANCE)
    card = json.loads((CROSS_ENCODER / "card.json").read_text())
    encoder = OnnxCrossEncoder(CROSS_ENCODER, max_length=int(card["hyper_parameters"]["max_length"]))
    dev_shipped = _read(by_split["dev"], [shipped], encoder, prepared.stats, args.top_k)
    dev_held = _read(by_split["dev"], [held_out], encoder, prepared.stats, args.top_k)
    test_held = _read(by_split["test"], [held_out], encoder, prepared.stats, args.top_k)
    blend_held = _fit(dev_held, 0)
    test_quality = _quality(test_held, held_out, blend_held)
    blend = _fit(dev_shipped, 0)
    cascade_json: dict[str, Any] = {
        "cross_encoder": "../cross-encoder",
        "top_k": args.top_k,
        "w_ltr": blend.w_ltr,
        "w_ce": blend.w_ce,
        "bias": blend.bias,
        "fitted_on": "dev slice: each query's top k candidates by the shipped ranker, chunk labels",
    }
    (RELEVANCE / "cascade.json").write_text(json.dumps(cascade_json, indent=2) + "\n")
    relevance_card = json.loads((RELEVANCE / "card.json").read_text())
    relevance_card["cascade"] = {"top_k": args.top_k, "metrics_test_slice": test_quality, "blend": cascade_json}
    relevance_card["artifacts"]["cascade.json"] = hashlib.sha256((RELEVANCE / "cascade.json").read_bytes()).hexdigest()
    (RELEVANCE / "card.json").write_text(json.dumps(relevance_card, indent=2) + "\n")
    print(json.dumps({"blend": cascade_json, "test_slice": test_quality}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
