"""The whole check of the log: the hash chain, then the signed checkpoints (pure).

Without checkpoints (none configured) only the chain is checked, and the report says exactly
that: a chain that holds proves no row was changed *unless* its owner recomputed the hashes or
cut rows off the end; only the checkpoints rule those out, up to the last one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from asat_audit.anchor_check import AnchorReport, check_anchors
from asat_audit.chain import ChainLink, ChainReport, verify_chain
from asat_audit.checkpoint import Checkpoint


@dataclass(frozen=True)
class IntegrityReport:
    chain: ChainReport
    anchors: AnchorReport | None  # None: no checkpoints were checked (none configured)
    rows: int  # rows stored

    @property
    def ok(self) -> bool:
        return self.chain.ok and (self.anchors is None or self.anchors.ok)

    @property
    def first_bad_id(self) -> int | None:
        bad = [i for i in (self.chain.broken and self.chain.broken.id, self.anchors and self.anchors.first_bad_id) if i]
        return min(bad) if bad else None

    @property
    def unanchored_rows(self) -> int:
        """Rows after the last intact checkpoint: protected by the chain alone, for now."""
        anchored = self.anchors.anchored_id if self.anchors is not None else 0
        return max(self.rows - anchored, 0)


def check_integrity(
    links: Iterable[ChainLink],
    checkpoints: Sequence[Checkpoint] | None,
    public_key: Ed25519PublicKey | None,
    database_copy: Sequence[Checkpoint] | None = None,
) -> IntegrityReport:
    """The chain over ``links`` and, when ``checkpoints`` and ``public_key`` are given, the
    checkpoints against the stored hashes (and the database's copy against the file's)."""
    stored = list(links)
    chain = verify_chain(stored)
    if checkpoints is None or public_key is None:
        return IntegrityReport(chain, None, len(stored))
    hashes = {link.id: link.hash for link in stored}
    return IntegrityReport(chain, check_anchors(hashes, checkpoints, public_key, database_copy), len(stored))
