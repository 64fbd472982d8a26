"""What a file is, from its first bytes (its name's extension is only compared, never trusted)."""

from __future__ import annotations

import re
from enum import StrEnum
from pathlib import PurePath


class MediaType(StrEnum):
    PDF = "application/pdf"
    PNG = "image/png"
    JPEG = "image/jpeg"
    TIFF = "image/tiff"
    EMAIL = "message/rfc822"
    TEXT = "text/plain"


EXTENSIONS: dict[str, MediaType] = {
    ".pdf": MediaType.PDF,
    ".png": MediaType.PNG,
    ".jpg": MediaType.JPEG,
    ".jpeg": MediaType.JPEG,
    ".tif": MediaType.TIFF,
    ".tiff": MediaType.TIFF,
    ".eml": MediaType.EMAIL,
    ".txt": MediaType.TEXT,
    ".text": MediaType.TEXT,
}
_HEADER = re.compile(
    rb"^(from|to|subject|date|mime-version|message-id|received|return-path|content-type):", re.I | re.M
)


def sniff(data: bytes) -> MediaType | None:
    """The media type the bytes are, or None when they are none the service reads."""
    head = data[:2048]
    if head.lstrip(b"\x00\t\r\n ").startswith(b"%PDF-"):
        return MediaType.PDF
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return MediaType.PNG
    if head.startswith(b"\xff\xd8\xff"):
        return MediaType.JPEG
    if head.startswith((b"II*\x00", b"MM\x00*")):
        return MediaType.TIFF
    if b"\x00" in head:
        return None
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < len(head) - 4:  # a multi-byte character cut at 2048 is fine
            return None
    if len(_HEADER.findall(head.split(b"\n\n", 1)[0].split(b"\r\n\r\n", 1)[0])) >= 2:
        return MediaType.EMAIL
    return MediaType.TEXT


def extension_type(name: str) -> MediaType | None:
    return EXTENSIONS.get(PurePath(name).suffix.lower())
