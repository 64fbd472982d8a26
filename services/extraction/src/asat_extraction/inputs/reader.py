"""One entry point: file name and bytes in, the document's pages of text (or an InputError) out."""

from __future__ import annotations

from dataclasses import dataclass

from asat_extraction.document import DocumentText, InputKind, Page, PageImage
from asat_extraction.fields import Warning
from asat_extraction.inputs.email_input import parse_email
from asat_extraction.inputs.errors import Cause, InputError
from asat_extraction.inputs.image import frames_as_png, read_image
from asat_extraction.inputs.limits import InputLimits
from asat_extraction.inputs.ocr import OcrEngine
from asat_extraction.inputs.pdf import read_pdf
from asat_extraction.inputs.sniff import MediaType, extension_type, sniff


@dataclass(frozen=True)
class ReadResult:
    document: DocumentText
    warnings: tuple[Warning, ...]


_IMAGES = frozenset({MediaType.PNG, MediaType.JPEG, MediaType.TIFF})
_MESSAGES = frozenset({MediaType.TEXT, MediaType.EMAIL})


def _family(media: MediaType) -> str:
    """PDF, picture or message: one picture format named as another (a PNG saved as .jpg) is read
    with a warning; a file of another family than its name says is refused."""
    if media in _IMAGES:
        return "image"
    if media in _MESSAGES:
        return "message"
    return media.value


def _check_size(name: str, data: bytes, limits: InputLimits) -> None:
    if not data:
        raise InputError(Cause.EMPTY, f"{name} is empty (0 bytes): the file was not saved or copied completely")
    if len(data) > limits.max_bytes:
        raise InputError(
            Cause.TOO_LARGE,
            f"{name} is {len(data) / 1_048_576:.1f} MiB, over the limit of {limits.max_bytes / 1_048_576:.0f} MiB: "
            "an invoice should be far smaller; compress or split it",
        )


def _pages_of(
    name: str, data: bytes, media: MediaType, limits: InputLimits, ocr: OcrEngine | None
) -> tuple[list[tuple[str, bool]], InputKind]:
    if media is MediaType.PDF:
        pdf_pages = read_pdf(data, limits, ocr)
        kind = InputKind.IMAGE_PDF if all(p.ocr for p in pdf_pages) else InputKind.TEXT_PDF
        return [(p.text, p.ocr) for p in pdf_pages], kind
    if media in (MediaType.PNG, MediaType.JPEG, MediaType.TIFF):
        return [(text, True) for text in read_image(data, limits, ocr)], InputKind.IMAGE
    if media is MediaType.TEXT:
        try:
            return [(data.decode("utf-8-sig"), False)], InputKind.TEXT
        except UnicodeDecodeError as error:
            raise InputError(Cause.NOT_UTF8, f"{name} is not UTF-8 text ({error}): save it as UTF-8") from None
    raise InputError(Cause.UNSUPPORTED, f"{name}: {media.value} is not read here")  # pragma: no cover


def read_document(
    name: str, data: bytes, limits: InputLimits, ocr: OcrEngine | None, *, images: bool = False
) -> ReadResult:
    """Pages of text of the file ``name`` with bytes ``data``; raises InputError naming the cause.

    With ``images``, an image document (PNG, JPEG, TIFF) also keeps each page's picture (a TIFF
    frame as PNG) for a vision model; PDFs and emails give text only.
    """
    _check_size(name, data, limits)
    media = sniff(data)
    if media is None:
        raise InputError(
            Cause.UNSUPPORTED,
            f"{name} is not a PDF, PNG, JPEG, TIFF, email (.eml) or UTF-8 text file: convert it to PDF",
        )
    warnings: list[Warning] = []
    claimed = extension_type(name)
    if claimed is not None and claimed is not media:
        if _family(claimed) != _family(media):
            # Not what its extension says (a PDF named .png, a picture named .pdf): refused, so a
            # wrongly named or disguised file is never taken for the document the name promises.
            raise InputError(
                Cause.EXTENSION_MISMATCH,
                f"{name} is named as {claimed.value} but its content is {media.value}: rename it to the right "
                "extension (or re-export it) and upload it again",
            )
        if not {claimed, media} <= {MediaType.TEXT, MediaType.EMAIL}:
            warnings.append(
                Warning(
                    "extension_mismatch",
                    f"{name} is named as {claimed.value} but its content is {media.value}; it was read as "
                    f"{media.value}: rename the file",
                )
            )
    if media is MediaType.EMAIL:
        return _read_email(name, data, limits, ocr, warnings)
    texts, kind = _pages_of(name, data, media, limits, ocr)
    pages = tuple(Page(i, text, f"{name} page {i}", ocr=is_ocr) for i, (text, is_ocr) in enumerate(texts, start=1))
    pictures: tuple[PageImage, ...] = ()
    if images and media in (MediaType.PNG, MediaType.JPEG):
        pictures = (PageImage(1, media.value, data),)
    elif images and media is MediaType.TIFF:
        pictures = tuple(
            PageImage(i, MediaType.PNG.value, png) for i, png in enumerate(frames_as_png(data, limits), start=1)
        )
    return ReadResult(DocumentText(pages, kind, media.value, pictures), tuple(warnings))


def _read_email(
    name: str, data: bytes, limits: InputLimits, ocr: OcrEngine | None, warnings: list[Warning]
) -> ReadResult:
    parsed = parse_email(data)
    pages: list[Page] = []
    if len(parsed.attachments) > limits.max_attachments:
        raise InputError(
            Cause.TOO_MANY_PAGES,
            f"{name} has {len(parsed.attachments)} attachments, over the limit of {limits.max_attachments}",
        )
    for attachment in parsed.attachments:
        media = sniff(attachment.data)
        if media is None or media is MediaType.EMAIL:
            warnings.append(
                Warning(
                    "attachment_skipped", f"attachment {attachment.filename!r} of {name} is not a document read here"
                )
            )
            continue
        try:
            texts, _ = _pages_of(attachment.filename, attachment.data, media, limits, ocr)
        except InputError as error:
            warnings.append(Warning("attachment_unreadable", f"attachment {attachment.filename!r}: {error.message}"))
            continue
        for i, (text, is_ocr) in enumerate(texts, start=1):
            pages.append(Page(len(pages) + 1, text, f"{name} attachment {attachment.filename} page {i}", ocr=is_ocr))
    # The attachments carry the document; the body comes after them, so "first line" rules see the attachment.
    pages.append(Page(len(pages) + 1, parsed.body, f"{name} body"))
    return ReadResult(DocumentText(tuple(pages), InputKind.EMAIL, MediaType.EMAIL.value), tuple(warnings))
