"""What AsAt's corpus does not cover, recognised in a question (pure).

The corpus holds Commonwealth tax law and ATO guidance. Two kinds of question are outside it
whatever the retrieval scores say, and are refused with the reason:

- **state and territory taxes**: payroll tax, land tax, stamp (transfer) duty, the Victorian
  windfall gains tax, and the like;
- **another country's tax law**: a tax, rate or return *of* another country ("GST in New
  Zealand", "Singapore's corporate tax rate", "UK inheritance tax", "a US federal return").
  The Australian treatment of foreign income (a foreign income tax offset, foreign residents) is
  in scope and is not matched: the country must own the tax or the return.

A third kind asks for **facts rather than law**, which no provision answers however well it is
retrieved: a client's own liability worked out from their figures ("what's her taxable
income?", "exactly how much tax will it pay?"), a prediction of what the ATO will do ("will the
ATO audit ..."), a market figure ("the RBA cash rate") or a fee ("how much should I charge").
A question about figures set by an Act the corpus does not hold (the Medicare levy's rates and
thresholds are in the Medicare Levy Act 1986) is refused naming that Act, rather than answered
from the provisions that merely refer to it.

The law that a computation applies is in scope: "how is taxable income worked out?" is not
matched.
"""

from __future__ import annotations

import re

_STATE_TAXES = re.compile(
    r"\b(payroll tax|land tax|stamp dut(?:y|ies)|transfer duty|conveyancing duty|windfall gains tax|"
    r"vacant residential land tax|foreign purchaser (?:duty|surcharge)|motor vehicle duty)\b",
    re.IGNORECASE,
)
_COUNTRIES = (
    r"new zealand|nz|united kingdom|uk|britain|british|england|united states|usa|american|canada|canadian|"
    r"singapore|singaporean|hong kong|japan|japanese|china|chinese|india|indian|germany|german|france|french|"
    r"ireland|irish|ireland's|indonesia|indonesian|malaysia|malaysian|philippines|south africa|"
    r"florida|california|texas|new york|london"
)
_TAX_WORDS = (
    r"tax|taxes|gst|vat|rate|rates|inheritance tax|estate tax|capital gains|corporate income tax|income tax|"
    r"federal return|tax return|return|irs|hmrc|ird|inclusion rate|withholding"
)
_FOREIGN_TAX = re.compile(
    rf"\b(?:{_COUNTRIES})(?:'s)?\s+(?:\w+\s+){{0,2}}(?:{_TAX_WORDS})\b"
    rf"|\b(?:{_TAX_WORDS})\s+(?:in|of|for)\s+(?:the\s+)?(?:{_COUNTRIES})\b"
    rf"|\bfile\s+an?\s+(?:{_COUNTRIES}|us)\b",
    re.IGNORECASE,
)
_AUSTRALIAN_TREATMENT = re.compile(
    r"\b(foreign income tax offset|fito|australian resident|claim (?:a|an) (?:credit|offset)|"
    r"assessable in australia|australian tax)\b",
    re.IGNORECASE,
)


_COMPUTE_FOR_CLIENT = re.compile(
    r"\b(?:what(?:'s| is| will be) (?:her|his|their|its|my client's|the client's) "
    r"(?:taxable income|tax payable|tax bill|refund|net tax)|"
    r"(?:exactly )?how much tax will (?:she|he|they|it|my client|the client|the company) (?:pay|owe)|"
    r"exactly how much (?:tax|will))",
    re.IGNORECASE,
)
_PREDICTION = re.compile(
    r"\bwill the (?:ato|tax office|commissioner) (?:audit|review|investigate|select|target|catch)\b", re.IGNORECASE
)
_NOT_TAX_LAW = re.compile(
    r"\b(?:rba|reserve bank)(?:'s)? (?:cash )?rate\b|\bcash rate\b|"
    r"\bhow much should (?:i|we) charge\b|\b(?:my|our) (?:fee|fees) for\b",
    re.IGNORECASE,
)


# (pattern, the Act that holds the answer): figures set by Acts outside the corpus.
_NOT_HELD_ACTS = (
    (
        re.compile(
            r"\bmedicare levy(?: surcharge)? (?:rate|threshold|percentage)s?\b|"
            r"\b(?:rate|threshold|percentage)s? (?:of|for) (?:the )?medicare levy\b",
            re.IGNORECASE,
        ),
        "the Medicare Levy Act 1986",
    ),
)


def _act_not_held(question: str) -> str | None:
    for pattern, act in _NOT_HELD_ACTS:
        match = pattern.search(question)
        if match:
            return (
                f"out of scope: {match.group(0)} is set by {act}, which AsAt does not hold; "
                "read that Act on the Federal Register of Legislation"
            )
    return None


def _facts_not_law(question: str) -> str | None:
    if _COMPUTE_FOR_CLIENT.search(question):
        return (
            "out of scope: the question asks for a client's own result worked out from their figures; AsAt "
            "quotes the law that applies but does not compute a liability"
        )
    if _PREDICTION.search(question):
        return "out of scope: the question asks what the ATO will do in a particular case, which no law states"
    match = _NOT_TAX_LAW.search(question)
    if match:
        return f"out of scope: {match.group(0)} is not a question of tax law; AsAt holds Commonwealth tax law only"
    return None


def out_of_scope(question: str) -> str | None:
    """Why the question is outside the corpus, or None when it may be in scope."""
    state = _STATE_TAXES.search(question)
    if state:
        return (
            f"out of scope: {state.group(0)} is a state or territory tax; AsAt holds Commonwealth tax law "
            "and ATO guidance only"
        )
    foreign = _FOREIGN_TAX.search(question)
    if foreign and not _AUSTRALIAN_TREATMENT.search(question):
        return (
            f"out of scope: the question is about another country's tax law ({foreign.group(0).strip()}); "
            "AsAt holds Australian Commonwealth tax law only"
        )
    return _act_not_held(question) or _facts_not_law(question)
