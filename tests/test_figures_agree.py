"""Search, the research premise check and the verifier read a figure the same way (issue 15 item 2).

Each row is a figure as a question, a provision or an answer may write it, and the values it
states. The shared reading (``asat_corpus.text.figures``) must give those values, and so must
each of its users: the ingest tokenizer's BM25 tokens, research's premise-check quantities and the
verifier's fact keys.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from asat_corpus.text.figures import FigureKind, read_figures
from asat_corpus.text.numbers import number_text
from asat_ingest.legal_tokenizer import legal_tokenize
from asat_research.generation.quantities import quantities
from asat_verifier.groundedness.facts import extract_facts

MONEY, PERCENT = FigureKind.MONEY, FigureKind.PERCENT

FIGURES: list[tuple[str, list[tuple[FigureKind, str]]]] = [
    ("$2.5b", [(MONEY, "2500000000")]),
    ("$2.5 billion", [(MONEY, "2500000000")]),
    ("$2.5bn", [(MONEY, "2500000000")]),
    ("10 million dollars", [(MONEY, "10000000")]),
    ("$10 million", [(MONEY, "10000000")]),
    ("$10,000,000", [(MONEY, "10000000")]),
    ("$2m", [(MONEY, "2000000")]),
    ("$300k", [(MONEY, "300000")]),
    ("A$10m", [(MONEY, "10000000")]),
    ("AUD 300", [(MONEY, "300")]),
    ("2,000 dollars", [(MONEY, "2000")]),
    ("$0.50", [(MONEY, "0.5")]),
    ("8.5%", [(PERCENT, "8.5")]),
    ("8.5 per cent", [(PERCENT, "8.5")]),
    ("30 percent", [(PERCENT, "30")]),
    ("thirty per cent", [(PERCENT, "30")]),
    ("$18,201 \u2013 $45,000", [(MONEY, "18201"), (MONEY, "45000")]),
]

_TOKEN_PREFIX = {MONEY: "money:", PERCENT: "pct:"}
_FACT_PREFIX = {MONEY: "money:", PERCENT: "percent:"}
_QUANTITY_KIND = {MONEY: "money", PERCENT: "percent"}


@pytest.mark.parametrize(("text", "values"), FIGURES, ids=[text for text, _ in FIGURES])
def test_every_reader_agrees(text: str, values: list[tuple[FigureKind, str]]) -> None:
    expected = [(kind, Decimal(amount)) for kind, amount in values]
    assert [(f.kind, f.amount) for f in read_figures(text)] == expected
    assert legal_tokenize(text) == [_TOKEN_PREFIX[kind] + number_text(amount) for kind, amount in expected]
    assert [(q.kind, q.value) for q in quantities(text)] == [(_QUANTITY_KIND[k], a) for k, a in expected]
    assert [f.key for f in extract_facts(text)] == [
        _FACT_PREFIX[kind] + number_text(amount) for kind, amount in expected
    ]
