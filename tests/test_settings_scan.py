"""The documented-settings check itself: it scans every service's src (and scripts/), reads
``.env.example`` and docs/, and reports a setting that is read but documented nowhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from . import test_settings_documented as documented


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_setting_read_in_any_service_and_documented_nowhere_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _tree(
        tmp_path,
        {
            "services/brand_new/src/asat_brand_new/deep/composition.py": 'env.get("ASAT_BRAND_NEW_PORT")\n',
            "services/corpus/src/asat_corpus/x.py": 'os.environ["ASAT_CORPUS_DIR"]\n',
            "scripts/bench.py": "ASAT_BENCH_RUNS = os.environ.get('ASAT_BENCH_RUNS')\n",
            ".env.example": "ASAT_CORPUS_DIR=\n",
            "docs/running.md": "| `ASAT_BENCH_RUNS` | runs | 50 |\n",
        },
    )
    monkeypatch.setattr(documented, "REPO_ROOT", tmp_path)
    assert documented.code_settings() == {"ASAT_BRAND_NEW_PORT", "ASAT_CORPUS_DIR", "ASAT_BENCH_RUNS"}
    assert documented.code_settings() - documented.documented_settings() == {"ASAT_BRAND_NEW_PORT"}
    with pytest.raises(AssertionError, match="ASAT_BRAND_NEW_PORT"):
        documented.test_every_setting_read_by_the_code_is_documented()
    _tree(tmp_path, {"docs/brand_new.md": "`ASAT_BRAND_NEW_PORT`: the port.\n"})
    documented.test_every_setting_read_by_the_code_is_documented()
