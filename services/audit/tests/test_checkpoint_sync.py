"""Bringing the checkpoints' two copies together after a lost database write (``checkpoint_sync``)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from asat_audit.checkpoint import Checkpoint, sign
from asat_audit.checkpoint_sync import CheckpointCopiesDiffer, unstored

KEY = Ed25519PrivateKey.from_private_bytes(bytes(32))


def _checkpoint(first: int, last: int) -> Checkpoint:
    return sign(KEY, first, last, [f"{n:064x}" for n in range(first, last + 1)], datetime(2026, 12, 5, tzinfo=UTC))


ONE, TWO, THREE = _checkpoint(1, 5), _checkpoint(6, 9), _checkpoint(10, 12)


def test_the_checkpoints_the_database_lacks_are_the_file_s_last() -> None:
    assert unstored([ONE, TWO, THREE], [ONE]) == (TWO, THREE)
    assert unstored([ONE, TWO], [ONE, TWO]) == ()
    assert unstored([], []) == ()


def test_a_checkpoint_only_the_database_holds_is_refused() -> None:
    with pytest.raises(CheckpointCopiesDiffer, match=re.escape("checkpoint 2 (rows 6..9), which the file does not")):
        unstored([ONE], [ONE, TWO])


def test_a_checkpoint_that_differs_is_named_not_repaired() -> None:
    with pytest.raises(CheckpointCopiesDiffer, match="checkpoint 2 differs"):
        unstored([ONE, TWO, THREE], [ONE, THREE])
