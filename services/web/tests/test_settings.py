"""The web service's settings: one object from the environment; a bad value is a clear error."""

from __future__ import annotations

import pytest

from asat_web.__main__ import main
from asat_web.settings import WebConfigError, WebSettings, settings_from_env


def test_defaults_and_values_are_read() -> None:
    assert settings_from_env({}) == WebSettings()
    settings = settings_from_env(
        {
            "ASAT_WEB_HOST": "0.0.0.0",
            "ASAT_WEB_PORT": "9740",
            "ASAT_RESEARCH_URL": "http://r:1/",
            "ASAT_EXTRACTION_URL": "http://x:8750/",
        }
    )
    assert (settings.host, settings.port, settings.research_url) == ("0.0.0.0", 9740, "http://r:1")
    assert settings.extraction_url == "http://x:8750" and WebSettings().extraction_url == "http://127.0.0.1:8750"


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("ASAT_WEB_PORT", "web", "use a port number from 1 to 65535"),
        ("ASAT_WEB_PORT", "99999", "use a port number from 1 to 65535"),
        ("ASAT_RESEARCH_URL", "research:8730", "use the research service's http(s) URL"),
        ("ASAT_EXTRACTION_URL", "extraction:8750", "use the extraction service's http(s) URL"),
    ],
)
def test_a_bad_value_names_the_variable_and_what_is_allowed(name: str, value: str, words: str) -> None:
    with pytest.raises(WebConfigError) as caught:
        settings_from_env({name: value})
    assert str(caught.value).startswith(f"{name}={value!r} is not allowed (") and words in str(caught.value)


def test_serve_with_a_bad_port_is_one_line_on_stderr_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ASAT_WEB_PORT", "80 80")
    assert main() == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ASAT_WEB_PORT='80 80' is not allowed") and "Traceback" not in err
