"""Who the parties are: the supplier's ABN and name, and whether the buyer is identified.

The supplier's ABN is the first ABN on the document that is not in a customer context: not labelled
for the customer ("Customer ABN", "Your ABN") and not inside the block under "Bill to" and the like.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from asat_corpus.text.abn import abn_digits
from asat_extraction.extractor.lines import Line
from asat_extraction.extractor.vocabulary import (
    ABN,
    ABN_LABEL,
    BILL_TO,
    CUSTOMER_CONTEXT,
    ITEM_HEADER,
    SUPPLIER_LABEL,
)

BILL_TO_BLOCK_LINES = 4
_WINDOW = 28
_TITLE = re.compile(r"\b(tax\s+invoice|invoice|receipt|credit\s+note|adjustment\s+note|statement)\b.*$", re.I)
_TITLE_ONLY = re.compile(
    r"^(tax\s+invoice|invoice|receipt|credit\s+note|adjustment\s+note|original|copy|duplicate|page\s+\d+(\s+of\s+\d+)?|[\W_]+)$",
    re.I,
)
_NOT_NAME = re.compile(
    r"(@|www\.|https?:|\b(phone|ph|tel|mob|mobile|fax|email|web|abn|acn|po\s+box|gpo\s+box|date|bill(ed)?\s+to|"
    r"invoice\s+to|sold\s+to|thank|welcome|dear|hi|hello|subject|attention|attn)\b|^\d)",
    re.I,
)
_ADDRESS = re.compile(
    r"\b(NSW|VIC|QLD|WA|SA|TAS|ACT|NT)\b\s*\d{4}|\b\d+\s+\w+(\s\w+)?\s+(st|street|rd|road|ave|avenue|lane|ln|pde|parade|"
    r"hwy|highway|drive|dr|pl|place|cres|crescent|way|blvd|boulevard|tce|terrace|ct|court)\b",
    re.I,
)
_COMPANY = re.compile(r"\b(pty\.?\s+ltd|ltd|limited|inc|llc|co\.|trust|group|partners|& sons)\b", re.I)
_TRAILING_LABELS = re.compile(r"\s+\b(ABN|A\.B\.N\.|ACN|invoice\s*(no|number|#)|date|tax\s+invoice|receipt)\b.*$", re.I)


@dataclass(frozen=True)
class AbnFound:
    digits: str
    line: Line
    start: int
    labelled: bool
    customer: bool


@dataclass(frozen=True)
class NameFound:
    name: str
    line: Line
    confidence: float


Spot = tuple[int, int]  # (line index, column): one cell of the document


def bill_to_cells(lines: list[Line]) -> set[Spot]:
    """Cells of the buyer block: a cell starting "Bill to" etc. and the cells below it in its column."""
    inside: set[Spot] = set()
    for position, line in enumerate(lines):
        for cell in line.cells:
            if not BILL_TO.match(cell.text):
                continue
            inside.add((line.index, cell.column))
            for following in lines[position + 1 : position + 1 + BILL_TO_BLOCK_LINES]:
                if ITEM_HEADER.search(following.text) or SUPPLIER_LABEL.search(following.text):
                    break
                below = following.column(cell.column)
                if below is not None:
                    inside.add((following.index, cell.column))
    return inside


def in_block(line: Line, offset: int, block: set[Spot]) -> bool:
    cell = line.cell_at(offset)
    return cell is not None and (line.index, cell.column) in block


def find_abns(lines: list[Line], buyer_block: set[Spot]) -> list[AbnFound]:
    found: list[AbnFound] = []
    for line in lines:
        for match in ABN.finditer(line.text):
            digits = abn_digits(match.group(1))
            if digits is None:
                continue
            cell = line.cell_at(match.start())
            cell_start = cell.start if cell else 0
            before = line.text[max(cell_start, match.start() - _WINDOW) : match.start()]
            labelled = bool(ABN_LABEL.search(before))
            if not labelled and not re.fullmatch(r"\d{2} \d{3} \d{3} \d{3}", match.group(1)):
                continue  # an unlabelled run of digits is a phone or account number, not an ABN
            customer = bool(CUSTOMER_CONTEXT.search(before)) or in_block(line, match.start(), buyer_block)
            found.append(AbnFound(digits, line, match.start(), labelled, customer))
    return found


def _clean_name(text: str) -> str | None:
    text = _TRAILING_LABELS.sub("", text)
    title = _TITLE.search(text)
    if title and title.start() > 0:
        text = text[: title.start()]
    text = text.strip(" -–|·:,")
    if len(re.findall(r"[A-Za-z]", text)) < 2 or _TITLE_ONLY.match(text):
        return None
    if _NOT_NAME.search(text) or _ADDRESS.search(text):
        return None
    return text


def _labelled_name(lines: list[Line], buyer_block: set[Spot]) -> NameFound | None:
    for position, line in enumerate(lines):
        for cell in line.cells:
            match = SUPPLIER_LABEL.match(cell.text)
            if match is None or (line.index, cell.column) in buyer_block:
                continue
            name = _clean_name(match.group("name") or "")
            if name:
                return NameFound(name, line, 0.9)
            if position + 1 < len(lines):
                below = lines[position + 1].column(cell.column)
                name = _clean_name(below.text) if below else None
                if name:
                    return NameFound(name, lines[position + 1], 0.9)
    return None


def supplier_name(lines: list[Line], supplier_abn: AbnFound | None, buyer_block: set[Spot]) -> NameFound | None:
    """The supplier's name: a "From:"/"Supplier:" label, the text before the ABN in its cell, the
    nearest name-like line above the ABN, or the first name-like line of the document."""
    labelled = _labelled_name(lines, buyer_block)
    if labelled is not None:
        return labelled
    if supplier_abn is not None:
        cell = supplier_abn.line.cell_at(supplier_abn.start)
        on_line = _clean_name(supplier_abn.line.text[cell.start if cell else 0 : supplier_abn.start])
        if on_line:
            return NameFound(on_line, supplier_abn.line, 0.85)
        column = cell.column if cell else 0
        position = lines.index(supplier_abn.line)
        for above in reversed(lines[max(0, position - 4) : position]):
            above_cell = above.column(column) or (above.cells[0] if above.cells else None)
            if above_cell is None or (above.index, above_cell.column) in buyer_block:
                continue
            name = _clean_name(above_cell.text)
            if name:
                return NameFound(name, above, 0.85 if _COMPANY.search(name) else 0.75)
    for line in lines[:8]:
        for cell in line.cells[:1]:
            if (line.index, cell.column) in buyer_block:
                continue
            name = _clean_name(cell.text)
            if name:
                return NameFound(name, line, 0.8 if _COMPANY.search(name) else 0.65)
    return None


def buyer_name(lines: list[Line], buyer_block: set[Spot]) -> str | None:
    for position, line in enumerate(lines):
        for cell in line.cells:
            match = BILL_TO.match(cell.text)
            if not match:
                continue
            rest = _TRAILING_LABELS.sub("", cell.text[match.end() :]).strip(" :")
            if len(re.findall(r"[A-Za-z]", rest)) >= 2:
                return rest
            if position + 1 < len(lines):
                below = lines[position + 1].column(cell.column)
                if below is not None:
                    return _TRAILING_LABELS.sub("", below.text).strip() or None
    return None
