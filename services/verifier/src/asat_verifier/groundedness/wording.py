"""Words of a text for the deterministic scorer: content-word stems and negated terms.

A *stem* is the lower-cased word cut to six letters, so ``deduct``, ``deductible`` and
``deduction`` compare equal. A *negated term* is the first content word after a negation cue
(``not``, ``no``, ``never``, ``cannot``, any ``n't`` word, ``neither``, ``nor``, ``none``,
``nothing``), skipping auxiliaries: ``is not deductible`` and ``cannot deduct`` both negate
``deduct``. Content words are those of three letters or more that are neither function words
nor function words that qualify a rule (:mod:`asat_corpus.text.stopwords`: negation is read on
its own) nor words of a provision reference. Pure functions, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from asat_corpus.normalise import normalise
from asat_corpus.text.stopwords import FUNCTION_WORDS, MEANINGFUL_FUNCTION_WORDS

_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_CUES = frozenset({"not", "no", "never", "cannot", "neither", "nor", "none", "nothing", "nobody"})
_SKIP_AFTER_CUE = frozenset(
    [
        "be",
        "is",
        "are",
        "was",
        "were",
        "been",
        "being",
        "a",
        "an",
        "the",
        "to",
        "any",
        "longer",
        "always",
        "necessarily",
        "also",
        "have",
        "has",
        "had",
        "do",
        "does",
        "did",
        "be",
        "able",
    ]
)
_STOPWORDS = (
    FUNCTION_WORDS
    | MEANINGFUL_FUNCTION_WORDS
    | frozenset(
        # words of a reference, checked as provision and number facts instead
        [
            "act",
            "section",
            "sections",
            "subsection",
            "paragraph",
            "division",
            "subdivision",
            "schedule",
            "itaa",
            "taa",
            "gst",
        ]
    )
)
STEM_LENGTH = 6


@dataclass(frozen=True)
class Negation:
    """``term`` (a stem) negated by ``cue``; ``phrase`` is the words from the cue to the term."""

    term: str
    phrase: str


def words(text: str) -> list[str]:
    return _WORD.findall(normalise(text).lower().replace("\u2019", "'"))


def stem(word: str) -> str:
    return word[:STEM_LENGTH]


def _is_cue(word: str) -> bool:
    return word in _CUES or word.endswith("n't")


def _negated(tokens: list[str]) -> list[tuple[int, int]]:
    """(cue index, negated word index) pairs: the first content word within four after a cue."""
    pairs: list[tuple[int, int]] = []
    for index, token in enumerate(tokens):
        if not _is_cue(token):
            continue
        for offset in range(index + 1, min(index + 5, len(tokens))):
            if _is_cue(tokens[offset]):
                break
            if tokens[offset] not in _SKIP_AFTER_CUE:
                pairs.append((index, offset))
                break
    return pairs


def _is_content(word: str) -> bool:
    return len(word) >= 3 and word not in _STOPWORDS and not _is_cue(word)


def negations(text: str) -> tuple[Negation, ...]:
    """The negated terms of ``text``, in order."""
    tokens = words(text)
    return tuple(Negation(stem(tokens[term]), " ".join(tokens[cue : term + 1])) for cue, term in _negated(tokens))


def content_stems(text: str) -> tuple[str, ...]:
    """Stems of the content words (three letters or more, not a stopword), in order."""
    return tuple(stem(w) for w in words(text) if _is_content(w))


def affirmed_stems(text: str) -> frozenset[str]:
    """Content stems of ``text`` that appear at least once NOT as a negated term."""
    tokens = words(text)
    negated = {term for _, term in _negated(tokens)}
    return frozenset(stem(w) for position, w in enumerate(tokens) if position not in negated and _is_content(w))
