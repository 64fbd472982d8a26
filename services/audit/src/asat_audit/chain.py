"""Walking the hash chain and reporting the first broken link (pure)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from asat_audit.canonical import GENESIS_HASH, Document, chain_hash, record_document
from asat_audit.record import AuditEntry


@dataclass(frozen=True)
class ChainLink:
    """One row as stored: its id, the hashes it carries and the document its hash should cover.

    ``document`` is ``None`` when the stored row could not be turned into a document (a value of
    the wrong shape written behind the system's back); ``problem`` then says why.
    """

    id: int
    prev_hash: str
    hash: str
    document: Document | None
    problem: str = ""


class BreakKind(StrEnum):
    ID_GAP = "id_gap"  # ids are not 1, 2, 3, ...: a row was removed (or inserted out of order)
    PREV_HASH_MISMATCH = "prev_hash_mismatch"  # prev_hash is not the previous row's hash
    HASH_MISMATCH = "hash_mismatch"  # the stored hash does not cover the stored row
    UNREADABLE = "unreadable"  # the stored row is not a valid audit row at all


@dataclass(frozen=True)
class ChainBreak:
    id: int
    kind: BreakKind
    detail: str


@dataclass(frozen=True)
class ChainReport:
    """``checked`` counts the rows found intact before the break (all rows when ``ok``)."""

    checked: int
    last_id: int
    last_hash: str
    broken: ChainBreak | None

    @property
    def ok(self) -> bool:
        return self.broken is None


def link_of(entry: AuditEntry) -> ChainLink:
    return ChainLink(
        id=entry.id,
        prev_hash=entry.prev_hash,
        hash=entry.hash,
        document=record_document(entry.id, entry.recorded_at, entry.record),
    )


def verify_chain(links: Iterable[ChainLink], after_id: int = 0, after_hash: str = GENESIS_HASH) -> ChainReport:
    """Check ids run 1, 2, 3, ..., each prev_hash is the previous hash, each hash covers its row.

    Stops at the first broken link. ``last_id`` and ``last_hash`` are those of the last intact
    row (0 and 64 zeros for an empty log); publish ``last_hash`` elsewhere to detect rows cut
    off the end, which no chain can detect by itself. With ``after_id`` and ``after_hash``: the
    rows after a row already vouched for (a signed checkpoint's last row and hash), which the first
    of ``links`` must follow.
    """
    expected_id = after_id + 1
    previous_hash = after_hash
    checked = 0
    for link in links:
        broken = _check_link(link, expected_id, previous_hash)
        if broken is not None:
            return ChainReport(checked=checked, last_id=expected_id - 1, last_hash=previous_hash, broken=broken)
        checked += 1
        expected_id = link.id + 1
        previous_hash = link.hash
    return ChainReport(checked=checked, last_id=expected_id - 1, last_hash=previous_hash, broken=None)


def _check_link(link: ChainLink, expected_id: int, previous_hash: str) -> ChainBreak | None:
    if link.id != expected_id:
        what = "missing" if link.id > expected_id else "out of order"
        return ChainBreak(
            link.id,
            BreakKind.ID_GAP,
            f"expected row id {expected_id} next, found {link.id}: rows {what}",
        )
    if link.prev_hash != previous_hash:
        return ChainBreak(
            link.id,
            BreakKind.PREV_HASH_MISMATCH,
            f"prev_hash {link.prev_hash} is not the previous row's hash {previous_hash}",
        )
    if link.document is None:
        return ChainBreak(link.id, BreakKind.UNREADABLE, link.problem or "row cannot be read")
    try:
        computed = chain_hash(link.prev_hash, link.document)
    except (ValueError, TypeError) as exc:
        return ChainBreak(link.id, BreakKind.UNREADABLE, f"row cannot be serialised: {exc}")
    if computed != link.hash:
        return ChainBreak(
            link.id,
            BreakKind.HASH_MISMATCH,
            f"stored hash {link.hash} does not match the row's content (computed {computed})",
        )
    return None
