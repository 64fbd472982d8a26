"""Checking the stored chain against its signed checkpoints (pure).

The chain alone cannot catch an owner who edits a row and recomputes every later hash, or who
cuts rows off the end. Checkpoints can: each lists, signed, the hashes its rows had. This walks
the checkpoints in order and reports the first problem, naming the first bad row id:

- ``bad_signature``: a checkpoint not signed by the key (forged or altered); nothing after it is
  trusted;
- ``checkpoint_gap``: checkpoints that do not follow one another (a line removed from the file);
- ``rewritten``: a row whose stored hash is not the one its checkpoint signed;
- ``truncated``: a row a checkpoint saw is no longer stored (rows cut from the end, or removed);
- ``database_copy_differs``: the database's copy of the checkpoints is not the file's.

``anchored_id`` is the last row covered by a checkpoint that checked out: rows after it are
protected by the chain alone until the next checkpoint, and the report says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from asat_audit.checkpoint import Checkpoint, signature_holds, to_json


class AnchorProblem(StrEnum):
    BAD_SIGNATURE = "bad_signature"
    CHECKPOINT_GAP = "checkpoint_gap"
    REWRITTEN = "rewritten"
    TRUNCATED = "truncated"
    DATABASE_COPY_DIFFERS = "database_copy_differs"


@dataclass(frozen=True)
class AnchorReport:
    checkpoints: int  # checkpoints found intact before the problem (all when ok)
    anchored_id: int  # the last row id covered by an intact checkpoint (0: none)
    last_checkpoint: Checkpoint | None  # the last intact checkpoint
    problem: AnchorProblem | None
    first_bad_id: int | None
    detail: str

    @property
    def ok(self) -> bool:
        return self.problem is None


def check_anchors(
    stored: Mapping[int, str],
    checkpoints: Sequence[Checkpoint],
    public_key: Ed25519PublicKey,
    database_copy: Sequence[Checkpoint] | None = None,
) -> AnchorReport:
    """``stored`` maps each stored row id to its stored hash; ``checkpoints`` are the file's, in
    file order; ``database_copy`` the database's (checked to be the file's, when given)."""
    last_stored = max(stored, default=0)
    good: Checkpoint | None = None
    count = 0

    def report(problem: AnchorProblem, bad_id: int | None, detail: str) -> AnchorReport:
        return AnchorReport(count, good.last_id if good else 0, good, problem, bad_id, detail)

    for checkpoint in checkpoints:
        span = f"checkpoint of rows {checkpoint.first_id}..{checkpoint.last_id} signed at {checkpoint.signed_at}"
        if not signature_holds(public_key, checkpoint):
            return report(
                AnchorProblem.BAD_SIGNATURE,
                checkpoint.first_id,
                f"the {span} is not signed by the audit key (key id {checkpoint.key_id}): forged or altered",
            )
        expected_first = 1 if good is None else good.last_id + 1
        if checkpoint.first_id != expected_first:
            return report(
                AnchorProblem.CHECKPOINT_GAP,
                expected_first,
                f"the {span} does not follow the previous checkpoint (expected it to start at row "
                f"{expected_first}): a checkpoint is missing from the file",
            )
        for row_id, signed_hash in zip(
            range(checkpoint.first_id, checkpoint.last_id + 1), checkpoint.row_hashes, strict=True
        ):
            if row_id not in stored:
                cut = "cut from the end" if row_id > last_stored else "removed"
                return report(
                    AnchorProblem.TRUNCATED,
                    row_id,
                    f"row {row_id} is no longer stored but the {span} saw it: rows were {cut} "
                    f"(the log now ends at row {last_stored})",
                )
            if stored[row_id] != signed_hash:
                return report(
                    AnchorProblem.REWRITTEN,
                    row_id,
                    f"row {row_id}'s stored hash {stored[row_id]} is not the hash {signed_hash} the {span} "
                    "signed: the row was rewritten (and the chain recomputed after it, if the chain still holds)",
                )
        good, count = checkpoint, count + 1
    if database_copy is not None:
        file_lines = [to_json(c) for c in checkpoints]
        for position, copy in enumerate(database_copy):
            if position >= len(file_lines) or to_json(copy) != file_lines[position]:
                return report(
                    AnchorProblem.DATABASE_COPY_DIFFERS,
                    copy.first_id,
                    f"the database's checkpoint {position + 1} (rows {copy.first_id}..{copy.last_id}) is not the "
                    "file's: one of the two copies was altered",
                )
    return AnchorReport(count, good.last_id if good else 0, good, None, None, "")
