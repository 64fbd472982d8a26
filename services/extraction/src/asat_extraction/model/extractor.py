"""The model extractor: one request per document to a provider's transport, then grounding.

A transport speaks one wire format (:mod:`.openai_adapter`, :mod:`.anthropic_adapter`,
:mod:`.ollama_adapter`) and returns the reply's JSON object; any failure is an
:class:`~asat_extraction.extractor.port.ExtractorError` naming the provider and the setting to
check, which the pipeline reports for that document alone. Whatever the model answers, only values
that occur in the document's text are kept (:func:`~asat_extraction.model.grounding.ground`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from asat_extraction.document import DocumentText, PageImage
from asat_extraction.extractor.lines import document_lines
from asat_extraction.fields import Extraction
from asat_extraction.model.grounding import blank_extraction, ground
from asat_extraction.model.prompts import SCHEMA, SCHEMA_NAME, SYSTEM, render_user


@dataclass(frozen=True)
class ModelRequest:
    """One document's request: the prompts, the reply schema and any page pictures (vision)."""

    system: str
    user: str
    schema_name: str
    schema: dict[str, Any]
    images: tuple[PageImage, ...] = ()


class ModelTransport(Protocol):
    @property
    def provider(self) -> str:
        """``openai``, ``anthropic`` or ``ollama``."""
        ...

    @property
    def model(self) -> str: ...

    def ask(self, request: ModelRequest) -> dict[str, object]:
        """The reply's JSON object; raises ExtractorError naming the provider and what to check."""
        ...


def request_for(document: DocumentText) -> ModelRequest:
    return ModelRequest(SYSTEM, render_user(document), SCHEMA_NAME, SCHEMA, document.images)


class ModelExtractor:
    """An :class:`~asat_extraction.extractor.port.Extractor` that asks a model, then grounds its reply."""

    def __init__(self, transport: ModelTransport) -> None:
        self._transport = transport

    @property
    def name(self) -> str:
        return f"{self._transport.provider}:{self._transport.model}"

    def extract(self, document: DocumentText) -> Extraction:
        if not document_lines(document):
            # Nothing to ground a value in: no request is sent.
            return blank_extraction(self.name)
        return ground(document, self._transport.ask(request_for(document)), self.name)
