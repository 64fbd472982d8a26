"""Composition: the environment picks the adapters; an unknown value refuses to start."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from asat_verifier.composition import ConfigError, build_scorer, config_from_env, create_app
from asat_verifier.config import NliSettings, ScorerName, VerifierConfig
from asat_verifier.limits import Limits


def test_defaults() -> None:
    config = config_from_env({})
    assert config.scorer is ScorerName.DETERMINISTIC
    assert config.nli is None
    assert config.limits == Limits()
    assert (config.host, config.port) == ("127.0.0.1", 8710)
    assert build_scorer(config).name == "deterministic"


def test_environment_sets_limits_and_address() -> None:
    config = config_from_env(
        {
            "ASAT_VERIFIER_MAX_BODY_BYTES": "1000",
            "ASAT_VERIFIER_MAX_CLAIMS": "2",
            "ASAT_VERIFIER_MAX_SOURCES": "3",
            "ASAT_VERIFIER_MAX_QUOTES_PER_CLAIM": "4",
            "ASAT_VERIFIER_HOST": "0.0.0.0",
            "ASAT_VERIFIER_PORT": "9000",
            "ASAT_GROUNDEDNESS_MIN_OVERLAP": "0.25",
        }
    )
    assert config.limits == Limits(max_body_bytes=1000, max_claims=2, max_sources=3, max_quotes_per_claim=4)
    assert (config.host, config.port, config.min_overlap) == ("0.0.0.0", 9000, 0.25)


def test_unknown_scorer_refuses_to_start() -> None:
    with pytest.raises(ConfigError, match=r"ASAT_GROUNDEDNESS='hhem' is not allowed .*: use one of deterministic, nli"):
        config_from_env({"ASAT_GROUNDEDNESS": "hhem"})


def test_nli_without_model_path_refuses_to_start() -> None:
    with pytest.raises(ConfigError, match="needs ASAT_GROUNDEDNESS_MODEL"):
        config_from_env({"ASAT_GROUNDEDNESS": "nli"})


def test_nli_with_missing_model_path_refuses_to_start(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-model"
    with pytest.raises(ConfigError, match="does not exist"):
        config_from_env({"ASAT_GROUNDEDNESS": "nli", "ASAT_GROUNDEDNESS_MODEL": str(missing)})


def test_nli_settings_are_read(tmp_path: Path) -> None:
    config = config_from_env(
        {
            "ASAT_GROUNDEDNESS": "nli",
            "ASAT_GROUNDEDNESS_MODEL": str(tmp_path),
            "ASAT_GROUNDEDNESS_ENTAILED_LABEL": "2",
            "ASAT_GROUNDEDNESS_THRESHOLD": "0.7",
            "ASAT_GROUNDEDNESS_PROMPT": "Premise: {premise} Hypothesis: {hypothesis}",
            "ASAT_GROUNDEDNESS_TRUST_REMOTE_CODE": "1",
        }
    )
    assert config.nli == NliSettings(
        model_path=tmp_path,
        entailed_label=2,
        threshold=0.7,
        prompt="Premise: {premise} Hypothesis: {hypothesis}",
        trust_remote_code=True,
    )


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("ASAT_VERIFIER_MAX_CLAIMS", "many", "ASAT_VERIFIER_MAX_CLAIMS='many' is not allowed .*valid integer"),
        (
            "ASAT_VERIFIER_MAX_SOURCES",
            "0",
            "ASAT_VERIFIER_MAX_SOURCES='0' is not allowed .*: use a whole number, at least 1",
        ),
        (
            "ASAT_GROUNDEDNESS_MIN_OVERLAP",
            "2",
            "ASAT_GROUNDEDNESS_MIN_OVERLAP='2' is not allowed .*: use a number from 0 to 1",
        ),
        (
            "ASAT_VERIFIER_PORT",
            "http",
            "ASAT_VERIFIER_PORT='http' is not allowed .*: use a port number from 1 to 65535",
        ),
        (
            "ASAT_VERIFIER_PORT",
            "70000",
            "ASAT_VERIFIER_PORT='70000' is not allowed .*: use a port number from 1 to 65535",
        ),
        ("ASAT_GROUNDEDNESS_TRUST_REMOTE_CODE", "yes", "TRUST_REMOTE_CODE='yes' is not allowed .*: use 1 to run code"),
    ],
)
def test_bad_values_refuse_to_start(name: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        config_from_env({name: value})


def test_build_scorer_refuses_nli_without_settings() -> None:
    with pytest.raises(ConfigError, match="needs NLI settings"):
        build_scorer(VerifierConfig(scorer=ScorerName.NLI))


def test_create_app_serves() -> None:
    with TestClient(create_app(VerifierConfig())) as client:
        assert client.get("/healthz").json()["scorer"] == "deterministic"


def test_a_bad_setting_is_one_line_on_stderr_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from asat_verifier.__main__ import main

    monkeypatch.setenv("ASAT_VERIFIER_PORT", "8710x")
    assert main() == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ASAT_VERIFIER_PORT='8710x' is not allowed") and "Traceback" not in err
    assert err.count("\n") == 1
