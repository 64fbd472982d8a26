"""Candidate lists for training questions: what the first stage retrieves, labelled (I/O at the edge).

Each training question is searched exactly as a user's would be (the index service, its income
year, ``CANDIDATES`` hits), and each hit is labelled: 2 where it is the cited subsection of an
answering section, 1 for any other part of an answering section (or the marker saying that
section's text is not held that year), 0 otherwise. The lists are cached as JSON lines without
the chunk texts (they come back from the corpus), so features can change without searching again.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from asat_research.relevance.training_data import Target, TrainingExample
from asat_research.retrieval import Hit, Retriever

CANDIDATES = 100


@dataclass(frozen=True)
class CandidateList:
    example: TrainingExample
    hits: tuple[Hit, ...]
    labels: tuple[int, ...]

    @property
    def answerable(self) -> bool:
        return any(self.labels)


def label_of(hit: Hit, targets: Sequence[Target]) -> int:
    act = hit.payload.get("act")
    number = hit.payload.get("provision")
    for target in targets:
        if act == target.act and number == target.number:
            labels = hit.payload.get("label_path") or []
            if target.label is not None and labels and str(labels[0]) == target.label:
                return 2
            return 1
    return 0


def _hit_json(hit: Hit) -> dict[str, Any]:
    payload = {k: v for k, v in hit.payload.items() if k not in ("text", "embed_text")}
    return {
        "chunk_id": hit.chunk_id,
        "source_id": hit.source_id,
        "score": hit.score,
        "dense": hit.dense_score,
        "payload": payload,
    }


def _hit_from_json(row: Mapping[str, Any], texts: Mapping[str, str]) -> Hit:
    payload = dict(row["payload"])
    payload["text"] = texts.get(row["chunk_id"], str(payload.get("description", "")))
    return Hit(row["chunk_id"], row["source_id"], float(row["score"]), float(row["dense"]), payload)


def harvest(
    examples: Sequence[TrainingExample],
    retriever: Retriever,
    cache: Path,
    texts: Mapping[str, str],
    generation: str,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[CandidateList]:
    """Candidate lists for ``examples``, searched once and cached in ``cache`` (JSON lines keyed by
    example id, for one index generation)."""
    done: dict[str, dict[str, Any]] = {}
    if cache.is_file():
        for line in cache.read_text().splitlines():
            row = json.loads(line)
            if row.get("generation") == generation:
                done[row["id"]] = row
    cache.parent.mkdir(parents=True, exist_ok=True)
    with cache.open("a") as out:
        for n, example in enumerate(examples, start=1):
            row = done.get(example.id)
            if row is None or row.get("question") != example.question or row.get("year") != example.income_year:
                result = retriever.search(example.question, example.income_year, CANDIDATES)
                if result.corpus_generation != generation:
                    raise RuntimeError(
                        f"the index serves corpus generation {result.corpus_generation[:12]}, not {generation[:12]}: "
                        "rebuild it (`python -m asat_ingest build`) before training"
                    )
                row = {
                    "id": example.id,
                    "question": example.question,
                    "year": example.income_year,
                    "generation": generation,
                    "hits": [_hit_json(h) for h in result.hits],
                }
                out.write(json.dumps(row) + "\n")
            hits = tuple(_hit_from_json(h, texts) for h in row["hits"])
            if progress is not None:
                progress(n, len(examples))
            yield CandidateList(example, hits, tuple(label_of(h, example.targets) for h in hits))


def stderr_progress(label: str) -> Callable[[int, int], None]:
    def report(done: int, total: int) -> None:
        if done == total or done % 200 == 0:
            sys.stderr.write(f"\r[{label}] {done}/{total}")
            if done == total:
                sys.stderr.write("\n")
            sys.stderr.flush()

    return report
