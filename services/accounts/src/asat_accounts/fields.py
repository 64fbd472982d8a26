"""The rules for values entered by people (pure): emails, practice and client names, ABNs, notes,
secret names. Each function returns the normalised value or raises ``AccountsInputError`` saying
what is wrong and what to enter instead.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from asat_accounts.errors import AccountsInputError
from asat_accounts.model import ClientFields, ResearchHistoryEntry
from asat_corpus.contracts.provider import MAX_BASE_URL_CHARS, MAX_MODEL_CHARS, PROVIDERS
from asat_corpus.text.abn import abn_digits, abn_is_valid, format_abn

MAX_EMAIL = 254
MAX_NAME = 200
MAX_NOTES = 20_000
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_SECRET_NAME = re.compile(r"^[a-z0-9][a-z0-9_.:-]{0,99}$")


def normalise_email(text: str) -> str:
    """``text`` trimmed and lower-cased, when it looks like one email address."""
    email = text.strip().lower()
    if not _EMAIL.match(email):
        raise AccountsInputError(f"{text.strip()!r} is not an email address: enter it as name@example.com.au")
    if len(email) > MAX_EMAIL:
        raise AccountsInputError(f"the email address is {len(email)} characters long; at most {MAX_EMAIL} are allowed")
    return email


def display_name(text: str, what: str) -> str:
    """A practice's or client's name: trimmed, inner whitespace runs made one space, 1..200 characters."""
    name = " ".join(text.split())
    if not name:
        raise AccountsInputError(f"the {what} name is empty: enter a name")
    if len(name) > MAX_NAME:
        raise AccountsInputError(f"the {what} name is {len(name)} characters long; at most {MAX_NAME} are allowed")
    return name


def client_abn(text: str | None) -> str | None:
    """An ABN as entered (``51 824 753 556``, ``51-824-753-556``), as its 11 digits; None when blank.

    The checksum is the ATO's modulus-89 rule (``asat_corpus.text.abn``).
    """
    if text is None or not text.strip():
        return None
    digits = abn_digits(text)
    if digits is None or any(not (c.isdigit() or c in " -.") for c in text.strip()):
        raise AccountsInputError(
            f"{text.strip()!r} is not an ABN: an ABN is 11 digits (e.g. 51 824 753 556); leave it blank if unknown"
        )
    if not abn_is_valid(digits):
        raise AccountsInputError(
            f"ABN {format_abn(digits)} fails the ABN checksum: a digit is mistyped; check it on ABN Lookup"
        )
    return digits


def client_fields(name: str, abn: str | None = None, notes: str = "") -> ClientFields:
    """A client's name, ABN and notes, checked and normalised."""
    if len(notes) > MAX_NOTES:
        raise AccountsInputError(f"the notes are {len(notes)} characters long; at most {MAX_NOTES} are allowed")
    return ClientFields(name=display_name(name, "client"), abn=client_abn(abn), notes=notes.strip())


def secret_name(text: str) -> str:
    """A secret's name (``provider.openai``, ``connection:xero:12``): lower case, 1..100 characters."""
    if not _SECRET_NAME.match(text):
        raise AccountsInputError(
            f"{text!r} is not a secret name: use 1 to 100 lower-case letters, digits and _ . : - "
            "starting with a letter or digit (e.g. provider.openai)"
        )
    return text


PROVIDER_KEY_SECRET = "provider.api_key"  # the sealed secret holding the practice's provider API key


def provider_fields(provider: str, base_url: str, model: str) -> tuple[str, str, str]:
    """A practice's generation provider (one of ``asat_corpus.contracts.provider.PROVIDERS``), its
    base URL (empty, or an http(s) URL) and model name (empty, or up to 200 characters), trimmed.
    Whether the provider needs a base URL or a model is for the provider check to say."""
    kind = provider.strip()
    if kind not in PROVIDERS:
        raise AccountsInputError(f"{kind!r} is not a generation provider: choose one of {', '.join(PROVIDERS)}")
    url = base_url.strip()
    if url:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc or any(c.isspace() for c in url):
            raise AccountsInputError(
                f"{url!r} is not an http(s) URL: enter the API root, e.g. https://api.openai.com/v1, or leave it blank"
            )
        if len(url) > MAX_BASE_URL_CHARS:
            raise AccountsInputError(f"the base URL is {len(url)} characters long; at most {MAX_BASE_URL_CHARS}")
    name = model.strip()
    if len(name) > MAX_MODEL_CHARS or any(ord(c) < 0x20 for c in name):
        raise AccountsInputError(
            f"the model name must be at most {MAX_MODEL_CHARS} characters without control characters"
        )
    return kind, url, name


