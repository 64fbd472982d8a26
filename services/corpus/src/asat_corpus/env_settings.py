"""Reading a service's settings from the environment: one pydantic model per service.

Each field of a service's settings model is one ``ASAT_*`` variable, named by the field's
``validation_alias`` (the code builds settings by field name too); its ``description`` says what
is allowed. :func:`read_settings` reads the variables that are set
(an empty value counts as unset, so the default applies) and refuses a bad value with
:class:`SettingsError` naming the variable, the value and what is allowed — never a traceback::

    class WebSettings(EnvSettings):
        port: Port = Field(default=8740, validation_alias="ASAT_WEB_PORT", description=PORT_ALLOWED)

    read_settings(WebSettings, {"ASAT_WEB_PORT": "80a"})
    # SettingsError: ASAT_WEB_PORT='80a' is not allowed (Input should be a valid integer, ...): use a
    # port number from 1 to 65535
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Annotated, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

PORT_ALLOWED = "a port number from 1 to 65535"
HOST_ALLOWED = "an address to listen on, e.g. 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)"
URL_ALLOWED = "an http(s) URL such as http://127.0.0.1:8720"

Port = Annotated[int, Field(ge=1, le=65535)]


def _http_url(value: str) -> str:
    if not value.startswith(("http://", "https://")) or len(value.split("://", 1)[1]) == 0:
        raise ValueError("not an http(s) URL")
    return value.rstrip("/")


HttpUrl = Annotated[str, AfterValidator(_http_url)]


def port_argument(text: str) -> int:
    """``--port``'s type for argparse: a port number, or an error saying what is allowed."""
    try:
        port = int(text)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not allowed: use {PORT_ALLOWED}")
    return port


class SettingsError(ValueError):
    """A setting in the environment is not allowed; the message names the variable and what is allowed."""


class EnvSettings(BaseModel):
    """Base of every service's settings: frozen, one field per variable (its validation alias)."""

    model_config = ConfigDict(frozen=True, extra="ignore", validate_by_name=True, validate_by_alias=True)


Settings = TypeVar("Settings", bound=EnvSettings)


def variable_names(model: type[EnvSettings]) -> dict[str, str]:
    """``{variable: field name}`` of ``model`` (a field without a variable is not read from the environment)."""
    return {
        field.validation_alias: name
        for name, field in model.model_fields.items()
        if isinstance(field.validation_alias, str)
    }


def read_settings(model: type[Settings], env: Mapping[str, str]) -> Settings:
    """``model`` from the variables of ``env`` it names; raises :class:`SettingsError` on a bad value."""
    names = variable_names(model)
    given = {variable: env[variable].strip() for variable in names if env.get(variable, "").strip()}
    try:
        return model.model_validate(given)
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            variable = str(error["loc"][0]) if error["loc"] else model.__name__
            field = model.model_fields.get(names.get(variable, ""))
            allowed = f": use {field.description}" if field is not None and field.description else ""
            value = f"={given[variable]!r}" if variable in given else ""
            problems.append(f"{variable}{value} is not allowed ({error['msg']}){allowed}")
        raise SettingsError("; ".join(problems)) from None
