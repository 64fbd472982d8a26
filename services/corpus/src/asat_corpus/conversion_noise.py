"""Whether two texts of a provision differ only by conversion defects (issue 24, item 1).

Used only where Endnote 4 records no amendment between the two compilations: the history says
the law did not change, and the question is whether the texts agree with it. Pure.

The texts are compared as bags of words (:func:`asat_corpus.comparison.words`), so a table laid
out differently or lines in another order do not count, after undoing two defects measured in
the third-party conversions (never applied to an authorised text):

* a dropped ``s 1``: the gitlaw converter writes ``is 1/11`` as ``i/11``, ``is 10%`` as ``i0%``,
  ``exceeds 18`` as ``exceed8`` and ``paragraphs 103A`` as ``paragraph03A``. A letters-then-digits
  token the other text lacks is split back when the repaired words are the other text's;
* a word split apart (``becau se``, ``n o``, ``w ere`` in the 2024 conversion): up to four adjacent
  pieces are joined when the joined word is the other text's and a piece is not.

Then, with the conversion (the third-party text; of two, the one with fewer words) against the
reference (the authorised text, or the fuller conversion):

* the same words: one version (:attr:`Verdict.SAME_WORDS`);
* every word of the conversion is in the reference: the conversion lost material (a table, a
  formula, item numbers) and changed nothing; one version (:attr:`Verdict.CONVERSION_LOST_MATERIAL`);
* the conversion holds a figure, date, section reference or negation that the reference lacks:
  kept apart (:attr:`Verdict.FIGURES_DIFFER`);
* the authorised reference lacks words the conversion holds and holds nothing the conversion
  lacks: kept apart, a defect of the authorised text's parse or an amendment Endnote 4 does not
  record (:attr:`Verdict.AUTHORISED_LACKS_WORDS`);
* otherwise one version only when the word similarity (multiset Jaccard) is at least
  :data:`SIMILARITY_FLOOR` and the conversion's own words are at most :data:`OWN_WORDS_CEILING`
  of its words (:attr:`Verdict.NEAR_IDENTICAL`), else kept apart (:attr:`Verdict.TOO_DIFFERENT`).

Both thresholds are calibrated on the labelled pairs in ``tests/fixtures/conversion_pairs.json``.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum

from asat_corpus.comparison import words
from asat_corpus.normalise import normalise
from asat_corpus.text.months import FULL_MONTH_NUMBERS

SIMILARITY_FLOOR = 0.95
OWN_WORDS_CEILING = 0.05

_GLUED = re.compile(r"(?<![0-9a-z])([a-z]+)(/?)(\d[0-9a-z]*)(?![0-9a-z])")
NEGATIONS = frozenset({"not", "no", "nor", "neither", "never", "unless", "except", "without", "nil", "none"})
MONTHS = frozenset(FULL_MONTH_NUMBERS)  # month names, for telling a date from other words


class Verdict(StrEnum):
    SAME_WORDS = "same_words"
    CONVERSION_LOST_MATERIAL = "conversion_lost_material"
    NEAR_IDENTICAL = "near_identical"
    FIGURES_DIFFER = "figures_differ"
    AUTHORISED_LACKS_WORDS = "authorised_lacks_words"
    TOO_DIFFERENT = "too_different"
    BOTH_AUTHORISED = "both_authorised"

    @property
    def merges(self) -> bool:
        return self in (Verdict.SAME_WORDS, Verdict.CONVERSION_LOST_MATERIAL, Verdict.NEAR_IDENTICAL)


@dataclass(frozen=True)
class PairJudgement:
    """How two texts compare. ``conversion_only`` and ``reference_only`` are the words (after
    repair) that only one side holds, in text order, capped; ``reference_is_later`` says which
    of the two texts passed in is the reference."""

    verdict: Verdict
    similarity: float
    containment: float  # share of the conversion's words found in the reference
    conversion_only: tuple[str, ...]
    reference_only: tuple[str, ...]
    significant_changes: tuple[str, ...]  # conversion-only figures, dates, references, negations
    reference_is_later: bool
    cause: str

    @property
    def merges(self) -> bool:
        return self.verdict.merges


def is_significant(word: str) -> bool:
    """A figure, date, section reference (anything with a digit), month name or negation."""
    return any(c.isdigit() for c in word) or word in NEGATIONS or word in MONTHS


def repair_glued(text: str, vocabulary: frozenset[str]) -> str:
    """Undo the converter's dropped ``s 1`` where the other text confirms it (see module doc)."""

    def fix(match: re.Match[str]) -> str:
        letters, slash, rest = match.groups()
        if not slash and f"{letters}{rest}" in vocabulary:
            return match.group(0)
        for head, digit in ((f"{letters}s", f"1{rest}"), (letters, f"1{rest}")):
            if head in vocabulary and (digit in vocabulary or (slash and rest in vocabulary)):
                return f"{head} 1{slash}{rest}"
        return match.group(0)

    return _GLUED.sub(fix, normalise(text).casefold())


