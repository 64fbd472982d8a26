"""``GET /audit/{id}/file-note.pdf`` and ``.md``: the file note of an audit row, as a download.

The note is made from research's audit row (``GET /v1/audit/{id}``), never from the browser.
Whatever stops it is a :class:`Refusal` the app shows as an error page, never a partial note:
the row unknown (404), research down (503) or unusable (502), a row that predates file notes
(422: ask again), a row inconsistent with itself (502), or a character the PDF cannot give back
exactly (422: the Markdown keeps it).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from asat_corpus.contracts.audit_log import AuditEntryOut
from asat_web.file_note import FileNoteError, PredatesFileNotes, note_from_row
from asat_web.file_note_markdown import render_markdown
from asat_web.file_note_pdf import render_pdf
from asat_web.pdf_text import FontMissing, UnprintableText
from asat_web.research_client import ResearchClient, ResearchRejected, ResearchReplyError, ResearchUnavailable

Kind = Literal["pdf", "md"]
MEDIA_TYPES: dict[Kind, str] = {"pdf": "application/pdf", "md": "text/markdown; charset=utf-8"}
UNUSABLE = "Research service reply unusable"


@dataclass(frozen=True)
class Refusal:
    title: str
    message: str
    status: int


def file_name(entry_id: int, kind: Kind) -> str:
    return f"asat-file-note-{entry_id}.{kind}"


async def file_note(
    research: ResearchClient, entry_id: int, kind: Kind, now: datetime, practice_id: int
) -> Response | Refusal:
    """Audit row ``entry_id``'s file note as a ``kind`` download generated at ``now``, or why not.
    A row asked for another practice than ``practice_id`` (or by no signed-in user) is not found."""
    try:
        entry = await research.audit_entry(entry_id)
    except ResearchRejected as exc:
        return Refusal("Audit row not found", str(exc), exc.status)
    except ResearchReplyError as exc:
        return Refusal(UNUSABLE, str(exc), 502)
    except ResearchUnavailable as exc:
        return Refusal("Audit log unavailable", str(exc), 503)
    asked = entry.record.asked_by
    if asked is None or asked.practice_id != practice_id:
        return Refusal("Audit row not found", f"no audit row {entry_id} in this practice", 404)
    return await _file_note(entry, entry_id, kind, now)


async def _file_note(entry: AuditEntryOut, entry_id: int, kind: Kind, now: datetime) -> Response | Refusal:
    try:
        note = note_from_row(entry, now)
    except PredatesFileNotes as exc:
        return Refusal("No file note for this audit row", str(exc), 422)
    except FileNoteError as exc:
        return Refusal(UNUSABLE, str(exc), 502)
    if kind == "md":
        content = render_markdown(note).encode("utf-8")
    else:
        try:
            content = await run_in_threadpool(render_pdf, note)
        except UnprintableText as exc:
            return Refusal("No PDF for this file note", f"{exc} (/audit/{entry_id}/file-note.md)", 422)
        except FontMissing as exc:
            return Refusal("The PDF cannot be made here", str(exc), 500)
    headers = {
        "content-disposition": f'attachment; filename="{file_name(entry_id, kind)}"',
        "cache-control": "no-store",
    }
    return Response(content, media_type=MEDIA_TYPES[kind], headers=headers)
