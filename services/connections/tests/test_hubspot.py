"""HubSpot against the fake: the token checked and its scopes named, 250 companies over three pages
imported as clients (invalid ABNs dropped and reported), re-runs import nothing, an existing client
is never modified, disconnect deletes the token."""

from __future__ import annotations

import httpx
import pytest

from asat_accounts import client_fields
from asat_connections import (
    REQUIRED_SCOPES,
    ConnectionsInputError,
    MissingScopesError,
    NeedsReauthorisationError,
    NotConnectedError,
)
from asat_connections import secrets as names
from asat_corpus.text.abn import abn_is_valid, complete_abn

from .support import World

COMPANIES = 250
INVALID = {10, 50, 120, 200}  # companies whose ABN property fails the checksum


def _invalid(abn: str) -> str:
    wrong = abn[:-1] + str((int(abn[-1]) + 1) % 10)
    assert not abn_is_valid(wrong)
    return wrong


def _load(w: World) -> dict[int, str]:
    """250 companies, most with a valid ABN (spaced as people type them), some with none, four with
    a bad one; and company 0 named like an existing client (other case and spacing)."""
    w.hubspot.add_property("abn", "ABN")
    w.hubspot.add_property("abn_notes", "ABN notes")
    ids = {}
    for n in range(COMPANIES):
        name = "ACME  pty ltd" if n == 0 else f"Company {n:03d} Pty Ltd"
        abn = complete_abn(f"{n + 100_000_000:09d}")
        value: str | None = f"{abn[:2]} {abn[2:5]} {abn[5:8]} {abn[8:]}"
        if n in INVALID:
            value = _invalid(abn)
        elif n % 7 == 3:
            value = None
        ids[n] = w.hubspot.add_company(name, abn=value, abn_notes="not an ABN")
    return ids


def test_a_token_without_a_needed_scope_is_refused_with_the_scope_named(any_world: World) -> None:
    w = any_world
    token = w.hubspot.issue_token(["crm.objects.companies.read", "crm.objects.contacts.read"])
    with pytest.raises(MissingScopesError, match=r"lacks scope crm\.schemas\.companies\.read") as refused:
        w.connections.hubspot.connect(w.practice.id, token)
    assert refused.value.missing == ("crm.schemas.companies.read",)
    assert token not in str(refused.value)
    assert w.accounts.secrets(w.practice.id) == ()  # nothing stored
    assert not w.connections.hubspot.view(w.practice.id).connected
    none = w.hubspot.issue_token([])
    with pytest.raises(MissingScopesError, match=r"crm\.objects\.companies\.read, crm\.schemas\.companies\.read"):
        w.connections.hubspot.connect(w.practice.id, none)


def test_a_token_hubspot_does_not_accept_or_not_a_token_is_refused(world: World) -> None:
    w = world
    with pytest.raises(ConnectionsInputError, match="starts with pat-"):
        w.connections.hubspot.connect(w.practice.id, "sk-not-hubspot-0123456789")
    revoked = w.hubspot.issue_token(list(REQUIRED_SCOPES))
    w.hubspot.revoke(revoked)
    with pytest.raises(ConnectionsInputError, match="HubSpot did not accept this token"):
        w.connections.hubspot.connect(w.practice.id, revoked)
    with pytest.raises(NotConnectedError, match="paste a private-app token"):
        w.connections.hubspot.import_companies(w.practice.id)


