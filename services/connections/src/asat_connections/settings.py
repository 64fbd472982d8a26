"""The connections' settings, read once by the composition (the web's) through ``asat_corpus.env_settings``.

| variable | meaning | default |
|---|---|---|
| ``ASAT_APP_URL`` | the address people reach the web at, when served from a domain | unset: ``http://localhost:<ASAT_WEB_PORT>`` |
| ``ASAT_WEB_PORT`` | the web's port (the default redirect URI's) | ``8740`` |
| ``ASAT_XERO_LOGIN_URL`` | Xero's login host (the authorize page) | ``https://login.xero.com`` |
| ``ASAT_XERO_IDENTITY_URL`` | Xero's identity host (token, revocation) | ``https://identity.xero.com`` |
| ``ASAT_XERO_API_URL`` | Xero's API host (connections, accounting) | ``https://api.xero.com`` |
| ``ASAT_XERO_SCOPES`` | the scopes asked for, space-separated | ``offline_access accounting.transactions accounting.contacts accounting.attachments`` |
| ``ASAT_HUBSPOT_API_URL`` | HubSpot's API host | ``https://api.hubapi.com`` |
| ``ASAT_CONNECTIONS_TIMEOUT`` | seconds to wait for one reply from Xero or HubSpot | ``30`` |

The provider URLs exist so that the connectors can be pointed at the fakes
(``asat_connections.testing``); in production they stay unset.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pydantic import Field

from asat_corpus.env_settings import PORT_ALLOWED, URL_ALLOWED, EnvSettings, HttpUrl, Port, read_settings

CALLBACK_PATH = "/connections/xero/callback"
DEFAULT_WEB_PORT = 8740
DEFAULT_XERO_SCOPES = "offline_access accounting.transactions accounting.contacts accounting.attachments"


class ConnectionsSettings(EnvSettings):
    app_url: HttpUrl | None = Field(
        default=None,
        validation_alias="ASAT_APP_URL",
        description="the web's public address, an http(s) URL such as https://asat.example.com.au",
    )
    web_port: Port = Field(default=DEFAULT_WEB_PORT, validation_alias="ASAT_WEB_PORT", description=PORT_ALLOWED)
    xero_login_url: HttpUrl = Field(
        default="https://login.xero.com", validation_alias="ASAT_XERO_LOGIN_URL", description=URL_ALLOWED
    )
    xero_identity_url: HttpUrl = Field(
        default="https://identity.xero.com", validation_alias="ASAT_XERO_IDENTITY_URL", description=URL_ALLOWED
    )
    xero_api_url: HttpUrl = Field(
        default="https://api.xero.com", validation_alias="ASAT_XERO_API_URL", description=URL_ALLOWED
    )
    xero_scopes: str = Field(
        default=DEFAULT_XERO_SCOPES,
        validation_alias="ASAT_XERO_SCOPES",
        description="Xero scopes separated by spaces, including offline_access",
        pattern=r"^[a-z_.]+( [a-z_.]+)*$",
    )
    hubspot_api_url: HttpUrl = Field(
        default="https://api.hubapi.com", validation_alias="ASAT_HUBSPOT_API_URL", description=URL_ALLOWED
    )
    timeout_s: float = Field(
        default=30.0,
        gt=0,
        le=300,
        validation_alias="ASAT_CONNECTIONS_TIMEOUT",
        description="a number of seconds, more than 0 and at most 300",
    )


def read_connections_settings(env: Mapping[str, str]) -> ConnectionsSettings:
    """The settings of ``env``; ``asat_corpus.env_settings.SettingsError`` names a bad variable."""
    return read_settings(ConnectionsSettings, env)


def redirect_uri(settings: ConnectionsSettings) -> str:
    """The exact redirect URI to register in the practice's Xero app."""
    base = settings.app_url or f"http://localhost:{settings.web_port}"
    return f"{base.rstrip('/')}{CALLBACK_PATH}"


@dataclass(frozen=True)
class XeroEndpoints:
    """Where the Xero connector sends each request (paths as Xero documents them)."""

    authorize: str
    token: str
    revocation: str
    connections: str
    accounting: str

    @classmethod
    def at(cls, login: str, identity: str, api: str) -> XeroEndpoints:
        login, identity, api = login.rstrip("/"), identity.rstrip("/"), api.rstrip("/")
        return cls(
            authorize=f"{login}/identity/connect/authorize",
            token=f"{identity}/connect/token",
            revocation=f"{identity}/connect/revocation",
            connections=f"{api}/connections",
            accounting=f"{api}/api.xro/2.0",
        )

    @classmethod
    def of(cls, settings: ConnectionsSettings) -> XeroEndpoints:
        return cls.at(settings.xero_login_url, settings.xero_identity_url, settings.xero_api_url)

    @classmethod
    def single_host(cls, base: str) -> XeroEndpoints:
        """Every endpoint on one host (the fake Xero)."""
        return cls.at(base, base, base)
