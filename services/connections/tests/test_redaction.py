"""The logging filter: tokens and secrets that reach a log line are masked."""

from __future__ import annotations

import io
import logging

import pytest

from asat_connections import RedactSecrets, install, redact

JWT = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJmYWtlIn0.c2lnbmF0dXJlLWJ5dGVz"
PAT = "pat-na1-11111111-2222-3333-4444-555555555555"


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        (f"Authorization: Bearer {JWT}", JWT),
        ("Authorization: Basic MEY1QTJDNEU2QjhEMEExQzNFNUY3QjlEMUEzQzVFN0Y6c2VjcmV0", "MEY1QTJDNEU2"),
        (f"token {PAT} was pasted", PAT),
        (f"reply {JWT}", JWT),
        ("grant_type=refresh_token&refresh_token=4f1c9a0b2d3e4f5a6b7c8d9e0f1a2b3c", "4f1c9a0b2d3e"),
        ('{"access_token": "abc123def456", "expires_in": 1800}', "abc123def456"),
        ("GET /callback?code=Zq8xV3nLp0wRt6y&state=abcdefgh", "Zq8xV3nLp0wRt6y"),
        ('{"tokenKey": "pat-eu1-aaaa-bbbb-cccc"}', "aaaa-bbbb-cccc"),
        ("client_secret=fake-secret-Zq8xV3nLp0", "fake-secret-Zq8xV3nLp0"),
    ],
)
def test_redact_masks_each_kind(line: str, secret: str) -> None:
    masked = redact(line)
    assert secret not in masked and "[redacted]" in masked


def test_ordinary_lines_are_left_alone() -> None:
    line = "Xero PUT /api.xro/2.0/Invoices -> 200 (practice 3 client 12, transaction 5b0c)"
    assert redact(line) == line


def test_a_handler_with_the_filter_never_writes_a_token() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    filt = install(handler)
    assert install(handler) is filt and isinstance(filt, RedactSecrets)  # once
    logger = logging.getLogger("asat_connections.test_redaction")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        logger.info("refresh with %s for %s", f"Bearer {JWT}", "client 3")
        try:
            raise ValueError(f"provider said no to {PAT}")
        except ValueError:
            logger.exception("failed")
    finally:
        logger.removeHandler(handler)
    written = stream.getvalue()
    assert JWT not in written and PAT not in written
    assert "client 3" in written and "ValueError" in written
