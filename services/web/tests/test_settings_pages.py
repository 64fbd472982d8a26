"""The settings pages: members (invite, role, remove; never the last owner), clients (create, edit,
archive; the ABN checked) and the provider (settings, the sealed key shown only as its hint, the
check run through research). Who may change what, and a saved key in no response."""

from __future__ import annotations

import re

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from asat_accounts.fields import PROVIDER_KEY_SECRET
from asat_accounts.memory_store import InMemoryAccountsStore
from asat_accounts.model import Role

from .signed_in import Account, add_member, add_practice, anonymous, new_store, signed_in, web_app
from .stub_research import create_stub

KEY = "sk-proj-SeCrEt-" + "0123456789abcdefghij" * 2 + "-tail9z"


def _setup() -> tuple[FastAPI, FastAPI, Account]:
    stub = create_stub()
    store = new_store()
    return web_app(stub, store), stub, add_practice(store)


def _sign_in(app: FastAPI, email: str, password: str) -> TestClient:
    client = anonymous(app)
    form = client.get("/sign-in")
    token = re.search(r'name="csrf_token" value="([^"]+)"', form.text)
    assert token is not None
    reply = client.post(
        "/sign-in", data={"email": email, "password": password, "csrf_token": token.group(1)}, follow_redirects=False
    )
    assert reply.status_code == 303, reply.text
    return client


# --- members ---------------------------------------------------------------------------------------


def test_an_owner_invites_a_member_who_signs_in_with_the_one_time_password() -> None:
    app, _, owner = _setup()
    client = signed_in(app, owner)
    page = client.get("/settings/members")
    assert page.status_code == 200 and "owner@practice.test (you)" in page.text and "Invite a member" in page.text
    reply = client.post("/settings/members", data={"email": "New.Agent@Practice.test", "role": "agent"})
    assert reply.status_code == 201 and reply.headers["cache-control"] == "no-store"
    shown = re.search(r'<code class="one-time-password">([^<]+)</code>', reply.text)
    assert shown is not None and "new.agent@practice.test" in reply.text
    member = _sign_in(app, "new.agent@practice.test", shown.group(1))
    assert "new.agent@practice.test · Test Practice (agent)" in member.get("/research").text
    assert shown.group(1) not in client.get("/settings/members").text  # shown once
    taken = client.post("/settings/members", data={"email": "new.agent@practice.test", "role": "agent"})
    assert taken.status_code == 409 and "already a member" in taken.text
    bad = client.post("/settings/members", data={"email": "not an email", "role": "agent"})
    assert bad.status_code == 422 and "is not an email address" in bad.text
    assert client.post("/settings/members", data={"email": "x@practice.test", "role": "boss"}).status_code == 422


def test_inviting_an_existing_user_of_another_practice_adds_a_membership() -> None:
    app, _, owner = _setup()
    other = add_practice(owner.store, "Other Practice", "jo@other.test")
    client = signed_in(app, owner)
    reply = client.post("/settings/members", data={"email": "jo@other.test", "role": "reviewer"})
    assert reply.status_code == 201 and "has an account already" in reply.text
    assert "one-time-password" not in reply.text
    practices = {m.practice_id for m in owner.store.memberships_of(other.user_id)}
    assert practices == {owner.practice_id, other.practice_id}


def test_roles_change_and_the_last_owner_stays() -> None:
    app, _, owner = _setup()
    agent = add_member(owner, "agent@practice.test", Role.AGENT)
    client = signed_in(app, owner)
    last = client.post(f"/settings/members/{owner.user_id}/role", data={"role": "agent"})
    assert last.status_code == 409 and "only owner" in last.text
    assert client.post(f"/settings/members/{owner.user_id}/remove").status_code == 409
    changed = client.post(f"/settings/members/{agent.user_id}/role", data={"role": "owner"})
    assert changed.status_code == 200 and "agent@practice.test is now a owner" in changed.text
    removed = client.post(f"/settings/members/{agent.user_id}/remove")
    assert removed.status_code == 200 and "Member removed" in removed.text
    assert [m.user.id for m in owner.store.members(owner.practice_id)] == [owner.user_id]


@pytest.mark.parametrize("role", [Role.AGENT, Role.REVIEWER])
def test_only_owners_manage_members_and_the_provider(role: Role) -> None:
    app, _, owner = _setup()
    member = add_member(owner, f"{role.value}@practice.test", role)
    client = signed_in(app, member)
    page = client.get("/settings/members")
    assert (
        page.status_code == 200
        and "Invite a member" not in page.text
        and "Only owners change the members." in page.text
    )
    for path, data in (
        ("/settings/members", {"email": "x@practice.test", "role": "owner"}),
        (f"/settings/members/{owner.user_id}/role", {"role": "reviewer"}),
        (f"/settings/members/{owner.user_id}/remove", {}),
        ("/settings/provider", {"provider": "ollama", "model": "llama3"}),
        ("/settings/provider/check", {}),
    ):
        reply = client.post(path, data=data)
        assert reply.status_code == 403 and "Only owners may" in reply.text, path
    assert client.get("/settings/provider").status_code == 200
    assert [m.role for m in owner.store.members(owner.practice_id) if m.user.id == owner.user_id] == [Role.OWNER]


