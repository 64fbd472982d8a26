"""Signed checkpoints (pure): what is signed, and that any change to it is caught."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st

from asat_audit.checkpoint import CheckpointFormatError, from_json, key_id_of, sign, signature_holds, to_json

KEY = Ed25519PrivateKey.generate()
MOMENT = datetime(2026, 12, 3, 19, 0, 0, 123456, tzinfo=UTC)
hashes = st.lists(st.text(alphabet="0123456789abcdef", min_size=64, max_size=64), min_size=1, max_size=8)


@settings(max_examples=50)
@given(first=st.integers(1, 10_000), row_hashes=hashes)
def test_a_checkpoint_round_trips_through_its_line_and_its_signature_holds(first: int, row_hashes: list[str]) -> None:
    checkpoint = sign(KEY, first, first + len(row_hashes) - 1, row_hashes, MOMENT)
    again = from_json(to_json(checkpoint))
    assert again == checkpoint
    assert signature_holds(KEY.public_key(), again)
    assert again.last_hash == row_hashes[-1]


@settings(max_examples=50)
@given(row_hashes=hashes, data=st.data())
def test_changing_any_signed_part_breaks_the_signature(row_hashes: list[str], data: st.DataObject) -> None:
    checkpoint = sign(KEY, 5, 4 + len(row_hashes), row_hashes, MOMENT)
    position = data.draw(st.integers(0, len(row_hashes) - 1))
    flipped = list(row_hashes)
    flipped[position] = ("1" if flipped[position][0] == "0" else "0") + flipped[position][1:]
    for changed in (
        dataclasses.replace(checkpoint, row_hashes=tuple(flipped)),
        dataclasses.replace(checkpoint, signed_at=MOMENT + timedelta(microseconds=1)),
        dataclasses.replace(checkpoint, first_id=6, last_id=5 + len(row_hashes)),
    ):
        assert not signature_holds(KEY.public_key(), changed)


def test_another_key_does_not_vouch_for_it() -> None:
    other = Ed25519PrivateKey.generate()
    checkpoint = sign(KEY, 1, 1, ["a" * 64], MOMENT)
    assert not signature_holds(other.public_key(), checkpoint)
    forged = dataclasses.replace(sign(other, 1, 1, ["a" * 64], MOMENT), key_id=key_id_of(KEY.public_key()))
    assert not signature_holds(KEY.public_key(), forged)
    assert not signature_holds(KEY.public_key(), dataclasses.replace(checkpoint, signature="not base64!"))


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{}", "not a checkpoint"),
        ("[1]", "not a checkpoint"),
        (
            '{"first_id":2,"last_id":1,"row_hashes":[],"signed_at":"2026-01-01T00:00:00Z","key_id":"k","signature":""}',
            "need 1 <= first <= last",
        ),
        (
            '{"first_id":1,"last_id":2,"row_hashes":["' + "a" * 64 + '"],"signed_at":"2026-01-01T00:00:00Z",'
            '"key_id":"k","signature":""}',
            "lists 1 hashes, not 2",
        ),
        (
            '{"first_id":1,"last_id":1,"row_hashes":["xyz"],"signed_at":"2026-01-01T00:00:00Z","key_id":"k",'
            '"signature":""}',
            "malformed hash",
        ),
    ],
)
def test_a_line_that_is_not_a_checkpoint_is_refused(line: str, message: str) -> None:
    with pytest.raises(CheckpointFormatError, match=message):
        from_json(line)
