"""What a question asserts, as queries of its own (pure).

The provision that shows a premise wrong is about what the question asserts, not about the
client's facts around it or the condition the agent attaches: "Private expenses are deductible
under the general deduction rule as long as they're paid during the year, aren't they?" is about
deducting private expenses under s 8-1, and "as long as they're paid during the year" pulls the
search towards timing rules. :func:`assertion_queries` gives, for a question that asserts
something of the law, each asserted statement's main clause (cut before a qualifier such as "as
long as", "if", "provided that", "when", "once", "unless", "because"; not "provided", "since" or
"where", as often a verb or a preposition as a proviso), so retrieval can look for it
apart from the rest of the question. A statement about the client's own case ("my client with $6
million turnover qualifies", "My client's company owns the house") is no query: the law it
asserts nothing of is not to be found there. A main clause of fewer than ``MIN_WORDS`` words, or
one that leaves out fewer than ``MIN_LEFT_OUT`` of the question's content words (a tag's words
count among them: "A company gets the 50% CGT discount ..., right?" less its tag is no query),
adds nothing but a second, near-identical list of hits.
"""

from __future__ import annotations

import re

from asat_research.premise.clients_case import CLIENT_FACTS
from asat_research.premise.detection import detect_premise
from asat_research.question_words import content_words

MIN_WORDS = 4
MIN_LEFT_OUT = 3
MAX_QUERIES = 2

_QUALIFIER = re.compile(
    r"[,;]?\s+\b(?:as\s+long\s+as|so\s+long\s+as|provided\s+that|if|only\s+if|unless|when|whenever|once|"
    r"because|while|even\s+(?:if|though))\b",
    re.IGNORECASE,
)


def main_clause(statement: str) -> str:
    """``statement`` up to its first qualifier ("... deductible as long as they're paid" ends
    before "as long as"); the whole statement where it has none, or where the cut would leave no
    words."""
    cut = _QUALIFIER.search(statement)
    clause = statement[: cut.start()] if cut is not None and cut.start() > 0 else statement
    return clause.strip(" ,;")


def assertion_queries(question: str) -> tuple[str, ...]:
    """The main clauses of what ``question`` asserts of the law, in order, at most
    ``MAX_QUERIES``; empty for a question that asserts nothing."""
    premise = detect_premise(question)
    if premise is None:
        return ()
    asked = content_words(question)
    queries: list[str] = []
    for statement in premise.statements:
        if CLIENT_FACTS.match(statement):
            continue
        clause = main_clause(statement)
        if len(clause.split()) < MIN_WORDS or len(asked - content_words(clause)) < MIN_LEFT_OUT or clause in queries:
            continue
        queries.append(clause)
    return tuple(queries[:MAX_QUERIES])
