"""Building the connectors: one call for the web's composition (and the tests).

    settings = read_connections_settings(os.environ)
    connections = build_connections(settings, accounts, PostgresConnectionsStore.from_env(os.environ),
                                    HttpTransactionSource(extraction_url, service_token))

Each provider gets its own ``httpx.Client`` (timeout ``ASAT_CONNECTIONS_TIMEOUT``) and the same
retry policy, clock and sleep (injected in tests, so a ``Retry-After`` is recorded, not waited).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import httpx

from asat_accounts import AccountsStore
from asat_connections.http import ProviderHttp
from asat_connections.hubspot import HubSpotConnector
from asat_connections.rules.oauth import RandomBytes
from asat_connections.rules.retry import RetryPolicy
from asat_connections.settings import ConnectionsSettings, XeroEndpoints, redirect_uri
from asat_connections.store import ConnectionsStore
from asat_connections.timing import Clock, Sleep, system_clock, system_sleep
from asat_connections.transactions import TransactionSource
from asat_connections.xero import XeroConnector
from asat_connections.xero_push import XeroPusher


@dataclass
class Connections:
    """What the pages use: ``xero`` (app, connect, tokens, disconnect), ``push`` (bills),
    ``hubspot`` (token, import)."""

    xero: XeroConnector
    push: XeroPusher
    hubspot: HubSpotConnector
    settings: ConnectionsSettings

    def close(self) -> None:
        self.xero.http.client.close()
        self.hubspot.http.client.close()


def build_connections(
    settings: ConnectionsSettings,
    accounts: AccountsStore,
    store: ConnectionsStore,
    source: TransactionSource,
    *,
    clock: Clock = system_clock,
    sleep: Sleep = system_sleep,
    policy: RetryPolicy | None = None,
    random_bytes: RandomBytes = os.urandom,
) -> Connections:
    retry = policy or RetryPolicy()
    xero_http = ProviderHttp("Xero", httpx.Client(timeout=settings.timeout_s), retry, clock, sleep)
    hubspot_http = ProviderHttp("HubSpot", httpx.Client(timeout=settings.timeout_s), retry, clock, sleep)
    xero = XeroConnector(
        accounts,
        store,
        XeroEndpoints.of(settings),
        redirect_uri(settings),
        xero_http,
        scopes=tuple(settings.xero_scopes.split()),
        random_bytes=random_bytes,
    )
    return Connections(
        xero=xero,
        push=XeroPusher(xero, store, source),
        hubspot=HubSpotConnector(accounts, store, settings.hubspot_api_url, hubspot_http),
        settings=settings,
    )
