"""Emails (.eml) with the standard library: the body as text and each attachment read as its own type."""

from __future__ import annotations

import email
import html
import re
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage

_TAGS = re.compile(r"<(script|style)\b.*?</\1>|<[^>]+>", re.I | re.S)
_BLOCK = re.compile(r"</?(p|div|br|tr|li|h\d|table)\b[^>]*>", re.I)


@dataclass(frozen=True)
class Attachment:
    filename: str
    data: bytes


@dataclass(frozen=True)
class ParsedEmail:
    body: str
    attachments: tuple[Attachment, ...]


def html_to_text(markup: str) -> str:
    markup = _BLOCK.sub("\n", markup)
    markup = re.sub(r"</t[dh]>", " ", markup, flags=re.I)
    return html.unescape(_TAGS.sub("", markup))


def parse_email(data: bytes) -> ParsedEmail:
    message = email.message_from_bytes(data, policy=policy.default)
    assert isinstance(message, EmailMessage)
    body_part = message.get_body(preferencelist=("plain", "html"))
    body = ""
    if body_part is not None:
        content = body_part.get_content()
        body = html_to_text(content) if body_part.get_content_type() == "text/html" else str(content)
    attachments = []
    for part in message.iter_attachments():
        payload = part.get_payload(decode=True)
        if isinstance(payload, bytes) and payload:
            attachments.append(Attachment(part.get_filename() or "attachment", payload))
    return ParsedEmail(body, tuple(attachments))
