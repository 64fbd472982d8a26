"""Born-digital PDFs with reportlab: rows drawn as text objects, so the PDF has a real text layer."""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A4  # type: ignore[import-untyped]
from reportlab.pdfgen import canvas  # type: ignore[import-untyped]

from asat_extraction.synthetic.layout import Row, paginate

MARGIN = 48.0
LEADING = 14.0
FONTS = {
    "normal": ("Helvetica", 9.5),
    "bold": ("Helvetica-Bold", 9.5),
    "title": ("Helvetica-Bold", 14),
    "small": ("Helvetica", 8),
}


def render_pdf(rows: list[Row], rows_per_page: int = 46) -> bytes:
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=A4, invariant=1)
    width, height = A4
    usable = width - 2 * MARGIN
    pages = paginate(rows, rows_per_page)
    for number, page in enumerate(pages, start=1):
        y = height - MARGIN
        for row in page:
            y -= LEADING * (1 + row.gap)
            font, size = FONTS[row.style]
            pdf.setFont(font, size)
            for cell in row.cells:
                x = MARGIN + cell.x * usable
                if cell.align == "r":
                    pdf.drawRightString(x, y, cell.text)
                else:
                    pdf.drawString(x, y, cell.text)
        if len(pages) > 1:
            pdf.setFont("Helvetica", 8)
            pdf.drawRightString(width - MARGIN, MARGIN / 2, f"Page {number} of {len(pages)}")
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()
