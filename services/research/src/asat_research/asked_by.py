"""Who asked, from the request contract to the audit record (``asked_by``).

Research is reachable only with the service token, so it records ``asked_by`` as its caller (the
web, from its session) gives it; the terminal client and evaluation send none.
"""

from __future__ import annotations

from asat_audit.record import AskedBy
from asat_corpus.contracts import research as wire


def audit_asked_by(asked: wire.AskedBy | None) -> AskedBy | None:
    """The audit record's ``asked_by`` for the request's (``None`` stays ``None``)."""
    if asked is None:
        return None
    return AskedBy(
        user_id=asked.user_id, user_email=asked.user_email, practice_id=asked.practice_id, client_id=asked.client_id
    )