MAX_ADDRESS = 100


def client_address(text: str) -> str:
    """A client's network address as the web sees it (an IP address), for rate limiting."""
    address = text.strip()
    if not address or len(address) > MAX_ADDRESS or any(not c.isprintable() or c.isspace() for c in address):
        raise AccountsInputError(f"{text!r} is not a client address (1 to {MAX_ADDRESS} printable characters)")
    return address


MAX_HISTORY_QUESTION = 4000  # research's limit is 2,000; a question reworded for another year may grow
MAX_HISTORY_SEARCH = 200
MAX_HISTORY_ROWS = 500
MAX_AUDIT_ID = 2**63 - 1  # a bigint: a larger id names no row
_DECISION = re.compile(r"^[a-z][a-z_]{0,59}$")


def history_entry(entry: ResearchHistoryEntry) -> ResearchHistoryEntry:
    """A research history row, checked: positive ids, a question of 1 to 4,000 characters, a period
    and corpus generation of at most 200, a decision's value (``answer``, ``abstain_...``), a time
    with its zone. The question is kept exactly as sent."""
    positive_id(entry.audit_id, "audit row")
    if entry.audit_id > MAX_AUDIT_ID:
        raise AccountsInputError(f"audit row id {entry.audit_id} is beyond the audit log's ids")
    positive_id(entry.user_id, "user")
    if entry.client_id is not None:
        positive_id(entry.client_id, "client")
    if not entry.question.strip() or len(entry.question) > MAX_HISTORY_QUESTION:
        raise AccountsInputError(
            f"the question of audit row {entry.audit_id} must be 1 to {MAX_HISTORY_QUESTION} characters "
            f"(it is {len(entry.question)})"
        )
    for what, text in (("period", entry.period), ("corpus generation", entry.corpus_generation)):
        if len(text) > MAX_NAME or any(not c.isprintable() for c in text):
            raise AccountsInputError(
                f"the {what} of audit row {entry.audit_id} must be at most {MAX_NAME} printable characters"
            )
    if not entry.period.strip():
        raise AccountsInputError(f"the period of audit row {entry.audit_id} is empty: say it in words")
    if not _DECISION.match(entry.decision):
        raise AccountsInputError(f"{entry.decision!r} is not a research decision (e.g. answer, abstain_low_relevance)")
    if entry.asked_at.tzinfo is None:
        raise AccountsInputError("the time a question was asked needs its time zone (UTC)")
    return entry


def history_search(contains: str | None, last: int) -> tuple[str | None, int]:
    """A history search: the text the question contains (trimmed; None or blank: any), at most 200
    characters, and how many rows, 1 to 500."""
    text = contains.strip() if contains is not None else ""
    if len(text) > MAX_HISTORY_SEARCH:
        raise AccountsInputError(f"search for at most {MAX_HISTORY_SEARCH} characters (this is {len(text)})")
    if isinstance(last, bool) or not isinstance(last, int) or not 1 <= last <= MAX_HISTORY_ROWS:
        raise AccountsInputError(f"ask for 1 to {MAX_HISTORY_ROWS} history rows, not {last!r}")
    return (text or None), last


def positive_id(value: int, what: str) -> str:
    """``value`` as text when it is a positive integer id (not a bool); else ``AccountsInputError``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise AccountsInputError(f"{what} id must be a positive integer, got {value!r}")
    return str(value)


def require_password_hash(password_hash: str) -> None:
    """Refuse anything but an Argon2id hash (a store is never given a password)."""
    if not password_hash.startswith("$argon2id$"):
        raise AccountsInputError(
            "expected an Argon2id password hash (asat_accounts.passwords.hash_password), not a password"
        )
