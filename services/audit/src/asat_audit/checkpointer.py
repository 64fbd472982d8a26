"""The checkpointer: signs the chain's new rows every N rows and every M seconds (I/O at the edge).

It runs as its own process (``python -m asat_audit checkpointer``) with the only copy of the
private key, connected as the app role (it reads rows and inserts checkpoints; it cannot change
a row). Before signing it checks the chain and the earlier checkpoints: it never signs a log that
is already broken, so a checkpoint only ever vouches for rows that were intact when it was made.

A checkpoint goes to the file first and to the database second. When the database is down
between the two, the checkpointer keeps running (the round fails, the next one tries again), and
the next round first stores again, exactly as signed, the checkpoints the file holds and the
database lacks (``checkpoint_sync``), so the two copies never disagree for more than an outage.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from asat_audit.chain import ChainLink, verify_chain
from asat_audit.checkpoint import Checkpoint, sign, signature_holds
from asat_audit.checkpoint_file import append_checkpoint, read_checkpoints
from asat_audit.checkpoint_sync import CheckpointCopiesDiffer, unstored
from asat_audit.integrity import check_integrity
from asat_audit.store import AuditReadError, AuditStore, AuditWriteError


class CheckpointRefused(Exception):
    """The log is broken: no checkpoint is signed over it."""


@dataclass(frozen=True)
class Schedule:
    every_rows: int
    every_seconds: float

    def __post_init__(self) -> None:
        if self.every_rows < 1 or self.every_seconds <= 0:
            raise ValueError(f"checkpoint every >= 1 rows and > 0 seconds, got {self.every_rows}, {self.every_seconds}")

    def due(self, pending_rows: int, seconds_since_last: float | None) -> bool:
        """A checkpoint is due when N rows wait, or any row has waited M seconds since the last."""
        if pending_rows <= 0:
            return False
        return pending_rows >= self.every_rows or seconds_since_last is None or seconds_since_last >= self.every_seconds


def make_checkpoint(
    store: AuditStore, file: Path, key: Ed25519PrivateKey, now: datetime, whole_log: bool = True
) -> Checkpoint | None:
    """Sign the rows stored since the last checkpoint (``None`` when there are none): appended to
    ``file`` (flushed) and then stored in the database. The file's checkpoints a crash kept from
    the database are stored first. Raises :class:`CheckpointRefused` when the chain or an earlier
    checkpoint does not hold, or the two copies differ otherwise than by such a lost write.

    ``whole_log``: the whole chain and every earlier checkpoint are checked first. Without it (the
    running checkpointer, once it has checked the whole log at its start), only the new rows: the
    last checkpoint's signature, its last row's hash as stored now, and the new rows chaining from
    it; a rewrite further back that was carried forward changes that last row's hash and is caught
    here, and ``audit verify`` checks everything."""
    existing = read_checkpoints(file)
    if whole_log or not existing:
        links = list(store.iter_links())
        report = check_integrity(links, existing, key.public_key())
        where = None if report.ok else report.first_bad_id
    else:
        last = existing[-1]
        links = list(store.iter_links(after_id=last.last_id - 1))
        where = _new_rows_problem(links, last, key)
        links = links[1:]
    if where is not None:
        raise CheckpointRefused(
            f"the audit log does not verify (first bad row {where}): no checkpoint is signed over it; run "
            "`python -m asat_audit verify` for the details"
        )
    try:
        lost = unstored(existing, store.checkpoints())
    except CheckpointCopiesDiffer as exc:
        raise CheckpointRefused(f"{exc}: no checkpoint is signed; run `python -m asat_audit verify`") from exc
    for checkpoint in lost:
        store.add_checkpoint(checkpoint)
    after = existing[-1].last_id if existing else 0
    new = [link for link in links if link.id > after]
    if not new:
        return None
    checkpoint = sign(key, after + 1, new[-1].id, [link.hash for link in new], now)
    append_checkpoint(file, checkpoint)
    store.add_checkpoint(checkpoint)
    return checkpoint


def _new_rows_problem(links: list[ChainLink], last: Checkpoint, key: Ed25519PrivateKey) -> int | None:
    """The first bad row among the last checkpoint's last row and the rows after it (``None``: all
    hold). ``links`` starts at the checkpoint's last row."""
    if not signature_holds(key.public_key(), last) or not links:
        return last.last_id
    boundary = links[0]
    if boundary.id != last.last_id or boundary.hash != last.last_hash:
        return last.last_id
    report = verify_chain(links[1:], after_id=last.last_id, after_hash=last.last_hash)
    return None if report.ok else report.broken.id if report.broken is not None else None


def run_checkpointer(
    store: AuditStore,
    file: Path,
    key: Ed25519PrivateKey,
    schedule: Schedule,
    clock: Callable[[], datetime],
    sleep: Callable[[float], None],
    keep_going: Callable[[], bool],
    poll_seconds: float = 5.0,
    on_checkpoint: Callable[[Checkpoint], None] = lambda _: None,
    on_outage: Callable[[Exception], None] = lambda _: None,
) -> None:
    """Poll the log; sign whenever :meth:`Schedule.due` says so, until ``keep_going()`` is false.
    A round the database fails (down, timed out) is reported to ``on_outage`` and tried again at
    the next poll; a broken log (:class:`CheckpointRefused`) ends the loop. The whole log is
    checked at the first checkpoint, only the new rows at each later one (so a round costs the
    rows since the last checkpoint, not the whole log)."""
    whole_log = True
    while keep_going():
        try:
            existing = read_checkpoints(file)
            anchored = existing[-1].last_id if existing else 0
            newest = store.last(1)
            pending = (newest[0].id - anchored) if newest else 0
            since = (clock() - existing[-1].signed_at).total_seconds() if existing else None
            stored = len(store.checkpoints())
            if schedule.due(pending, since) or stored < len(existing):
                made = make_checkpoint(store, file, key, clock(), whole_log)
                whole_log = False
                if made is not None:
                    on_checkpoint(made)
        except (AuditReadError, AuditWriteError) as exc:
            on_outage(exc)
        sleep(poll_seconds)
