"""The extractor port: text of a document in, an extraction (values, provenance, confidence) out."""

from __future__ import annotations

from typing import Protocol

from asat_extraction.document import DocumentText
from asat_extraction.fields import Extraction


class ExtractorError(Exception):
    """The extractor could not read this document (a model did not answer, or answered unusably).

    The pipeline turns it into a per-document error; ``message`` names the provider and the
    setting to check. The rest of the batch carries on.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Extractor(Protocol):
    @property
    def name(self) -> str:
        """Recorded beside every extraction (``deterministic``, ``openai:gpt-...``)."""
        ...

    def extract(self, document: DocumentText) -> Extraction:
        """The fields of ``document``; a field not shown is null with a reason, never guessed.

        Raises :class:`ExtractorError` when the document cannot be read by this extractor.
        """
        ...
