"""The ingest service's settings: one object from the environment; a bad value is a clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

from asat_ingest.cli import main
from asat_ingest.composition import ConfigError, config_from_env


def test_host_and_port_are_read_with_the_rest(tmp_path: Path) -> None:
    config = config_from_env({"ASAT_INGEST_HOST": "0.0.0.0", "ASAT_INGEST_PORT": "9720", "HOME": str(tmp_path)})
    assert (config.host, config.port, config.index_kind) == ("0.0.0.0", 9720, "edge")
    assert config.cache_dir == tmp_path / ".cache" / "asat" / "vectors"


@pytest.mark.parametrize(
    ("env", "words"),
    [
        (
            {"ASAT_INDEX": "faiss"},
            "ASAT_INDEX='faiss' is not allowed (Input should be 'edge', 'qdrant' or 'qdrant-local')",
        ),
        ({"ASAT_INGEST_PORT": "65536"}, "ASAT_INGEST_PORT='65536' is not allowed"),
        ({"ASAT_QDRANT_URL": "localhost:6333"}, "use the Qdrant server's URL"),
        ({"ASAT_INDEX": "qdrant"}, "ASAT_INDEX=qdrant needs ASAT_QDRANT_URL"),
    ],
)
def test_a_bad_value_names_the_variable_and_what_is_allowed(env: dict[str, str], words: str) -> None:
    with pytest.raises(ConfigError) as caught:
        config_from_env(env)
    assert words in str(caught.value)


def test_serve_with_a_bad_port_is_one_line_on_stderr_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ASAT_INGEST_PORT", "http")
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("error: ASAT_INGEST_PORT='http' is not allowed") and "use a port number from 1 to 65535" in err
    )
    assert "Traceback" not in err and err.count("\n") == 1
