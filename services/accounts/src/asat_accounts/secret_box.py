"""Secrets at rest: AES-256-GCM under keys from ``ASAT_SECRET_KEY`` (the ``cryptography`` package).

``ASAT_SECRET_KEY`` is a comma-separated list of ``<key id>:<base64 of 32 random bytes>``, e.g.
``k2:<base64>,k1:<base64>``. The first key seals every new value; every key listed opens what it
sealed. To rotate: put a new key first and keep the old ones after it (``python -m asat_accounts
rotate-key`` prints that list), restart, run ``python -m asat_accounts reencrypt`` (and any
secret read meanwhile is re-sealed under the first key as it is read), then drop the old key.

A sealed value is the key id, a random 12-byte nonce and the ciphertext with its 16-byte tag.
The associated data binds the practice id and the secret's name, so a row copied to another
practice or renamed does not open. Nothing here logs, and no error message contains a key or a
plaintext: they name the variable, the entry's position and key id, the practice and the name.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

KEY_ENV = "ASAT_SECRET_KEY"
KEY_BYTES = 32
NONCE_BYTES = 12
TAG_BYTES = 16
GENERATE_HINT = "generate one with `python -m asat_accounts generate-key`"
_KEY_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_NUMBERED_ID = re.compile(r"^k(\d+)$")
_MASK_PREFIX = re.compile(r"^[A-Za-z]{1,4}[-_]")
_AD_TAG = b"asat-secret-v1"

RandomBytes = Callable[[int], bytes]


class SecretKeyError(ValueError):
    """``ASAT_SECRET_KEY`` is missing or malformed; the message says which entry and how to fix it."""


class SecretDecryptError(Exception):
    """A sealed value does not open: its key is not configured, or the row (or key) was changed."""


@dataclass(frozen=True)
class SecretKey:
    key_id: str
    material: bytes = field(repr=False)


@dataclass(frozen=True)
class KeyRing:
    """The configured keys, first one current. Its ``repr`` shows key ids only."""

    keys: tuple[SecretKey, ...]

    def __post_init__(self) -> None:
        if not self.keys:
            raise SecretKeyError(f"{KEY_ENV} holds no key: {GENERATE_HINT}")
        ids = [k.key_id for k in self.keys]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise SecretKeyError(f"{KEY_ENV} names key id {twice[0]!r} more than once: give each key its own id")
        for key in self.keys:
            if not _KEY_ID.match(key.key_id):
                raise SecretKeyError(
                    f"{KEY_ENV} has key id {key.key_id!r}: use 1 to 32 letters, digits, _ or - (e.g. k1)"
                )
            if len(key.material) != KEY_BYTES:
                raise SecretKeyError(
                    f"key {key.key_id!r} of {KEY_ENV} is {len(key.material)} bytes; AES-256 needs {KEY_BYTES}: "
                    f"{GENERATE_HINT}"
                )

    @property
    def current(self) -> SecretKey:
        return self.keys[0]

    def key(self, key_id: str) -> SecretKey | None:
        return next((k for k in self.keys if k.key_id == key_id), None)


@dataclass(frozen=True)
class Sealed:
    """What is stored: which key, the nonce, the ciphertext (with its tag)."""

    key_id: str
    nonce: bytes
    ciphertext: bytes


def parse_key_ring(value: str, variable: str = KEY_ENV) -> KeyRing:
    """The keys of ``value`` (``id:base64,id:base64``); ``SecretKeyError`` naming ``variable``."""
    if not value.strip():
        raise SecretKeyError(f"{variable} is empty: {GENERATE_HINT}")
    keys: list[SecretKey] = []
    seen_material: dict[bytes, str] = {}
    for position, raw in enumerate(value.split(","), start=1):
        entry = raw.strip()
        where = f"entry {position} of {variable}"
        if not entry:
            raise SecretKeyError(f"{where} is empty (two commas in a row, or one at the end): remove it")
        key_id, colon, encoded = entry.partition(":")
        key_id = key_id.strip()
        if not colon:
            raise SecretKeyError(f"{where} has no key id: write each key as <id>:<base64>, e.g. k1:<base64>")
        if not _KEY_ID.match(key_id):
            raise SecretKeyError(f"{where} has key id {key_id!r}: use 1 to 32 letters, digits, _ or - (e.g. k1)")
        material = _decode_key(encoded.strip(), f"{where} ({key_id})")
        if material in seen_material:
            raise SecretKeyError(f"{where} ({key_id}) is the same key as {seen_material[material]}: list each key once")
        seen_material[material] = key_id
        keys.append(SecretKey(key_id, material))
    return KeyRing(tuple(keys))


def key_ring_from_env(env: Mapping[str, str], variable: str = KEY_ENV) -> KeyRing:
    """The key ring of ``env[variable]``; ``SecretKeyError`` when it is unset or malformed."""
    value = env.get(variable)
    if value is None:
        raise SecretKeyError(
            f"{variable} is not set, so secrets cannot be saved or read: {GENERATE_HINT} and set it "
            "in the environment of every service (install.sh does this on a new install)"
        )
    return parse_key_ring(value, variable)


def new_key_entry(key_id: str, random_bytes: RandomBytes = os.urandom) -> str:
    """``<key_id>:<base64 of 32 random bytes>``: one entry for ``ASAT_SECRET_KEY``."""
    if not _KEY_ID.match(key_id):
        raise SecretKeyError(f"key id {key_id!r}: use 1 to 32 letters, digits, _ or - (e.g. k1)")
    material = random_bytes(KEY_BYTES)
    if len(material) != KEY_BYTES:
        raise SecretKeyError(f"the random source gave {len(material)} bytes, not {KEY_BYTES}")
    return f"{key_id}:{base64.b64encode(material).decode('ascii')}"


def format_key_ring(ring: KeyRing) -> str:
    """``ring`` as the value of ``ASAT_SECRET_KEY`` (contains the keys: print it only to set it)."""
    return ",".join(f"{k.key_id}:{base64.b64encode(k.material).decode('ascii')}" for k in ring.keys)


def next_key_id(ring: KeyRing) -> str:
    """``k<n+1>`` after the highest ``k<n>`` of ``ring`` (``k1`` when none is numbered so)."""
    numbers = [int(m.group(1)) for k in ring.keys if (m := _NUMBERED_ID.match(k.key_id))]
    return f"k{max(numbers, default=0) + 1}"


def associated_data(practice_id: int, name: str) -> bytes:
    """What a sealed value is bound to: the format, the practice and the secret's name."""
    return b"\x00".join((_AD_TAG, str(practice_id).encode("ascii"), name.encode("utf-8")))


