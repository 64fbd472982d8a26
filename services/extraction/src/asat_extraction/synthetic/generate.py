"""Generate the synthetic set: documents of every medium and flavour, with ``<stem>.truth.json`` beside each."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

from asat_extraction.synthetic.content import Spec, build_sheet, make_spec
from asat_extraction.synthetic.layout import as_text
from asat_extraction.synthetic.render_image import capture, draw_page, encode, image_pdf
from asat_extraction.synthetic.render_pdf import render_pdf

# (kind, medium, layout, flavour, weight): the mix of the set.
PLAN: list[tuple[str, str, str, str, int]] = [
    ("invoice", "text_pdf", "classic", "plain", 10),
    ("invoice", "text_pdf", "modern", "plain", 10),
    ("invoice", "text_pdf", "simple", "plain", 6),
    ("invoice", "text_pdf", "classic", "gst_free", 4),
    ("invoice", "text_pdf", "multipage", "plain", 8),
    ("invoice", "text_pdf", "classic", "unregistered", 5),
    ("invoice", "text_pdf", "modern", "bad_abn", 5),
    ("invoice", "text_pdf", "classic", "ambiguous_date", 6),
    ("invoice", "text_pdf", "modern", "foreign", 8),
    ("credit_note", "text_pdf", "classic", "plain", 6),
    ("credit_note", "text_pdf", "simple", "plain", 4),
    ("receipt", "png", "thermal", "plain", 8),
    ("receipt", "jpeg", "thermal", "gst_free", 7),
    ("receipt", "png", "thermal", "unregistered", 3),
    ("receipt", "jpeg", "simple", "plain", 5),
    ("invoice", "png", "simple", "plain", 5),
    ("invoice", "jpeg", "simple", "bad_abn", 3),
    ("invoice", "image_pdf", "simple", "plain", 6),
    ("invoice", "image_pdf", "classic", "ambiguous_date", 4),
    ("credit_note", "image_pdf", "simple", "plain", 3),
    ("invoice", "eml_attachment", "classic", "plain", 8),
    ("invoice", "eml_attachment", "simple", "gst_free", 4),
    ("receipt", "eml_body", "simple", "plain", 6),
    ("receipt", "eml_body", "thermal", "plain", 3),
    ("invoice", "txt", "simple", "plain", 4),
    ("receipt", "txt", "thermal", "unregistered", 3),
]
EXTENSIONS = {"text_pdf": ".pdf", "image_pdf": ".pdf", "png": ".png", "jpeg": ".jpg", "eml_body": ".eml",
              "eml_attachment": ".eml", "txt": ".txt"}  # fmt: skip


@dataclass(frozen=True)
class Generated:
    spec: Spec
    file_name: str
    data: bytes


def _email(spec: Spec, rng: random.Random, body: str, attachment: tuple[str, bytes] | None) -> bytes:
    message = EmailMessage()
    domain = spec.supplier.split()[0].lower().strip(".")
    message["From"] = f"{spec.supplier} Accounts <accounts@{domain}.com.au>"
    message["To"] = "bookkeeper@example.com.au"
    message["Subject"] = f"Your {spec.kind.replace('_', ' ')} {spec.number}"
    message["Date"] = format_datetime(datetime(spec.issued.year, spec.issued.month, spec.issued.day, 9, 30, tzinfo=UTC))
    message.set_content(body)
    if attachment is not None:
        message.add_attachment(attachment[1], maintype="application", subtype="pdf", filename=attachment[0])
    return bytes(message)


def render(spec: Spec, rng: random.Random) -> Generated:
    sheet = build_sheet(spec, rng)
    medium = spec.medium
    name = spec.stem + EXTENSIONS[medium]
    if medium == "text_pdf":
        data = render_pdf(sheet.rows)
    elif medium == "image_pdf":
        data = image_pdf(sheet.rows, rng)
    elif medium in ("png", "jpeg"):
        width = 640 if spec.layout == "thermal" else 1240
        upside_down = rng.random() < 0.08
        image = capture(draw_page(sheet.rows, width), rng, rng.uniform(-3.5, 3.5), upside_down=upside_down)
        if upside_down:
            spec.features.append("upside_down")
        data = encode(image, "PNG" if medium == "png" else "JPEG")
    elif medium == "eml_body":
        data = _email(spec, rng, as_text(sheet.rows, 60), None)
    elif medium == "eml_attachment":
        body = f"Hello,\n\nPlease find attached our {spec.kind.replace('_', ' ')} {spec.number}.\n\nRegards,\nAccounts team\n"
        data = _email(spec, rng, body, (f"{spec.number or 'invoice'}.pdf", render_pdf(sheet.rows)))
    else:
        data = as_text(sheet.rows, 60).encode("utf-8")
    return Generated(spec, name, data)


def generate(seed: int, count: int, only: Iterable[int] | None = None) -> list[Generated]:
    """``count`` documents, the PLAN's mix scaled to ``count``, reproducible from ``seed``; with
    ``only``, just the documents at those indexes (each is the same as in the full set)."""
    weighted = [entry for entry in PLAN for _ in range(entry[4])]
    documents: list[Generated] = []
    for index in range(count) if only is None else sorted(only):
        kind, medium, layout, flavour, _ = weighted[index % len(weighted)]
        rng = random.Random(f"{seed}-{index}")
        stem = f"doc{index:04d}-{medium}-{layout}-{flavour}"
        spec = make_spec(rng, stem, kind, medium, layout, flavour)
        documents.append(render(spec, rng))
    return documents


def write_set(out: Path, seed: int, count: int) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for generated in generate(seed, count):
        path = out / generated.file_name
        path.write_bytes(generated.data)
        truth = {"file": generated.file_name, "fields": generated.spec.truth(),
                 "meta": {"medium": generated.spec.medium, "layout": generated.spec.layout,
                          "features": generated.spec.features}}  # fmt: skip
        (out / f"{generated.spec.stem}.truth.json").write_text(json.dumps(truth, indent=2) + "\n", encoding="utf-8")
        written.append(path)
    return written
