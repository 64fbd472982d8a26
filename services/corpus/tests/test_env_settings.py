"""The shared settings reader: a bad value names the variable, the value and what is allowed."""

from __future__ import annotations

import argparse
from typing import Literal

import pytest
from pydantic import Field

from asat_corpus.env_settings import PORT_ALLOWED, EnvSettings, Port, SettingsError, port_argument, read_settings


class _Settings(EnvSettings):
    port: Port = Field(default=8000, validation_alias="ASAT_TEST_PORT", description=PORT_ALLOWED)
    mode: Literal["fast", "slow"] = Field(default="fast", validation_alias="ASAT_TEST_MODE", description="fast or slow")
    rows: int = 50  # not a variable: never read from the environment


def test_unset_and_empty_take_the_default_and_values_are_stripped() -> None:
    assert read_settings(_Settings, {"ASAT_TEST_MODE": "", "rows": "7"}) == _Settings()
    assert read_settings(_Settings, {"ASAT_TEST_PORT": " 9000 "}).port == 9000
    assert _Settings(port=1).port == 1  # built by field name in code and tests


def test_every_bad_value_is_named_with_what_is_allowed() -> None:
    with pytest.raises(SettingsError) as caught:
        read_settings(_Settings, {"ASAT_TEST_PORT": "90000", "ASAT_TEST_MODE": "medium"})
    message = str(caught.value)
    assert "ASAT_TEST_PORT='90000' is not allowed (Input should be less than or equal to 65535): use a port" in message
    assert "ASAT_TEST_MODE='medium' is not allowed (Input should be 'fast' or 'slow'): use fast or slow" in message


@pytest.mark.parametrize("text", ["0", "65536", "http", ""])
def test_a_port_flag_outside_the_range_is_refused(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="use a port number from 1 to 65535"):
        port_argument(text)
    assert port_argument("8720") == 8720
