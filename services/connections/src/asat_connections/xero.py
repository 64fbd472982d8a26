"""Xero, bring-your-own app: the practice's app credentials, the OAuth 2.0 dance, tokens, sessions.

Endpoints and shapes: Xero's identity service (``xero-identity.yaml`` of XeroAPI/Xero-OpenAPI:
``GET /connections``, ``DELETE /connections/{id}``; the authorization-code flow with
``https://login.xero.com/identity/connect/authorize`` and ``https://identity.xero.com/connect/token``)
and the OAuth 2.0 guide (PKCE, refresh-token rotation, ``/connect/revocation``).

- **App.** The practice pastes its own Xero app's client id and secret (developer.xero.com → My
  Apps, a "Web app" whose redirect URI is ``redirect_uri``); both are sealed secrets.
- **Connect a client.** ``start_authorisation`` makes a PKCE verifier (sealed) and a ``state``
  (only its digest kept, 15 minutes, single use) and returns the URL to send the browser to.
  ``finish_authorisation`` takes the callback's query: the state must name a dance of this
  practice; the code is exchanged with the verifier, the redirect URI and the app's credentials
  (HTTP Basic); ``GET /connections`` (filtered by the access token's ``authentication_event_id``)
  gives the organisations this consent authorised: one is bound to the client; several ask the
  person to choose (``choose_organisation``); one connected to another client is refused.
- **Tokens.** Sealed (``connection:xero:<client>:access`` / ``:refresh``); the access token's expiry
  is a column. A token due within a minute is refreshed before use, and ``refresh_due`` refreshes
  those due within ten (the web calls it periodically). A refresh Xero refuses (``invalid_grant``:
  revoked, unused for 60 days; ``invalid_client``: the app's secret changed) marks the connection
  ``needs_reauthorisation`` with the reason; it is then neither used nor refreshed until connected
  again. A 401 from the API is answered by one refresh and one retry; a 403 (the organisation
  disconnected the app) marks it too.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import os
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

import httpx

from asat_accounts import AccountsStore, SecretValue
from asat_connections import secrets as names
from asat_connections.errors import (
    AuthorisationError,
    ConnectionConflictError,
    ConnectionsInputError,
    NeedsReauthorisationError,
    NotConnectedError,
    ProviderRefusedError,
    ProviderUnavailableError,
)
from asat_connections.http import ProviderHttp
from asat_connections.model import (
    AuthorisationStart,
    ConnectionStatus,
    PendingAuthorisation,
    RefreshOutcome,
    XeroAppView,
    XeroConnection,
    XeroTenant,
)
from asat_connections.rules.oauth import (
    RandomBytes,
    authorize_url,
    callback_problem,
    code_challenge,
    new_code_verifier,
    new_state,
    state_digest,
)
from asat_connections.rules.tokens import BACKGROUND_MARGIN, USE_MARGIN, expires_at, refresh_due
from asat_connections.settings import DEFAULT_XERO_SCOPES, XeroEndpoints
from asat_connections.store import ConnectionsStore
from asat_connections.timing import Clock

log = logging.getLogger("asat_connections.xero")

AUTHORISATION_TTL = timedelta(minutes=15)
_CREDENTIAL = re.compile(r"^[\x21-\x7e]{1,500}$")  # printable ASCII, no spaces


@dataclass(frozen=True)
class DisconnectReport:
    client_id: int
    revoked_at_xero: bool  # Xero was told (the app's access to the organisation ended)
    message: str


class XeroConnector:
    """The Xero side of Settings → Connections, for every practice (state is per practice)."""

    def __init__(
        self,
        accounts: AccountsStore,
        store: ConnectionsStore,
        endpoints: XeroEndpoints,
        redirect_uri: str,
        http: ProviderHttp,
        scopes: tuple[str, ...] = tuple(DEFAULT_XERO_SCOPES.split()),
        random_bytes: RandomBytes = os.urandom,
    ) -> None:
        self.accounts = accounts
        self.store = store
        self.endpoints = endpoints
        self.redirect_uri = redirect_uri
        self.http = http
        self.scopes = scopes
        self._random = random_bytes
        self._locks_guard = threading.Lock()
        self._locks: dict[tuple[int, int], threading.Lock] = {}

    @property
    def clock(self) -> Clock:
        return self.http.clock

    # --- the practice's Xero app ---------------------------------------------------------------

    def app(self, practice_id: int) -> XeroAppView:
        client_hint = names.hint_of(self.accounts, practice_id, names.XERO_APP_CLIENT_ID)
        secret_hint = names.hint_of(self.accounts, practice_id, names.XERO_APP_CLIENT_SECRET)
        return XeroAppView(
            configured=bool(client_hint and secret_hint),
            client_id_hint=client_hint,
            client_secret_hint=secret_hint,
            redirect_uri=self.redirect_uri,
            scopes=self.scopes,
        )

    def save_app(self, practice_id: int, client_id: str, client_secret: str) -> XeroAppView:
        """Save the practice's Xero app credentials (as pasted; checked for form only: Xero checks
        them at the first connection)."""
        cid, secret = client_id.strip(), client_secret.strip()
        if not _CREDENTIAL.match(cid):
            raise ConnectionsInputError(
                "the Xero client id is empty or has spaces: copy it from developer.xero.com → My Apps → your app → "
                "Configuration (32 characters)"
            )
        if not _CREDENTIAL.match(secret):
            raise ConnectionsInputError(
                "the Xero client secret is empty or has spaces: generate one at developer.xero.com → My Apps → "
                "your app → Configuration → Generate a secret, and paste it whole"
            )
        if secret == cid:
            raise ConnectionsInputError("the client secret is the client id: paste the secret Xero generated")
        self.accounts.save_secret(practice_id, names.XERO_APP_CLIENT_ID, cid)
        self.accounts.save_secret(practice_id, names.XERO_APP_CLIENT_SECRET, secret)
        log.info("xero: practice %s saved its Xero app", practice_id)
        return self.app(practice_id)

    def delete_app(self, practice_id: int) -> XeroAppView:
        """Remove the app's credentials (connections stay, but cannot be refreshed until saved again)."""
        self.accounts.delete_secret(practice_id, names.XERO_APP_CLIENT_ID)
        self.accounts.delete_secret(practice_id, names.XERO_APP_CLIENT_SECRET)
        return self.app(practice_id)

    def _app_credentials(self, practice_id: int) -> tuple[str, SecretValue]:
        cid = self.accounts.reveal_secret(practice_id, names.XERO_APP_CLIENT_ID)
        secret = self.accounts.reveal_secret(practice_id, names.XERO_APP_CLIENT_SECRET)
        if cid is None or secret is None:
            raise NotConnectedError(
                "no Xero app is saved for the practice: paste your Xero app's client id and secret in Settings → "
                f"Connections (register {self.redirect_uri} as its redirect URI)"
            )
        return cid.reveal(), secret

    # --- connecting a client -------------------------------------------------------------------

    def start_authorisation(self, practice_id: int, client_id: int) -> AuthorisationStart:
        """The Xero authorisation URL to send the browser to, for connecting ``client_id``."""
        self._require_client(practice_id, client_id)
        app_client_id, _ = self._app_credentials(practice_id)
        verifier = new_code_verifier(self._random)
        state = new_state(self._random)
        now = self.clock()
        self.accounts.save_secret(practice_id, names.xero_verifier(client_id), verifier)
        pending = PendingAuthorisation(client_id, state_digest(state), self.redirect_uri, now, now + AUTHORISATION_TTL)
        self.store.save_pending(practice_id, pending)
        url = authorize_url(
            self.endpoints.authorize, app_client_id, self.redirect_uri, self.scopes, state, code_challenge(verifier)
        )
        log.info("xero: practice %s client %s: authorisation started", practice_id, client_id)
        return AuthorisationStart(client_id, url, pending.expires_at)

    def finish_authorisation(self, practice_id: int, params: Mapping[str, str]) -> XeroConnection:
        """Complete the dance from the callback's query (``code``, ``state``, or ``error``)."""
        state = params.get("state", "").strip()
        pending = self.store.take_pending(practice_id, state_digest(state)) if state else None
        if pending is None:
            raise AuthorisationError(
                "this Xero callback does not match a connection started here (unknown, used or from another "
                "practice's session): start connecting again from Settings → Connections"
            )
        client_id = pending.client_id
        verifier = self.accounts.reveal_secret(practice_id, names.xero_verifier(client_id))
        self.accounts.delete_secret(practice_id, names.xero_verifier(client_id))
        problem = callback_problem(params)
        if problem is not None:
            raise AuthorisationError(f"Xero did not connect client {client_id}: {problem}")
        now = self.clock()
        if now >= pending.expires_at:
            raise AuthorisationError(
                f"the Xero connection for client {client_id} was started more than "
                f"{int(AUTHORISATION_TTL.total_seconds() // 60)} minutes ago: start connecting again"
            )
        if verifier is None:
            raise AuthorisationError(f"the PKCE verifier for client {client_id} is missing: start connecting again")
        app_client_id, app_secret = self._app_credentials(practice_id)
        try:
            response = self.http.send(
                "POST",
                self.endpoints.token,
                idempotent=False,
                auth=(app_client_id, app_secret.reveal()),
                data={
                    "grant_type": "authorization_code",
                    "code": params["code"].strip(),
                    "redirect_uri": pending.redirect_uri,
                    "code_verifier": verifier.reveal(),
                },
            )
        except ProviderUnavailableError as exc:  # the code is spent either way: a new dance is needed
            raise AuthorisationError(f"{exc}. Start connecting client {client_id} again") from None
        if response.status_code != 200:
            raise AuthorisationError(
                f"Xero would not exchange the authorisation code for client {client_id}: "
                f"{_oauth_error(response)}. {_oauth_hint(response, self.redirect_uri)}"
            )
        tokens = _token_reply(response)
        tenants = self._authorised_tenants(tokens["access_token"])
        if not tenants:
            raise AuthorisationError(
                "Xero authorised no organisation: connect again and tick the client's organisation on Xero's "
                "consent screen"
            )
        choice = tenants[0] if len(tenants) == 1 else None
        if choice is not None:
            self._refuse_taken(practice_id, client_id, choice)
        self._save_tokens(practice_id, client_id, tokens)
        existing = self.store.xero_connection(practice_id, client_id)
        connection = XeroConnection(
            client_id=client_id,
            status=ConnectionStatus.CONNECTED if choice is not None else ConnectionStatus.CHOOSE_ORGANISATION,
            tenant=choice,
            access_expires_at=expires_at(now, tokens.get("expires_in")),
            problem="",
            connected_at=now if existing is None or existing.tenant != choice else existing.connected_at,
            updated_at=now,
            choices=() if choice is not None else tuple(tenants),
        )
        saved = self.store.save_xero_connection(practice_id, connection)
        log.info("xero: practice %s client %s: %s", practice_id, client_id, saved.status.value)
        return saved

    def choose_organisation(self, practice_id: int, client_id: int, tenant_id: str) -> XeroConnection:
        """Bind the organisation the person chose (when the consent authorised several)."""
        connection = self._connection_or_raise(practice_id, client_id)
        if connection.status is not ConnectionStatus.CHOOSE_ORGANISATION:
            raise ConnectionsInputError(f"client {client_id}'s Xero connection has no organisation left to choose")
        chosen = next((t for t in connection.choices if t.tenant_id == tenant_id), None)
        if chosen is None:
            offered = ", ".join(f"{t.name} ({t.tenant_id})" for t in connection.choices)
            raise ConnectionsInputError(f"organisation {tenant_id!r} was not authorised; choose one of: {offered}")
        self._refuse_taken(practice_id, client_id, chosen)
        now = self.clock()
        return self.store.save_xero_connection(
            practice_id,
            replace(connection, status=ConnectionStatus.CONNECTED, tenant=chosen, choices=(), updated_at=now),
        )

    def _refuse_taken(self, practice_id: int, client_id: int, tenant: XeroTenant) -> None:
        for other in self.store.xero_connections(practice_id):
            if other.client_id != client_id and other.tenant is not None and other.tenant.tenant_id == tenant.tenant_id:
                raise ConnectionConflictError(
                    f"Xero organisation {tenant.name!r} is already connected to client {other.client_id}: one "
                    "organisation per client; disconnect it there first"
                )

    def _authorised_tenants(self, access_token: str) -> list[XeroTenant]:
        params = {}
        event = _jwt_claim(access_token, "authentication_event_id")
        if isinstance(event, str) and event:
            params["authEventId"] = event
        response = self.http.send(
            "GET", self.endpoints.connections, idempotent=True, params=params, headers=_bearer(access_token)
        )
        if response.status_code != 200:
            raise AuthorisationError(f"Xero did not list the authorised organisations: {_api_error(response)}")
        body = _json(response)
        if not isinstance(body, list):
            raise AuthorisationError("Xero's GET /connections answered something other than a list")
        tenants = []
        for item in body:
            if isinstance(item, dict) and item.get("tenantType", "ORGANISATION") == "ORGANISATION":
                tenants.append(
                    XeroTenant(str(item.get("tenantId", "")), str(item.get("tenantName", "")), str(item.get("id", "")))
                )
        return [t for t in tenants if t.tenant_id]

    # --- state ---------------------------------------------------------------------------------

    def connection(self, practice_id: int, client_id: int) -> XeroConnection | None:
        return self.store.xero_connection(practice_id, client_id)

    def connections(self, practice_id: int) -> tuple[XeroConnection, ...]:
        return self.store.xero_connections(practice_id)

    def _connection_or_raise(self, practice_id: int, client_id: int) -> XeroConnection:
        connection = self.store.xero_connection(practice_id, client_id)
        if connection is None:
            raise NotConnectedError(
                f"client {client_id} is not connected to Xero: connect it in Settings → Connections"
            )
        return connection

    def _require_client(self, practice_id: int, client_id: int) -> None:
        client = self.accounts.client(practice_id, client_id)
        if client is None:
            raise ConnectionsInputError(f"the practice has no client {client_id}")
        if client.archived:
            raise ConnectionsInputError(f"client {client.name!r} is archived: restore it before connecting it to Xero")

    # --- tokens --------------------------------------------------------------------------------

    def _lock(self, practice_id: int, client_id: int) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault((practice_id, client_id), threading.Lock())

    def _save_tokens(self, practice_id: int, client_id: int, tokens: Mapping[str, Any]) -> None:
        self.accounts.save_secret(practice_id, names.xero_access(client_id), str(tokens["access_token"]))
        refresh = tokens.get("refresh_token")
        if isinstance(refresh, str) and refresh:
            self.accounts.save_secret(practice_id, names.xero_refresh(client_id), refresh)

    def access_token(self, practice_id: int, client_id: int, force_refresh: bool = False) -> tuple[XeroTenant, str]:
        """The organisation and a current access token for ``client_id``, refreshed first when due
        (or ``force_refresh``). ``NeedsReauthorisationError`` when the connection is not usable."""
        with self._lock(practice_id, client_id):
            connection = self._connection_or_raise(practice_id, client_id)
            _require_usable(connection)
            assert connection.tenant is not None  # a connected row has one (checked by the table)
            token = self.accounts.reveal_secret(practice_id, names.xero_access(client_id))
            if force_refresh or token is None or refresh_due(connection.access_expires_at, self.clock(), USE_MARGIN):
                return connection.tenant, self._refresh_locked(practice_id, connection)
            return connection.tenant, token.reveal()

    def refresh(self, practice_id: int, client_id: int) -> XeroConnection:
        """Refresh ``client_id``'s tokens now."""
        self.access_token(practice_id, client_id, force_refresh=True)
        return self._connection_or_raise(practice_id, client_id)

    def refresh_due(self, practice_id: int, margin: timedelta = BACKGROUND_MARGIN) -> tuple[RefreshOutcome, ...]:
        """Refresh every connected client whose access token expires within ``margin`` (the web's
        background task). Connections needing re-authorisation are skipped, never retried."""
        outcomes = []
        now = self.clock()
        for connection in self.store.xero_connections(practice_id):
            if connection.status is not ConnectionStatus.CONNECTED:
                continue
            if not refresh_due(connection.access_expires_at, now, margin):
                continue
            try:
                self.access_token(practice_id, connection.client_id, force_refresh=True)
                outcomes.append(RefreshOutcome(connection.client_id, True, ConnectionStatus.CONNECTED))
            except NeedsReauthorisationError as exc:
                outcomes.append(
                    RefreshOutcome(connection.client_id, False, ConnectionStatus.NEEDS_REAUTHORISATION, str(exc))
                )
            except (ProviderUnavailableError, ProviderRefusedError, NotConnectedError) as exc:
                outcomes.append(RefreshOutcome(connection.client_id, False, connection.status, str(exc)))
        return tuple(outcomes)

    def refresh_all(self, margin: timedelta = BACKGROUND_MARGIN) -> dict[int, tuple[RefreshOutcome, ...]]:
        """``refresh_due`` for every practice (``AccountsStore.practice_ids``)."""
        return {p: self.refresh_due(p, margin) for p in self.accounts.practice_ids()}

    def _refresh_locked(self, practice_id: int, connection: XeroConnection) -> str:
        client_id = connection.client_id
        refresh = self.accounts.reveal_secret(practice_id, names.xero_refresh(client_id))
        if refresh is None:
            self.mark_needs_reauthorisation(practice_id, client_id, "no refresh token is stored: connect again")
            raise NeedsReauthorisationError(f"client {client_id}'s Xero connection has no refresh token: connect again")
        try:
            app_client_id, app_secret = self._app_credentials(practice_id)
        except NotConnectedError as exc:
            self.mark_needs_reauthorisation(practice_id, client_id, str(exc))
            raise NeedsReauthorisationError(str(exc)) from None
        # A refresh token stays usable for 30 minutes after its first use (Xero's grace period), so
        # retrying a refresh whose reply was lost is safe.
        response = self.http.send(
            "POST",
            self.endpoints.token,
            idempotent=True,
            auth=(app_client_id, app_secret.reveal()),
            data={"grant_type": "refresh_token", "refresh_token": refresh.reveal()},
        )
        if response.status_code in (400, 401):
            error = _oauth_error(response)
            reason = (
                "Xero refused the app's client id or secret (invalid_client): check them in Settings → Connections, "
                "then connect the client again"
                if "invalid_client" in error
                else f"Xero no longer accepts the connection ({error}: revoked, or unused for 60 days): connect the "
                "client again"
            )
            self.mark_needs_reauthorisation(practice_id, client_id, reason)
            raise NeedsReauthorisationError(f"client {client_id}: {reason}")
        if response.status_code != 200:
            raise ProviderRefusedError(
                f"Xero answered HTTP {response.status_code} to a token refresh: {_oauth_error(response)}",
                response.status_code,
            )
        tokens = _token_reply(response)
        self._save_tokens(practice_id, client_id, tokens)
        now = self.clock()
        self.store.save_xero_connection(
            practice_id,
            replace(connection, access_expires_at=expires_at(now, tokens.get("expires_in")), updated_at=now),
        )
        log.info("xero: practice %s client %s: tokens refreshed", practice_id, client_id)
        return str(tokens["access_token"])

    def mark_needs_reauthorisation(self, practice_id: int, client_id: int, problem: str) -> None:
        connection = self.store.xero_connection(practice_id, client_id)
        if connection is None:
            return
        self.store.save_xero_connection(
            practice_id,
            replace(
                connection, status=ConnectionStatus.NEEDS_REAUTHORISATION, problem=problem, updated_at=self.clock()
            ),
        )
        log.warning("xero: practice %s client %s needs re-authorisation", practice_id, client_id)

    # --- disconnecting -------------------------------------------------------------------------

    def disconnect(self, practice_id: int, client_id: int) -> DisconnectReport:
        """Tell Xero (revoke the refresh token: the app's access to the organisation ends), then
        forget the tokens and the connection. The push ledger stays. When Xero cannot be told,
        the local state is removed anyway and the report says so."""
        revoked, message = False, ""
        refresh = self.accounts.reveal_secret(practice_id, names.xero_refresh(client_id))
        if refresh is not None:
            try:
                app_client_id, app_secret = self._app_credentials(practice_id)
                response = self.http.send(
                    "POST",
                    self.endpoints.revocation,
                    idempotent=True,
                    auth=(app_client_id, app_secret.reveal()),
                    data={"token": refresh.reveal()},
                )
                revoked = response.status_code == 200
                if not revoked:
                    message = f"Xero answered HTTP {response.status_code} to the revocation"
            except (NotConnectedError, ProviderUnavailableError) as exc:
                message = str(exc)
        for name in (names.xero_access(client_id), names.xero_refresh(client_id), names.xero_verifier(client_id)):
            self.accounts.delete_secret(practice_id, name)
        self.store.delete_xero_connection(practice_id, client_id)
        if not revoked and not message:
            message = "no token was stored"
        if not revoked:
            message = (
                f"{message}; the connection is removed here. To end the app's access in Xero too: Xero → Settings → "
                "Connected apps → Disconnect"
            )
        log.info("xero: practice %s client %s disconnected (revoked at Xero: %s)", practice_id, client_id, revoked)
        return DisconnectReport(client_id, revoked, message)

    # --- authorised calls ----------------------------------------------------------------------

    def session(self, practice_id: int, client_id: int) -> XeroSession:
        connection = self._connection_or_raise(practice_id, client_id)
        _require_usable(connection)
        assert connection.tenant is not None
        return XeroSession(self, practice_id, client_id, connection.tenant)


