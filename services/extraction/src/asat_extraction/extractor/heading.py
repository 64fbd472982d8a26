"""What the document is and how it is identified: kind, tax-invoice wording, number, issue date."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from asat_extraction.dates import DateMatch, document_order, find_dates, resolve
from asat_extraction.extractor.lines import Line
from asat_extraction.extractor.vocabulary import (
    CREDIT_TITLE,
    DATE_LABEL,
    INVOICE_NUMBER,
    INVOICE_NUMBER_BARE,
    RECEIPT_TITLE,
)
from asat_extraction.fields import DocumentKind

_INVOICE_WORD = re.compile(r"\binvoice\b(?!\s*(no\b|number|num\b|#|date|to\b|total|:))", re.I)
_NOT_OWN_NUMBER = re.compile(r"\b(original|relates?\s+to|against|your|customer|purchase|order|po)\b[^:]{0,12}$", re.I)
_LABEL_ONLY = re.compile(
    r"\b(?:(?:tax\s+)?invoice|inv|receipt|credit\s+note|adjustment\s+note|document)\.?\s*(?:no\.?|number|#)\s*[:.#]?\s*$",
    re.I,
)
_BAD_DATE_CONTEXT = re.compile(
    r"\b(due|order|delivery|supply|payment|paid|expiry|valid|period|until|from|to)\b\W*$", re.I
)


@dataclass(frozen=True)
class KindFound:
    kind: DocumentKind
    line: Line | None
    confidence: float


def find_kind(lines: list[Line]) -> KindFound:
    for line in lines:
        if CREDIT_TITLE.search(line.text):
            return KindFound(DocumentKind.CREDIT_NOTE, line, 0.95)
    for line in lines:
        if RECEIPT_TITLE.search(line.text):
            return KindFound(DocumentKind.RECEIPT, line, 0.9)
        if _INVOICE_WORD.search(line.text):
            return KindFound(DocumentKind.INVOICE, line, 0.9)
    return KindFound(DocumentKind.INVOICE, None, 0.4)


@dataclass(frozen=True)
class NumberFound:
    value: str
    line: Line
    confidence: float


def _credit_first(text: str, kind: DocumentKind) -> int:
    credit = bool(re.search(r"\b(credit|adjustment)\s+note", text, re.I))
    return 0 if credit == (kind is DocumentKind.CREDIT_NOTE) else 1


def find_number(lines: list[Line], kind: DocumentKind) -> NumberFound | None:
    candidates: list[tuple[int, int, NumberFound]] = []
    for position, line in enumerate(lines):
        for pattern, confidence in ((INVOICE_NUMBER, 0.95), (INVOICE_NUMBER_BARE, 0.8)):
            for match in pattern.finditer(line.text):
                if _NOT_OWN_NUMBER.search(line.text[: match.start()]):
                    continue
                value = match.group("value").rstrip("-/.")
                if any(c.isdigit() for c in value):
                    rank = _credit_first(match.group(0), kind)
                    candidates.append((rank, position, NumberFound(value, line, confidence)))
        label_only = _LABEL_ONLY.search(line.text)
        if label_only and position + 1 < len(lines) and not _NOT_OWN_NUMBER.search(line.text[: label_only.start()]):
            token = lines[position + 1].text.split()[0]
            if any(c.isdigit() for c in token) and re.fullmatch(r"[A-Z0-9][A-Z0-9\-/]*", token, re.I):
                rank = _credit_first(label_only.group(0), kind)
                candidates.append((rank, position, NumberFound(token, lines[position + 1], 0.85)))
    if not candidates:
        return None
    return min(candidates, key=lambda c: (c[0], c[1]))[2]


@dataclass(frozen=True)
class DateFound:
    value: date
    line: Line
    match: DateMatch
    confidence: float
    ambiguous: bool
    alternative: date | None


def find_issue_date(lines: list[Line]) -> DateFound | None:
    every = [match for line in lines for match in find_dates(line.text)]
    order = document_order(every)
    chosen: tuple[Line, DateMatch, float] | None = None
    for position, line in enumerate(lines):
        for label in DATE_LABEL.finditer(line.text):
            if label.group("before") or label.group("after"):
                continue
            after = [d for d in find_dates(line.text) if d.start >= label.end() and d.start - label.end() <= 30]
            if after:
                chosen = (line, after[0], 0.95)
            elif position + 1 < len(lines):
                following = find_dates(lines[position + 1].text)
                if following and following[0].start == 0:
                    chosen = (lines[position + 1], following[0], 0.85)
            if chosen:
                break
        if chosen:
            break
    if chosen is None:
        for line in lines:
            for match in find_dates(line.text):
                if not _BAD_DATE_CONTEXT.search(line.text[: match.start]) and not re.search(
                    r"\b(due|order|delivery)\b", line.text[: match.start], re.I
                ):
                    chosen = (line, match, 0.7)
                    break
            if chosen:
                break
    if chosen is None:
        return None
    line, match, confidence = chosen
    value, ambiguous = resolve(match, order)
    alternative = match.month_first if ambiguous else None
    return DateFound(value, line, match, confidence * (0.6 if ambiguous else 1.0), ambiguous, alternative)
