"""The extractor port: text of a document in, an extraction (values, provenance, confidence) out."""

from __future__ import annotations

from typing import Protocol

from asat_extraction.document import DocumentText
from asat_extraction.fields import Extraction


class Extractor(Protocol):
    @property
    def name(self) -> str:
        """Recorded beside every extraction (``deterministic``, ``openai:gpt-...``)."""
        ...

    def extract(self, document: DocumentText) -> Extraction:
        """The fields of ``document``; a field not shown is null with a reason, never guessed."""
        ...
