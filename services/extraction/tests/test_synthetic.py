"""The synthetic generator writes documents with truth files, and the extractor reads a handful of them."""

from __future__ import annotations

import json
from pathlib import Path

from asat_extraction.pipeline import Pipeline
from asat_extraction.schema import extraction_out, flat_values
from asat_extraction.synthetic.generate import generate, write_set
from asat_extraction.synthetic.scoring import FIELDS, score
from asat_extraction.testing.samples import as_processed

# Born-digital and text documents only (indexes into the PLAN mix); OCR is covered in test_inputs.
TEXT_INDEXES = (0, 12, 22, 30, 45, 50, 57, 62, 68, 120, 130, 138)


def test_generation_is_reproducible() -> None:
    first = generate(seed=7, count=3)
    again = generate(seed=7, count=3)
    assert [g.data for g in first] == [g.data for g in again]
    assert [g.spec.truth() for g in first] == [g.spec.truth() for g in again]


def test_write_set_writes_truth_beside_each_document(tmp_path: Path) -> None:
    written = write_set(tmp_path, seed=3, count=2)
    for path in written:
        truth = json.loads((tmp_path / (path.stem + ".truth.json")).read_text())
        assert truth["file"] == path.name and set(FIELDS) <= set(truth["fields"])


def test_extractor_on_generated_text_documents(pipeline: Pipeline) -> None:
    marks: list[bool] = []
    for generated in generate(seed=11, count=max(TEXT_INDEXES) + 1, only=TEXT_INDEXES):
        assert generated.spec.medium not in ("png", "jpeg", "image_pdf")
        result = as_processed(pipeline.process(generated.file_name, generated.data))
        marks += score(generated.spec.truth(), flat_values(extraction_out(result.extraction))).values()
    assert sum(marks) / len(marks) >= 0.9


def test_scoring() -> None:
    truth = {"supplier_name": "Acme Pty Ltd", "total_amount": "1.00",
             "line_items": [{"description": "Copper pipe 15mm", "amount": "1.00", "quantity": "1"}]}  # fmt: skip
    got = {"supplier_name": "ACME  Pty Ltd.", "total_amount": "1.00",
           "line_items": [{"description": "Copper pipe 15mn", "amount": "1.00", "quantity": "1"}]}  # fmt: skip
    marks = score(truth, got)
    assert marks["supplier_name"] and marks["total_amount"] and marks["line_items"]
    assert not score(truth, {**got, "total_amount": "1.01"})["total_amount"]