def seal(ring: KeyRing, practice_id: int, name: str, plaintext: str, random_bytes: RandomBytes = os.urandom) -> Sealed:
    """``plaintext`` sealed under the current key, bound to ``practice_id`` and ``name``."""
    key = ring.current
    nonce = random_bytes(NONCE_BYTES)
    ciphertext = AESGCM(key.material).encrypt(nonce, plaintext.encode("utf-8"), associated_data(practice_id, name))
    return Sealed(key_id=key.key_id, nonce=nonce, ciphertext=ciphertext)


def open_sealed(ring: KeyRing, practice_id: int, name: str, sealed: Sealed) -> str:
    """The plaintext of ``sealed``; ``SecretDecryptError`` when it does not open."""
    what = f"secret {name!r} of practice {practice_id}"
    key = ring.key(sealed.key_id)
    if key is None:
        held = ", ".join(k.key_id for k in ring.keys)
        raise SecretDecryptError(
            f"{what} was sealed with key {sealed.key_id!r}, which {KEY_ENV} does not hold (it holds {held}): "
            f"put that key back after the current one ({KEY_ENV}={ring.current.key_id}:...,{sealed.key_id}:...), "
            "then run `python -m asat_accounts reencrypt`"
        )
    if len(sealed.nonce) != NONCE_BYTES or len(sealed.ciphertext) < TAG_BYTES:
        raise SecretDecryptError(f"{what} is not a sealed value (wrong nonce or ciphertext length): save it again")
    try:
        plaintext = AESGCM(key.material).decrypt(sealed.nonce, sealed.ciphertext, associated_data(practice_id, name))
    except InvalidTag as exc:
        raise SecretDecryptError(
            f"{what} does not open with key {sealed.key_id!r}: the stored row was changed or moved, or "
            f"{KEY_ENV} holds a different key under that id; save the secret again"
        ) from exc
    try:
        return plaintext.decode("utf-8")
    except UnicodeDecodeError as exc:  # pragma: no cover - only if sealed by other code
        raise SecretDecryptError(f"{what} opened but is not UTF-8 text: save it again") from exc


def needs_reseal(ring: KeyRing, sealed: Sealed) -> bool:
    """Whether ``sealed`` was sealed with another key than the current one."""
    return sealed.key_id != ring.current.key_id


def reseal(
    ring: KeyRing, practice_id: int, name: str, sealed: Sealed, random_bytes: RandomBytes = os.urandom
) -> Sealed:
    """``sealed`` opened (with whichever key sealed it) and sealed again under the current key."""
    return seal(ring, practice_id, name, open_sealed(ring, practice_id, name, sealed), random_bytes)


def mask(secret: str) -> str:
    """The hint shown for a saved secret, e.g. ``sk-…a1b2``: never more than half of it.

    The last 4 characters from 12 characters on; a short prefix such as ``sk-`` from 20 on;
    shorter secrets show only ``…``.
    """
    value = secret.strip()
    tail = value[-4:] if len(value) >= 12 else ""
    prefix_match = _MASK_PREFIX.match(value)
    prefix = prefix_match.group(0) if prefix_match is not None and len(value) >= 20 else ""
    return f"{prefix}…{tail}"


def _decode_key(encoded: str, where: str) -> bytes:
    if not encoded:
        raise SecretKeyError(f"{where} has no key after the colon: {GENERATE_HINT}")
    standard = encoded.replace("-", "+").replace("_", "/")
    standard += "=" * (-len(standard) % 4)
    try:
        material = base64.b64decode(standard, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise SecretKeyError(f"{where} is not base64: {GENERATE_HINT}") from exc
    if len(material) != KEY_BYTES:
        raise SecretKeyError(f"{where} decodes to {len(material)} bytes; AES-256 needs {KEY_BYTES}: {GENERATE_HINT}")
    return material
