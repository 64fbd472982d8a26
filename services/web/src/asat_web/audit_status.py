"""What the audit page says about the log's integrity (pure): never more than was checked.

Without signed checkpoints, an intact chain only shows that no row was changed without the later
hashes being recomputed; the page says that, rather than "intact". With them, it names the last
signed checkpoint, when it was signed, and how many later rows await the next one.
"""

from __future__ import annotations

from dataclasses import dataclass

from asat_corpus.contracts.audit_log import ChainReportOut


@dataclass(frozen=True)
class AuditStatus:
    ok: bool
    headline: str
    detail: str


def audit_status(report: ChainReportOut) -> AuditStatus:
    anchors = report.anchors
    if not report.ok:
        where = report.first_bad_id if report.first_bad_id is not None else "?"
        if report.broken is not None:
            detail = f"Hash chain broken at row {report.broken.id} ({report.broken.kind}): {report.broken.detail}."
        elif anchors is not None:
            detail = f"Checkpoint check failed ({anchors.problem}): {anchors.detail}."
        else:
            detail = ""
        return AuditStatus(False, f"Audit log BROKEN: the first bad row is {where}.", detail)
    rows = report.rows if report.rows is not None else report.checked
    if anchors is None:
        return AuditStatus(
            True,
            f"Hash chain consistent: {report.checked} rows checked.",
            "No signed checkpoint was checked, so a chain recomputed by someone with full database access, or rows "
            "cut from the end, would not show here.",
        )
    last = anchors.last_checkpoint
    if last is None:
        return AuditStatus(
            True,
            f"Hash chain consistent: {report.checked} rows checked; no signed checkpoint yet.",
            f"All {rows} rows are protected by the chain alone until the first checkpoint is signed.",
        )
    waiting = report.unanchored_rows or 0
    later = f" {waiting} later rows are protected by the chain alone until the next checkpoint." if waiting else ""
    return AuditStatus(
        True,
        f"Audit log verified: {report.checked} rows; signed checkpoints anchor rows 1 to {anchors.anchored_id}.",
        f"Last verified checkpoint: row {last.last_id}, signed {last.signed_at:%d %B %Y %H:%M:%S} UTC "
        f"(key {last.key_id}).{later}",
    )
