"""The words documents label their fields with, as regular expressions (case-insensitive)."""

from __future__ import annotations

import re

IC = re.IGNORECASE

CREDIT_TITLE = re.compile(r"\b(credit|adjustment)\s+note\b(?!\s*(no\b|number|#))", IC)
RECEIPT_TITLE = re.compile(r"\breceipt\b(?!\s*(no\b|number|#|:))", IC)
TAX_INVOICE = re.compile(r"\btax\s+invoice\b", IC)
INVOICE_TITLE = re.compile(r"\binvoice\b", IC)

ABN = re.compile(r"(?<![\d])(\d{2}\s?\d{3}\s?\d{3}\s?\d{3})(?!\s?\d)")
ABN_LABEL = re.compile(r"\bA\.?B\.?N\.?\b", IC)
CUSTOMER_CONTEXT = re.compile(
    r"\b(customer|client|buyer|purchaser|recipient|your|bill(ed)?\s+to|invoice\s+to|sold\s+to|ship\s+to|deliver\s+to)\b",
    IC,
)
BILL_TO = re.compile(
    r"^\s*(bill(ed)?\s+to|invoice\s+to|sold\s+to|customer|client|buyer|recipient|ship\s+to|deliver\s+to|to)\b(?!\s+(no|number|#|abn)\b)\s*:?",
    IC,
)
SUPPLIER_LABEL = re.compile(r"\b(from|supplier|seller|vendor|issued\s+by|billed\s+by|sold\s+by)\s*:\s*(?P<name>.*)", IC)

INVOICE_NUMBER = re.compile(
    r"\b(?:(?:tax\s+)?invoice|inv|receipt|credit\s+note|adjustment\s+note|document|transaction|txn)\.?\s*"
    r"(?:no\.?|number|num\.?|#|id)\s*[:.#]?\s*(?P<value>[A-Z0-9][A-Z0-9\-/]*)",
    IC,
)
INVOICE_NUMBER_BARE = re.compile(r"\b(?:invoice|receipt)\s*:\s*(?P<value>[A-Z0-9][A-Z0-9\-/]*)", IC)

DATE_LABEL = re.compile(
    r"\b(?P<before>due|order|delivery|supply|payment|paid|expiry|valid|period|start|end|print(?:ed)?)?\s*"
    r"(?:(?:invoice|issue|tax\s+invoice|receipt|document|transaction|credit\s+note)\s+)?"
    r"(?P<label>date(?:\s+of\s+issue)?|dated|issued(?:\s+on)?)(?P<after>\s+due|\s+paid)?\s*:?",
    IC,
)

TOTAL = re.compile(
    r"\b(grand\s+total|total\s+amount|invoice\s+total|total\s+due|total\s+payable|total\s+credit|total|amount\s+payable)\b",
    IC,
)
NOT_TOTAL = re.compile(
    r"(sub\s*-?\s*total|total\s+gst|gst\s+total|total\s+tax|total\s*\(?\s*(ex|excl|excluding|before)\b|"
    r"balance|paid|page\s+total|carried|brought|total\s+(items|qty|quantity|savings|discount)|"
    r"gst[\s\-]+free|includes?\s+gst)",
    IC,
)
AMOUNT_DUE = re.compile(r"\b(amount\s+due|total\s+due|amount\s+payable)\b", IC)
INCLUSIVE = re.compile(r"\b(inc|incl|including|inclusive)\.?\s*(of\s+)?gst\b", IC)

SUBTOTAL = re.compile(
    r"\b(sub\s*-?\s*total|total\s*\(?\s*(ex|excl|excluding|before)\.?\s*gst|amount\s+(ex|excl)\.?\s*gst)\b", IC
)
GST_INCLUDED = re.compile(
    r"\bincludes?\s+gst\b(\s+of)?|\b(including|incl\.?|inc\.?)\s+gst\s+of\b|\bgst\s+included\b", IC
)
GST = re.compile(r"(?<![\w-])gst\b(?![\s\-]*free)", IC)
NOT_GST = re.compile(
    r"\b(inc|incl|including|inclusive|ex|excl|excluding|exclusive)\.?\s*(of\s+)?gst\b|registered|gst[\s\-]*free", IC
)
GST_FREE_PART = re.compile(
    r"\b(total\s+)?gst[\s\-]*free(\s+(items|supplies|amount|total|part|portion|sales))?\b(?!\s+item\b)", IC
)
NOT_REGISTERED = re.compile(
    r"\bnot\s+(be\s+)?registered\s+for\s+gst\b|\bno\s+gst\s+(has\s+been|is|was)\s+(charged|included)|\bnot\s+gst\s+registered\b",
    IC,
)

CURRENCY_CODE = re.compile(r"\b(AUD|USD|NZD|EUR|GBP|SGD|JPY|CAD|HKD|CNY|INR)\b")
CURRENCY_SYMBOL = {"US$": "USD", "NZ$": "NZD", "A$": "AUD", "AU$": "AUD", "€": "EUR", "£": "GBP"}

ITEM_HEADER = re.compile(r"\b(description|item|details|product|service)s?\b.*\b(amount|total|price|cost|value)\b", IC)
SUMMARY = re.compile(
    r"\b(sub\s*-?\s*total|total|gst|amount\s+due|balance|less\s+paid|amount\s+paid|paid|payment|rounding|eftpos|cash|change|visa|mastercard|card)\b",
    IC,
)
NOT_ITEM = re.compile(
    r"\b(abn|invoice\s*(no|number|#)|date|due|page\s+\d|carried\s+forward|brought\s+forward|phone|tel|email|"
    r"terms|bsb|account|po\b|purchase\s+order|order\s+(no|number)|customer\s+(no|number)|ref)\b",
    IC,
)
