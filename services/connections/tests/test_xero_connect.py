"""Connecting a client to Xero against the fake: the whole OAuth dance with state and PKCE
verified, the refusals, refresh in the background and on use, re-authorisation, disconnect."""

from __future__ import annotations

import base64
import hashlib
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest

from asat_connections import (
    AuthorisationError,
    ConnectionConflictError,
    ConnectionsInputError,
    ConnectionStatus,
    NeedsReauthorisationError,
    NotConnectedError,
)
from asat_connections import secrets as names

from .support import XERO_CLIENT_ID, XERO_CLIENT_SECRET, World, browse


def _query(url: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


def test_the_full_dance_binds_one_organisation_with_state_and_pkce_checked(any_world: World) -> None:
    w = any_world
    app = w.connections.xero.save_app(w.practice.id, XERO_CLIENT_ID, XERO_CLIENT_SECRET)
    assert app.configured and app.redirect_uri == "http://localhost:8740/connections/xero/callback"
    assert XERO_CLIENT_SECRET not in repr(app) and app.client_secret_hint.endswith(XERO_CLIENT_SECRET[-4:])
    start = w.connections.xero.start_authorisation(w.practice.id, w.client.id)
    asked = _query(start.url)
    assert start.url.startswith(f"{w.xero_url}/identity/connect/authorize?")
    assert asked["response_type"] == "code" and asked["client_id"] == XERO_CLIENT_ID
    assert asked["redirect_uri"] == app.redirect_uri and asked["code_challenge_method"] == "S256"
    assert "offline_access" in asked["scope"].split() and len(asked["state"]) >= 43
    # The verifier is sealed until the exchange; the challenge Xero got is its S256.
    verifier = w.accounts.reveal_secret(w.practice.id, names.xero_verifier(w.client.id))
    assert verifier is not None
    digest = base64.urlsafe_b64encode(hashlib.sha256(verifier.reveal().encode()).digest()).rstrip(b"=").decode()
    assert asked["code_challenge"] == digest
    callback = browse(start.url)
    assert callback["state"] == asked["state"] and callback["code"]
    connection = w.connections.xero.finish_authorisation(w.practice.id, callback)
    assert connection.status is ConnectionStatus.CONNECTED
    assert connection.tenant is not None and connection.tenant.tenant_id == w.tenant
    assert connection.tenant.name == "Client One (Xero)"
    assert w.accounts.reveal_secret(w.practice.id, names.xero_verifier(w.client.id)) is None  # single use
    assert w.accounts.reveal_secret(w.practice.id, names.xero_access(w.client.id)) is not None
    assert w.accounts.reveal_secret(w.practice.id, names.xero_refresh(w.client.id)) is not None
    # The same callback again (a replayed state) is refused: the state is single-use.
    with pytest.raises(AuthorisationError, match="does not match a connection started here"):
        w.connections.xero.finish_authorisation(w.practice.id, callback)


def test_a_state_that_was_not_issued_or_a_missing_one_is_refused(world: World) -> None:
    w = world
    w.connections.xero.save_app(w.practice.id, XERO_CLIENT_ID, XERO_CLIENT_SECRET)
    start = w.connections.xero.start_authorisation(w.practice.id, w.client.id)
    callback = browse(start.url)
    for forged in ({**callback, "state": callback["state"][:-2] + "xx"}, {"code": callback["code"]}):
        with pytest.raises(AuthorisationError, match="does not match"):
            w.connections.xero.finish_authorisation(w.practice.id, forged)
    # ... and another practice cannot complete this practice's dance with the right state.
    other, _ = w.accounts.create_practice("Other Practice", "other@beta.example", _hash())
    with pytest.raises(AuthorisationError, match="does not match"):
        w.connections.xero.finish_authorisation(other.id, callback)
    assert w.connections.xero.finish_authorisation(w.practice.id, callback).status is ConnectionStatus.CONNECTED


def test_pkce_is_verified_by_xero_a_wrong_verifier_gets_no_tokens(world: World) -> None:
    w = world
    w.connections.xero.save_app(w.practice.id, XERO_CLIENT_ID, XERO_CLIENT_SECRET)
    start = w.connections.xero.start_authorisation(w.practice.id, w.client.id)
    callback = browse(start.url)
    w.accounts.save_secret(w.practice.id, names.xero_verifier(w.client.id), "x" * 43)  # not the one challenged
    with pytest.raises(AuthorisationError, match="invalid_grant"):
        w.connections.xero.finish_authorisation(w.practice.id, callback)
    assert w.connections.xero.connection(w.practice.id, w.client.id) is None
    assert w.accounts.reveal_secret(w.practice.id, names.xero_access(w.client.id)) is None


def test_an_expired_dance_and_a_refused_consent_say_what_to_do(world: World) -> None:
    w = world
    w.connections.xero.save_app(w.practice.id, XERO_CLIENT_ID, XERO_CLIENT_SECRET)
    start = w.connections.xero.start_authorisation(w.practice.id, w.client.id)
    callback = browse(start.url)
    w.clock.advance(minutes=16)
    with pytest.raises(AuthorisationError, match="more than 15 minutes ago: start connecting again"):
        w.connections.xero.finish_authorisation(w.practice.id, callback)
    w.xero.deny_next_consent()
    start = w.connections.xero.start_authorisation(w.practice.id, w.client.id)
    refused = browse(start.url)
    assert refused["error"] == "access_denied"
    with pytest.raises(AuthorisationError, match="consent was not given"):
        w.connections.xero.finish_authorisation(w.practice.id, refused)


def test_wrong_app_credentials_are_named(world: World) -> None:
    w = world
    w.connections.xero.save_app(w.practice.id, XERO_CLIENT_ID, "not-the-secret-0123456789")
    start = w.connections.xero.start_authorisation(w.practice.id, w.client.id)
    with pytest.raises(AuthorisationError, match="client id and secret"):
        w.connections.xero.finish_authorisation(w.practice.id, browse(start.url))


def test_app_credentials_are_checked_for_form_and_needed_before_connecting(world: World) -> None:
    w = world
    with pytest.raises(NotConnectedError, match="paste your Xero app's client id and secret"):
        w.connections.xero.start_authorisation(w.practice.id, w.client.id)
    with pytest.raises(ConnectionsInputError, match="client id is empty"):
        w.connections.xero.save_app(w.practice.id, "  ", XERO_CLIENT_SECRET)
    with pytest.raises(ConnectionsInputError, match="client secret is empty or has spaces"):
        w.connections.xero.save_app(w.practice.id, XERO_CLIENT_ID, "has a space")
    assert not w.connections.xero.app(w.practice.id).configured


def test_several_organisations_authorised_ask_to_choose_one(world: World) -> None:
    w = world
    w.xero.consent(w.tenant, w.other_tenant)
    w.connect_xero()
    connection = w.connections.xero.connection(w.practice.id, w.client.id)
    assert connection is not None and connection.status is ConnectionStatus.CHOOSE_ORGANISATION
    assert {t.tenant_id for t in connection.choices} == {w.tenant, w.other_tenant}
    with pytest.raises(NotConnectedError, match="no organisation chosen"):
        w.connections.push.push(w.practice.id, w.client.id, [])
    with pytest.raises(ConnectionsInputError, match="was not authorised"):
        w.connections.xero.choose_organisation(w.practice.id, w.client.id, "00000000-0000-0000-0000-000000000000")
    chosen = w.connections.xero.choose_organisation(w.practice.id, w.client.id, w.other_tenant)
    assert chosen.status is ConnectionStatus.CONNECTED and chosen.tenant is not None
    assert chosen.tenant.tenant_id == w.other_tenant


def test_one_organisation_per_client(world: World) -> None:
    w = world
    w.connect_xero(w.client.id)
    w.xero.consent(w.tenant)  # the same organisation, for the other client
    with pytest.raises(ConnectionConflictError, match="already connected to client"):
        w.connect_xero(w.other_client.id)
    assert w.connections.xero.connection(w.practice.id, w.other_client.id) is None


def test_tokens_are_refreshed_on_use_and_in_the_background(world: World) -> None:
    w = world
    w.connect_xero()
    before = w.accounts.reveal_secret(w.practice.id, names.xero_refresh(w.client.id))
    assert w.connections.xero.refresh_due(w.practice.id) == ()  # 30 minutes left: not due
    w.clock.advance(minutes=25)
    (outcome,) = w.connections.xero.refresh_due(w.practice.id)  # due within 10 minutes
    assert outcome.refreshed and outcome.status is ConnectionStatus.CONNECTED
    after = w.accounts.reveal_secret(w.practice.id, names.xero_refresh(w.client.id))
    assert after is not None and before is not None and after.reveal() != before.reveal()  # rotated
    connection = w.connections.xero.connection(w.practice.id, w.client.id)
    assert connection is not None and connection.access_expires_at == w.clock() + timedelta(minutes=30)
    refreshes = w.xero.count("POST", "token")
    w.clock.advance(minutes=29, seconds=30)  # due within the minute: refreshed before use
    w.connections.xero.access_token(w.practice.id, w.client.id)
    assert w.xero.count("POST", "token") == refreshes + 1


def test_a_revoked_connection_needs_reauthorisation_and_is_not_retried(world: World) -> None:
    w = world
    w.connect_xero()
    w.xero.revoke_all()
    w.clock.advance(minutes=25)
    (outcome,) = w.connections.xero.refresh_due(w.practice.id)
    assert not outcome.refreshed and outcome.status is ConnectionStatus.NEEDS_REAUTHORISATION
    connection = w.connections.xero.connection(w.practice.id, w.client.id)
    assert connection is not None and connection.status is ConnectionStatus.NEEDS_REAUTHORISATION
    assert "connect the client again" in connection.problem
    calls = len(w.xero.requests)
    assert w.connections.xero.refresh_due(w.practice.id) == ()  # skipped, not retried
    with pytest.raises(NeedsReauthorisationError, match="needs re-authorisation"):
        w.connections.xero.access_token(w.practice.id, w.client.id)
    with pytest.raises(NeedsReauthorisationError):
        w.connections.push.push(w.practice.id, w.client.id, [])
    assert len(w.xero.requests) == calls  # nothing was sent to Xero
    w.connect_xero()  # connecting again clears it
    again = w.connections.xero.connection(w.practice.id, w.client.id)
    assert again is not None and again.status is ConnectionStatus.CONNECTED and again.problem == ""


def test_an_expired_refresh_token_is_reauthorisation_too(world: World) -> None:
    w = world
    w.connect_xero()
    w.xero.misbehave("token", "invalid_grant")
    with pytest.raises(NeedsReauthorisationError, match="revoked, or unused for 60 days"):
        w.connections.xero.refresh(w.practice.id, w.client.id)


def test_disconnect_revokes_at_xero_and_forgets_the_tokens(world: World) -> None:
    w = world
    w.connect_xero()
    report = w.connections.xero.disconnect(w.practice.id, w.client.id)
    assert report.revoked_at_xero
    assert w.xero.count("POST", "revocation") == 1
    assert w.connections.xero.connection(w.practice.id, w.client.id) is None
    left = {s.name for s in w.accounts.secrets(w.practice.id)}
    assert left == {names.XERO_APP_CLIENT_ID, names.XERO_APP_CLIENT_SECRET}


def _hash() -> str:
    from .support import cheap_hash

    return cheap_hash()


def test_a_failed_code_exchange_asks_to_start_again(world: World) -> None:
    w = world
    w.connections.xero.save_app(w.practice.id, XERO_CLIENT_ID, XERO_CLIENT_SECRET)
    start = w.connections.xero.start_authorisation(w.practice.id, w.client.id)
    w.xero.misbehave("token", "server_error")
    with pytest.raises(AuthorisationError, match=r"Start connecting client \d+ again"):
        w.connections.xero.finish_authorisation(w.practice.id, browse(start.url))


def test_each_consent_binds_only_the_organisations_it_authorised(world: World) -> None:
    w = world
    w.connect_xero(w.client.id)
    w.xero.consent(w.other_tenant)
    w.connect_xero(w.other_client.id)  # Xero lists both organisations; this consent's event has one
    other = w.connections.xero.connection(w.practice.id, w.other_client.id)
    assert other is not None and other.status is ConnectionStatus.CONNECTED
    assert other.tenant is not None and other.tenant.tenant_id == w.other_tenant


def test_an_organisation_that_disconnected_the_app_needs_reauthorisation(world: World) -> None:
    w = world
    w.connect_xero()
    w.xero.disconnect_organisation(w.tenant)
    with pytest.raises(NeedsReauthorisationError, match="disconnected from it"):
        w.connections.xero.session(w.practice.id, w.client.id).request("GET", "/Contacts", idempotent=True)
    connection = w.connections.xero.connection(w.practice.id, w.client.id)
    assert connection is not None and connection.status is ConnectionStatus.NEEDS_REAUTHORISATION
