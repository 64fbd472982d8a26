"""The payload each chunk carries into the index (pure), shared by ingest and the generation."""

from __future__ import annotations

from typing import Any

from asat_corpus.chunk import Chunk
from asat_corpus.provision import ProvisionVersion
from asat_corpus.ruling import Ruling
from asat_corpus.ruling_validity import RulingValidity


def provision_payload(chunk: Chunk, version: ProvisionVersion) -> dict[str, Any]:
    return {
        "kind": "provision",
        "chunk_id": chunk.id,
        "source_id": version.id,
        "parent_id": chunk.parent_id,
        "act": version.act,
        "provision": version.number,
        "heading": version.heading,
        "hierarchy": list(version.hierarchy),
        "label_path": list(chunk.label_path),
        "register_ids": list(version.register_ids),
        "authorised": version.authorised,
        "valid_from": version.valid_from.isoformat(),
        "valid_to": version.valid_to.isoformat() if version.valid_to else None,
        "income_years": list(version.income_years),
        "start": chunk.start,
        "end": chunk.end,
        "content_hash": version.content_hash,
    }


def ruling_payload(chunk: Chunk, ruling: Ruling, validity: RulingValidity) -> dict[str, Any]:
    return {
        "kind": "ruling",
        "chunk_id": chunk.id,
        "source_id": ruling.id,
        "parent_id": chunk.parent_id,
        "act": None,
        "provision": None,
        "ruling": ruling.id,
        "doc_type": ruling.doc_type,
        "title": ruling.title,
        "status": ruling.status,
        "current_consolidated_only": ruling.current_consolidated_only,
        "issue_date": ruling.issue_date.isoformat() if ruling.issue_date else None,
        "valid_from": validity.valid_from.isoformat(),
        "valid_to": validity.valid_to.isoformat() if validity.valid_to else None,
        "validity_basis": validity.from_basis,
        "label_path": list(chunk.label_path),
        "income_years": list(validity.income_years),
        "start": chunk.start,
        "end": chunk.end,
    }
