"""A fake Xero: the identity service and the accounting endpoints a push uses, on one host.

Shapes followed (XeroAPI/Xero-OpenAPI):

- ``xero-identity.yaml``: ``GET /Connections`` (query ``authEventId``; the ``Connection`` schema:
  ``id``, ``authEventId``, ``tenantId``, ``tenantType``, ``tenantName``, ``createdDateUtc``,
  ``updatedDateUtc``), ``DELETE /Connections/{id}`` (204); the ``OAuth2`` security scheme's
  ``authorizationUrl`` (``/identity/connect/authorize``) and ``tokenUrl`` (``/connect/token``);
  the ``AccessToken`` schema (``id_token``, ``access_token``, ``expires_in``, ``token_type``,
  ``refresh_token``) and ``RefreshToken`` (``grant_type``, ``refresh_token``, ``client_id``,
  ``client_secret``).
- ``xero_accounting.yaml``: ``GET``/``PUT``/``POST /Contacts`` (``searchTerm``, ``page``),
  ``GET``/``PUT``/``POST /Invoices`` (``IDs``, ``InvoiceNumbers``, ``ContactIDs``, ``Statuses``,
  ``createdByMyApp``, ``page``; ``summarizeErrors``; the ``Idempotency-Key`` header),
  ``GET /Invoices/{InvoiceID}/Attachments``, ``PUT``/``POST
  /Invoices/{InvoiceID}/Attachments/{FileName}`` (the file's bytes as the body, ``IncludeOnline``);
  the schemas ``Contacts``, ``Invoices``/``Invoice``/``LineItem``, ``LineAmountTypes``
  (``Exclusive``, ``Inclusive``, ``NoTax``), ``Attachments``/``Attachment`` and ``Error``
  (``ErrorNumber``, ``Type``, ``Message``, ``Elements[].ValidationErrors[].Message``); the required
  ``xero-tenant-id`` header; the response envelope (``Id``, ``Status``, ``ProviderName``,
  ``DateTimeUTC`` as ``/Date(ms)/``).
  (The accounting names were checked against the models and parameters that xero-python 15.2.0
  generates from this file: ``Invoice``, ``LineItem``, ``LineAmountTypes``, ``Attachment``,
  ``Error``/``Element``/``ValidationError``, ``get_contacts``, ``get_invoices``, ``create_invoices``.)
- Xero's OAuth 2.0 guide, for what the specs leave out: PKCE (``code_challenge_method=S256``),
  client authentication by HTTP Basic, refresh-token rotation, ``POST /connect/revocation``, the
  OAuth error body (``{"error": "invalid_grant"}``); and the API's 401/403 problem body (``Title``,
  ``Status``, ``Detail`` such as ``TokenExpired: token expired at ...``), the 429's
  ``Retry-After`` and ``X-Rate-Limit-Problem`` headers.

What it checks: the app's client id, secret and registered redirect URI; the state is passed
through; PKCE (the verifier's S256 against the challenge); a code is single-use and lives five
minutes; access tokens live 30 minutes (``clock``) and refresh tokens rotate; every API call needs a
live token and a tenant this app is connected to. Operation names for ``misbehave``: ``authorize``,
``token``, ``revocation``, ``connections``, ``get_contacts``, ``create_contact``, ``get_invoices``,
``create_invoice``, ``get_attachments``, ``create_attachment``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response

from asat_connections.testing.misbehaviour import Kind, Logged, Misbehaviour, RequestLog, Switchboard, linger

ACCESS_TTL_S = 1800
CODE_TTL_S = 300
PAGE_SIZE = 100
LINE_AMOUNT_TYPES = ("Exclusive", "Inclusive", "NoTax")
BILL_STATUSES = ("DRAFT", "SUBMITTED", "AUTHORISED", "PAID", "VOIDED", "DELETED")


@dataclass
class _App:
    client_id: str
    client_secret: str
    redirect_uris: set[str]
    name: str


@dataclass
class _Code:
    client_id: str
    redirect_uri: str
    challenge: str
    scope: str
    tenants: list[str]
    created: float
    used: bool = False


@dataclass
class _Grant:
    id: str
    client_id: str
    auth_event_id: str
    tenants: list[str]
    scope: str
    refresh_token: str
    revoked: bool = False


@dataclass
class _Connection:
    id: str
    client_id: str
    tenant_id: str
    auth_event_id: str
    created: datetime
    updated: datetime


@dataclass
class _Attachment:
    meta: dict[str, Any]
    content: bytes = field(repr=False)


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _ms_date(when: datetime) -> str:
    return f"/Date({int(when.timestamp() * 1000)}+0000)/"


class FakeXero:
    def __init__(self, clock: Callable[[], float] = time.time, provider_name: str = "AsAt (fake Xero)") -> None:
        self.clock = clock
        self.provider_name = provider_name
        self._lock = threading.RLock()
        self._switch = Switchboard()
        self._apps: dict[str, _App] = {}
        self._orgs: dict[str, str] = {}  # tenant id -> name
        self._consent: list[str] | None = None
        self._deny_next = False
        self._codes: dict[str, _Code] = {}
        self._grants: dict[str, _Grant] = {}
        self._access: dict[str, tuple[str, float]] = {}  # access token -> (grant id, expires at)
        self._connections: dict[tuple[str, str], _Connection] = {}  # (app client id, tenant) -> connection
        self._contacts: dict[str, list[dict[str, Any]]] = {}
        self._invoices: dict[str, list[dict[str, Any]]] = {}
        self._created_by: dict[str, str] = {}  # invoice id -> app client id
        self._attachments: dict[str, list[_Attachment]] = {}
        self._idempotent: dict[tuple[str, str], tuple[int, dict[str, Any]]] = {}
        self.requests: list[Logged] = []
        self.issued: set[str] = set()  # every token and code handed out, every verifier received (leak checks)
        self.last_authorize: dict[str, str] = {}
        self.app = self._build()

    # --- the test's controls -------------------------------------------------------------------

    def register_app(self, client_id: str, client_secret: str, redirect_uri: str, name: str = "AsAt") -> None:
        with self._lock:
            self._apps[client_id] = _App(client_id, client_secret, {redirect_uri}, name)

    def add_organisation(self, name: str) -> str:
        tenant_id = str(uuid.uuid4())
        with self._lock:
            self._orgs[tenant_id] = name
            self._contacts[tenant_id] = []
            self._invoices[tenant_id] = []
        return tenant_id

    def consent(self, *tenant_ids: str) -> None:
        """The organisations the (fake) user ticks at the next consents (default: the first one)."""
        with self._lock:
            self._consent = list(tenant_ids)

    def deny_next_consent(self) -> None:
        with self._lock:
            self._deny_next = True

    def misbehave(self, operation: str, kind: Kind, **options: Any) -> Misbehaviour:
        return self._switch.add(Misbehaviour(operation, kind, **options))

    def clear_misbehaviour(self) -> None:
        self._switch.clear()

    def expire_access_tokens(self) -> None:
        """Every access token handed out so far expires now."""
        with self._lock:
            self._access = {t: (g, self.clock() - 1) for t, (g, _) in self._access.items()}

    def revoke_all(self) -> None:
        """The user removes the app in Xero: every grant revoked, every connection gone."""
        with self._lock:
            for grant in self._grants.values():
                grant.revoked = True
            self._connections.clear()

    def disconnect_organisation(self, tenant_id: str) -> None:
        with self._lock:
            for key in [k for k in self._connections if k[1] == tenant_id]:
                del self._connections[key]

    def seed_contact(self, tenant_id: str, name: str) -> str:
        contact = self._new_contact({"Name": name})
        with self._lock:
            self._contacts[tenant_id].append(contact)
        return str(contact["ContactID"])

    def contacts(self, tenant_id: str) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(c) for c in self._contacts[tenant_id]]

    def invoices(self, tenant_id: str) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(i) for i in self._invoices[tenant_id]]

    def attachments(self, invoice_id: str) -> list[tuple[dict[str, Any], bytes]]:
        with self._lock:
            return [(dict(a.meta), a.content) for a in self._attachments.get(invoice_id, [])]

    def count(self, method: str, operation: str) -> int:
        """Requests received (a reply still under way counts)."""
        with self._lock:
            return sum(1 for r in self.requests if r.method == method and r.operation == operation)

    # --- the app -------------------------------------------------------------------------------

    def _build(self) -> FastAPI:
        app = FastAPI(title="fake Xero", docs_url=None, redoc_url=None, openapi_url=None)
        api = "/api.xro/2.0"

        app.add_middleware(RequestLog, on_arrival=self._arrived)

        app.add_api_route("/identity/connect/authorize", self._authorize, methods=["GET"])
        app.add_api_route("/connect/token", self._token, methods=["POST"])
        app.add_api_route("/connect/revocation", self._revocation, methods=["POST"])
        for path in ("/connections", "/Connections"):
            app.add_api_route(path, self._list_connections, methods=["GET"])
            app.add_api_route(path + "/{connection_id}", self._delete_connection, methods=["DELETE"])
        app.add_api_route(f"{api}/Contacts", self._get_contacts, methods=["GET"])
        app.add_api_route(f"{api}/Contacts", self._create_contacts, methods=["PUT", "POST"])
        app.add_api_route(f"{api}/Invoices", self._get_invoices, methods=["GET"])
        app.add_api_route(f"{api}/Invoices", self._create_invoices, methods=["PUT", "POST"])
        app.add_api_route(f"{api}/Invoices/{{invoice_id}}/Attachments", self._get_attachments, methods=["GET"])
        app.add_api_route(
            f"{api}/Invoices/{{invoice_id}}/Attachments/{{file_name}}", self._create_attachment, methods=["PUT", "POST"]
        )
        return app

    def _arrived(self, logged: Logged) -> None:
        with self._lock:
            self.requests.append(logged)  # on arrival: a reply that comes too late still counts

    # --- misbehaviour --------------------------------------------------------------------------

    async def _misbehaviour(
        self, request: Request, operation: str, element: dict[str, Any] | None = None
    ) -> tuple[Response | None, Misbehaviour | None]:
        """A reply to give instead of behaving (or None), and a ``timeout`` to apply after behaving."""
        _name(request, operation)
        rule = self._switch.take(operation, element)
        if rule is None:
            return None, None
        if rule.kind == "rate_limit":
            return (
                JSONResponse(
                    {"Title": "Too Many Requests", "Status": 429, "Detail": "Rate limit exceeded"},
                    status_code=429,
                    headers={"Retry-After": str(rule.retry_after), "X-Rate-Limit-Problem": "minute"},
                ),
                None,
            )
        if rule.kind == "server_error":
            return (
                JSONResponse(
                    {
                        "Title": "An error occurred",
                        "Status": 500,
                        "Detail": "An error occurred in Xero. Check the API Status page "
                        "http://status.developer.xero.com for current service status.",
                    },
                    status_code=500,
                ),
                None,
            )
        if rule.kind == "expired_token":
            token = _bearer(request)
            with self._lock:
                if token in self._access:
                    self._access[token] = (self._access[token][0], self.clock() - 1)
            return self._unauthorised("TokenExpired: token expired at " + _now_text()), None
        if rule.kind == "invalid_grant":
            return JSONResponse({"error": "invalid_grant"}, status_code=400), None
        if rule.kind == "duplicate":
            return self._validation(element or {}, "Invoice # must be unique."), None
        return None, rule  # timeout: behave, then reply late

    @staticmethod
    async def _late(response: Response, rule: Misbehaviour | None, request: Request | None = None) -> Response:
        """``response`` after the ``timeout`` rule's delay (cut short once the client has gone)."""
        if rule is not None and rule.kind == "timeout":
            await linger(rule.delay_s, request)
        return response

    # --- identity ------------------------------------------------------------------------------

    async def _authorize(self, request: Request) -> Response:
        query = dict(request.query_params)
        self.last_authorize = query
        bad, _ = await self._misbehaviour(request, "authorize")
        if bad is not None:
            return bad
        app = self._apps.get(query.get("client_id", ""))
        if app is None:
            return PlainTextResponse("unauthorized_client: unknown client_id", status_code=400)
        redirect_uri = query.get("redirect_uri", "")
        if redirect_uri not in app.redirect_uris:
            # Never redirect to an unregistered URI: Xero shows an error page.
            return PlainTextResponse("Invalid redirect_uri", status_code=400)
        state = query.get("state", "")
        if query.get("response_type") != "code":
            return _redirect(redirect_uri, {"error": "unsupported_response_type", "state": state})
        if query.get("code_challenge_method") != "S256" or not query.get("code_challenge"):
            return _redirect(
                redirect_uri, {"error": "invalid_request", "error_description": "PKCE S256", "state": state}
            )
        with self._lock:
            if self._deny_next:
                self._deny_next = False
                return _redirect(redirect_uri, {"error": "access_denied", "state": state})
            tenants = list(self._consent) if self._consent is not None else list(self._orgs)[:1]
            code = _b64url(secrets.token_bytes(32))
            self._codes[code] = _Code(
                app.client_id, redirect_uri, query["code_challenge"], query.get("scope", ""), tenants, self.clock()
            )
            self.issued.add(code)
        params = {"code": code, "scope": query.get("scope", "")}
        if state:
            params["state"] = state
        params["session_state"] = _b64url(secrets.token_bytes(8))
        return _redirect(redirect_uri, params)

    def _client_auth(self, request: Request, form: dict[str, str]) -> _App | None:
        header = request.headers.get("authorization", "")
        client_id, secret = form.get("client_id", ""), form.get("client_secret", "")
        if header.lower().startswith("basic "):
            try:
                decoded = base64.b64decode(header[6:]).decode("utf-8")
            except (ValueError, UnicodeDecodeError):
                return None
            client_id, _, secret = decoded.partition(":")
        app = self._apps.get(client_id)
        if app is None or not secrets.compare_digest(app.client_secret, secret):
            return None
        return app

    async def _token(self, request: Request) -> Response:
        form = {k: str(v) for k, v in (await request.form()).items()}
        bad, late = await self._misbehaviour(request, "token")
        if bad is not None:
            return bad
        with self._lock:
            app = self._client_auth(request, form)
            if app is None:
                return JSONResponse({"error": "invalid_client"}, status_code=400)
            grant_type = form.get("grant_type")
            if grant_type == "authorization_code":
                reply = self._exchange_code(app, form)
            elif grant_type == "refresh_token":
                reply = self._refresh(app, form)
            else:
                reply = JSONResponse({"error": "unsupported_grant_type"}, status_code=400)
        return await self._late(reply, late, request)

    def _exchange_code(self, app: _App, form: dict[str, str]) -> Response:
        code = self._codes.get(form.get("code", ""))
        if code is None or code.used or code.client_id != app.client_id:
            return JSONResponse({"error": "invalid_grant"}, status_code=400)
        code.used = True
        if self.clock() - code.created > CODE_TTL_S or form.get("redirect_uri") != code.redirect_uri:
            return JSONResponse({"error": "invalid_grant"}, status_code=400)
        verifier = form.get("code_verifier", "")
        self.issued.add(verifier)
        if _b64url(hashlib.sha256(verifier.encode("ascii", "replace")).digest()) != code.challenge:
            return JSONResponse({"error": "invalid_grant", "error_description": "PKCE"}, status_code=400)
        event = str(uuid.uuid4())
        grant = _Grant(str(uuid.uuid4()), app.client_id, event, list(code.tenants), code.scope, "")
        self._grants[grant.id] = grant
        now = datetime.now(UTC)
        for tenant in code.tenants:
            key = (app.client_id, tenant)
            old = self._connections.get(key)
            self._connections[key] = _Connection(
                old.id if old else str(uuid.uuid4()), app.client_id, tenant, event, old.created if old else now, now
            )
        return self._tokens(grant)

    def _refresh(self, app: _App, form: dict[str, str]) -> Response:
        token = form.get("refresh_token", "")
        grant = next((g for g in self._grants.values() if g.refresh_token == token and token), None)
        if grant is None or grant.revoked or grant.client_id != app.client_id:
            return JSONResponse({"error": "invalid_grant"}, status_code=400)
        return self._tokens(grant)

    def _tokens(self, grant: _Grant) -> Response:
        now = self.clock()
        claims = {
            "nbf": int(now),
            "exp": int(now) + ACCESS_TTL_S,
            "iss": "https://identity.xero.com",
            "aud": "https://identity.xero.com/resources",
            "client_id": grant.client_id,
            "sub": "fake-user",
            "authentication_event_id": grant.auth_event_id,
            "jti": secrets.token_hex(16),
            "scope": grant.scope.split(),
        }
        header = _b64url(json.dumps({"alg": "RS256", "typ": "JWT"}).encode())
        access = f"{header}.{_b64url(json.dumps(claims).encode())}.{_b64url(secrets.token_bytes(32))}"
        id_token = f"{header}.{_b64url(json.dumps({'sub': 'fake-user'}).encode())}.{_b64url(secrets.token_bytes(32))}"
        grant.refresh_token = secrets.token_hex(32)  # rotation: the old one stops working
        self._access[access] = (grant.id, now + ACCESS_TTL_S)
        self.issued.update({access, id_token, grant.refresh_token})
        return JSONResponse(
            {
                "id_token": id_token,
                "access_token": access,
                "expires_in": ACCESS_TTL_S,
                "token_type": "Bearer",
                "refresh_token": grant.refresh_token,
                "scope": grant.scope,
            }
        )

    async def _revocation(self, request: Request) -> Response:
        form = {k: str(v) for k, v in (await request.form()).items()}
        bad, _ = await self._misbehaviour(request, "revocation")
        if bad is not None:
            return bad
        with self._lock:
            app = self._client_auth(request, form)
            if app is None:
                return JSONResponse({"error": "invalid_client"}, status_code=400)
            grant = next((g for g in self._grants.values() if g.refresh_token == form.get("token")), None)
            if grant is not None:
                grant.revoked = True
                for tenant in grant.tenants:
                    self._connections.pop((app.client_id, tenant), None)
        return Response(status_code=200)

    def _grant_of(self, request: Request) -> _Grant | None:
        token = _bearer(request)
        found = self._access.get(token)
        if found is None or found[1] <= self.clock():
            return None
        grant = self._grants.get(found[0])
        return None if grant is None or grant.revoked else grant

    def _unauthorised(self, detail: str = "AuthenticationUnsuccessful") -> JSONResponse:
        return JSONResponse(
            {
                "Type": None,
                "Title": "Unauthorized",
                "Status": 401,
                "Detail": detail,
                "Instance": str(uuid.uuid4()),
                "Extensions": {},
            },
            status_code=401,
            headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
        )

    async def _list_connections(self, request: Request) -> Response:
        bad, _ = await self._misbehaviour(request, "connections")
        if bad is not None:
            return bad
        with self._lock:
            grant = self._grant_of(request)
            if grant is None:
                return self._unauthorised()
            event = request.query_params.get("authEventId")
            found = [
                {
                    "id": c.id,
                    "authEventId": c.auth_event_id,
                    "tenantId": c.tenant_id,
                    "tenantType": "ORGANISATION",
                    "tenantName": self._orgs.get(c.tenant_id, ""),
                    "createdDateUtc": c.created.strftime("%Y-%m-%dT%H:%M:%S.%f0"),
                    "updatedDateUtc": c.updated.strftime("%Y-%m-%dT%H:%M:%S.%f0"),
                }
                for c in self._connections.values()
                if c.client_id == grant.client_id and (event is None or c.auth_event_id == event)
            ]
        return JSONResponse(found)

    async def _delete_connection(self, request: Request, connection_id: str) -> Response:
        _name(request, "delete_connection")
        with self._lock:
            grant = self._grant_of(request)
            if grant is None:
                return self._unauthorised()
            for key, connection in list(self._connections.items()):
                if connection.id == connection_id and connection.client_id == grant.client_id:
                    del self._connections[key]
                    return Response(status_code=204)
        return Response(status_code=404)

    # --- accounting ----------------------------------------------------------------------------

    def _tenant_of(self, request: Request) -> tuple[_Grant | None, str | None, Response | None]:
        grant = self._grant_of(request)
        if grant is None:
            return None, None, self._unauthorised()
        tenant = request.headers.get("xero-tenant-id", "")
        if (grant.client_id, tenant) not in self._connections or tenant not in grant.tenants:
            return (
                None,
                None,
                JSONResponse(
                    {"Type": None, "Title": "Forbidden", "Status": 403, "Detail": "AuthenticationUnsuccessful"},
                    status_code=403,
                ),
            )
        return grant, tenant, None

    def _envelope(self, key: str, items: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "Id": str(uuid.uuid4()),
            "Status": "OK",
            "ProviderName": self.provider_name,
            "DateTimeUTC": _ms_date(datetime.now(UTC)),
            key: items,
        }

    def _validation(self, element: dict[str, Any], *messages: str) -> JSONResponse:
        return JSONResponse(
            {
                "ErrorNumber": 10,
                "Type": "ValidationException",
                "Message": "A validation exception occurred",
                "Elements": [{**element, "ValidationErrors": [{"Message": m} for m in messages]}],
            },
            status_code=400,
        )

    async def _get_contacts(self, request: Request) -> Response:
        bad, late = await self._misbehaviour(request, "get_contacts")
        if bad is not None:
            return bad
        with self._lock:
            _, tenant, refused = self._tenant_of(request)
            if refused is not None or tenant is None:
                return refused or self._unauthorised()
            term = request.query_params.get("searchTerm", "").casefold()
            found = [c for c in self._contacts[tenant] if term in str(c.get("Name", "")).casefold()]
            page = max(1, int(request.query_params.get("page", "1") or 1))
            chunk = found[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
            reply = JSONResponse(self._envelope("Contacts", chunk))
        return await self._late(reply, late, request)

    def _new_contact(self, given: dict[str, Any]) -> dict[str, Any]:
        contact = {
            "ContactID": str(uuid.uuid4()),
            "ContactStatus": "ACTIVE",
            "Name": str(given.get("Name", "")).strip(),
            "UpdatedDateUTC": _ms_date(datetime.now(UTC)),
            "IsSupplier": False,
            "IsCustomer": False,
            "HasAttachments": False,
        }
        if given.get("TaxNumber"):
            contact["TaxNumber"] = str(given["TaxNumber"])
        return contact

    async def _create_contacts(self, request: Request) -> Response:
        body = await _json_body(request)
        given = (body.get("Contacts") or [{}]) if isinstance(body, dict) else [{}]
        bad, late = await self._misbehaviour(request, "create_contact", given[0] if given else None)
        if bad is not None:
            return bad
        with self._lock:
            _, tenant, refused = self._tenant_of(request)
            if refused is not None or tenant is None:
                return refused or self._unauthorised()
            created = []
            for item in given:
                name = str(item.get("Name", "")).strip()
                if not name:
                    return self._validation(item, "The contact name must be specified.")
                taken = any(
                    c["Name"].casefold() == name.casefold() and c["ContactStatus"] == "ACTIVE"
                    for c in self._contacts[tenant]
                )
                if taken:
                    return self._validation(
                        item,
                        f"The contact name {name} is already assigned to another contact. The contact name must be "
                        "unique across all active contacts.",
                    )
                contact = self._new_contact(item)
                self._contacts[tenant].append(contact)
                created.append(contact)
            reply = JSONResponse(self._envelope("Contacts", created))
        return await self._late(reply, late, request)

    async def _get_invoices(self, request: Request) -> Response:
        bad, late = await self._misbehaviour(request, "get_invoices")
        if bad is not None:
            return bad
        with self._lock:
            grant, tenant, refused = self._tenant_of(request)
            if refused is not None or tenant is None or grant is None:
                return refused or self._unauthorised()
            q = request.query_params

            def listed(name: str) -> set[str] | None:
                value = q.get(name)
                return None if not value else {v.strip().casefold() for v in value.split(",")}

            ids, numbers, contacts, statuses = (
                listed("IDs"),
                listed("InvoiceNumbers"),
                listed("ContactIDs"),
                listed("Statuses"),
            )
            mine = q.get("createdByMyApp", "").lower() == "true"
            found = [
                i
                for i in self._invoices[tenant]
                if (ids is None or i["InvoiceID"].casefold() in ids)
                and (numbers is None or str(i.get("InvoiceNumber", "")).casefold() in numbers)
                and (contacts is None or i["Contact"]["ContactID"].casefold() in contacts)
                and (statuses is None or i["Status"].casefold() in statuses)
                and (not mine or self._created_by.get(i["InvoiceID"]) == grant.client_id)
            ]
            page = max(1, int(q.get("page", "1") or 1))
            reply = JSONResponse(self._envelope("Invoices", found[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]))
        return await self._late(reply, late, request)

    async def _create_invoices(self, request: Request) -> Response:
        body = await _json_body(request)
        given = body.get("Invoices") if isinstance(body, dict) else None
        if not isinstance(given, list) or not given or not all(isinstance(i, dict) for i in given):
            _name(request, "create_invoice")
            return self._validation({}, "The request body must hold Invoices, a list of invoices.")
        bad, late = await self._misbehaviour(request, "create_invoice", given[0])
        if bad is not None:
            return bad
        key = request.headers.get("idempotency-key")
        with self._lock:
            grant, tenant, refused = self._tenant_of(request)
            if refused is not None or tenant is None or grant is None:
                return refused or self._unauthorised()
            if key and (tenant, key) in self._idempotent:
                status, replay = self._idempotent[(tenant, key)]
                reply: Response = JSONResponse(replay, status_code=status)
            else:
                created: list[dict[str, Any]] = []
                reply = JSONResponse({})
                for item in given:
                    problems = self._invoice_problems(tenant, item)
                    if problems:
                        reply = self._validation(item, *problems)
                        break
                    created.append(self._new_invoice(tenant, item, grant.client_id))
                else:
                    reply = JSONResponse(self._envelope("Invoices", created))
                if key:
                    self._idempotent[(tenant, key)] = (reply.status_code, json.loads(bytes(reply.body)))
        return await self._late(reply, late, request)

    def _invoice_problems(self, tenant: str, item: dict[str, Any]) -> list[str]:
        problems: list[str] = []
        if item.get("Type") not in ("ACCPAY", "ACCREC"):
            problems.append("Invoice Type must be ACCPAY or ACCREC.")
        contact = item.get("Contact") if isinstance(item.get("Contact"), dict) else {}
        assert isinstance(contact, dict)
        known = any(c["ContactID"] == contact.get("ContactID") for c in self._contacts[tenant])
        if not known and not contact.get("Name"):
            problems.append("A Contact must be specified for this type of transaction")
        if item.get("LineAmountTypes", "Exclusive") not in LINE_AMOUNT_TYPES:
            problems.append("LineAmountTypes must be Exclusive, Inclusive or NoTax.")
        if item.get("Status", "DRAFT") not in ("DRAFT", "SUBMITTED"):
            problems.append("Only DRAFT or SUBMITTED invoices are accepted without account codes.")
        for field_name in ("Date", "DueDate"):
            value = item.get(field_name)
            if value is not None:
                try:
                    datetime.strptime(str(value)[:10], "%Y-%m-%d")
                except ValueError:
                    problems.append(f"{field_name} must be a date (YYYY-MM-DD).")
        lines = item.get("LineItems")
        if not isinstance(lines, list) or not lines:
            problems.append("At least one line item is required.")
        else:
            for line in lines:
                if not isinstance(line, dict) or not str(line.get("Description", "")).strip():
                    problems.append("Description must be specified.")
                elif line.get("LineAmount") is None and (
                    line.get("Quantity") is None or line.get("UnitAmount") is None
                ):
                    problems.append("A LineAmount, or a Quantity and UnitAmount, must be specified.")
        number = item.get("InvoiceNumber")
        taken = any(i.get("InvoiceNumber") == number and i["Type"] == "ACCREC" for i in self._invoices[tenant])
        if item.get("Type") == "ACCREC" and number and taken:
            problems.append("Invoice # must be unique.")
        return problems

    def _new_invoice(self, tenant: str, item: dict[str, Any], app_client_id: str) -> dict[str, Any]:
        contact = dict(item.get("Contact") or {})
        found = next((c for c in self._contacts[tenant] if c["ContactID"] == contact.get("ContactID")), None)
        if found is None:
            found = self._new_contact({"Name": contact.get("Name")})
            self._contacts[tenant].append(found)
        lines = []
        for line in item["LineItems"]:
            quantity = float(line.get("Quantity", 1) or 1)
            amount = line.get("LineAmount")
            unit = line.get("UnitAmount")
            line_amount = round(float(amount), 2) if amount is not None else round(quantity * float(unit), 2)
            unit_amount = float(unit) if unit is not None else round(line_amount / quantity, 4)
            lines.append(
                {
                    "LineItemID": str(uuid.uuid4()),
                    "Description": line["Description"],
                    "Quantity": quantity,
                    "UnitAmount": unit_amount,
                    "LineAmount": line_amount,
                    "TaxAmount": float(line.get("TaxAmount", 0) or 0),
                    "Tracking": [],
                }
            )
        kind = item.get("LineAmountTypes", "Exclusive")
        line_sum = round(sum(float(line["LineAmount"]) for line in lines), 2)
        tax = round(sum(float(line["TaxAmount"]) for line in lines), 2)
        sub_total = round(line_sum - tax, 2) if kind == "Inclusive" else line_sum
        now = datetime.now(UTC)
        invoice: dict[str, Any] = {
            "Type": item["Type"],
            "InvoiceID": str(uuid.uuid4()),
            "InvoiceNumber": item.get("InvoiceNumber", ""),
            "Reference": item.get("Reference", ""),
            "Contact": {"ContactID": found["ContactID"], "Name": found["Name"]},
            "Status": item.get("Status", "DRAFT"),
            "LineAmountTypes": kind,
            "LineItems": lines,
            "SubTotal": sub_total,
            "TotalTax": tax,
            "Total": round(sub_total + tax, 2),
            "CurrencyCode": item.get("CurrencyCode", "AUD"),
            "HasAttachments": False,
            "HasErrors": False,
            "UpdatedDateUTC": _ms_date(now),
        }
        for field_name in ("Date", "DueDate"):
            if item.get(field_name):
                day = datetime.strptime(str(item[field_name])[:10], "%Y-%m-%d").replace(tzinfo=UTC)
                invoice[field_name] = _ms_date(day)
                invoice[f"{field_name}String"] = day.strftime("%Y-%m-%dT00:00:00")
        self._invoices[tenant].append(invoice)
        self._created_by[invoice["InvoiceID"]] = app_client_id
        return invoice

    async def _get_attachments(self, request: Request, invoice_id: str) -> Response:
        bad, late = await self._misbehaviour(request, "get_attachments")
        if bad is not None:
            return bad
        with self._lock:
            _, tenant, refused = self._tenant_of(request)
            if refused is not None or tenant is None:
                return refused or self._unauthorised()
            if not any(i["InvoiceID"] == invoice_id for i in self._invoices[tenant]):
                return PlainTextResponse("The resource you're looking for cannot be found", status_code=404)
            items = [dict(a.meta) for a in self._attachments.get(invoice_id, [])]
            reply = JSONResponse(self._envelope("Attachments", items))
        return await self._late(reply, late, request)

    async def _create_attachment(self, request: Request, invoice_id: str, file_name: str) -> Response:
        content = await request.body()
        bad, late = await self._misbehaviour(request, "create_attachment")
        if bad is not None:
            return bad
        with self._lock:
            _, tenant, refused = self._tenant_of(request)
            if refused is not None or tenant is None:
                return refused or self._unauthorised()
            invoice = next((i for i in self._invoices[tenant] if i["InvoiceID"] == invoice_id), None)
            if invoice is None:
                return PlainTextResponse("The resource you're looking for cannot be found", status_code=404)
            if not content:
                return self._validation({}, "The attachment is empty.")
            attachment_id = str(uuid.uuid4())
            meta = {
                "AttachmentID": attachment_id,
                "FileName": file_name,
                "Url": f"https://api.xero.com/api.xro/2.0/Invoices/{invoice_id}/Attachments/{file_name}",
                "MimeType": request.headers.get("content-type", "application/octet-stream"),
                "ContentLength": len(content),
                "IncludeOnline": request.query_params.get("IncludeOnline", "false").lower() == "true",
            }
            self._attachments.setdefault(invoice_id, []).append(_Attachment(meta, content))
            invoice["HasAttachments"] = True
            reply = JSONResponse(self._envelope("Attachments", [meta]))
        return await self._late(reply, late, request)


def _name(request: Request, operation: str) -> None:
    logged = request.scope.get("fake_logged")
    if isinstance(logged, Logged):
        logged.operation = operation


def _bearer(request: Request) -> str:
    header = request.headers.get("authorization", "")
    return header[7:].strip() if header.lower().startswith("bearer ") else ""


def _redirect(uri: str, params: dict[str, str]) -> RedirectResponse:
    separator = "&" if "?" in uri else "?"
    return RedirectResponse(f"{uri}{separator}{urlencode(params)}", status_code=302)


def _now_text() -> str:
    return datetime.now(UTC).strftime("%m/%d/%Y %H:%M:%S")


async def _json_body(request: Request) -> Any:
    raw = await request.body()
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return None
