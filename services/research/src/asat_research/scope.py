"""What AsAt's corpus does not cover, recognised in a question (pure).

The corpus holds Commonwealth tax law and ATO guidance. Two kinds of question are outside it
whatever the retrieval scores say, and are refused with the reason:

- **state and territory taxes**: payroll tax, land tax, stamp (transfer) duty, the Victorian
  windfall gains tax, and the like;
- **another country's tax law**: a tax, rate or return *of* another country ("GST in New
  Zealand", "Singapore's corporate tax rate", "UK inheritance tax", "a US federal return").
  The Australian treatment of foreign income (a foreign income tax offset, foreign residents) is
  in scope and is not matched: the country must own the tax or the return.
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
    return None
