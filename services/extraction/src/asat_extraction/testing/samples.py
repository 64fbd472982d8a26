"""Small sample documents and helpers for the tests (rendering needs the ``synthetic`` extra)."""

from __future__ import annotations

import io

from asat_extraction.pipeline import Failed, Processed
from asat_extraction.synthetic.layout import Cell, Row

INVOICE_ROWS = [
    Row((Cell("Harbourside Plumbing Pty Ltd", 0.0), Cell("TAX INVOICE", 1.0, "r")), "title"),
    Row((Cell("ABN 51 824 753 556", 0.0),)),
    Row((Cell("Invoice No: INV-00042", 0.0), Cell("Date: 19/03/2024", 0.55))),
    Row((Cell("Description", 0.0), Cell("Amount", 1.0, "r")), "bold", role="header"),
    Row((Cell("Copper pipe 15mm", 0.0), Cell("37.50", 1.0, "r")), role="item"),
    Row((Cell("GST", 0.6), Cell("$3.41", 1.0, "r"))),
    Row((Cell("Total (inc GST)", 0.6), Cell("$37.50", 1.0, "r"))),
]


def invoice_pdf() -> bytes:
    from asat_extraction.synthetic.render_pdf import render_pdf

    return render_pdf(INVOICE_ROWS)


def encrypted(pdf: bytes) -> bytes:
    """``pdf`` protected with a user password (pypdf, a test dependency)."""
    from pypdf import PdfReader, PdfWriter  # type: ignore[import-not-found,unused-ignore]

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="AES-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def as_processed(result: Processed | Failed) -> Processed:
    assert isinstance(result, Processed), f"{result.name}: {getattr(result, 'message', '')}"
    return result
