"""Credentials never reach a label, an identity or a reply."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_corpus.redaction import redact_credentials, url_without_credentials

secrets = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", min_size=12, max_size=30)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://user:pa55w0rd@openrouter.ai/api/v1", "https://openrouter.ai/api/v1"),
        ("http://admin@127.0.0.1:11434", "http://127.0.0.1:11434"),
        ("https://api.example.com/v1?api_key=abc123&model=x", "https://api.example.com/v1?api_key=***&model=x"),
        ("http://[::1]:8080/x", "http://[::1]:8080/x"),
        ("https://openrouter.ai/api/v1", "https://openrouter.ai/api/v1"),
    ],
)
def test_urls_lose_their_credentials(url: str, expected: str) -> None:
    assert url_without_credentials(url) == expected


@given(user=secrets, password=secrets)
def test_no_user_or_password_survives(user: str, password: str) -> None:
    url = f"https://{user}:{password}@host.example/v1"
    assert password not in url_without_credentials(url) and user not in url_without_credentials(url)
    said = f"could not reach {url} (Authorization: Bearer {password}; key sk-{password})"
    assert password not in redact_credentials(said) and user not in redact_credentials(said)


def test_error_texts_keep_their_meaning() -> None:
    text = (
        "connection to postgresql://asat_app:hunter2hunter2@db:5432/asat failed; "
        "401 Incorrect API key provided: sk-proj-ABCDEFGH12345678; GET /x?token=zzzzzz&page=2"
    )
    assert redact_credentials(text) == (
        "connection to postgresql://***@db:5432/asat failed; "
        "401 Incorrect API key provided: sk-***; GET /x?token=***&page=2"
    )
