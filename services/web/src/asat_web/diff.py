"""Word-level difference between two versions of a provision's text (pure, difflib)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from enum import StrEnum

_TOKEN = re.compile(r"\s+|[^\s]+")


class DiffOp(StrEnum):
    EQUAL = "equal"
    INSERT = "insert"  # only in the new text
    DELETE = "delete"  # only in the old text


@dataclass(frozen=True)
class DiffSegment:
    op: DiffOp
    text: str


def tokens(text: str) -> list[str]:
    """Words and the whitespace runs between them; joined, they give ``text`` back."""
    return _TOKEN.findall(text)


def diff_texts(old: str, new: str) -> tuple[DiffSegment, ...]:
    """Segments that read as the old text (EQUAL + DELETE) or the new text (EQUAL + INSERT).

    A replacement is a DELETE followed by an INSERT; neighbouring segments of the same kind are
    merged, and no segment is empty.
    """
    a, b = tokens(old), tokens(new)
    matcher = SequenceMatcher(a=a, b=b, autojunk=False)
    segments: list[DiffSegment] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            _add(segments, DiffOp.EQUAL, "".join(a[i1:i2]))
            continue
        if tag in ("delete", "replace"):
            _add(segments, DiffOp.DELETE, "".join(a[i1:i2]))
        if tag in ("insert", "replace"):
            _add(segments, DiffOp.INSERT, "".join(b[j1:j2]))
    return tuple(segments)


def side(segments: tuple[DiffSegment, ...], op: DiffOp) -> str:
    """The old (``DELETE``) or new (``INSERT``) text read back from the segments."""
    return "".join(s.text for s in segments if s.op in (DiffOp.EQUAL, op))


def _add(segments: list[DiffSegment], op: DiffOp, text: str) -> None:
    if not text:
        return
    if segments and segments[-1].op is op:
        segments[-1] = DiffSegment(op, segments[-1].text + text)
    else:
        segments.append(DiffSegment(op, text))
