"""A fake HubSpot: private-app token introspection, company properties, and companies (list and
search, with paging).

Shapes followed (HubSpot/HubSpot-public-api-spec-collection):

- ``PublicApiSpecs/CRM/Companies/Rollouts/424/v3/companies.json``: ``GET /crm/v3/objects/companies``
  (``limit`` up to 100, ``after``, ``properties``, ``archived``) answering
  ``CollectionResponseSimplePublicObjectWithAssociations`` (``results`` of
  ``SimplePublicObjectWithAssociations``: ``id``, ``properties``, ``createdAt``, ``updatedAt``,
  ``archived``; ``paging.next.after`` and ``link``); ``POST /crm/v3/objects/companies/search``
  (``PublicObjectSearchRequest``: ``filterGroups``, ``properties``, ``limit`` up to 200, ``after``)
  answering ``CollectionResponseWithTotalSimplePublicObject`` (``total``, ``results``, ``paging``);
  the ``Error`` body (``category``, ``correlationId``, ``message``, ``errors[].context``, ``links``)
  and the security requirement ``crm.objects.companies.read``.
- ``PublicApiSpecs/CRM/Properties/Rollouts/145899/v3/properties.json``: ``GET
  /crm/v3/properties/{objectType}`` answering ``CollectionResponseProperty`` (``results`` of
  ``Property``: ``name``, ``label``, ``type``, ``fieldType``, ``groupName``, ``hubspotDefined``),
  scope ``crm.schemas.companies.read`` (names checked against hubspot-api-client 12.0.0's models,
  generated from it).
- Private apps' token check, ``POST /oauth/v2/private-apps/get/access-token-info`` with
  ``{"tokenKey": "pat-..."}`` answering ``{"userId", "hubId", "appId", "scopes"}`` (HubSpot's
  private-app documentation; it is not in the OpenAPI collection).
- Rate limits: 429 with the ``RATE_LIMIT`` error body (``errorType``, ``policyName``) and, here,
  a ``Retry-After`` header.

Operation names for ``misbehave``: ``token_info``, ``properties``, ``list_companies``,
``search_companies``.
"""

from __future__ import annotations

import json
import threading
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from asat_connections.testing.misbehaviour import Kind, Logged, Misbehaviour, RequestLog, Switchboard, linger

LIST_LIMIT = 100
SEARCH_LIMIT = 200
DEFAULT_PROPERTIES = ("createdate", "hs_lastmodifieddate", "hs_object_id")
STANDARD_PROPERTIES = (
    {"name": "name", "label": "Company name", "type": "string", "fieldType": "text", "hubspotDefined": True},
    {"name": "domain", "label": "Company Domain Name", "type": "string", "fieldType": "text", "hubspotDefined": True},
    {"name": "phone", "label": "Phone Number", "type": "string", "fieldType": "phonenumber", "hubspotDefined": True},
    {"name": "createdate", "label": "Create Date", "type": "datetime", "fieldType": "date", "hubspotDefined": True},
)


@dataclass
class _Token:
    hub_id: int
    user_id: int
    app_id: int
    scopes: list[str]
    valid: bool = True


