"""AES-256-GCM sealing, ASAT_SECRET_KEY parsing, rotation and the masked hint (pure)."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from asat_accounts.secret_box import (
    KEY_BYTES,
    KeyRing,
    Sealed,
    SecretDecryptError,
    SecretKey,
    SecretKeyError,
    format_key_ring,
    key_ring_from_env,
    mask,
    needs_reseal,
    new_key_entry,
    next_key_id,
    open_sealed,
    parse_key_ring,
    reseal,
    seal,
)

K1 = SecretKey("k1", bytes(range(32)))
K2 = SecretKey("k2", bytes(range(100, 132)))
RING = KeyRing((K1,))
ROTATED = KeyRing((K2, K1))

KEYS = st.binary(min_size=KEY_BYTES, max_size=KEY_BYTES)
NAMES = st.from_regex(r"[a-z0-9][a-z0-9_.:-]{0,30}", fullmatch=True)
PRACTICES = st.integers(min_value=1, max_value=2**62)


def _b64(material: bytes) -> str:
    return base64.b64encode(material).decode()


# --- ASAT_SECRET_KEY --------------------------------------------------------------------------


def test_a_list_of_tagged_keys_is_read_first_one_current() -> None:
    ring = parse_key_ring(f" k2:{_b64(K2.material)} , k1:{_b64(K1.material)}")
    assert [k.key_id for k in ring.keys] == ["k2", "k1"]
    assert ring.current == K2
    assert ring.key("k1") == K1
    assert ring.key("k9") is None


def test_url_safe_base64_and_missing_padding_are_accepted() -> None:
    encoded = base64.urlsafe_b64encode(b"\xfb\xff" * 16).decode().rstrip("=")
    assert parse_key_ring(f"k1:{encoded}").current.material == b"\xfb\xff" * 16


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("", "ASAT_SECRET_KEY is empty: generate one with `python -m asat_accounts generate-key`"),
        (f"k1:{_b64(K1.material)},", "entry 2 of ASAT_SECRET_KEY is empty"),
        (_b64(K1.material), "entry 1 of ASAT_SECRET_KEY has no key id: write each key as <id>:<base64>"),
        (f"key one:{_b64(K1.material)}", "has key id 'key one': use 1 to 32 letters"),
        ("k1:", "entry 1 of ASAT_SECRET_KEY (k1) has no key after the colon"),
        ("k1:not base64!", "entry 1 of ASAT_SECRET_KEY (k1) is not base64"),
        (f"k1:{_b64(bytes(16))}", "(k1) decodes to 16 bytes; AES-256 needs 32"),
        (f"k1:{_b64(K1.material)},k1:{_b64(K2.material)}", "names key id 'k1' more than once"),
        (f"k2:{_b64(K1.material)},k1:{_b64(K1.material)}", "entry 2 of ASAT_SECRET_KEY (k1) is the same key as k2"),
    ],
)
def test_a_malformed_value_is_refused_naming_the_variable_and_entry(value: str, message: str) -> None:
    with pytest.raises(SecretKeyError) as raised:
        parse_key_ring(value)
    assert message in str(raised.value)


def test_an_unset_variable_says_how_to_make_one() -> None:
    with pytest.raises(SecretKeyError, match=r"ASAT_SECRET_KEY is not set.*generate-key"):
        key_ring_from_env({})


@given(KEYS, KEYS)
def test_no_error_and_no_repr_shows_key_material(first: bytes, second: bytes) -> None:
    encoded = [_b64(first), _b64(second)]
    attempts = [
        f"k1:{encoded[0]},,k2:{encoded[1]}",
        f"k1:{encoded[0]},k1:{encoded[1]}",
        f"k1:{encoded[0]},k2:{encoded[1][:-8]}",
        f"k1 {encoded[0]}",
    ]
    for attempt in attempts:
        try:
            ring = parse_key_ring(attempt)
        except SecretKeyError as exc:
            text = str(exc)
        else:
            text = repr(ring)
        assert all(e[:12] not in text and e[-12:] not in text for e in encoded)
    assert encoded[0][:12] not in repr(KeyRing((SecretKey("k1", first),)))


def test_a_generated_entry_is_a_fresh_32_byte_key() -> None:
    entries = {new_key_entry("k1") for _ in range(5)}
    assert len(entries) == 5
    ring = parse_key_ring(",".join(e.replace("k1:", f"k{i}:", 1) for i, e in enumerate(sorted(entries), 1)))
    assert all(len(k.material) == KEY_BYTES for k in ring.keys)


def test_the_ring_is_written_back_as_it_was_read_and_the_next_id_counts_on() -> None:
    assert parse_key_ring(format_key_ring(ROTATED)) == ROTATED
    assert next_key_id(ROTATED) == "k3"
    assert next_key_id(KeyRing((SecretKey("main", bytes(32)),))) == "k1"


# --- sealing ----------------------------------------------------------------------------------


@given(st.text(max_size=300), PRACTICES, NAMES)
@settings(max_examples=150)
def test_what_is_sealed_opens_to_the_same_text(plaintext: str, practice_id: int, name: str) -> None:
    sealed = seal(RING, practice_id, name, plaintext)
    assert (sealed.key_id, len(sealed.nonce)) == ("k1", 12)
    assert open_sealed(RING, practice_id, name, sealed) == plaintext
    if len(plaintext.encode()) >= 8:  # a byte or two may turn up in random ciphertext by chance
        assert plaintext.encode() not in sealed.ciphertext


def test_each_seal_uses_a_fresh_nonce() -> None:
    first, second = (seal(RING, 1, "provider.openai", "sk-same") for _ in range(2))
    assert first.nonce != second.nonce
    assert first.ciphertext != second.ciphertext


def test_a_value_opens_only_for_its_own_practice_and_name() -> None:
    sealed = seal(RING, 7, "provider.openai", "sk-live-123456789")
    with pytest.raises(
        SecretDecryptError, match=r"secret 'provider\.openai' of practice 8 does not open with key 'k1'"
    ):
        open_sealed(RING, 8, "provider.openai", sealed)
    with pytest.raises(SecretDecryptError, match=r"secret 'provider\.anthropic' of practice 7"):
        open_sealed(RING, 7, "provider.anthropic", sealed)


@given(st.data())
def test_any_changed_byte_is_detected(data: st.DataObject) -> None:
    sealed = seal(RING, 3, "connection:xero:1", "refresh-token-abcdefghijklmnop")
    field = data.draw(st.sampled_from(["nonce", "ciphertext"]))
    blob = bytearray(getattr(sealed, field))
    index = data.draw(st.integers(0, len(blob) - 1))
    blob[index] ^= data.draw(st.integers(1, 255))
    tampered = Sealed(
        sealed.key_id,
        bytes(blob) if field == "nonce" else sealed.nonce,
        bytes(blob) if field == "ciphertext" else sealed.ciphertext,
    )
    with pytest.raises(SecretDecryptError, match="does not open"):
        open_sealed(RING, 3, "connection:xero:1", tampered)


def test_a_truncated_value_is_refused() -> None:
    sealed = seal(RING, 3, "x", "value")
    with pytest.raises(SecretDecryptError, match="not a sealed value"):
        open_sealed(RING, 3, "x", Sealed("k1", sealed.nonce, sealed.ciphertext[:15]))


# --- rotation ---------------------------------------------------------------------------------


def test_after_rotation_old_values_open_and_are_resealed_under_the_new_key() -> None:
    old = seal(RING, 5, "provider.openai", "sk-old-key-value-0001")
    assert needs_reseal(ROTATED, old)
    assert open_sealed(ROTATED, 5, "provider.openai", old) == "sk-old-key-value-0001"
    new = reseal(ROTATED, 5, "provider.openai", old)
    assert (new.key_id, needs_reseal(ROTATED, new)) == ("k2", False)
    assert open_sealed(KeyRing((K2,)), 5, "provider.openai", new) == "sk-old-key-value-0001"


def test_a_value_whose_key_was_dropped_names_the_missing_key() -> None:
    old = seal(RING, 5, "provider.openai", "sk-old")
    with pytest.raises(SecretDecryptError) as raised:
        open_sealed(KeyRing((K2,)), 5, "provider.openai", old)
    assert "sealed with key 'k1', which ASAT_SECRET_KEY does not hold (it holds k2)" in str(raised.value)
    assert "reencrypt" in str(raised.value)


def test_the_same_id_with_another_key_does_not_open() -> None:
    sealed = seal(RING, 5, "n", "value")
    with pytest.raises(SecretDecryptError, match="holds a different key under that id"):
        open_sealed(KeyRing((SecretKey("k1", bytes(32)),)), 5, "n", sealed)


# --- the masked hint --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("secret", "hint"),
    [
        ("sk-proj-0123456789abcdefa1b2", "sk-…a1b2"),
        ("ghp_0123456789abcdefghijwxyz", "ghp_…wxyz"),
        ("0123456789abcdefghij", "…ghij"),
        ("sk-0123456a1b2", "…a1b2"),  # 14 characters: no prefix
        ("short-key", "…"),
        ("  sk-proj-0123456789abcdefa1b2\n", "sk-…a1b2"),
    ],
)
def test_the_hint_shows_a_short_prefix_and_the_last_four(secret: str, hint: str) -> None:
    assert mask(secret) == hint


@given(st.text(min_size=1, max_size=200))
def test_the_hint_reveals_at_most_half_and_never_the_whole(secret: str) -> None:
    hint = mask(secret)
    revealed = len(hint) - 1  # less the ellipsis
    value = secret.strip()
    assert hint.count("…") >= 1
    assert revealed <= len(value) // 2
    if len(value) >= 2:
        assert value not in hint
    assert len(hint) <= 40
