"""The last owner of a practice stays an owner (pure)."""

from __future__ import annotations

from datetime import UTC, datetime

from asat_accounts.memberships import last_owner_problem
from asat_accounts.model import Member, Role, User

NOW = datetime(2025, 7, 1, tzinfo=UTC)


def _member(user_id: int, role: Role) -> Member:
    return Member(User(user_id, f"u{user_id}@example.com", NOW, None), 1, role, NOW)


def test_the_only_owner_cannot_be_demoted_or_removed() -> None:
    members = [_member(1, Role.OWNER), _member(2, Role.AGENT)]
    for change in (Role.AGENT, Role.REVIEWER, None):
        problem = last_owner_problem(members, 1, change)
        assert problem is not None and "only owner: make another member an owner first" in problem


def test_other_changes_are_allowed() -> None:
    members = [_member(1, Role.OWNER), _member(2, Role.AGENT), _member(3, Role.OWNER)]
    assert last_owner_problem(members, 1, None) is None  # another owner remains
    assert last_owner_problem(members[:2], 2, None) is None  # not an owner
    assert last_owner_problem(members[:2], 2, Role.OWNER) is None
    assert last_owner_problem(members[:2], 1, Role.OWNER) is None
