"""Inputs: bytes of a PDF, image, text or email in; the document's text by page out (OCR where needed)."""
