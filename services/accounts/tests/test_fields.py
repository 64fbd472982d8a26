"""Emails, names, ABNs and secret names as people enter them (pure)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from asat_accounts.errors import AccountsInputError
from asat_accounts.fields import (
    client_abn,
    client_address,
    client_fields,
    display_name,
    normalise_email,
    provider_fields,
    secret_name,
)
from asat_corpus.text.abn import complete_abn, format_abn

NINE_DIGITS = st.text(alphabet="0123456789", min_size=9, max_size=9)
SEPARATORS = st.sampled_from(["", " ", "-", "."])


def test_an_email_is_trimmed_and_lower_cased() -> None:
    assert normalise_email("  Jo.Citizen@Example.COM.au ") == "jo.citizen@example.com.au"


@pytest.mark.parametrize("text", ["", "jo", "jo@", "@example.com", "jo@example", "jo smith@example.com", "a@b@c.com"])
def test_a_non_email_is_refused_with_an_example(text: str) -> None:
    with pytest.raises(AccountsInputError, match=r"is not an email address: enter it as name@example\.com\.au"):
        normalise_email(text)


def test_names_are_trimmed_and_bounded() -> None:
    assert display_name("  Smith   &  Co \n", "practice") == "Smith & Co"
    with pytest.raises(AccountsInputError, match="the client name is empty"):
        display_name("   ", "client")
    with pytest.raises(AccountsInputError, match="201 characters long; at most 200"):
        display_name("x" * 201, "practice")


@given(NINE_DIGITS, SEPARATORS)
def test_a_valid_abn_in_any_printed_form_is_kept_as_its_digits(last_nine: str, separator: str) -> None:
    abn = complete_abn(last_nine)
    printed = format_abn(abn).replace(" ", separator)
    assert client_abn(f" {printed} ") == abn


@given(NINE_DIGITS, st.integers(0, 10), st.integers(1, 9))
def test_an_abn_with_one_digit_wrong_is_refused_by_the_checksum(last_nine: str, position: int, delta: int) -> None:
    abn = complete_abn(last_nine)
    changed = abn[:position] + str((int(abn[position]) + delta) % 10) + abn[position + 1 :]
    with pytest.raises(AccountsInputError, match=r"(fails the ABN checksum|is not an ABN)"):
        client_abn(changed)


@pytest.mark.parametrize("text", ["5182475355", "518247535566", "ABN 51 824 753 556", "51 824 753 55x"])
def test_what_is_not_11_digits_is_not_an_abn(text: str) -> None:
    with pytest.raises(AccountsInputError, match="is not an ABN: an ABN is 11 digits"):
        client_abn(text)


def test_a_blank_abn_is_none_and_a_bad_one_names_lookup() -> None:
    assert client_abn(None) is None
    assert client_abn("  ") is None
    with pytest.raises(AccountsInputError, match=r"ABN 51 824 753 557 fails the ABN checksum.*ABN Lookup"):
        client_abn("51824753557")


def test_client_fields_are_checked_together() -> None:
    fields = client_fields("  Acme  Pty Ltd ", "51 824 753 556", "  met on 1 July \n")
    assert (fields.name, fields.abn, fields.notes) == ("Acme Pty Ltd", "51824753556", "met on 1 July")
    with pytest.raises(AccountsInputError, match="notes are 20001 characters"):
        client_fields("Acme", None, "x" * 20_001)


@pytest.mark.parametrize("name", ["provider.openai", "connection:xero:12", "a", "x" * 100])
def test_secret_names(name: str) -> None:
    assert secret_name(name) == name


@pytest.mark.parametrize("name", ["", "Provider", "-x", "a b", "x" * 101, "key/1"])
def test_bad_secret_names_are_refused(name: str) -> None:
    with pytest.raises(AccountsInputError, match="is not a secret name"):
        secret_name(name)


@pytest.mark.parametrize(
    ("provider", "base_url", "model", "expected"),
    [
        ("extractive", "", "", ("extractive", "", "")),
        (
            " openai_compatible ",
            " http://127.0.0.1:8000/v1 ",
            " qwen2.5 ",
            ("openai_compatible", "http://127.0.0.1:8000/v1", "qwen2.5"),
        ),
        ("anthropic", "", "claude-sonnet-4-5", ("anthropic", "", "claude-sonnet-4-5")),
    ],
)
def test_provider_fields_are_trimmed(provider: str, base_url: str, model: str, expected: tuple[str, str, str]) -> None:
    assert provider_fields(provider, base_url, model) == expected


@pytest.mark.parametrize(
    ("provider", "base_url", "model", "message"),
    [
        ("gpt4", "", "", "is not a generation provider"),
        ("ollama", "127.0.0.1:11434", "llama3", "is not an http"),
        ("ollama", "http://exa mple", "llama3", "is not an http"),
        ("ollama", "", "x" * 201, "at most 200 characters"),
        ("ollama", "", "bad\nname", "without control characters"),
    ],
)
def test_bad_provider_fields_are_refused(provider: str, base_url: str, model: str, message: str) -> None:
    with pytest.raises(AccountsInputError, match=message):
        provider_fields(provider, base_url, model)


def test_a_client_address_is_printable_and_short() -> None:
    assert client_address(" 203.0.113.9 ") == "203.0.113.9"
    assert client_address("2001:db8::1") == "2001:db8::1"
    for bad in ("", "   ", "a b", "x" * 101, "bad\x00x"):
        with pytest.raises(AccountsInputError, match="not a client address"):
            client_address(bad)
