"""The CLI: one JSON per document, progress, a non-zero exit when any document failed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from asat_extraction.cli import main, run_extract
from asat_extraction.pipeline import Pipeline


def test_batch_keeps_good_documents_and_exits_1_on_a_bad_one(
    tmp_path: Path, pipeline: Pipeline, invoice_pdf: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "good.pdf").write_bytes(invoice_pdf)
    (inputs / "empty.pdf").write_bytes(b"")
    (inputs / "locked.doc").write_bytes(b"\xd0\xcf\x11\xe0\x00\x00binary")
    out = tmp_path / "out"
    assert run_extract(pipeline, [inputs], out, as_json=False) == 1
    good = json.loads((out / "good.json").read_text())
    assert good["status"] == "ok" and good["extraction"]["supplier_abn"]["value"] == "51824753556"
    assert good["extraction"]["total_amount"]["provenance"]["page"] == 1
    empty = json.loads((out / "empty.json").read_text())
    assert empty["status"] == "error" and empty["cause"] == "empty" and "empty.pdf" in empty["error"]
    assert json.loads((out / "locked.json").read_text())["cause"] == "unsupported"
    assert "[3/3]" in capsys.readouterr().err


def test_all_good_exits_0_and_json_flag_prints(
    tmp_path: Path, invoice_pdf: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.pdf").write_bytes(invoice_pdf)
    assert main(["extract", str(tmp_path / "a.pdf"), "--out", str(tmp_path / "out"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["status"] == "ok"


def test_missing_input_is_exit_2(tmp_path: Path) -> None:
    assert main(["extract", str(tmp_path / "nope.pdf"), "--out", str(tmp_path)]) == 2


def test_bad_configuration_is_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ASAT_EXTRACTION_PROVIDER", "magic")
    assert main(["extract", str(tmp_path), "--out", str(tmp_path)]) == 2
    assert "ASAT_EXTRACTION_PROVIDER" in capsys.readouterr().err
