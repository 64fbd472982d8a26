"""The settings: the redirect URI to register, the provider URLs, bad values named."""

from __future__ import annotations

import pytest

from asat_connections import XeroEndpoints, read_connections_settings, redirect_uri
from asat_corpus.env_settings import SettingsError


def test_the_default_redirect_uri_is_localhost_on_the_web_port() -> None:
    assert redirect_uri(read_connections_settings({})) == "http://localhost:8740/connections/xero/callback"
    assert redirect_uri(read_connections_settings({"ASAT_WEB_PORT": "9740"})) == (
        "http://localhost:9740/connections/xero/callback"
    )


def test_asat_app_url_wins_when_served_from_a_domain() -> None:
    settings = read_connections_settings({"ASAT_APP_URL": "https://asat.example.com.au/", "ASAT_WEB_PORT": "9740"})
    assert redirect_uri(settings) == "https://asat.example.com.au/connections/xero/callback"


def test_the_live_endpoints_by_default_and_one_host_for_the_fake() -> None:
    live = XeroEndpoints.of(read_connections_settings({}))
    assert live.authorize == "https://login.xero.com/identity/connect/authorize"
    assert live.token == "https://identity.xero.com/connect/token"
    assert live.revocation == "https://identity.xero.com/connect/revocation"
    assert live.connections == "https://api.xero.com/connections"
    assert live.accounting == "https://api.xero.com/api.xro/2.0"
    fake = XeroEndpoints.single_host("http://127.0.0.1:5000/")
    assert fake.token == "http://127.0.0.1:5000/connect/token"
    assert read_connections_settings({}).hubspot_api_url == "https://api.hubapi.com"


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("ASAT_APP_URL", "asat.example.com", "ASAT_APP_URL='asat.example.com' is not allowed"),
        ("ASAT_XERO_API_URL", "ftp://x", "use an http(s) URL"),
        ("ASAT_CONNECTIONS_TIMEOUT", "0", "more than 0 and at most 300"),
        ("ASAT_XERO_SCOPES", "offline_access, accounting", "scopes separated by spaces"),
        ("ASAT_WEB_PORT", "99999", "port number"),
    ],
)
def test_a_bad_value_is_refused_naming_the_variable(variable: str, value: str, says: str) -> None:
    with pytest.raises(SettingsError, match=says.replace("(", r"\(").replace(")", r"\)")):
        read_connections_settings({variable: value})
