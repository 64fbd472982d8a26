"""Features of a statement against provision text, for the contradiction model (pure).

A provision is read line by line (a subsection, a paragraph, a note; a long line is cut at its
sentences): each line is a *unit*. A paragraph ("(b) hot food for consumption away from those
premises; or") inherits the cues of the line that leads into it ("A supply is not GST-free under
section 38-2 if it is a supply of:"). A unit's cues: negation ("not", "cannot", "no"), exclusion
("other than", "except", "does not apply", "however"), limitation ("only", "unless", "must",
"reduced by") and the words in a negation's scope ("cannot *deduct*").

The statement is read for its own negation, its qualifiers ("despite", "where") and the kind of
claim it makes (a deduction, assessable income, a GST-free supply ...); its topic words are its
content words once Act titles and section references are taken out.

The row says how well the text covers the statement, how the unit that covers it best reads,
whether the statement's words fall in negated or excluding units rather than plain ones, and
whether they fall in a negation's scope. The unit that gives the most evidence of contradiction
comes back as the quote (where none gives any, the unit that covers the statement best), verbatim
(a paragraph whose lead-in carries the cue is quoted from the
lead-in on, where that span is short enough).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from asat_research.question_words import content_words

NEGATION = re.compile(r"\b(?:not|cannot|never|neither|nor|none|no(?!\.?\s*\d))\b|n't\b", re.IGNORECASE)
EXCLUSION = re.compile(
    r"\b(?:except|excepting|excluding|excluded|excludes?|other than|does not apply|do not apply|disregard(?:ed|s)?|"
    r"instead of|apart from|however|but)\b",
    re.IGNORECASE,
)
LIMITATION = re.compile(
    r"\b(?:only|unless|must|at least|at most|not more than|no more than|maximum|limited to|cannot exceed|"
    r"reduced by|reduce[sd]?|subject to)\b",
    re.IGNORECASE,
)
_CONCESSION = re.compile(r"\b(?:despite|even though|even if|notwithstanding|although)\b", re.IGNORECASE)
_QUALIFIER = re.compile(r"\b(?:where|when|if|because|while|in circumstances|in respect of)\b", re.IGNORECASE)
_ABSOLUTE = re.compile(r"\b(?:only|solely|exclusively|entire|entirely|full|fully|whole|all|any)\b", re.IGNORECASE)
_ACT_TITLE = re.compile(
    r"(?:(?:[A-Z(][\w'()-]*|and|of|the|on)\s+){1,12}(?:Act|Regulations?)\s+\d{4}(?:\s*\([^)]{1,30}\))?"
)
_SHORT_PAREN = re.compile(r"\([^()]{1,25}\)")
_REFERENCE = re.compile(
    r"\b(?:sub-?)?(?:sections?|paragraphs?|subparagraphs?|items?|divisions?|subdivisions?|parts?|schedules?|"
    r"clauses?|ss?)\.?\s+[\dA-Z][\w-]*(?:\([\w]{1,5}\))*",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"\$?\d[\d,]*(?:\.\d+)?%?")
_LABEL = re.compile(r"^\((?P<label>[0-9]+[A-Z]*|[a-z]{1,2}[A-Z]*|[ivx]+)\)\s*")
_SENTENCE = re.compile(r"(?<=[.;])\s+(?=[A-Z(])")
_NOTE = re.compile(r"^(?:Note|Example)\b", re.IGNORECASE)
LONG_LINE = 400
QUOTE_MAX = 600
SCOPE_CHARS = 60

CLAIMS: dict[str, re.Pattern[str]] = {
    "deduction": re.compile(r"\bdeduct", re.IGNORECASE),
    "assessable": re.compile(r"\bassessable|\bincome\b", re.IGNORECASE),
    "gst_free": re.compile(r"\bgst[- ]free\b", re.IGNORECASE),
    "input_taxed": re.compile(r"\binput taxed\b", re.IGNORECASE),
    "taxable_supply": re.compile(r"\btaxable suppl|\bgst payable|\bliable for (?:gst|goods)", re.IGNORECASE),
    "credit": re.compile(r"\bcreditable|\binput tax credit|\bcredit\b", re.IGNORECASE),
    "exempt": re.compile(r"\bexempt", re.IGNORECASE),
    "cgt": re.compile(r"\bcgt\b|\bcapital (?:gain|loss)|\bcost base", re.IGNORECASE),
    "entitled": re.compile(r"\bentitled\b|\beligib|\bqualif", re.IGNORECASE),
    "required": re.compile(r"\brequired\b|\bmust\b|\bobliged\b|\bliable\b", re.IGNORECASE),
    "applies": re.compile(r"\bappl(?:y|ies)\b", re.IGNORECASE),
    "treated": re.compile(r"\btreated\b|\bdeemed\b|\btaken to\b|\bconsidered\b|\bregarded\b", re.IGNORECASE),
    "offset": re.compile(r"\boffset\b|\brebate\b", re.IGNORECASE),
    "fringe_benefit": re.compile(r"\bfringe benefit", re.IGNORECASE),
    "dividend": re.compile(r"\bdividend|\bfrank", re.IGNORECASE),
    "superannuation": re.compile(r"\bsuperannuation|\bcontribution", re.IGNORECASE),
    "withholding": re.compile(r"\bwithh(?:o|e)ld|\bpayg\b", re.IGNORECASE),
}

FEATURE_NAMES: tuple[str, ...] = (
    "s_words_log",
    "s_negated",
    "s_concession",
    "s_qualifiers",
    "s_absolute",
    "s_references",
    "s_numbers",
    *(f"s_claim_{name}" for name in CLAIMS),
    "units_log",
    "evidence_chars_log",
    "coverage",
    "uncovered_log",
    "numbers_found",
    "best_overlap",
    "best_specific",
    "best_negated",
    "best_excluding",
    "best_limiting",
    "best_inherits",
    "best_note",
    "best_position",
    "best_chars_log",
    "negative_best_overlap",
    "plain_best_overlap",
    "negative_minus_plain",
    "specific_in_negative_only",
    "specific_in_plain_only",
    "scope_overlap",
    "scope_best_unit",
    "scope_in_best",
    "share_negated",
    "share_excluding",
    "share_limiting",
    "polarity_mismatch",
    "quote_evidence",
)


@dataclass(frozen=True)
class Unit:
    """One line (or sentence of a long line) of a passage, with its cues."""

    start: int
    end: int
    words: frozenset[str]
    scoped: frozenset[str]  # content words within a negation's scope
    negated: bool
    excluding: bool
    limiting: bool
    note: bool
    lead: int | None = None  # the index of the unit that leads into it, whose cues it inherits
    inherits: bool = False  # its lead-in is negated or excluding

    @property
    def negative(self) -> bool:
        return self.negated or self.excluding or self.inherits


@dataclass(frozen=True)
class Quote:
    passage: int  # the index of the passage quoted
    start: int
    end: int
    text: str  # passages[passage][start:end]


@dataclass(frozen=True)
class ContradictionFeatures:
    row: list[float]
    # The unit giving the most evidence of contradiction (where none gives any, the unit that covers
    # the statement best); None only when the passages have no text.
    quote: Quote | None


def topic_words(text: str) -> frozenset[str]:
    """The content words of ``text`` once Act titles, short parentheticals and section references
    are taken out ("under section 8-1 of the Income Tax Assessment Act 1997 (ITAA 1997)")."""
    stripped = _REFERENCE.sub(" ", _SHORT_PAREN.sub(" ", _ACT_TITLE.sub(" ", text)))
    return frozenset(w for w in content_words(stripped) if not w[0].isdigit())


def _scoped(line: str) -> frozenset[str]:
    words: set[str] = set()
    for match in NEGATION.finditer(line):
        tail = re.split(r"[.;:,]", line[match.end() : match.end() + SCOPE_CHARS], maxsplit=1)[0]
        words |= content_words(tail)
    return frozenset(words)


def _pieces(text: str) -> list[tuple[int, int]]:
    """(start, end) of each non-empty line, a line longer than ``LONG_LINE`` cut at its sentences."""
    spans: list[tuple[int, int]] = []
    offset = 0
    for line in text.split("\n"):
        start, end = offset, offset + len(line)
        offset = end + 1
        if not line.strip():
            continue
        if len(line) <= LONG_LINE:
            spans.append((start, end))
            continue
        cut = start
        for match in _SENTENCE.finditer(line):
            spans.append((cut, start + match.start()))
            cut = start + match.end()
        spans.append((cut, end))
    return [(s, e) for s, e in spans if text[s:e].strip()]


@lru_cache(maxsize=8192)
def passage_units(text: str) -> tuple[Unit, ...]:
    """The units of a passage, in order, each paragraph tied to the line that leads into it."""
    units: list[Unit] = []
    lead: int | None = None
    for start, end in _pieces(text):
        line = text[start:end].strip()
        label = _LABEL.match(line)
        paragraph = label is not None and not label.group("label")[0].isdigit()
        if not paragraph:
            lead = None
        parent = units[lead] if lead is not None else None
        units.append(
            Unit(
                start=start,
                end=end,
                words=content_words(line),
                scoped=_scoped(line),
                negated=NEGATION.search(line) is not None,
                excluding=EXCLUSION.search(line) is not None,
                limiting=LIMITATION.search(line) is not None,
                note=_NOTE.match(line) is not None,
                lead=lead,
                inherits=parent is not None and (parent.negated or parent.excluding),
            )
        )
        if line.endswith((":", "—", "-")):
            lead = len(units) - 1
    return tuple(units)


def _share(wanted: frozenset[str], found: frozenset[str]) -> float:
    return len(wanted & found) / len(wanted) if wanted else 0.0


def _statement_row(statement: str, words: frozenset[str]) -> list[float]:
    return [
        math.log1p(len(words)),
        float(NEGATION.search(statement) is not None),
        float(_CONCESSION.search(statement) is not None),
        float(len(_QUALIFIER.findall(statement))),
        float(_ABSOLUTE.search(statement) is not None),
        float(len(_REFERENCE.findall(statement))),
        float(len(_NUMBER.findall(_REFERENCE.sub(" ", _ACT_TITLE.sub(" ", statement))))),
        *(float(p.search(statement) is not None) for p in CLAIMS.values()),
    ]


def _quote(passages: Sequence[str], where: tuple[int, int], units: Sequence[Unit]) -> Quote:
    passage, index = where
    unit = units[index]
    text = passages[passage]
    start = unit.start
    if unit.inherits and unit.lead is not None and not (unit.negated or unit.excluding):
        lead_start = units[unit.lead].start
        if unit.end - lead_start <= QUOTE_MAX:
            start = lead_start
    while start < unit.end and text[start].isspace():
        start += 1
    end = unit.end
    while end > start and text[end - 1].isspace():
        end -= 1
    return Quote(passage, start, end, text[start:end])


def contradiction_features(statement: str, passages: Sequence[str]) -> ContradictionFeatures:
    """The feature row (``FEATURE_NAMES`` order) of ``statement`` against ``passages`` (provision
    texts) and the quote that gives the most evidence of contradiction."""
    words = topic_words(statement)
    per_passage = [passage_units(p) for p in passages]
    located = [(p, i, u) for p, units in enumerate(per_passage) for i, u in enumerate(units)]
    row = _statement_row(statement, words)
    if not located:
        return ContradictionFeatures(row + [0.0] * (len(FEATURE_NAMES) - len(row)), None)
    df: Counter[str] = Counter()
    for _, _, u in located:
        df.update(u.words & words)
    everywhere = frozenset(df)
    weight = {w: 1.0 / df[w] for w in everywhere}
    total_weight = float(len(words)) or 1.0

    def specific(u: Unit) -> float:
        # fsum: the same sum in any order, so the row does not depend on the process's string hashing.
        return math.fsum(weight[w] for w in u.words & words) / total_weight

    best_p, best_i, best = max(located, key=lambda x: (len(x[2].words & words), specific(x[2]), -x[0], -x[1]))
    negative = [u for _, _, u in located if u.negative]
    plain = [u for _, _, u in located if not (u.negative or u.limiting)]
    negative_best = max((_share(words, u.words) for u in negative), default=0.0)
    plain_best = max((_share(words, u.words) for u in plain), default=0.0)
    rare = {w for w in everywhere if df[w] <= 2}
    in_negative = set().union(*(u.words for u in negative)) if negative else set()
    in_plain = set().union(*(u.words for u in plain)) if plain else set()
    scoped_all = frozenset().union(*(u.scoped for _, _, u in located))

    def evidence(u: Unit) -> float:
        if not u.negative:
            return 0.0
        return _share(words, u.words) + _share(words, u.scoped) + (0.1 if u.negated or u.excluding else 0.0)

    quote_p, quote_i, quote_unit = max(located, key=lambda x: (evidence(x[2]), -x[0], -x[1]))
    quote_score = evidence(quote_unit)
    numbers = set(_NUMBER.findall(_REFERENCE.sub(" ", _ACT_TITLE.sub(" ", statement))))
    joined = "\n".join(passages)
    statement_negated = NEGATION.search(statement) is not None
    n = len(located)
    row += [
        math.log1p(n),
        math.log1p(sum(len(p) for p in passages)),
        _share(words, everywhere),
        math.log1p(len(words - everywhere)),
        (sum(1 for x in numbers if x in joined) / len(numbers)) if numbers else -1.0,
        _share(words, best.words),
        specific(best),
        float(best.negated),
        float(best.excluding),
        float(best.limiting),
        float(best.inherits),
        float(best.note),
        best_i / max(len(per_passage[best_p]) - 1, 1),
        math.log1p(best.end - best.start),
        negative_best,
        plain_best,
        negative_best - plain_best,
        math.log1p(len(rare & in_negative - in_plain)),
        math.log1p(len(rare & in_plain - in_negative)),
        _share(words, scoped_all),
        max(_share(words, u.scoped) for _, _, u in located),
        _share(words, best.scoped),
        len(negative) / n,
        sum(1 for _, _, u in located if u.excluding) / n,
        sum(1 for _, _, u in located if u.limiting) / n,
        float(statement_negated != best.negative),
        quote_score,
    ]
    where = (quote_p, quote_i) if quote_score > 0 else (best_p, best_i)
    return ContradictionFeatures(row, _quote(passages, where, per_passage[where[0]]))
