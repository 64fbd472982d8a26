"""What kind of answer a question asks for, and whether a text states one (pure).

Shared by the extractive generator (which subsection to quote) and the relevance features
(whether a passage can answer an amount or date question).
"""

from __future__ import annotations

import re

from asat_corpus.text.months import FULL_MONTH_PATTERN

ASKS_AMOUNT = re.compile(
    r"\b(how (?:much|many|low|high|big|large|old)|(?:above|below|under|over|at|from) what|"
    r"what (?:is |was |were |are )?(?:the )?(?:\w+ ){0,3}"
    r"(?:threshold|amount|limit|cap|rate|percentage|turnover|age|value|maximum|minimum|period|income))\b",
    re.IGNORECASE,
)
ASKS_WHEN = re.compile(r"\b(when|what date|by what date|how long)\b", re.IGNORECASE)
AMOUNT = re.compile(r"\$\s?\d|\d\s?%|\bper cent\b|\b\d+(?:,\d{3})*(?:\.\d+)?\s?(?:million|billion)\b")
TIME = re.compile(rf"\b\d{{1,2}} (?:{FULL_MONTH_PATTERN})\b|\b\d+ (?:days|months|years)\b")
