"""What each role may do (pure)."""

from __future__ import annotations

import pytest

from asat_accounts.model import Role
from asat_accounts.permissions import Action, allowed, refusal

EXPECTED = {
    Role.OWNER: set(Action),
    Role.AGENT: {
        Action.READ,
        Action.ASK,
        Action.UPLOAD_DOCUMENTS,
        Action.REVIEW_DOCUMENTS,
        Action.MANAGE_CLIENTS,
        Action.PUSH_TO_XERO,
        Action.IMPORT_CLIENTS,
        Action.CHANGE_OWN_PASSWORD,
    },
    Role.REVIEWER: {Action.READ, Action.REVIEW_DOCUMENTS, Action.CHANGE_OWN_PASSWORD},
}


@pytest.mark.parametrize("role", list(Role))
def test_each_role_may_do_exactly_its_actions(role: Role) -> None:
    assert {a for a in Action if allowed(role, a)} == EXPECTED[role]
    for action in Action:
        assert (refusal(role, action) is None) == allowed(role, action)


def test_a_refusal_says_who_may() -> None:
    assert refusal(Role.AGENT, Action.MANAGE_MEMBERS) == (
        "Only owners may manage members: you are an agent of this practice."
    )
    assert refusal(Role.REVIEWER, Action.MANAGE_CLIENTS) == (
        "Only owners and agents may manage clients: you are a reviewer of this practice."
    )
