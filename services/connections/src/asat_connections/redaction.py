"""A logging filter that masks tokens and secrets, should any reach a log line.

The library logs ids, statuses and paths only, never a header or a body; this filter is the
second line: the web installs it on its log handlers (``install(handler)``) so that a token that
reaches a log line through someone else's code (an exception message, a URL with a ``code``) is
masked too. It masks: ``Bearer <token>``; HubSpot private-app tokens (``pat-...``); JWTs (Xero
access and id tokens, ``eyJ...``); and the values of ``access_token``, ``refresh_token``,
``id_token``, ``client_secret``, ``code``, ``code_verifier``, ``state``, ``token``, ``tokenKey``
and ``password`` in query strings, form bodies and JSON.
"""

from __future__ import annotations

import logging
import re

MASK = "[redacted]"
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}"), r"\1 " + MASK),
    (re.compile(r"\bpat-[A-Za-z0-9-]{8,}"), "pat-" + MASK),
    (re.compile(r"\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*"), MASK),
    (
        re.compile(
            r"(?i)(\"?(?:access_token|refresh_token|id_token|client_secret|code_verifier|code|state|token|tokenKey|"
            r"password)\"?\s*[=:]\s*\"?)([^\"&\s,}]{4,})"
        ),
        r"\1" + MASK,
    ),
)


def redact(text: str) -> str:
    """``text`` with every token-like value masked."""
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class RedactSecrets(logging.Filter):
    """Masks tokens in a record's message (formatted with its arguments) and exception text."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # a malformed record: leave it to the handler to report
            return True
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        if record.exc_info and record.exc_info[1] is not None:
            formatted = logging.Formatter().formatException(record.exc_info)
            record.exc_text = redact(formatted)
        return True


def install(target: logging.Handler | logging.Logger) -> RedactSecrets:
    """Add the filter to ``target`` (a handler covers every record it emits); returns it."""
    existing = next((f for f in target.filters if isinstance(f, RedactSecrets)), None)
    if existing is not None:
        return existing
    found = RedactSecrets()
    target.addFilter(found)
    return found
