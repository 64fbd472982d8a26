"""Checking a stored log, with its checkpoints when they are configured (I/O at the edge).

``AnchorFiles`` names the checkpoint file and the public key (never the signing key: a process
that checks holds nothing that signs). Without them only the chain is checked, and the report
says so.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from asat_audit.chain import ChainLink
from asat_audit.checkpoint import Checkpoint
from asat_audit.checkpoint_file import load_public_key, read_checkpoints
from asat_audit.integrity import IntegrityReport, check_integrity


class ReadableLog(Protocol):
    def iter_links(self) -> Iterator[ChainLink]: ...

    def checkpoints(self) -> tuple[Checkpoint, ...]: ...


@dataclass(frozen=True)
class AnchorFiles:
    checkpoints: Path  # the append-only checkpoint file outside the database
    public_key: Path  # the checkpoints' public key (PEM)


def check_log(log: ReadableLog, anchors: AnchorFiles | None) -> IntegrityReport:
    """The chain, and the checkpoints when ``anchors`` is given. Raises ``KeyFileError`` or
    ``CheckpointFormatError`` for files that cannot be used, and the store's read errors."""
    if anchors is None:
        return check_integrity(log.iter_links(), None, None)
    key = load_public_key(anchors.public_key)
    checkpoints = read_checkpoints(anchors.checkpoints)
    return check_integrity(log.iter_links(), checkpoints, key, log.checkpoints())