class FakeHubSpot:
    def __init__(self, hub_id: int = 4_242_424) -> None:
        self.hub_id = hub_id
        self._lock = threading.Lock()
        self._switch = Switchboard()
        self._tokens: dict[str, _Token] = {}
        self._properties: list[dict[str, Any]] = [dict(p, groupName="companyinformation") for p in STANDARD_PROPERTIES]
        self._companies: list[dict[str, Any]] = []
        self._next_id = 10_000_000_001
        self.requests: list[Logged] = []
        self.app = self._build()

    # --- the test's controls -------------------------------------------------------------------

    def issue_token(self, scopes: list[str]) -> str:
        """A new private-app token (``pat-na1-<uuid>``) with ``scopes``."""
        token = f"pat-na1-{uuid.uuid4()}"
        with self._lock:
            self._tokens[token] = _Token(self.hub_id, 7_000_001, 3_000_001, list(scopes))
        return token

    def revoke(self, token: str) -> None:
        with self._lock:
            if token in self._tokens:
                self._tokens[token].valid = False

    def add_property(self, name: str, label: str) -> None:
        with self._lock:
            self._properties.append(
                {
                    "name": name,
                    "label": label,
                    "type": "string",
                    "fieldType": "text",
                    "groupName": "companyinformation",
                    "hubspotDefined": False,
                }
            )

    def add_company(self, name: str | None, **properties: str | None) -> str:
        with self._lock:
            company_id = str(self._next_id)
            self._next_id += 1
            now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
            props: dict[str, str | None] = {"name": name, "createdate": now, "hs_lastmodifieddate": now}
            props.update(properties)
            props["hs_object_id"] = company_id
            self._companies.append(
                {"id": company_id, "properties": props, "createdAt": now, "updatedAt": now, "archived": False}
            )
        return company_id

    def misbehave(self, operation: str, kind: Kind, **options: Any) -> Misbehaviour:
        return self._switch.add(Misbehaviour(operation, kind, **options))

    def clear_misbehaviour(self) -> None:
        self._switch.clear()

    def count(self, path: str) -> int:
        """Requests received for ``path`` (a reply still under way counts)."""
        with self._lock:
            return sum(1 for r in self.requests if r.path == path)

    def _arrived(self, logged: Logged) -> None:
        with self._lock:
            self.requests.append(logged)

    # --- the app -------------------------------------------------------------------------------

    def _build(self) -> FastAPI:
        app = FastAPI(title="fake HubSpot", docs_url=None, redoc_url=None, openapi_url=None)

        app.add_middleware(RequestLog, on_arrival=self._arrived)

        app.add_api_route("/oauth/v2/private-apps/get/access-token-info", self._token_info, methods=["POST"])
        app.add_api_route("/crm/v3/properties/companies", self._properties_list, methods=["GET"])
        app.add_api_route("/crm/v3/objects/companies", self._list, methods=["GET"])
        app.add_api_route("/crm/v3/objects/companies/search", self._search, methods=["POST"])
        return app

    @staticmethod
    def _error(status: int, category: str, message: str, **extra: Any) -> JSONResponse:
        body = {"status": "error", "message": message, "correlationId": str(uuid.uuid4()), "category": category}
        body.update(extra)
        return JSONResponse(body, status_code=status)

    async def _misbehaviour(self, operation: str) -> tuple[Response | None, Misbehaviour | None]:
        rule = self._switch.take(operation)
        if rule is None:
            return None, None
        if rule.kind == "rate_limit":
            reply = self._error(
                429,
                "RATE_LIMITS",
                "You have reached your ten_secondly_rolling limit.",
                errorType="RATE_LIMIT",
                policyName="TEN_SECONDLY_ROLLING",
            )
            reply.headers["Retry-After"] = str(rule.retry_after)
            return reply, None
        if rule.kind == "server_error":
            return self._error(500, "INTERNAL_ERROR", "internal error"), None
        if rule.kind == "expired_token":
            return self._error(401, "EXPIRED_AUTHENTICATION", "The OAuth token used to make this call expired."), None
        return None, rule

    @staticmethod
    async def _late(reply: Response, rule: Misbehaviour | None, request: Request | None = None) -> Response:
        if rule is not None and rule.kind == "timeout":
            await linger(rule.delay_s, request)
        return reply

    def _authorised(self, request: Request, scope: str) -> Response | None:
        header = request.headers.get("authorization", "")
        token = self._tokens.get(header[7:].strip()) if header.lower().startswith("bearer ") else None
        if token is None or not token.valid:
            return self._error(
                401,
                "INVALID_AUTHENTICATION",
                "Authentication credentials not found. This API supports OAuth 2.0 authentication and you can find "
                "more details at https://developers.hubspot.com/docs/methods/auth/oauth-overview",
            )
        if scope not in token.scopes:
            return self._error(
                403,
                "MISSING_SCOPES",
                "This app hasn't been granted all required scopes to make this call. Read more about required scopes "
                "here: https://developers.hubspot.com/scopes.",
                errors=[
                    {
                        "message": "One or more of the following scopes are required.",
                        "context": {"requiredGranularScopes": [scope]},
                    }
                ],
                links={"scopes": "https://developers.hubspot.com/scopes"},
            )
        return None

    async def _token_info(self, request: Request) -> Response:
        bad, late = await self._misbehaviour("token_info")
        if bad is not None:
            return bad
        try:
            body = json.loads(await request.body() or b"null")
        except ValueError:
            body = None
        key = body.get("tokenKey") if isinstance(body, dict) else None
        with self._lock:
            token = self._tokens.get(key) if isinstance(key, str) else None
            if token is None or not token.valid:
                reply: Response = self._error(
                    401, "INVALID_AUTHENTICATION", "The access token provided is invalid or has been revoked."
                )
            else:
                reply = JSONResponse(
                    {"userId": token.user_id, "hubId": token.hub_id, "appId": token.app_id, "scopes": token.scopes}
                )
        return await self._late(reply, late, request)

    async def _properties_list(self, request: Request) -> Response:
        bad, late = await self._misbehaviour("properties")
        if bad is not None:
            return bad
        with self._lock:
            refused = self._authorised(request, "crm.schemas.companies.read")
            reply = refused or JSONResponse({"results": [dict(p) for p in self._properties]})
        return await self._late(reply, late, request)

    def _shape(self, company: dict[str, Any], wanted: list[str]) -> dict[str, Any]:
        names = list(dict.fromkeys([*wanted, *DEFAULT_PROPERTIES])) if wanted else ["name", *DEFAULT_PROPERTIES]
        props = company["properties"]
        return {
            "id": company["id"],
            "properties": {n: props.get(n) for n in names if n in props or n in wanted},
            "createdAt": company["createdAt"],
            "updatedAt": company["updatedAt"],
            "archived": company["archived"],
        }

    async def _list(self, request: Request) -> Response:
        bad, late = await self._misbehaviour("list_companies")
        if bad is not None:
            return bad
        q = request.query_params
        with self._lock:
            refused = self._authorised(request, "crm.objects.companies.read")
            if refused is not None:
                return refused
            try:
                limit = int(q.get("limit", "10"))
                start = int(q.get("after", "0") or 0)
            except ValueError:
                return self._error(400, "VALIDATION_ERROR", "limit and after must be whole numbers")
            if not 1 <= limit <= LIST_LIMIT:
                return self._error(400, "VALIDATION_ERROR", f"limit must be between 1 and {LIST_LIMIT}")
            wanted = [p for part in q.getlist("properties") for p in part.split(",") if p]
            archived = q.get("archived", "false").lower() == "true"
            pool = [c for c in self._companies if c["archived"] == archived]
            chunk = pool[start : start + limit]
            body: dict[str, Any] = {"results": [self._shape(c, wanted) for c in chunk]}
            if start + limit < len(pool):
                after = str(start + limit)
                base = str(request.base_url).rstrip("/")
                body["paging"] = {"next": {"after": after, "link": f"{base}/crm/v3/objects/companies?after={after}"}}
            reply = JSONResponse(body)
        return await self._late(reply, late, request)

    async def _search(self, request: Request) -> Response:
        bad, late = await self._misbehaviour("search_companies")
        if bad is not None:
            return bad
        try:
            body = json.loads(await request.body() or b"{}")
        except ValueError:
            body = None
        if not isinstance(body, dict):
            return self._error(400, "VALIDATION_ERROR", "the body must be a PublicObjectSearchRequest")
        with self._lock:
            refused = self._authorised(request, "crm.objects.companies.read")
            if refused is not None:
                return refused
            limit = int(body.get("limit") or 10)
            if not 1 <= limit <= SEARCH_LIMIT:
                return self._error(400, "VALIDATION_ERROR", f"limit must be between 1 and {SEARCH_LIMIT}")
            start = int(body.get("after") or 0)
            pool = [c for c in self._companies if not c["archived"] and _matches(c, body.get("filterGroups") or [])]
            query = str(body.get("query") or "").casefold()
            if query:
                pool = [c for c in pool if query in str(c["properties"].get("name") or "").casefold()]
            wanted = [str(p) for p in body.get("properties") or []]
            reply_body: dict[str, Any] = {
                "total": len(pool),
                "results": [self._shape(c, wanted) for c in pool[start : start + limit]],
            }
            if start + limit < len(pool):
                reply_body["paging"] = {"next": {"after": str(start + limit)}}
            reply = JSONResponse(reply_body)
        return await self._late(reply, late, request)


def _matches(company: dict[str, Any], groups: list[Any]) -> bool:
    """``filterGroups``: any group whose every filter holds (EQ, NEQ, HAS_PROPERTY, NOT_HAS_PROPERTY)."""
    if not groups:
        return True
    props = company["properties"]
    for group in groups:
        filters = group.get("filters") or [] if isinstance(group, dict) else []
        ok = True
        for f in filters:
            value = props.get(f.get("propertyName"))
            operator = f.get("operator")
            if operator == "EQ":
                ok = ok and str(value) == str(f.get("value"))
            elif operator == "NEQ":
                ok = ok and str(value) != str(f.get("value"))
            elif operator == "HAS_PROPERTY":
                ok = ok and value not in (None, "")
            elif operator == "NOT_HAS_PROPERTY":
                ok = ok and value in (None, "")
            else:
                ok = False
        if ok:
            return True
    return False
