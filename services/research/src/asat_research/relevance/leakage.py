"""The leakage guard (pure): no training text may resemble a question of an evaluation suite.

A text leaks when it shares an 8-word shingle with, or has token-Jaccard of at least 0.5 to, any
evaluation question. Training on it could teach the model the suite's answers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

SHINGLE = 8
MAX_JACCARD = 0.5
_TOKEN = re.compile(r"[a-z0-9]+(?:[-.'][a-z0-9]+)*")


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.casefold())


def shingles(words: list[str], size: int = SHINGLE) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + size]) for i in range(len(words) - size + 1)}


def jaccard(a: set[str], b: set[str]) -> float:
    if not a and not b:
        return 0.0
    return len(a & b) / len(a | b)


@dataclass
class LeakageGuard:
    questions: tuple[str, ...]
    _shingles: set[tuple[str, ...]] = field(init=False, default_factory=set)
    _sets: list[set[str]] = field(init=False, default_factory=list)
    _by_word: dict[str, list[int]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        for question in self.questions:
            words = tokens(question)
            self._shingles |= shingles(words)
            index = len(self._sets)
            self._sets.append(set(words))
            for word in set(words):
                self._by_word.setdefault(word, []).append(index)

    @classmethod
    def of(cls, questions: Iterable[str]) -> LeakageGuard:
        return cls(tuple(questions))

    def leaks(self, text: str) -> bool:
        words = tokens(text)
        if shingles(words) & self._shingles:
            return True
        mine = set(words)
        candidates = {i for w in mine for i in self._by_word.get(w, ())}
        return any(jaccard(mine, self._sets[i]) >= MAX_JACCARD for i in candidates)