def rejoin_split(tokens: list[str], vocabulary: frozenset[str], most: int = 4) -> list[str]:
    """Join up to ``most`` adjacent words split by a converter (``becau se``, ``w ere``, ``n o``)
    where the joined word is in ``vocabulary`` and a piece of it is not; longest join first."""
    out: list[str] = []
    index = 0
    while index < len(tokens):
        for size in range(min(most, len(tokens) - index), 1, -1):
            pieces = tokens[index : index + size]
            joined = "".join(pieces)
            if joined in vocabulary and any(piece not in vocabulary for piece in pieces):
                out.append(joined)
                index += size
                break
        else:
            out.append(tokens[index])
            index += 1
    return out


def conversion_words(text: str, other: str) -> list[str]:
    """The words of a third-party ``text`` with its known defects undone against ``other``."""
    vocabulary = frozenset(words(other))
    return rejoin_split(words(repair_glued(text, vocabulary)), vocabulary)


def _in_order(tokens: list[str], bag: Counter[str], limit: int = 40) -> tuple[str, ...]:
    remaining = Counter(bag)
    out: list[str] = []
    for token in tokens:
        if remaining[token] > 0:
            out.append(token)
            remaining[token] -= 1
            if len(out) >= limit:
                break
    return tuple(out)


def judge_pair(earlier: str, later: str, earlier_authorised: bool, later_authorised: bool) -> PairJudgement:
    """Whether ``earlier`` and ``later`` are one text up to conversion defects (see module doc)."""
    early_words = words(earlier) if earlier_authorised else conversion_words(earlier, later)
    late_words = words(later) if later_authorised else conversion_words(later, earlier)
    if later_authorised and not earlier_authorised:
        reference_is_later = True
    elif earlier_authorised and not later_authorised:
        reference_is_later = False
    else:
        reference_is_later = len(late_words) >= len(early_words)
    conv, ref = (early_words, late_words) if reference_is_later else (late_words, early_words)
    conv_bag, ref_bag = Counter(conv), Counter(ref)
    shared = sum((conv_bag & ref_bag).values())
    union = sum((conv_bag | ref_bag).values())
    similarity = shared / union if union else 1.0
    containment = shared / len(conv) if conv else 1.0
    conv_only_bag, ref_only_bag = conv_bag - ref_bag, ref_bag - conv_bag
    conv_only, ref_only = _in_order(conv, conv_only_bag), _in_order(ref, ref_only_bag)
    significant = tuple(w for w in _in_order(conv, conv_only_bag, limit=len(conv)) if is_significant(w))

    def judged(verdict: Verdict, cause: str) -> PairJudgement:
        return PairJudgement(
            verdict, similarity, containment, conv_only, ref_only, significant[:20], reference_is_later, cause
        )

    if earlier_authorised and later_authorised:
        return judged(Verdict.BOTH_AUTHORISED, "two authorised texts differ with no amendment recorded between them")
    if not conv_only_bag and not ref_only_bag:
        return judged(Verdict.SAME_WORDS, "the same words once layout and converter defects are undone")
    if not conv_only_bag:
        return judged(
            Verdict.CONVERSION_LOST_MATERIAL,
            f"the conversion lost {sum(ref_only_bag.values())} words (a table, formula or numbering) "
            "and holds none of its own",
        )
    own_share = sum(conv_only_bag.values()) / len(conv) if conv else 0.0
    if not significant and similarity >= SIMILARITY_FLOOR and own_share <= OWN_WORDS_CEILING:
        return judged(
            Verdict.NEAR_IDENTICAL,
            f"word similarity {similarity:.3f}; the conversion's own words ({' '.join(conv_only[:8])}) "
            "change no figure, date, reference or negation",
        )
    if not ref_only_bag and (earlier_authorised or later_authorised):
        return judged(
            Verdict.AUTHORISED_LACKS_WORDS,
            f"the authorised text lacks {sum(conv_only_bag.values())} words the conversion holds "
            f"({' '.join(conv_only[:8])}): a defect in parsing the authorised text, or a change "
            "Endnote 4 does not record",
        )
    if significant:
        return judged(
            Verdict.FIGURES_DIFFER,
            f"figures, dates, references or negations differ: the conversion holds {' '.join(significant[:8])}",
        )
    return judged(
        Verdict.TOO_DIFFERENT,
        f"word similarity {similarity:.3f} (floor {SIMILARITY_FLOOR}), {own_share:.1%} of the conversion's "
        f"words are its own (ceiling {OWN_WORDS_CEILING:.0%})",
    )


def short_diff(earlier: str, later: str, limit: int = 6, width: int = 80) -> tuple[str, ...]:
    """A few word-level differences (``-old`` / ``+new``) between two texts, for listings."""
    left, right = words(earlier), words(later)
    matcher = difflib.SequenceMatcher(None, left, right, autojunk=False)
    out: list[str] = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        old, new = " ".join(left[i1:i2]), " ".join(right[j1:j2])
        out.append(f"-{old[:width]} +{new[:width]}".strip())
        if len(out) >= limit:
            break
    return tuple(out)
