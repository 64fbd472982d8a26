"""What the audit page says about the log's integrity (pure): never more than was checked, and
nothing of other practices' rows.

The audit log is one hash chain across every practice, and research checks all of it; a practice
is told the result, never how many rows the log holds, how many a checkpoint anchors or how many
wait for the next one (which would count other practices' questions). Without signed checkpoints,
a consistent chain only shows that no row was changed without the later hashes being recomputed;
the page says that, rather than "intact". With them, it says when the last checkpoint was signed
and with which key, and whether rows written since wait for the next one. A broken log names the
first bad row, the one thing to report.
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
    if anchors is None:
        return AuditStatus(
            True,
            "Hash chain consistent: every row of the audit log was checked.",
            "No signed checkpoint was checked, so a chain recomputed by someone with full database access, or rows "
            "cut from the end, would not show here.",
        )
    last = anchors.last_checkpoint
    if last is None:
        return AuditStatus(
            True,
            "Hash chain consistent: every row of the audit log was checked; no signed checkpoint yet.",
            "Every row is protected by the chain alone until the first checkpoint is signed.",
        )
    later = (
        " Rows written since are protected by the chain alone until the next checkpoint."
        if report.unanchored_rows
        else " Every row is anchored by a signed checkpoint."
    )
    return AuditStatus(
        True,
        "Audit log verified: every row of the audit log was checked against the chain and the signed checkpoints.",
        f"Last verified checkpoint signed {last.signed_at:%d %B %Y %H:%M:%S} UTC (key {last.key_id}).{later}",
    )
