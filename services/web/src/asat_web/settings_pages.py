"""The practice's settings: members, clients and the generation provider (``/settings/...``).

Every page reads and writes the signed-in session's practice only (the accounts store scopes each
call to it: another practice's member or client id is not found, 404). Who may change what is
``asat_accounts.permissions``: owners manage members and the provider, owners and agents manage
clients, reviewers read (403 otherwise).

- **Members**: invite (a new user with a one-time password shown once, or, for an email that has
  an account already, a membership of this practice too), change a role, remove; never the last
  owner (409).
- **Clients**: create, edit, archive (the ABN checked by its checksum); the research form offers
  the practice's current clients, and each question records the one chosen.
- **Provider**: which generator, base URL and model, and the API key, sealed in the accounts
  store (``ASAT_SECRET_KEY``) and shown back only as its masked hint; the key field is always
  empty. "Check provider" sends the saved settings with the key to research's
  ``POST /v1/provider/check`` (the service-token-guarded channel) and shows the probe's report.
  The saved provider answers the practice's questions: every research request carries it
  (``asat_web.practice_provider``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import parse_qs

from argon2 import Parameters
from fastapi import APIRouter, Path, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from asat_accounts.errors import (
    AccountsConflictError,
    AccountsInputError,
    AccountsNotFoundError,
    AccountsStoreError,
)
from asat_accounts.fields import PROVIDER_KEY_SECRET, client_fields
from asat_accounts.model import Role, SecretInfo
from asat_accounts.passwords import hash_password
from asat_accounts.permissions import Action
from asat_accounts.secret_box import SecretDecryptError, SecretKeyError
from asat_accounts.store import AccountsStore
from asat_corpus.contracts.provider import PROVIDERS, ProviderCheckReply
from asat_web.auth import Refused, practice_id, require, signed_in
from asat_web.research_client import ResearchClient, ResearchRejected, ResearchUnavailable

Page = Callable[..., HTMLResponse]
CHECK_TIMEOUT_S = 20.0
PROVIDER_LABELS = {
    "extractive": "Extractive (no model: quotes only)",
    "openai_compatible": "OpenAI-compatible server (vLLM, llama.cpp, OpenAI)",
    "aggregator": "Aggregator (OpenRouter-style)",
    "anthropic": "Anthropic",
    "ollama": "Ollama",
}
ROLES = tuple(Role)
UserId = Annotated[int, Path(ge=1)]
ClientId = Annotated[int, Path(ge=1)]


@dataclass(frozen=True)
class SettingsDeps:
    store: AccountsStore
    page: Page
    research: ResearchClient
    parameters: Parameters  # the Argon2 parameters new passwords are hashed with


def one_time_password() -> str:
    """A password for an invited member to sign in with once (96 random bits, 16 characters)."""
    return secrets.token_urlsafe(12)


def settings_router(deps: SettingsDeps) -> APIRouter:
    router = APIRouter()
    store = deps.store

    # --- members ---------------------------------------------------------------------------------

    def members_page(status: int = 200, **context: Any) -> HTMLResponse:
        session = signed_in()
        members = store.members(practice_id())
        context = {"problem": None, "done": None, "invited": None, "form": {}} | context
        return deps.page(
            "settings_members.html",
            status=status,
            members=members,
            roles=ROLES,
            me=session.user.id,
            **context,
        )

    @router.get("/settings", include_in_schema=False)
    def settings_home() -> RedirectResponse:
        return RedirectResponse("/settings/members", status_code=303)

    @router.get("/settings/members", response_class=HTMLResponse)
    def members() -> HTMLResponse:
        return members_page()

    @router.post("/settings/members", response_class=HTMLResponse)
    async def invite(request: Request) -> HTMLResponse:
        require(Action.MANAGE_MEMBERS)
        fields = await _fields(request)
        email, role_text = fields.get("email", "").strip(), fields.get("role", "")
        form = {"email": email, "role": role_text}
        try:
            role = Role(role_text)
        except ValueError:
            return await run_in_threadpool(
                members_page, 422, problem="Choose a role: owner, agent or reviewer.", form=form
            )
        pid = practice_id()
        password = one_time_password()
        try:
            hashed = await run_in_threadpool(hash_password, password, deps.parameters)
            member = await run_in_threadpool(store.add_member, pid, email, hashed, role)
        except AccountsInputError as exc:
            return await run_in_threadpool(members_page, 422, problem=str(exc), form=form)
        except AccountsConflictError:
            try:
                member = await run_in_threadpool(store.add_existing_member, pid, email, role)
            except AccountsConflictError as exc:
                return await run_in_threadpool(members_page, 409, problem=str(exc), form=form)
            done = (
                f"{member.user.email} has an account already: they are now a {role.value} of this practice too, "
                "and sign in with their own password (then choose this practice)."
            )
            return await run_in_threadpool(members_page, 201, done=done)
        invited = {"email": member.user.email, "role": role.value, "password": password}
        response = await run_in_threadpool(members_page, 201, invited=invited)
        response.headers["cache-control"] = "no-store"
        return response

    @router.post("/settings/members/{user_id}/role", response_class=HTMLResponse)
    async def change_role(user_id: UserId, request: Request) -> HTMLResponse:
        require(Action.MANAGE_MEMBERS)
        fields = await _fields(request)
        try:
            role = Role(fields.get("role", ""))
        except ValueError:
            return await run_in_threadpool(members_page, 422, problem="Choose a role: owner, agent or reviewer.")
        try:
            member = await run_in_threadpool(store.set_role, practice_id(), user_id, role)
        except AccountsNotFoundError:
            raise _not_a_member(user_id) from None
        except AccountsConflictError as exc:
            return await run_in_threadpool(members_page, 409, problem=str(exc))
        return await run_in_threadpool(members_page, done=f"{member.user.email} is now a {role.value}.")

    @router.post("/settings/members/{user_id}/remove", response_model=None)
    async def remove_member(user_id: UserId) -> Response:
        session = require(Action.MANAGE_MEMBERS)
        try:
            await run_in_threadpool(store.remove_member, practice_id(), user_id)
        except AccountsNotFoundError:
            raise _not_a_member(user_id) from None
        except AccountsConflictError as exc:
            return await run_in_threadpool(members_page, 409, problem=str(exc))
        if user_id == session.user.id:  # their own session went with the membership
            return RedirectResponse("/sign-in", status_code=303)
        return await run_in_threadpool(members_page, done="Member removed from this practice.")

    # --- clients ---------------------------------------------------------------------------------

    def clients_page(status: int = 200, archived: bool = False, **context: Any) -> HTMLResponse:
        clients = store.clients(practice_id(), include_archived=archived)
        context = {"problem": None, "done": None, "form": {}} | context
        return deps.page("settings_clients.html", status=status, clients=clients, archived=archived, **context)

    def client_or_404(client_id: int) -> Any:
        found = store.client(practice_id(), client_id)
        if found is None:
            raise Refused(404, "Client not found", f"There is no client {client_id} in this practice.")
        return found

    @router.get("/settings/clients", response_class=HTMLResponse)
    def clients(archived: bool = False) -> HTMLResponse:
        return clients_page(archived=archived)

    @router.post("/settings/clients", response_model=None)
    async def add_client(request: Request) -> Response:
        require(Action.MANAGE_CLIENTS)
        fields = await _fields(request)
        form = {k: fields.get(k, "") for k in ("name", "abn", "notes")}
        try:
            checked = client_fields(form["name"], form["abn"], form["notes"])
            added = await run_in_threadpool(store.add_client, practice_id(), checked)
        except AccountsInputError as exc:
            return await run_in_threadpool(clients_page, 422, problem=str(exc), form=form)
        return await run_in_threadpool(clients_page, 201, done=f"Client {added.name} added.")

    @router.get("/settings/clients/{client_id}", response_class=HTMLResponse)
    def client_page(client_id: ClientId) -> HTMLResponse:
        found = client_or_404(client_id)
        form = {"name": found.name, "abn": found.abn or "", "notes": found.notes}
        return deps.page("settings_client.html", client=found, form=form, problem=None, done=None)

    @router.post("/settings/clients/{client_id}", response_class=HTMLResponse)
    async def edit_client(client_id: ClientId, request: Request) -> HTMLResponse:
        require(Action.MANAGE_CLIENTS)
        found = await run_in_threadpool(client_or_404, client_id)
        fields = await _fields(request)
        form = {k: fields.get(k, "") for k in ("name", "abn", "notes")}
        try:
            checked = client_fields(form["name"], form["abn"], form["notes"])
            changed = await run_in_threadpool(store.update_client, practice_id(), client_id, checked)
        except AccountsInputError as exc:
            return deps.page("settings_client.html", status=422, client=found, form=form, problem=str(exc), done=None)
        except AccountsNotFoundError:
            raise Refused(404, "Client not found", f"There is no client {client_id} in this practice.") from None
        form = {"name": changed.name, "abn": changed.abn or "", "notes": changed.notes}
        return deps.page("settings_client.html", client=changed, form=form, problem=None, done="Saved.")

    @router.post("/settings/clients/{client_id}/archive", response_class=HTMLResponse)
    async def archive_client(client_id: ClientId) -> HTMLResponse:
        require(Action.MANAGE_CLIENTS)
        try:
            archived = await run_in_threadpool(store.archive_client, practice_id(), client_id)
        except AccountsNotFoundError:
            raise Refused(404, "Client not found", f"There is no client {client_id} in this practice.") from None
        return await run_in_threadpool(clients_page, done=f"Client {archived.name} archived.")

    # --- provider --------------------------------------------------------------------------------

    def provider_page(status: int = 200, **context: Any) -> HTMLResponse:
        pid = practice_id()
        saved = store.provider_settings(pid)
        key = next((s for s in store.secrets(pid) if s.name == PROVIDER_KEY_SECRET), None)
        context = {"problem": None, "done": None, "report": None} | context
        return deps.page(
            "settings_provider.html",
            status=status,
            saved=saved,
            key=key,
            providers=[(p, PROVIDER_LABELS[p]) for p in PROVIDERS],
            **context,
        )

    @router.get("/settings/provider", response_class=HTMLResponse)
    def provider() -> HTMLResponse:
        return provider_page()

    @router.post("/settings/provider", response_class=HTMLResponse)
    async def save_provider(request: Request) -> HTMLResponse:
        require(Action.MANAGE_PROVIDER)
        fields = await _fields(request)
        pid = practice_id()
        key = fields.get("api_key", "").strip()
        try:
            await run_in_threadpool(
                store.save_provider_settings,
                pid,
                fields.get("provider", ""),
                fields.get("base_url", ""),
                fields.get("model", ""),
            )
            if key:
                info: SecretInfo = await run_in_threadpool(store.save_secret, pid, PROVIDER_KEY_SECRET, key)
                done = f"Saved; the API key is kept sealed ({info.hint})."
            elif fields.get("remove_key") == "yes":
                await run_in_threadpool(store.delete_secret, pid, PROVIDER_KEY_SECRET)
                done = "Saved; the API key was removed."
            else:
                done = "Saved."
        except AccountsInputError as exc:
            return await run_in_threadpool(provider_page, 422, problem=_without(str(exc), key))
        except SecretKeyError as exc:
            return await run_in_threadpool(provider_page, 503, problem=_without(str(exc), key))
        return await run_in_threadpool(provider_page, done=done)

    @router.post("/settings/provider/check", response_class=HTMLResponse)
    async def check_provider() -> HTMLResponse:
        require(Action.MANAGE_PROVIDER)
        pid = practice_id()
        saved = await run_in_threadpool(store.provider_settings, pid)
        if saved is None:
            return await run_in_threadpool(
                provider_page, 422, problem="Save the provider settings first, then check them."
            )
        try:
            key = await run_in_threadpool(store.reveal_secret, pid, PROVIDER_KEY_SECRET)
        except (SecretKeyError, SecretDecryptError, AccountsStoreError) as exc:
            return await run_in_threadpool(provider_page, 503, problem=f"The saved key cannot be read: {exc}")
        body: dict[str, Any] = {
            "provider": saved.provider,
            "base_url": saved.base_url,
            "model": saved.model,
            "timeout_s": CHECK_TIMEOUT_S,
        }
        if key is not None:
            body["api_key"] = key.reveal()
        secret = key.reveal() if key is not None else ""
        try:
            report: ProviderCheckReply = await deps.research.provider_check(body)
        except ResearchRejected as exc:
            return await run_in_threadpool(provider_page, 422, problem=_without(f"Not checked: {exc}", secret))
        except ResearchUnavailable as exc:
            return await run_in_threadpool(provider_page, 503, problem=_without(f"Not checked: {exc}", secret))
        shown = ProviderCheckReply.model_validate_json(_without(report.model_dump_json(), secret))
        return await run_in_threadpool(provider_page, report=shown)

    return router


def _not_a_member(user_id: int) -> Refused:
    return Refused(404, "Member not found", f"User {user_id} is not a member of this practice.")


def _without(text: str, secret: str) -> str:
    """``text`` with ``secret`` (a key) replaced, should any message carry it."""
    return text.replace(secret, "[the API key]") if secret else text


async def _fields(request: Request) -> dict[str, str]:
    body = (await request.body()).decode("utf-8", "replace")
    return {k: v[0] for k, v in parse_qs(body, keep_blank_values=True).items()}
