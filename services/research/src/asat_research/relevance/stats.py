"""What the relevance features know about the corpus as a whole (built once, deterministic).

- ``df``: in how many indexed chunks each question word (six-letter stem) occurs, for IDF;
- ``citations``: how many ATO Interpretative Decisions cite each section (a prior on how often a
  section answers questions);
- ``defined``: defined term -> the section that defines it (the Acts' dictionaries).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from asat_corpus.corpus_build import CorpusBuild
from asat_research.corpus_view import CorpusView
from asat_research.question_words import content_words
from asat_research.relevance.aid_record import read_aid
from asat_research.relevance.defined_terms import terms_index
from asat_research.relevance.training_data import act_names, dictionary_terms


@dataclass(frozen=True)
class RelevanceStats:
    documents: int
    df: Mapping[str, int]
    citations: Mapping[tuple[str, str], int]
    cited_by: Mapping[str, frozenset[tuple[str, str]]]  # ruling id -> sections it cites (leave-one-out)
    defined: Mapping[str, set[tuple[str, str]]]

    def idf(self, word: str) -> float:
        return math.log(1.0 + (self.documents - self.df.get(word, 0) + 0.5) / (self.df.get(word, 0) + 0.5))

    @classmethod
    def build(cls, corpus: CorpusBuild, chunk_texts: Iterable[str]) -> RelevanceStats:
        df: Counter[str] = Counter()
        documents = 0
        for text in chunk_texts:
            documents += 1
            df.update(content_words(text))
        acts = act_names(corpus)
        citations: Counter[tuple[str, str]] = Counter()
        cited_by: dict[str, frozenset[tuple[str, str]]] = {}
        for ruling in corpus.rulings:
            if ruling.doc_type != "AID":
                continue
            record = read_aid(ruling.id, ruling.text, acts)
            if record is None:
                continue
            sections = frozenset((str(r.act), str(r.number)) for r in record.held_references)
            cited_by[ruling.id] = sections
            citations.update(sections)
        return cls(documents, dict(df), dict(citations), cited_by, terms_index(dictionary_terms(corpus)))


def relevance_stats(view: CorpusView) -> RelevanceStats:
    """The statistics for the corpus and index scope a research service serves."""
    return RelevanceStats.build(view.corpus, view.chunk_texts())
