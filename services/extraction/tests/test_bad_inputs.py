"""Every bad input of issue 17 item 9, through the API and through the CLI: a per-document error
naming the file and its cause, the good document of the same batch kept, nothing half-stored."""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from asat_extraction.api import PRACTICE_HEADER, build_app
from asat_extraction.cli import run_extract
from asat_extraction.pipeline import Pipeline
from asat_extraction.store.memory import MemoryStore
from asat_extraction.testing.samples import encrypted

GOOD_NAME = "good.txt"
GOOD = b"Acme Pty Ltd\nABN 51 824 753 556\nTax invoice INV-77\nTotal $22.00\nGST $2.00\n"


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def decompression_bomb() -> bytes:
    """A 200-byte PNG that declares 100,000 x 100,000 pixels (10 gigapixels once decoded)."""
    header = struct.pack(">IIBBBBB", 100_000, 100_000, 1, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + _chunk(b"IEND", b"")
    )


# (file name, its bytes from the sample invoice PDF, the cause the reader must give)
BAD: list[tuple[str, Callable[[bytes], bytes], str]] = [
    ("empty.pdf", lambda _: b"", "empty"),
    ("huge.pdf", lambda _: b"%PDF-1.7\n" + b"0" * (60 * 1024 * 1024), "too_large"),
    ("locked.pdf", encrypted, "encrypted"),
    ("cut.pdf", lambda pdf: pdf[: len(pdf) // 2], "truncated"),
    ("broken.pdf", lambda _: b"%PDF-1.4\nthis is not a pdf body\n%%EOF\n", "corrupt"),
    ("bomb.png", lambda _: decompression_bomb(), "image_too_large"),
    ("archive.zip", lambda _: b"PK\x03\x04\x00\x00\x00\x00binary\x00\x01\x02", "unsupported"),
    ("invoice.png", lambda pdf: pdf, "extension_mismatch"),  # a PDF that says it is a picture
]
IDS = [cause for _, _, cause in BAD]


@pytest.mark.parametrize(("name", "make", "cause"), BAD, ids=IDS)
def test_through_the_api(
    pipeline: Pipeline, invoice_pdf: bytes, name: str, make: Callable[[bytes], bytes], cause: str
) -> None:
    store = MemoryStore()
    client = TestClient(build_app(pipeline, store, max_files=5), headers={PRACTICE_HEADER: "1"})
    response = client.post("/v1/documents", files=[("files", (GOOD_NAME, GOOD)), ("files", (name, make(invoice_pdf)))])
    assert response.status_code == 200, response.text
    good, bad = response.json()["results"]
    assert good["status"] == "created"
    assert (bad["status"], bad["cause"], bad["document"]) == ("error", cause, None)
    assert name in bad["message"]
    listed = client.get("/v1/transactions").json()["transactions"]
    assert len(listed) == 1  # the bad file left nothing behind


@pytest.mark.parametrize(("name", "make", "cause"), BAD, ids=IDS)
def test_through_the_cli(
    tmp_path: Path, pipeline: Pipeline, invoice_pdf: bytes, name: str, make: Callable[[bytes], bytes], cause: str
) -> None:
    inputs, out = tmp_path / "in", tmp_path / "out"
    inputs.mkdir()
    (inputs / GOOD_NAME).write_bytes(GOOD)
    (inputs / name).write_bytes(make(invoice_pdf))
    assert run_extract(pipeline, [inputs], out, as_json=False) == 1
    assert json.loads((out / "good.json").read_text())["status"] == "ok"
    failed = json.loads((out / f"{Path(name).stem}.json").read_text())
    assert (failed["status"], failed["cause"]) == ("error", cause)
    assert name in failed["error"]
