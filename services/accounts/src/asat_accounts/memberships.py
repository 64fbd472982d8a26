"""Rules for changing who belongs to a practice (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from asat_accounts.model import Member, Role


def last_owner_problem(members: Sequence[Member], user_id: int, new_role: Role | None) -> str | None:
    """Why making ``user_id`` ``new_role`` (None: removing them) would leave the practice without
    an owner; None when the change is allowed."""
    owners = {m.user.id for m in members if m.role is Role.OWNER}
    if user_id not in owners or new_role is Role.OWNER or len(owners) > 1:
        return None
    return (
        "this is the practice's only owner: make another member an owner first, "
        "so someone can still manage members and settings"
    )
