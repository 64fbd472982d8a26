"""Where the web service listens and where it finds research and extraction (from the environment).

| variable | allowed | default |
|---|---|---|
| ``ASAT_RESEARCH_URL`` | the research service, an http(s) URL | ``http://127.0.0.1:8730`` |
| ``ASAT_EXTRACTION_URL`` | the extraction service (Documents pages), an http(s) URL | ``http://127.0.0.1:8750`` |
| ``ASAT_WEB_HOST`` | the address to listen on | ``127.0.0.1`` |
| ``ASAT_WEB_PORT`` | the port, 1 to 65535 | ``8740`` |
| ``ASAT_WEB_COOKIE_SECURE`` | ``true``: the session cookie is ``Secure`` (https only); ``false`` for plain http on this machine | ``true`` |
| ``ASAT_SERVICE_TOKEN`` | the service token sent to research and extraction (which refuse a request without it); the web itself is not guarded by it | required by ``python -m asat_web`` |
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import Field

from asat_corpus.env_settings import (
    HOST_ALLOWED,
    PORT_ALLOWED,
    EnvSettings,
    HttpUrl,
    Port,
    SettingsError,
    read_settings,
)
from asat_corpus.service_token import ServiceTokenError, optional_service_token

DEFAULT_RESEARCH_URL = "http://127.0.0.1:8730"
DEFAULT_EXTRACTION_URL = "http://127.0.0.1:8750"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8740


class WebConfigError(SettingsError):
    """A setting in the environment is unusable."""


class WebSettings(EnvSettings):
    research_url: HttpUrl = Field(
        default=DEFAULT_RESEARCH_URL,
        validation_alias="ASAT_RESEARCH_URL",
        description=f"the research service's http(s) URL, e.g. {DEFAULT_RESEARCH_URL}",
    )
    extraction_url: HttpUrl = Field(
        default=DEFAULT_EXTRACTION_URL,
        validation_alias="ASAT_EXTRACTION_URL",
        description=f"the extraction service's http(s) URL, e.g. {DEFAULT_EXTRACTION_URL}",
    )
    host: str = Field(default=DEFAULT_HOST, validation_alias="ASAT_WEB_HOST", description=HOST_ALLOWED)
    port: Port = Field(default=DEFAULT_PORT, validation_alias="ASAT_WEB_PORT", description=PORT_ALLOWED)
    cookie_secure: bool = Field(
        default=True,
        validation_alias="ASAT_WEB_COOKIE_SECURE",
        description="true (the default: the session cookie is sent over https only) or false (plain http, "
        "e.g. http://127.0.0.1 on this machine, as make up serves it)",
    )
    audit_rows: int = Field(default=50, ge=1, le=500)  # rows on the audit page; not a setting
    document_rows: int = Field(default=200, ge=1, le=1000)  # transactions on the Documents page; not a setting
    max_upload_files: int = Field(default=50, ge=1, le=1000)  # files one upload form may carry; not a setting
    # ASAT_SERVICE_TOKEN, read by settings_from_env (checked there, its value never echoed in an error).
    service_token: str | None = Field(default=None, repr=False, exclude=True)


def settings_from_env(env: Mapping[str, str]) -> WebSettings:
    """The web service's settings; raises :class:`WebConfigError` naming a bad variable. The
    service token is taken when ``ASAT_SERVICE_TOKEN`` is set (``python -m asat_web`` requires it)."""
    try:
        settings = read_settings(WebSettings, env)
        token = optional_service_token(env)
    except (SettingsError, ServiceTokenError) as exc:
        raise WebConfigError(str(exc)) from None
    return settings if token is None else settings.model_copy(update={"service_token": token})