class XeroSession:
    """Calls to one client's organisation: the ``xero-tenant-id`` header, a fresh token, and one
    refresh-and-retry after a 401."""

    def __init__(self, connector: XeroConnector, practice_id: int, client_id: int, tenant: XeroTenant) -> None:
        self.connector = connector
        self.practice_id = practice_id
        self.client_id = client_id
        self.tenant = tenant

    def request(
        self,
        method: str,
        path: str,
        *,
        idempotent: bool,
        params: Mapping[str, Any] | None = None,
        json_body: Any = None,
        content: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        url = f"{self.connector.endpoints.accounting}{path}"
        _, token = self.connector.access_token(self.practice_id, self.client_id)
        response = self._send(method, url, token, idempotent, params, json_body, content, headers)
        if response.status_code == 401:
            _, token = self.connector.access_token(self.practice_id, self.client_id, force_refresh=True)
            response = self._send(method, url, token, idempotent, params, json_body, content, headers)
            if response.status_code == 401:
                reason = f"Xero refused a fresh token ({_api_error(response)}): connect the client again"
                self.connector.mark_needs_reauthorisation(self.practice_id, self.client_id, reason)
                raise NeedsReauthorisationError(f"client {self.client_id}: {reason}")
        if response.status_code == 403:
            reason = (
                f"Xero refused access to organisation {self.tenant.name!r} ({_api_error(response)}): the app was "
                "disconnected from it, or the user lost access; connect the client again"
            )
            self.connector.mark_needs_reauthorisation(self.practice_id, self.client_id, reason)
            raise NeedsReauthorisationError(f"client {self.client_id}: {reason}")
        return response

    def _send(
        self,
        method: str,
        url: str,
        token: str,
        idempotent: bool,
        params: Mapping[str, Any] | None,
        json_body: Any,
        content: bytes | None,
        headers: Mapping[str, str] | None,
    ) -> httpx.Response:
        all_headers = {**_bearer(token), "xero-tenant-id": self.tenant.tenant_id, "Accept": "application/json"}
        all_headers.update(headers or {})
        return self.connector.http.send(
            method, url, idempotent=idempotent, headers=all_headers, params=params, json=json_body, content=content
        )


def _require_usable(connection: XeroConnection) -> None:
    if connection.status is ConnectionStatus.NEEDS_REAUTHORISATION:
        raise NeedsReauthorisationError(
            f"client {connection.client_id}'s Xero connection needs re-authorisation ({connection.problem}): "
            "connect it again in Settings → Connections"
        )
    if connection.status is ConnectionStatus.CHOOSE_ORGANISATION or connection.tenant is None:
        raise NotConnectedError(
            f"client {connection.client_id}'s Xero connection has no organisation chosen yet: choose one in "
            "Settings → Connections"
        )


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _json(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


def _token_reply(response: httpx.Response) -> dict[str, Any]:
    body = _json(response)
    if not isinstance(body, dict) or not isinstance(body.get("access_token"), str) or not body["access_token"]:
        raise ProviderRefusedError("Xero's token endpoint answered without an access token", response.status_code)
    return body


def _oauth_error(response: httpx.Response) -> str:
    """The OAuth error code of a token endpoint's reply (``invalid_grant``), never its body as is."""
    body = _json(response)
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, str):
        return error[:60]
    return f"HTTP {response.status_code}"


def _oauth_hint(response: httpx.Response, redirect_uri: str) -> str:
    error = _oauth_error(response)
    if "invalid_client" in error:
        return "Check the Xero app's client id and secret in Settings → Connections"
    if "invalid_grant" in error:
        return (
            f"The code expired, was used already, or the redirect URI differs from the app's ({redirect_uri}): "
            "connect again"
        )
    return "Connect again; if it repeats, check the app at developer.xero.com"


def _api_error(response: httpx.Response) -> str:
    """What Xero said, from its error shapes: ``Detail``/``Title`` (401, 403) or ``Message``."""
    body = _json(response)
    if isinstance(body, dict):
        for key in ("Detail", "Message", "Title", "error"):
            value = body.get(key)
            if isinstance(value, str) and value:
                return f"HTTP {response.status_code}: {value[:300]}"
    return f"HTTP {response.status_code}"


def _jwt_claim(token: str, claim: str) -> object:
    """One claim of a JWT's payload, read without verifying (only to filter GET /connections)."""
    parts = token.split(".")
    if len(parts) != 3:
        return None
    payload = parts[1] + "=" * (-len(parts[1]) % 4)
    try:
        data = json.loads(base64.urlsafe_b64decode(payload.encode("ascii")))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return None
    return data.get(claim) if isinstance(data, dict) else None
