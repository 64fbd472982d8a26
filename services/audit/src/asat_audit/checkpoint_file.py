"""The checkpoint file outside the database, and the signing key files (I/O).

The file is append-only by use: one JSON line per checkpoint (``checkpoint.to_json``), written
with ``O_APPEND`` and flushed to disk before the database copy is written. The private key is a
PEM file that only its owner may read (mode ``0600`` or stricter): the checkpointer refuses a key
anyone else can read. The public key, a PEM file beside it (``<key>.pub``), is all that checking
needs.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
    load_pem_private_key,
    load_pem_public_key,
)

from asat_audit.checkpoint import Checkpoint, CheckpointFormatError, from_json, to_json


class KeyFileError(Exception):
    """A key file that is missing, unreadable, of the wrong kind or readable by others."""


def read_checkpoints(path: Path) -> tuple[Checkpoint, ...]:
    """Every checkpoint in the file, in order; none when the file does not exist yet."""
    if not path.exists():
        return ()
    found = []
    for number, line in enumerate(path.read_text(encoding="ascii").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            found.append(from_json(line))
        except CheckpointFormatError as exc:
            raise CheckpointFormatError(f"{path} line {number}: {exc}") from exc
    return tuple(found)


def append_checkpoint(path: Path, checkpoint: Checkpoint) -> None:
    """Append one line and flush it to disk."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (to_json(checkpoint) + "\n").encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)


def write_key_pair(private_path: Path) -> Path:
    """A new Ed25519 key: the private PEM at ``private_path`` (mode 0600, never overwritten) and
    the public PEM at ``<private_path>.pub``; returns the public key's path."""
    if private_path.exists():
        raise KeyFileError(f"{private_path} exists: refusing to overwrite a signing key (move it away first)")
    key = Ed25519PrivateKey.generate()
    private_path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(private_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
    finally:
        os.close(fd)
    public_path = public_key_path(private_path)
    public_path.write_bytes(key.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo))
    return public_path


def public_key_path(private_path: Path) -> Path:
    return private_path.with_name(private_path.name + ".pub")


def load_private_key(path: Path) -> Ed25519PrivateKey:
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        raise KeyFileError(f"cannot read the signing key {path}: {exc.strerror}") from exc
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise KeyFileError(
            f"the signing key {path} is readable by others (mode {stat.S_IMODE(mode):o}): run chmod 600 {path}"
        )
    key = load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"{path} is not an Ed25519 private key")
    return key


def load_public_key(path: Path) -> Ed25519PublicKey:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise KeyFileError(f"cannot read the audit public key {path}: {exc.strerror}") from exc
    key = load_pem_public_key(data)
    if not isinstance(key, Ed25519PublicKey):
        raise KeyFileError(f"{path} is not an Ed25519 public key")
    return key
