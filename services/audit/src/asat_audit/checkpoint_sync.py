"""The two copies of the checkpoints brought back together after a crash between their writes (pure).

A checkpoint is appended to the file first and stored in the database second. A crash or a
database outage between the two leaves the file one (or more) checkpoints ahead: the database's
copy must then be the file's with its tail missing, and that tail is stored again, exactly as
signed, before anything new is signed. Any other difference is not a lost write but an altered
copy, and nothing is repaired or signed over it.
"""

from __future__ import annotations

from collections.abc import Sequence

from asat_audit.checkpoint import Checkpoint


class CheckpointCopiesDiffer(Exception):
    """The database's checkpoints are not a prefix of the file's: one copy was altered."""


def unstored(in_file: Sequence[Checkpoint], in_database: Sequence[Checkpoint]) -> tuple[Checkpoint, ...]:
    """The file's checkpoints the database lacks (its last ones), to be stored again.

    Raises :class:`CheckpointCopiesDiffer` naming the first checkpoint that differs, or the
    first the database holds beyond the file's."""
    if len(in_database) > len(in_file):
        extra = in_database[len(in_file)]
        raise CheckpointCopiesDiffer(
            f"the database holds checkpoint {len(in_file) + 1} (rows {extra.first_id}..{extra.last_id}), which the "
            "file does not: the file lost a checkpoint, or the database gained one that was never signed into it"
        )
    for number, (filed, stored) in enumerate(zip(in_file, in_database, strict=False), start=1):
        if filed != stored:
            raise CheckpointCopiesDiffer(
                f"checkpoint {number} differs between the file (rows {filed.first_id}..{filed.last_id}) and the "
                f"database (rows {stored.first_id}..{stored.last_id}): one of the two copies was altered"
            )
    return tuple(in_file[len(in_database) :])