def test_250_companies_over_three_pages_become_clients(any_world: World) -> None:
    w = any_world
    existing = w.accounts.add_client(w.practice.id, client_fields("Acme Pty Ltd", "51 824 753 556", "our notes"))
    companies = _load(w)
    token = w.hubspot.issue_token([*REQUIRED_SCOPES, "crm.objects.contacts.read"])
    view = w.connections.hubspot.connect(w.practice.id, token)
    assert view.connected and view.hub_id == w.hubspot.hub_id and token not in repr(view)
    assert view.token_hint.endswith(token[-4:]) and len(view.token_hint) < len(token) // 2

    report = w.connections.hubspot.import_companies(w.practice.id)

    assert w.hubspot.count("/crm/v3/objects/companies") == 3  # 100 + 100 + 50
    assert report.companies_seen == COMPANIES and report.abn_property == "abn"
    assert len(report.created) == COMPANIES - 1 and len(report.matched) == 1 and report.skipped == ()
    (match,) = report.matched
    assert match.client_id == existing.id and match.company_id == companies[0]
    assert {o.company_id for o in report.invalid_abns} == {companies[n] for n in INVALID}
    assert all("fails the ABN checksum" in (o.abn_problem or "") for o in report.invalid_abns)
    clients = {c.name: c for c in w.accounts.clients(w.practice.id)}
    assert len(clients) == 2 + COMPANIES  # the world's two, Acme, and 249 new
    for n in INVALID:
        assert clients[f"Company {n:03d} Pty Ltd"].abn is None
    assert clients["Company 001 Pty Ltd"].abn == complete_abn("100000001")
    assert clients["Company 003 Pty Ltd"].abn is None  # no ABN given
    assert all(c.abn is None or abn_is_valid(c.abn) for c in clients.values())
    # The existing client is untouched: same name, ABN, notes and time of change.
    assert w.accounts.client(w.practice.id, existing.id) == existing

    again = w.connections.hubspot.import_companies(w.practice.id)
    assert again.created == () and again.matched == () and again.already_imported == COMPANIES
    assert len(w.accounts.clients(w.practice.id)) == 2 + COMPANIES

    new = w.hubspot.add_company("Newco Pty Ltd", abn=None)
    third = w.connections.hubspot.import_companies(w.practice.id)
    assert [o.company_id for o in third.created] == [new] and third.already_imported == COMPANIES


def test_a_429_during_the_import_is_waited_out(world: World) -> None:
    w = world
    for n in range(150):
        w.hubspot.add_company(f"Firm {n}")
    w.connections.hubspot.connect(w.practice.id, w.hubspot.issue_token(list(REQUIRED_SCOPES)))
    w.hubspot.misbehave("list_companies", "rate_limit", retry_after=3, after=1)
    report = w.connections.hubspot.import_companies(w.practice.id)
    assert len(report.created) == 150 and w.sleeps.waited == [3.0]
    assert report.abn_property is None  # no custom ABN property: imported without ABNs


def test_a_token_revoked_after_connecting_asks_for_a_new_one(world: World) -> None:
    w = world
    token = w.hubspot.issue_token(list(REQUIRED_SCOPES))
    w.connections.hubspot.connect(w.practice.id, token)
    w.hubspot.revoke(token)
    with pytest.raises(NeedsReauthorisationError, match="paste a new private-app token"):
        w.connections.hubspot.import_companies(w.practice.id)


def test_disconnect_deletes_the_token(any_world: World) -> None:
    w = any_world
    w.connections.hubspot.connect(w.practice.id, w.hubspot.issue_token(list(REQUIRED_SCOPES)))
    assert w.accounts.reveal_secret(w.practice.id, names.HUBSPOT_TOKEN) is not None
    assert w.connections.hubspot.disconnect(w.practice.id)
    assert w.accounts.reveal_secret(w.practice.id, names.HUBSPOT_TOKEN) is None
    assert not w.connections.hubspot.view(w.practice.id).connected
    assert not w.connections.hubspot.disconnect(w.practice.id)


def test_a_page_that_never_comes_is_asked_again(world: World) -> None:
    w = world
    for n in range(120):
        w.hubspot.add_company(f"Firm {n}")
    w.connections.hubspot.connect(w.practice.id, w.hubspot.issue_token(list(REQUIRED_SCOPES)))
    w.connections.hubspot.http.client.timeout = httpx.Timeout(1.0)
    w.hubspot.misbehave("list_companies", "timeout", delay_s=3.0, after=1)  # the second page
    report = w.connections.hubspot.import_companies(w.practice.id)
    assert len(report.created) == 120 and w.sleeps.waited == [1.0]  # one backoff, then the page again
    assert w.hubspot.count("/crm/v3/objects/companies") == 3