# --- clients ---------------------------------------------------------------------------------------


def test_clients_are_created_edited_and_archived_with_the_abn_checked() -> None:
    app, _, owner = _setup()
    agent = add_member(owner, "agent@practice.test", Role.AGENT)
    client = signed_in(app, agent)
    bad = client.post("/settings/clients", data={"name": "Acme Pty Ltd", "abn": "51 824 753 557", "notes": ""})
    assert bad.status_code == 422 and "fails the ABN checksum" in bad.text and 'value="Acme Pty Ltd"' in bad.text
    made = client.post("/settings/clients", data={"name": "Acme Pty Ltd", "abn": "51 824 753 556", "notes": "FY24"})
    assert made.status_code == 201 and "Client Acme Pty Ltd added." in made.text and "51824753556" in made.text
    (acme,) = owner.store.clients(owner.practice_id)
    edit = client.get(f"/settings/clients/{acme.id}")
    assert edit.status_code == 200 and "Archive Acme Pty Ltd" in edit.text
    saved = client.post(f"/settings/clients/{acme.id}", data={"name": "Acme Holdings", "abn": "", "notes": "renamed"})
    assert saved.status_code == 200 and "Saved." in saved.text and 'value="Acme Holdings"' in saved.text
    assert '<option value="' + str(acme.id) + '">Acme Holdings</option>' in client.get("/research").text
    archived = client.post(f"/settings/clients/{acme.id}/archive")
    assert archived.status_code == 200 and "Client Acme Holdings archived." in archived.text
    assert "Acme Holdings" not in client.get("/settings/clients").text
    assert "Acme Holdings" in client.get("/settings/clients?archived=true").text
    assert "Acme Holdings" not in client.get("/research").text  # no longer offered when asking


def test_a_reviewer_reads_the_clients_and_changes_none() -> None:
    app, _, owner = _setup()
    reviewer = add_member(owner, "reviewer@practice.test", Role.REVIEWER)
    client = signed_in(app, reviewer)
    assert "Only owners and agents change the clients." in client.get("/settings/clients").text
    reply = client.post("/settings/clients", data={"name": "Sneaky Pty Ltd"})
    assert reply.status_code == 403 and owner.store.clients(owner.practice_id) == ()


# --- provider --------------------------------------------------------------------------------------


def test_the_provider_is_saved_checked_and_its_key_never_shown() -> None:
    app, stub, owner = _setup()
    client = signed_in(app, owner)
    responses: list[httpx.Response] = [client.get("/settings/provider")]
    form = {"provider": "openai_compatible", "base_url": "http://127.0.0.1:8000/v1", "model": "qwen2.5"}
    bad = client.post("/settings/provider", data=form | {"base_url": "not a url", "api_key": KEY})
    responses.append(bad)
    assert bad.status_code == 422 and "is not an http(s) URL" in bad.text
    saved = client.post("/settings/provider", data=form | {"api_key": f"  {KEY}\n"})
    responses.append(saved)
    assert saved.status_code == 200 and "the API key is kept sealed" in saved.text
    assert f"sk-…{KEY[-4:]}" in saved.text and 'name="api_key" value=""' in saved.text
    responses.append(client.get("/settings/provider"))
    responses.append(client.post("/settings/provider", data=form | {"model": "qwen3"}))  # keeps the key
    check = client.post("/settings/provider/check")
    responses.append(check)
    assert check.status_code == 200 and "Check: ok" in check.text and "every check passed" in check.text
    assert stub.state.provider_checks == [
        {"provider": "openai_compatible", "base_url": "http://127.0.0.1:8000/v1", "model": "qwen3", "timeout_s": 20.0}
        | {"api_key": KEY}
    ]
    responses.append(client.get("/settings/provider"))
    responses += [client.get(p) for p in ("/settings/members", "/settings/clients", "/research", "/audit", "/history")]
    for reply in responses:
        for text in (reply.text, str(reply.headers)):
            assert KEY not in text and KEY[8:30] not in text, reply.request.url
    revealed = owner.store.reveal_secret(owner.practice_id, PROVIDER_KEY_SECRET)
    assert revealed is not None and revealed.reveal() == KEY
    removed = client.post("/settings/provider", data=form | {"remove_key": "yes"})
    assert "the API key was removed" in removed.text and "none saved" in removed.text


def test_a_provider_check_needs_saved_settings_and_a_key_store() -> None:
    app, _, owner = _setup()
    client = signed_in(app, owner)
    first = client.post("/settings/provider/check")
    assert first.status_code == 422 and "Save the provider settings first, then check them." in first.text
    keyless = InMemoryAccountsStore()  # as without ASAT_SECRET_KEY
    other = add_practice(keyless)
    reply = signed_in(web_app(create_stub(), keyless), other).post(
        "/settings/provider", data={"provider": "anthropic", "api_key": KEY}
    )
    assert reply.status_code == 503 and "ASAT_SECRET_KEY is not set" in reply.text and KEY not in reply.text
