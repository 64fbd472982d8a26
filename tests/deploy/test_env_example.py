""".env.example documents exactly the variables the compose files read, and no secret has a
value in it. (Matching it against what the services' code accepts is the lead's check.)"""

from __future__ import annotations

import re
from pathlib import Path

from compose_model import CLUSTER_COMPOSE, DEV_COMPOSE, REPO_ROOT

EXAMPLE = REPO_ROOT / ".env.example"
INTERPOLATION = re.compile(r"\$\{([A-Z][A-Z0-9_]*)(?::?[-?+][^}]*)?\}")


def example_keys() -> dict[str, str]:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    return dict(line.split("=", 1) for line in lines if re.match(r"^[A-Z][A-Z0-9_]*=", line))


def compose_variables(path: Path) -> set[str]:
    """Variables interpolated in the file's YAML (comments excluded; ``$$`` is a literal ``$``)."""
    text = "\n".join(
        line for line in path.read_text(encoding="utf-8").splitlines() if not line.lstrip().startswith("#")
    )
    return set(INTERPOLATION.findall(text.replace("$$", "")))


def test_every_variable_a_compose_file_reads_is_documented() -> None:
    used = compose_variables(DEV_COMPOSE) | compose_variables(CLUSTER_COMPOSE)
    assert used - set(example_keys()) == set()


def test_every_documented_variable_is_read_by_a_compose_file() -> None:
    used = compose_variables(DEV_COMPOSE) | compose_variables(CLUSTER_COMPOSE)
    assert set(example_keys()) - used == set()


def test_every_documented_variable_has_a_comment_above_it() -> None:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    for index, line in enumerate(lines):
        if re.match(r"^[A-Z][A-Z0-9_]*=", line):
            assert lines[index - 1].startswith("#"), f"{line}: say what it is and its default on the line above"


def test_no_secret_has_a_value_in_the_example() -> None:
    secrets = {key: value for key, value in example_keys().items() if re.search(r"PASSWORD|API_KEY|SECRET|TOKEN", key)}
    assert secrets, "the example names the secrets it needs"
    assert all(value == "" for value in secrets.values()), secrets


def test_install_sh_reads_and_writes_only_documented_keys() -> None:
    script = (REPO_ROOT / "install.sh").read_text(encoding="utf-8")
    named = set(re.findall(r"(?:env_value|set_env_value) (ASAT_[A-Z0-9_]+)", script))
    named |= set(re.findall(r'"(ASAT_[A-Z0-9_]+_PASSWORD)"', script))
    assert named, "install.sh names the keys it touches"
    assert named - set(example_keys()) <= {"ASAT_WEB_HOST_PORT"}, "ASAT_WEB_HOST_PORT joins once web exists"


def test_env_is_ignored_by_git() -> None:
    ignored = (REPO_ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert ".env" in ignored
