"""install.ps1, checked as text: PowerShell is not installable here (not in Debian's archive, nor
on PyPI or npm as a real engine), so it cannot be run. These tests hold it to install.sh: the
same steps, lists, keys, exit codes and commands, and balanced brackets."""

from __future__ import annotations

import re

from compose_model import DEV_COMPOSE, REPO_ROOT, load_yaml, services_of

PS1 = (REPO_ROOT / "install.ps1").read_text(encoding="utf-8")
SH = (REPO_ROOT / "install.sh").read_text(encoding="utf-8")
FUNCTIONS = (
    "Test-Docker",
    "Select-Provider",
    "Write-EnvFile",
    "Add-MissingKeys",
    "Add-Passwords",
    "Test-Corpus",
    "Wait-Healthy",
    "Show-Where",
)


def ps_list(name: str) -> set[str]:
    found = re.search(rf"^\${name} = @\(([^)]*)\)", PS1, re.M)
    assert found, f"install.ps1 defines ${name}"
    return set(re.findall(r"'([^']+)'", found.group(1)))


def sh_list(name: str) -> set[str]:
    found = re.search(rf"^{name}=\(([^)]*)\)", SH, re.M)
    assert found, f"install.sh defines {name}"
    return set(re.findall(r'"([^"]+)"', found.group(1)))


def without_strings_and_comments(text: str) -> str:
    text = re.sub(r"<#.*?#>", "", text, flags=re.S)
    text = re.sub(r"'[^'\n]*'", "''", text)
    text = re.sub(r'"(?:`.|[^"`\n])*"', '""', text)
    return re.sub(r"#[^\n]*", "", text)


def test_every_step_is_a_function_and_is_called() -> None:
    for name in FUNCTIONS:
        assert re.search(rf"^function {name}\b", PS1, re.M), f"function {name} is missing"
        assert len(re.findall(rf"\b{name}\b", PS1)) >= 2, f"{name} is never called"


def test_same_lists_as_install_sh() -> None:
    assert ps_list("OneShotServices") == sh_list("ONE_SHOT_SERVICES")
    assert ps_list("PasswordKeys") == sh_list("PASSWORD_KEYS")
    assert ps_list("Providers") == sh_list("PROVIDERS")
    compose = services_of(load_yaml(DEV_COMPOSE))
    assert ps_list("OneShotServices") == {name for name, spec in compose.items() if spec.get("restart") == "no"}


def test_same_env_keys_as_install_sh() -> None:
    ps_keys = set(re.findall(r"(?:Get-EnvValue|Set-EnvValue) '(ASAT_[A-Z0-9_]+)'", PS1))
    sh_keys = set(re.findall(r"(?:env_value|set_env_value) (ASAT_[A-Z0-9_]+)", SH))
    assert ps_keys == sh_keys
    assert ps_keys


def test_same_exit_codes_for_the_same_failures() -> None:
    def codes(text: str, call: str) -> set[int]:
        return {int(code) for code in re.findall(rf"{call} (\d)\b", text)}

    assert codes(PS1, "Stop-Install") == codes(SH, "fail") == {1, 2, 3, 4, 5, 6}
    for message in (
        "Docker is not installed",
        "Docker Compose v2 is missing",
        "failed (exit code",
        "not up after",
        "the corpus is not at",
    ):
        assert message in PS1 and message in SH, message


def test_runs_the_same_compose_commands() -> None:
    for fragment in (
        "up -d --build --remove-orphans",
        "config --services",
        "ps --all --format",
        "{{.Service}} {{.State}} {{if .Health}}{{.Health}}{{else}}-{{end}} {{.ExitCode}}",
        "compose version --short",
    ):
        assert fragment in PS1 and fragment in SH, fragment
    assert "$ComposeFileName = 'docker-compose.dev.yml'" in PS1


def test_same_prompts_and_default_provider() -> None:
    for prompt in ("API key (press Enter for fully local)", "[aggregator]", "Model id (as the provider names it)"):
        assert prompt in PS1 and prompt in SH, prompt
    assert "Provider = 'extractive'" in PS1


def test_brackets_balance_outside_strings_and_comments() -> None:
    code = without_strings_and_comments(PS1)
    for opening, closing in ("{}", "()", "[]"):
        depth = 0
        for char in code:
            depth += (char == opening) - (char == closing)
            assert depth >= 0, f"unbalanced {closing}"
        assert depth == 0, f"unbalanced {opening}{closing}"


def test_strict_mode_and_stop_on_error() -> None:
    assert "Set-StrictMode -Version" in PS1
    assert "$ErrorActionPreference = 'Stop'" in PS1
    assert re.search(r"param\(\s*\[switch\]\$Local", PS1)
