"""``GET /v1/audit/verify``: the chain, and the signed checkpoints when research is given the
checkpoint file and the public key (never the signing key). Over the in-memory ports."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from fastapi.testclient import TestClient

from asat_audit.checkpoint_file import load_private_key, write_key_pair
from asat_audit.checkpointer import make_checkpoint
from asat_audit.log_check import AnchorFiles
from asat_corpus.contracts.audit_log import ChainReportOut
from asat_research.api import create_app

from .fakes import fakes

QUESTION = "What aggregated turnover made a business a small business entity in FY2015?"
MOMENT = datetime(2026, 12, 3, 9, 30, tzinfo=UTC)


def _report(api: TestClient) -> ChainReportOut:
    response = api.get("/v1/audit/verify")
    assert response.status_code == 200, response.text
    return ChainReportOut.model_validate(response.json())


def test_without_checkpoints_the_report_says_only_the_chain_was_checked() -> None:
    f = fakes()
    api = TestClient(create_app(f.pipeline()))
    api.post("/v1/research", json={"question": QUESTION})
    report = _report(api)
    assert report.ok and report.anchors is None and report.rows == 1 and report.unanchored_rows == 1


def test_with_checkpoints_the_report_says_how_far_the_log_is_anchored(tmp_path: Path) -> None:
    f = fakes()
    key_path = tmp_path / "signing.pem"
    anchors = AnchorFiles(tmp_path / "checkpoints.jsonl", write_key_pair(key_path))
    api = TestClient(create_app(f.pipeline(), anchors=anchors))
    for _ in range(2):
        api.post("/v1/research", json={"question": QUESTION})
    made = make_checkpoint(f.audit, anchors.checkpoints, load_private_key(key_path), MOMENT)
    assert made is not None and (made.first_id, made.last_id) == (1, 2)
    api.post("/v1/research", json={"question": QUESTION})
    report = _report(api)
    assert report.ok and report.anchors is not None and report.anchors.ok
    assert report.anchors.anchored_id == 2 and report.unanchored_rows == 1
    assert report.anchors.last_checkpoint is not None and report.anchors.last_checkpoint.signed_at == MOMENT


def test_a_database_copy_that_is_not_the_files_breaks_the_report(tmp_path: Path) -> None:
    f = fakes()
    key_path = tmp_path / "signing.pem"
    anchors = AnchorFiles(tmp_path / "checkpoints.jsonl", write_key_pair(key_path))
    api = TestClient(create_app(f.pipeline(), anchors=anchors))
    api.post("/v1/research", json={"question": QUESTION})
    make_checkpoint(f.audit, anchors.checkpoints, load_private_key(key_path), MOMENT)
    anchors.checkpoints.write_text("")  # the file outside the database was emptied
    report = _report(api)
    assert not report.ok and report.anchors is not None
    assert (report.anchors.problem, report.first_bad_id) == ("database_copy_differs", 1)


def test_an_unreadable_public_key_is_a_503_naming_the_audit_log(tmp_path: Path) -> None:
    f = fakes()
    anchors = AnchorFiles(tmp_path / "checkpoints.jsonl", tmp_path / "missing.pub")
    response = TestClient(create_app(f.pipeline(), anchors=anchors)).get("/v1/audit/verify")
    assert response.status_code == 503 and "cannot read the audit public key" in response.json()["message"]
