"""HubSpot: a private-app token (``pat-...``), checked and its scopes verified before it is stored,
and the import of companies as the practice's clients.

Endpoints and shapes: HubSpot's public API specs (HubSpot/HubSpot-public-api-spec-collection):
``PublicApiSpecs/CRM/Companies/Rollouts/424/v3/companies.json`` (``GET /crm/v3/objects/companies``
with ``limit``, ``after``, ``properties``; ``CollectionResponseSimplePublicObjectWithAssociations``
with ``paging.next.after``; the ``Error`` body), ``PublicApiSpecs/CRM/Properties/.../v3/properties.json``
(``GET /crm/v3/properties/companies``); the token check is the private-apps endpoint ``POST
/oauth/v2/private-apps/get/access-token-info`` (body ``{"tokenKey": ...}``, reply ``{userId, hubId,
appId, scopes}``), documented with private apps.

- **Connect.** The token must start ``pat-``; HubSpot must accept it, and it must hold
  ``crm.objects.companies.read`` (to list companies) and ``crm.schemas.companies.read`` (to find
  the ABN property): a missing scope is named and nothing is stored. Then it is sealed
  (``connection:hubspot:token``). **Disconnect** deletes it.
- **Import.** Every company (100 a page, following ``paging.next.after`` to the end) not in the
  import ledger: its name as-is becomes a new client, with the ABN property's value only when it
  passes the checksum (otherwise imported without it, and reported); a company whose name (case
  and spacing aside) or valid ABN is already a client's is linked to that client, which is never
  modified. Each company is recorded once, so a re-run imports only new companies.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

import httpx

from asat_accounts import AccountsInputError, AccountsStore, Client, client_fields
from asat_connections import secrets as names
from asat_connections.errors import (
    ConnectionsInputError,
    MissingScopesError,
    NeedsReauthorisationError,
    NotConnectedError,
    ProviderRefusedError,
)
from asat_connections.http import ProviderHttp
from asat_connections.model import (
    CompanyOutcome,
    HubSpotConnection,
    HubSpotView,
    ImportRecord,
    ImportReport,
    ImportResult,
)
from asat_connections.rules.companies import abn_property, client_key, read_abn
from asat_connections.rules.scopes import missing_scopes
from asat_connections.store import ConnectionsStore

log = logging.getLogger("asat_connections.hubspot")

REQUIRED_SCOPES = ("crm.objects.companies.read", "crm.schemas.companies.read")
TOKEN_INFO_PATH = "/oauth/v2/private-apps/get/access-token-info"
COMPANIES_PATH = "/crm/v3/objects/companies"
PROPERTIES_PATH = "/crm/v3/properties/companies"
PAGE_SIZE = 100  # the most GET /crm/v3/objects/companies returns
MAX_PAGES = 100_000
_TOKEN = re.compile(r"^pat-[A-Za-z0-9-]{8,400}$")
SCOPES_HINT = (
    "in HubSpot: Settings → Integrations → Private apps (or Development → Legacy apps) → your app → Scopes, "
    "add them, commit the change, then paste the token again"
)


class HubSpotConnector:
    def __init__(self, accounts: AccountsStore, store: ConnectionsStore, api_url: str, http: ProviderHttp) -> None:
        self.accounts = accounts
        self.store = store
        self.api_url = api_url.rstrip("/")
        self.http = http

    def view(self, practice_id: int) -> HubSpotView:
        connection = self.store.hubspot_connection(practice_id)
        hint = names.hint_of(self.accounts, practice_id, names.HUBSPOT_TOKEN)
        return HubSpotView(
            connected=connection is not None and bool(hint),
            token_hint=hint,
            hub_id=None if connection is None else connection.hub_id,
            scopes=() if connection is None else connection.scopes,
        )

    def connect(self, practice_id: int, token: str) -> HubSpotView:
        """Check ``token`` with HubSpot and its scopes, then store it sealed."""
        value = token.strip()
        if not _TOKEN.match(value):
            raise ConnectionsInputError(
                "that is not a HubSpot private-app token: it starts with pat- (HubSpot: Settings → Integrations → "
                "Private apps → your app → Auth → Show token → Copy)"
            )
        response = self.http.send("POST", f"{self.api_url}{TOKEN_INFO_PATH}", idempotent=True, json={"tokenKey": value})
        if response.status_code in (400, 401, 403, 404):
            raise ConnectionsInputError(
                f"HubSpot did not accept this token ({_error(response)}): copy the private app's access token again; "
                "a rotated or deleted app's token no longer works"
            )
        body = _ok_json(response, "the token check")
        granted = body.get("scopes")
        scopes = tuple(str(s) for s in granted) if isinstance(granted, list) else ()
        missing = missing_scopes(REQUIRED_SCOPES, scopes)
        if missing:
            raise MissingScopesError(
                f"the HubSpot token lacks scope{'s' if len(missing) > 1 else ''} {', '.join(missing)}: {SCOPES_HINT}",
                missing,
            )
        hub_id = body.get("hubId")
        if isinstance(hub_id, bool) or not isinstance(hub_id, int):
            raise ProviderRefusedError("HubSpot's token check answered without a hubId", response.status_code)
        self.accounts.save_secret(practice_id, names.HUBSPOT_TOKEN, value)
        now = self.http.clock()
        self.store.save_hubspot_connection(practice_id, HubSpotConnection(hub_id, scopes, now, now))
        log.info("hubspot: practice %s connected account %s", practice_id, hub_id)
        return self.view(practice_id)

    def disconnect(self, practice_id: int) -> bool:
        """Delete the token (and the connection); the import ledger stays. Whether there was one."""
        had = self.accounts.delete_secret(practice_id, names.HUBSPOT_TOKEN)
        removed = self.store.delete_hubspot_connection(practice_id)
        log.info("hubspot: practice %s disconnected", practice_id)
        return had or removed

    def import_companies(self, practice_id: int) -> ImportReport:
        """Import the companies not imported before as clients (see the module's docstring)."""
        secret = self.accounts.reveal_secret(practice_id, names.HUBSPOT_TOKEN)
        if secret is None:
            raise NotConnectedError("HubSpot is not connected: paste a private-app token in Settings → Connections")
        headers = {"Authorization": f"Bearer {secret.reveal()}", "Accept": "application/json"}
        abn_prop = abn_property(self._results(PROPERTIES_PATH, headers, {}, "the company properties"))
        ledger = self.store.hubspot_imports(practice_id)
        clients = self.accounts.clients(practice_id, include_archived=True)
        by_name: dict[str, Client] = {client_key(c.name): c for c in clients}
        by_abn: dict[str, Client] = {c.abn: c for c in clients if c.abn}
        properties = "name" if abn_prop is None else f"name,{abn_prop}"
        seen = already = 0
        created: list[CompanyOutcome] = []
        matched: list[CompanyOutcome] = []
        skipped: list[CompanyOutcome] = []
        after: str | None = None
        cursors: set[str] = set()
        for _ in range(MAX_PAGES):
            params: dict[str, Any] = {"limit": PAGE_SIZE, "properties": properties, "archived": "false"}
            if after is not None:
                params["after"] = after
            page = self._get(COMPANIES_PATH, headers, params, "the companies")
            for company in page.get("results") or []:
                if not isinstance(company, Mapping) or not company.get("id"):
                    continue
                seen += 1
                company_id = str(company["id"])
                if company_id in ledger:
                    already += 1
                    continue
                props = company.get("properties") if isinstance(company.get("properties"), Mapping) else {}
                assert isinstance(props, Mapping)
                name = str(props.get("name") or "").strip()
                reading = read_abn(props.get(abn_prop)) if abn_prop else read_abn(None)
                if not name:
                    skipped.append(CompanyOutcome(company_id, "", "skipped", abn_problem="the company has no name"))
                    continue
                existing = by_name.get(client_key(name)) or (by_abn.get(reading.abn) if reading.abn else None)
                if existing is not None:
                    self._record(practice_id, company_id, existing.id, ImportResult.MATCHED)
                    matched.append(
                        CompanyOutcome(company_id, name, "matched", existing.id, existing.abn, reading.problem)
                    )
                    continue
                try:
                    fields = client_fields(name, reading.abn, f"Imported from HubSpot (company {company_id}).")
                except AccountsInputError as exc:
                    skipped.append(CompanyOutcome(company_id, name, "skipped", abn_problem=str(exc)))
                    continue
                client = self.accounts.add_client(practice_id, fields)
                by_name[client_key(client.name)] = client
                if client.abn:
                    by_abn[client.abn] = client
                self._record(practice_id, company_id, client.id, ImportResult.CREATED)
                created.append(CompanyOutcome(company_id, name, "created", client.id, client.abn, reading.problem))
            after = _next_after(page)
            if after is None:
                break
            if after in cursors:
                raise ProviderRefusedError(
                    f"HubSpot returned the paging cursor {after[:40]!r} twice: import stopped", 200
                )
            cursors.add(after)
        log.info(
            "hubspot: practice %s import: %s seen, %s created, %s matched, %s already imported",
            practice_id, seen, len(created), len(matched), already,
        )  # fmt: skip
        return ImportReport(seen, already, tuple(created), tuple(matched), tuple(skipped), abn_prop)

    def _record(self, practice_id: int, company_id: str, client_id: int, result: ImportResult) -> None:
        self.store.record_hubspot_import(practice_id, ImportRecord(company_id, client_id, result, self.http.clock()))

    def _results(
        self, path: str, headers: Mapping[str, str], params: Mapping[str, Any], what: str
    ) -> list[Mapping[str, Any]]:
        body = self._get(path, headers, params, what)
        return [r for r in body.get("results") or [] if isinstance(r, Mapping)]

    def _get(self, path: str, headers: Mapping[str, str], params: Mapping[str, Any], what: str) -> Mapping[str, Any]:
        response = self.http.send("GET", f"{self.api_url}{path}", idempotent=True, headers=headers, params=params)
        if response.status_code == 401:
            raise NeedsReauthorisationError(
                f"HubSpot no longer accepts the saved token ({_error(response)}): paste a new private-app token in "
                "Settings → Connections"
            )
        if response.status_code == 403:
            missing = _missing_scopes(response) or REQUIRED_SCOPES
            raise MissingScopesError(
                f"HubSpot refused to read {what}: the token lacks {', '.join(missing)}; {SCOPES_HINT}", missing
            )
        return _ok_json(response, what)


def _next_after(page: Mapping[str, Any]) -> str | None:
    paging = page.get("paging")
    if not isinstance(paging, Mapping):
        return None
    following = paging.get("next")
    if not isinstance(following, Mapping):
        return None
    after = following.get("after")
    return str(after) if after not in (None, "") else None


def _ok_json(response: httpx.Response, what: str) -> Mapping[str, Any]:
    if response.status_code != 200:
        raise ProviderRefusedError(f"HubSpot answered {_error(response)} reading {what}", response.status_code)
    try:
        body = response.json()
    except ValueError:
        raise ProviderRefusedError(f"HubSpot answered {what} with something other than JSON", 200) from None
    if not isinstance(body, Mapping):
        raise ProviderRefusedError(f"HubSpot answered {what} with JSON that is not an object", 200)
    return body


def _error(response: httpx.Response) -> str:
    """HubSpot's ``Error``: its category and message (never the request)."""
    try:
        body = response.json()
    except ValueError:
        return f"HTTP {response.status_code}"
    if isinstance(body, Mapping):
        category = body.get("category")
        message = body.get("message")
        parts = [f"HTTP {response.status_code}"]
        if isinstance(category, str):
            parts.append(category)
        if isinstance(message, str):
            parts.append(message[:200])
        return ": ".join(parts)
    return f"HTTP {response.status_code}"


def _missing_scopes(response: httpx.Response) -> tuple[str, ...]:
    try:
        body = response.json()
    except ValueError:
        return ()
    found: list[str] = []
    if isinstance(body, Mapping):
        for error in body.get("errors") or []:
            context = error.get("context") if isinstance(error, Mapping) else None
            if isinstance(context, Mapping):
                for key in ("requiredGranularScopes", "requiredScopes", "missingScopes"):
                    values = context.get(key)
                    if isinstance(values, list):
                        found.extend(str(v) for v in values)
    return tuple(dict.fromkeys(found))
