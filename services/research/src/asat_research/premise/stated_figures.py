"""The figures a statement states of the law, not of the client (pure).

"Since the threshold was $10 million, my client with $6 million turnover qualifies" states one
figure of the law ($10 million) and one of the client ($6 million). Only the first can be wrong
about the law. A figure is the client's own when the words of its clause before it name a person
("my client with $6 million", "her income is under $37,000", "my client's turnover is $1.5
million"), and an instance rather than a rule when it is an amount after ``a``/``an`` ("a $1,150
sale"). A clause starts after a comma, semicolon, colon or dash, or at ``and``, ``but``, ``so``,
``if``, ``once``, ``when``, ``while``, ``because``, ``unless``, ``until``, ``although``,
``whereas`` or ``where``: in "the offset cuts out once the spouse earns $13,800" the figure's
clause is "the spouse earns", a figure of the law.
"""

from __future__ import annotations

import re

from asat_research.premise.detection import detect_premise
from asat_research.premise.figure_concepts import FigureInContext, figures_in_context

_CLAUSE_START = re.compile(
    r"[,;:\u2014\u2013]|\s-\s|\b(?:and|but|so|if|once|when|while|because|unless|until|although|whereas|where)\b",
    re.IGNORECASE,
)
_PERSON = re.compile(
    r"\b(?:my|our|her|his|their|she|he|i|we|me|us|client|clients|client's|taxpayer's)\b", re.IGNORECASE
)
_ARTICLE_BEFORE = re.compile(r"\b(?:a|an)\s*$", re.IGNORECASE)


def _clause_before(text: str, start: int) -> str:
    begin = 0
    for match in _CLAUSE_START.finditer(text, 0, start):
        begin = match.end()
    return text[begin:start]


def of_the_client(statement: str, figure: FigureInContext) -> bool:
    """The figure is the client's own, or an instance (``a $1,150 sale``), not a figure of the law."""
    before = _clause_before(statement.replace("\u2019", "'"), figure.quantity.start)
    if _PERSON.search(before):
        return True
    return figure.quantity.kind == "money" and bool(_ARTICLE_BEFORE.search(before))


def stated_figures(statement: str) -> tuple[FigureInContext, ...]:
    """The figures ``statement`` states of the law, with their concept words, in order."""
    return tuple(f for f in figures_in_context(statement) if not of_the_client(statement, f))


def states_a_figure_of_the_law(question: str) -> bool:
    """Whether ``question`` asserts something of the law with a figure in it ("the offset cuts out
    once the spouse earns $13,800, correct?"); a plain question, or one whose only figures are
    the client's, states none."""
    premise = detect_premise(question)
    return premise is not None and any(stated_figures(s) for s in premise.statements)
