"""Posting one JSON request with httpx, every failure an ExtractorError naming the provider and setting."""

from __future__ import annotations

import json
from typing import Any

import httpx

from asat_extraction.extractor.port import ExtractorError

BASE_URL = "ASAT_EXTRACTION_BASE_URL"
MODEL = "ASAT_EXTRACTION_MODEL"
API_KEY = "ASAT_EXTRACTION_API_KEY"
TIMEOUT = "ASAT_EXTRACTION_MODEL_TIMEOUT"


def make_client(base_url: str, headers: dict[str, str], timeout: float) -> httpx.Client:
    # One retry of a failed connection; an answered request is never sent twice.
    return httpx.Client(base_url=base_url, headers=headers, timeout=timeout, transport=httpx.HTTPTransport(retries=1))


def post_json(client: httpx.Client, path: str, body: dict[str, Any], *, who: str, model: str) -> dict[str, Any]:
    """The JSON object the server answers to ``body`` at ``path``."""
    try:
        response = client.post(path, json=body)
    except httpx.TimeoutException as exc:
        raise ExtractorError(
            f"{who} did not answer within the timeout ({exc.__class__.__name__}); check {BASE_URL} and that the "
            f"server is running, or raise {TIMEOUT}"
        ) from None
    except httpx.HTTPError as exc:
        raise ExtractorError(
            f"{who} could not be reached ({exc.__class__.__name__}: {exc}); check {BASE_URL} and that the server "
            "is running"
        ) from None
    if response.status_code >= 400:
        detail = error_message(response)
        if response.status_code in (401, 403):
            check = f"check {API_KEY}"
        elif response.status_code == 404:
            check = f"check {MODEL} (does the server serve {model}?) and {BASE_URL}"
        else:
            check = f"check {MODEL} and {API_KEY}, and that the model takes this request"
        raise ExtractorError(f"{who} answered HTTP {response.status_code} for model {model}: {detail}; {check}")
    try:
        payload = response.json()
    except ValueError:
        raise ExtractorError(
            f"{who} answered with a body that is not JSON; check {BASE_URL} points at the API root"
        ) from None
    if not isinstance(payload, dict):
        raise ExtractorError(f"{who} answered with JSON that is not an object; check {BASE_URL}")
    return payload


def error_message(response: httpx.Response) -> str:
    """The server's own error message (OpenAI, Anthropic and Ollama shapes), else the body's start."""
    try:
        body = response.json()
    except ValueError:
        return response.text[:200] or response.reason_phrase
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict) and isinstance(error.get("message"), str):
            return str(error["message"])
        if isinstance(error, str):
            return error
    return json.dumps(body)[:200]


def reply_object(text: str | None, *, who: str, model: str) -> dict[str, object]:
    """The model's reply text as a JSON object, or an ExtractorError saying it ignored the format."""
    if text is None or not text.strip():
        raise ExtractorError(f"{who} model {model} returned no content; the document was not read")
    try:
        payload = json.loads(text)
    except ValueError:
        raise ExtractorError(
            f"{who} model {model} ignored the JSON format: the reply is not JSON; check {MODEL} is a model "
            "that supports structured (JSON) output"
        ) from None
    if not isinstance(payload, dict):
        raise ExtractorError(f"{who} model {model} ignored the JSON schema: the reply is not a JSON object")
    return payload
