"""The research service's settings: one object from the environment; a bad value is a clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

from asat_research.__main__ import main
from asat_research.composition import ResearchConfigError, build_contradiction, read_settings
from asat_research.settings import ResearchSettings


def test_defaults_and_values_are_read() -> None:
    assert read_settings({}) == ResearchSettings()
    settings = read_settings(
        {
            "ASAT_RESEARCH_HOST": "0.0.0.0",
            "ASAT_RESEARCH_PORT": " 9730 ",
            "ASAT_INGEST_URL": "http://ingest:8720/",
            "ASAT_RERANKER": "hybrid",
            "ASAT_GATE_MIN_SCORE": "0.8",
            "ASAT_GATE_GAP_MARGIN": "",  # empty is unset: the default applies
        }
    )
    assert (settings.host, settings.port, settings.ingest_url) == ("0.0.0.0", 9730, "http://ingest:8720")
    assert (settings.reranker, settings.gate_min_score, settings.gate_gap_margin) == ("hybrid", 0.8, None)


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("ASAT_RESEARCH_PORT", "87a0", "use a port number from 1 to 65535"),
        ("ASAT_RESEARCH_PORT", "0", "use a port number from 1 to 65535"),
        ("ASAT_RERANKER", "bm25", "use one of domain, hybrid, embedding-cosine, cross-encoder"),
        ("ASAT_GATE_MIN_SCORE", "high", "use a number on the reranker's scale"),
        ("ASAT_GATE_GAP_MARGIN", "nan", "use a number on the reranker's scale"),
        ("ASAT_INGEST_URL", "ingest:8720", "use the ingest (index) service's http(s) URL"),
    ],
)
def test_a_bad_value_names_the_variable_and_what_is_allowed(name: str, value: str, words: str) -> None:
    with pytest.raises(ResearchConfigError) as caught:
        read_settings({name: value})
    assert str(caught.value).startswith(f"{name}={value!r} is not allowed (")
    assert words in str(caught.value)


def test_serve_with_a_bad_port_is_one_line_on_stderr_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ASAT_RESEARCH_PORT", "eighty")
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ASAT_RESEARCH_PORT='eighty' is not allowed") and "Traceback" not in err
    assert err.count("\n") == 1


def test_a_bad_port_flag_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["serve", "--port", "70000"])
    assert caught.value.code == 2
    assert "'70000' is not allowed: use a port number from 1 to 65535" in capsys.readouterr().err


def test_the_contradiction_model_is_read_from_its_directory_and_a_missing_one_is_refused(tmp_path: Path) -> None:
    shipped = build_contradiction(read_settings({}))
    assert shipped.threshold > 0.0  # models/premise of this checkout
    with pytest.raises(ResearchConfigError, match=r"ASAT_PREMISE_MODEL_DIR: .*contradiction.txt is missing"):
        build_contradiction(read_settings({"ASAT_PREMISE_MODEL_DIR": str(tmp_path)}))
