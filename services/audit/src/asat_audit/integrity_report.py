"""The integrity report in words and as JSON (pure), for the CLI and research's ``/v1/audit/verify``.

The words never claim more than was checked: without checkpoints they say the chain holds
internally and that a recomputed chain or a cut tail would not show; with them, up to which row
the log is anchored and how many later rows wait for the next checkpoint.
"""

from __future__ import annotations

from asat_audit.canonical import JSONValue, format_timestamp
from asat_audit.checkpoint import Checkpoint
from asat_audit.integrity import IntegrityReport


def checkpoint_json(checkpoint: Checkpoint | None) -> JSONValue:
    if checkpoint is None:
        return None
    return {
        "first_id": checkpoint.first_id,
        "last_id": checkpoint.last_id,
        "last_hash": checkpoint.last_hash,
        "signed_at": format_timestamp(checkpoint.signed_at),
        "key_id": checkpoint.key_id,
    }


def integrity_json(report: IntegrityReport) -> dict[str, JSONValue]:
    chain, anchors = report.chain, report.anchors
    broken: JSONValue = None
    if chain.broken is not None:
        broken = {"id": chain.broken.id, "kind": str(chain.broken.kind), "detail": chain.broken.detail}
    anchors_json: JSONValue = None
    if anchors is not None:
        anchors_json = {
            "ok": anchors.ok,
            "checkpoints": anchors.checkpoints,
            "anchored_id": anchors.anchored_id,
            "last_checkpoint": checkpoint_json(anchors.last_checkpoint),
            "problem": None if anchors.problem is None else str(anchors.problem),
            "first_bad_id": anchors.first_bad_id,
            "detail": anchors.detail,
        }
    return {
        "ok": report.ok,
        "rows": report.rows,
        "checked": chain.checked,
        "last_id": chain.last_id,
        "last_hash": chain.last_hash,
        "broken": broken,
        "first_bad_id": report.first_bad_id,
        "anchors": anchors_json,
        "unanchored_rows": report.unanchored_rows,
    }


def integrity_text(report: IntegrityReport) -> str:
    chain, anchors = report.chain, report.anchors
    lines = []
    if chain.broken is None:
        lines.append(f"audit chain valid: {chain.checked} rows, last id {chain.last_id}, last hash {chain.last_hash}")
    else:
        lines.append(
            f"audit chain BROKEN at row {chain.broken.id} ({chain.broken.kind}): {chain.broken.detail}. "
            f"{chain.checked} rows before it are intact (last intact id {chain.last_id})."
        )
    if anchors is None:
        lines.append(
            "no signed checkpoints checked: the chain only shows that no row was changed without recomputing "
            "the later hashes; a recomputed chain or rows cut from the end would not show (give --checkpoints "
            "and --public-key)"
        )
    elif anchors.problem is not None:
        lines.append(f"checkpoints BROKEN at row {anchors.first_bad_id} ({anchors.problem}): {anchors.detail}")
    else:
        last = anchors.last_checkpoint
        signed = f", the last signed {format_timestamp(last.signed_at)}" if last is not None else ""
        lines.append(
            f"checkpoints valid: {anchors.checkpoints} signed checkpoints anchor rows 1..{anchors.anchored_id}"
            f"{signed}; {report.unanchored_rows} later rows are protected by the chain alone until the next one"
        )
    if not report.ok:
        lines.append(f"first bad row: {report.first_bad_id}")
    return "\n".join(lines)
