"""The research path of a source id (pure): never another route.

Source ids come from links a user can edit (``/source/{id}``). An id with an empty, ``.`` or
``..`` segment, or a control character, is refused; the rest is percent-encoded (``/`` kept, as
ids of rulings and versions contain it), so the request always lands on
``/v1/sources/...`` and nowhere else.
"""

from __future__ import annotations

from urllib.parse import quote

MAX_ID_CHARS = 300


class NotASourceId(ValueError):
    """An id that cannot name a source."""


def source_path(source_id: str) -> str:
    """``/v1/sources/<id, encoded>``; :class:`NotASourceId` for an id that could leave that route."""
    if not source_id or len(source_id) > MAX_ID_CHARS:
        raise NotASourceId(f"a source id has 1 to {MAX_ID_CHARS} characters, got {len(source_id)}")
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in source_id):
        raise NotASourceId("a source id has no control characters")
    segments = source_id.split("/")
    if any(segment in ("", ".", "..") for segment in segments):
        raise NotASourceId(f"{source_id!r} is not a source id (empty, '.' or '..' path segments)")
    return "/v1/sources/" + quote(source_id, safe=":@/")
