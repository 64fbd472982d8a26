"""The web's request-body limits: a form or stream body over the limit is a 413 naming it, before
research is asked; the upload form has its own, larger limit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from asat_web.app import MAX_FORM_BYTES, MAX_UPLOAD_BYTES

Make = Callable[..., tuple[TestClient, FastAPI]]


def test_a_form_over_the_limit_is_413_naming_it(make_web: Make) -> None:
    web, _ = make_web()
    body = b"question=" + b"q" * MAX_FORM_BYTES
    for path in ("/research", "/stream"):
        response = web.post(path, content=body, headers={"content-type": "application/x-www-form-urlencoded"})
        assert response.status_code == 413, path
        reply: dict[str, Any] = response.json()
        assert (reply["limit"], reply["maximum"]) == ("max_body_bytes", MAX_FORM_BYTES)


def test_the_upload_form_has_its_own_limit(make_web: Make) -> None:
    web, _ = make_web()
    declared = {"content-type": "multipart/form-data; boundary=x", "content-length": str(MAX_UPLOAD_BYTES + 1)}
    response = web.post("/documents", content=b"--x--", headers=declared)
    assert response.status_code == 413 and response.json()["maximum"] == MAX_UPLOAD_BYTES
    assert MAX_UPLOAD_BYTES > MAX_FORM_BYTES
