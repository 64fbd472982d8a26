"""What each role may do in its practice (pure). The store decides which practice's rows a call
touches; these rules decide whether the signed-in user may make the call at all.

- **owner**: everything, including members, roles, the provider settings and the connections
  (the Xero app, connecting a client to Xero, the HubSpot token);
- **agent**: asks research, uploads and reviews documents, manages clients, pushes reviewed
  transactions to Xero and imports clients from HubSpot;
- **reviewer**: reads everything of the practice and reviews documents (corrections); asks
  nothing, uploads nothing, changes no setting.

Every role may read the practice's pages and change their own password.
"""

from __future__ import annotations

from enum import StrEnum

from asat_accounts.model import Role


class Action(StrEnum):
    READ = "read"  # every page of the practice: research, history, audit, documents, settings
    ASK = "ask"  # ask research a question (each question writes an audit row)
    UPLOAD_DOCUMENTS = "upload documents"
    REVIEW_DOCUMENTS = "review documents"  # correct a field, confirm or reject a transaction
    MANAGE_CLIENTS = "manage clients"  # create, edit, archive
    MANAGE_MEMBERS = "manage members"  # invite, change a role, remove
    MANAGE_PROVIDER = "manage the provider"  # the generation provider's settings and key; run its check
    MANAGE_CONNECTIONS = "manage connections"  # the Xero app, connecting clients, the HubSpot token
    PUSH_TO_XERO = "push to Xero"  # reviewed transactions as draft bills
    IMPORT_CLIENTS = "import clients"  # HubSpot companies as clients
    CHANGE_OWN_PASSWORD = "change own password"


_ALLOWED: dict[Role, frozenset[Action]] = {
    Role.OWNER: frozenset(Action),
    Role.AGENT: frozenset(
        {
            Action.READ,
            Action.ASK,
            Action.UPLOAD_DOCUMENTS,
            Action.REVIEW_DOCUMENTS,
            Action.MANAGE_CLIENTS,
            Action.PUSH_TO_XERO,
            Action.IMPORT_CLIENTS,
            Action.CHANGE_OWN_PASSWORD,
        }
    ),
    Role.REVIEWER: frozenset({Action.READ, Action.REVIEW_DOCUMENTS, Action.CHANGE_OWN_PASSWORD}),
}


def allowed(role: Role, action: Action) -> bool:
    """Whether ``role`` may do ``action`` in its practice."""
    return action in _ALLOWED[Role(role)]


def refusal(role: Role, action: Action) -> str | None:
    """Why ``role`` may not do ``action`` (for a 403 page); None when it may."""
    if allowed(role, action):
        return None
    holders = "owners and agents" if allowed(Role.AGENT, action) else "owners"
    return f"Only {holders} may {action.value}: you are {_article(role)} {Role(role).value} of this practice."


def _article(role: Role) -> str:
    return "an" if Role(role) in (Role.OWNER, Role.AGENT) else "a"
