"""Signed checkpoints of the audit chain (pure): what is signed, signing, checking a signature.

A checkpoint covers the rows ``first_id .. last_id`` (the rows since the previous checkpoint): it
lists their hashes and signs, with Ed25519, the message of ``(first_id, last_id, last_hash, the
SHA-256 of the listed hashes, signed_at)``. The key that signs is held by the checkpointer alone
(``python -m asat_audit checkpointer``), outside Postgres and outside the research process; anyone
with the public key can check a checkpoint. Because the listed hashes are signed, a row whose
stored hash differs from its checkpoint's is found exactly, even when an owner recomputed every
later hash so that the chain itself still verifies.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from asat_audit.canonical import format_timestamp, is_hash

MESSAGE_VERSION = "asat-audit-checkpoint/1"


class CheckpointFormatError(ValueError):
    """A checkpoint line that is not a checkpoint."""


@dataclass(frozen=True)
class Checkpoint:
    first_id: int
    last_id: int
    row_hashes: tuple[str, ...]  # the hashes of rows first_id .. last_id, in order
    signed_at: datetime
    key_id: str
    signature: str  # base64 of the Ed25519 signature over ``message(...)``

    @property
    def last_hash(self) -> str:
        return self.row_hashes[-1]

    def __post_init__(self) -> None:
        if not 1 <= self.first_id <= self.last_id:
            raise CheckpointFormatError(f"checkpoint ids {self.first_id}..{self.last_id}: need 1 <= first <= last")
        if len(self.row_hashes) != self.last_id - self.first_id + 1:
            raise CheckpointFormatError(
                f"checkpoint {self.first_id}..{self.last_id} lists {len(self.row_hashes)} hashes, "
                f"not {self.last_id - self.first_id + 1}"
            )
        if not all(is_hash(h) for h in self.row_hashes):
            raise CheckpointFormatError(f"checkpoint {self.first_id}..{self.last_id} lists a malformed hash")


def key_id_of(public_key: Ed25519PublicKey) -> str:
    """The first 16 hex characters of the SHA-256 of the raw public key."""
    raw = public_key.public_bytes(Encoding.Raw, PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def message(first_id: int, last_id: int, row_hashes: Sequence[str], signed_at: datetime) -> bytes:
    """The bytes a checkpoint's signature covers."""
    digest = hashlib.sha256("".join(row_hashes).encode("ascii")).hexdigest()
    last_hash = row_hashes[-1] if row_hashes else ""
    lines = [MESSAGE_VERSION, str(first_id), str(last_id), last_hash, digest, format_timestamp(signed_at)]
    return "\n".join(lines).encode("ascii")


def sign(
    key: Ed25519PrivateKey, first_id: int, last_id: int, row_hashes: Sequence[str], signed_at: datetime
) -> Checkpoint:
    signature = key.sign(message(first_id, last_id, row_hashes, signed_at))
    return Checkpoint(
        first_id=first_id,
        last_id=last_id,
        row_hashes=tuple(row_hashes),
        signed_at=signed_at,
        key_id=key_id_of(key.public_key()),
        signature=base64.b64encode(signature).decode("ascii"),
    )


def signature_holds(public_key: Ed25519PublicKey, checkpoint: Checkpoint) -> bool:
    """Whether ``checkpoint`` was signed by the private half of ``public_key``, as it stands."""
    if checkpoint.key_id != key_id_of(public_key):
        return False
    try:
        signature = base64.b64decode(checkpoint.signature, validate=True)
        public_key.verify(
            signature,
            message(checkpoint.first_id, checkpoint.last_id, checkpoint.row_hashes, checkpoint.signed_at),
        )
    except (InvalidSignature, binascii.Error, ValueError):
        return False
    return True


def to_json(checkpoint: Checkpoint) -> str:
    """One line of the checkpoint file (and the text of its database row)."""
    return json.dumps(
        {
            "first_id": checkpoint.first_id,
            "last_id": checkpoint.last_id,
            "row_hashes": list(checkpoint.row_hashes),
            "signed_at": format_timestamp(checkpoint.signed_at),
            "key_id": checkpoint.key_id,
            "signature": checkpoint.signature,
        },
        sort_keys=True,
        separators=(",", ":"),
    )


def from_json(text: str) -> Checkpoint:
    try:
        obj = json.loads(text)
        signed_at = datetime.fromisoformat(str(obj["signed_at"]).replace("Z", "+00:00"))
        return Checkpoint(
            first_id=_int(obj["first_id"]),
            last_id=_int(obj["last_id"]),
            row_hashes=tuple(str(h) for h in obj["row_hashes"]),
            signed_at=signed_at,
            key_id=str(obj["key_id"]),
            signature=str(obj["signature"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise CheckpointFormatError(f"not a checkpoint: {exc}") from exc


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, got {type(value).__name__}")
    return value
