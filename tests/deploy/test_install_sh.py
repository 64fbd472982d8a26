"""install.sh, run for real against a stubbed ``docker`` (fixtures/docker_stub.sh) in a temp copy
of the files it needs. PATH holds only the stub and the few tools the script uses, so a test
can also take docker away entirely."""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from compose_model import DEV_COMPOSE, REPO_ROOT, load_yaml, services_of

STUB = Path(__file__).parent / "fixtures" / "docker_stub.sh"
TOOLS = ("bash", "cat", "chmod", "cp", "dirname", "mktemp", "mv", "od", "sed", "sleep", "tr")
UP = "compose -f docker-compose.dev.yml up -d --build --remove-orphans"
PASSWORDS = ("ASAT_POSTGRES_SUPERUSER_PASSWORD", "ASAT_DB_OWNER_PASSWORD", "ASAT_DB_APP_PASSWORD")


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str
    docker_calls: list[str]


def read_env(path: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if re.match(r"^[A-Z][A-Z0-9_]*=", line))


@pytest.fixture()
def checkout(tmp_path: Path) -> Path:
    root = tmp_path / "asat"
    root.mkdir()
    for name in ("install.sh", ".env.example", "docker-compose.dev.yml"):
        shutil.copy2(REPO_ROOT / name, root / name)
    corpus = tmp_path / "shared" / "corpus"
    corpus.mkdir(parents=True)
    (corpus / "SOURCES.json").write_text("{}\n")
    return root


def make_path(tmp_path: Path, with_docker: bool) -> str:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for tool in TOOLS:
        found = shutil.which(tool)
        assert found, f"{tool} is needed to run install.sh"
        link = bin_dir / tool
        if not link.exists():
            link.symlink_to(found)
    docker = bin_dir / "docker"
    if with_docker and not docker.exists():
        shutil.copy2(STUB, docker)
        docker.chmod(docker.stat().st_mode | stat.S_IXUSR)
    return str(bin_dir)


def run_install(
    checkout: Path, stdin: str = "", args: tuple[str, ...] = (), with_docker: bool = True, **stub: str
) -> Run:
    log = checkout.parent / "docker.log"
    compose = services_of(load_yaml(DEV_COMPOSE))
    env = {
        "PATH": make_path(checkout.parent, with_docker),
        "HOME": str(checkout.parent),
        "DOCKER_STUB_LOG": str(log),
        "DOCKER_STUB_SERVICES": " ".join(compose),
        "DOCKER_STUB_ONE_SHOTS": " ".join(n for n, s in compose.items() if s.get("restart") == "no"),
        "ASAT_INSTALL_POLL_SECONDS": "0",
        **stub,
    }
    bash = shutil.which("bash")
    assert bash
    done = subprocess.run(
        [bash, str(checkout / "install.sh"), *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=checkout.parent,
        timeout=30,
    )
    calls = log.read_text().splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    Path(f"{log}.ps").unlink(missing_ok=True)
    return Run(done.returncode, done.stdout, done.stderr, calls)


def test_enter_at_the_key_prompt_means_fully_local(checkout: Path) -> None:
    run = run_install(checkout, stdin="\n")
    assert run.code == 0, run.err
    env = read_env(checkout / ".env")
    assert env["ASAT_GENERATION_PROVIDER"] == "extractive"
    assert env["ASAT_GENERATION_API_KEY"] == ""
    assert "API key (press Enter for fully local)" in run.err
    assert UP in run.docker_calls
    assert "Research API: http://localhost:8730" in run.out
    assert "all services are up" in run.out


def test_env_file_has_every_example_key_random_passwords_and_owner_only_permissions(checkout: Path) -> None:
    assert run_install(checkout, stdin="\n").code == 0
    env = read_env(checkout / ".env")
    assert set(env) == set(read_env(checkout / ".env.example"))
    passwords = [env[key] for key in PASSWORDS]
    assert all(re.fullmatch(r"[0-9a-f]{48}", value) for value in passwords), passwords
    assert len(set(passwords)) == 3
    assert stat.S_IMODE((checkout / ".env").stat().st_mode) == 0o600


def test_an_api_key_selects_the_aggregator_with_the_given_model(checkout: Path) -> None:
    run = run_install(checkout, stdin="sk-or-v1-abc123\n\nvendor/model-x\n\n")
    assert run.code == 0, run.err
    env = read_env(checkout / ".env")
    assert env["ASAT_GENERATION_PROVIDER"] == "aggregator"
    assert env["ASAT_GENERATION_API_KEY"] == "sk-or-v1-abc123"
    assert env["ASAT_GENERATION_MODEL"] == "vendor/model-x"
    assert env["ASAT_GENERATION_BASE_URL"] == ""
    assert "sk-or-v1-abc123" not in run.out + run.err + "\n".join(run.docker_calls)


def test_openai_compatible_needs_and_keeps_a_base_url(checkout: Path) -> None:
    run = run_install(checkout, stdin="key-1\nopenai_compatible\nqwen2.5\nhttp://host.docker.internal:8000/v1\n")
    assert run.code == 0, run.err
    env = read_env(checkout / ".env")
    assert env["ASAT_GENERATION_PROVIDER"] == "openai_compatible"
    assert env["ASAT_GENERATION_BASE_URL"] == "http://host.docker.internal:8000/v1"

    (checkout / ".env").unlink()
    run = run_install(checkout, stdin="key-1\nopenai_compatible\nqwen2.5\n\n")
    assert run.code == 1
    assert "needs a base URL" in run.err
    assert not (checkout / ".env").exists()


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("sk has spaces\n", "cannot hold unquoted"),
        ("sk-1\nanthropic-ish\nm\n\n", "unknown provider 'anthropic-ish'"),
        ("sk-1\n\n\n", "a model id is needed"),
    ],
)
def test_a_bad_answer_stops_before_writing_env(checkout: Path, stdin: str, message: str) -> None:
    run = run_install(checkout, stdin=stdin)
    assert run.code == 1
    assert message in run.err
    assert not (checkout / ".env").exists()
    assert UP not in run.docker_calls


def test_second_run_keeps_env_asks_nothing_and_restarts(checkout: Path) -> None:
    assert run_install(checkout, stdin="sk-first\n\nm1\n\n").code == 0
    first = (checkout / ".env").read_bytes()
    run = run_install(checkout, stdin="sk-second\n\nm2\n\n")
    assert run.code == 0, run.err
    assert (checkout / ".env").read_bytes() == first
    assert "keeping .env" in run.out
    assert "API key" not in run.err
    assert UP in run.docker_calls


def test_update_appends_new_example_keys_without_touching_values(checkout: Path) -> None:
    assert run_install(checkout, stdin="\n").code == 0
    env_file = checkout / ".env"
    kept = [line for line in env_file.read_text().splitlines() if not line.startswith("ASAT_EMBEDDER_DIM=")]
    kept = [line.replace("ASAT_EMBEDDER=minilm", "ASAT_EMBEDDER=ollama") for line in kept]
    env_file.write_text("\n".join(kept) + "\n")
    with (checkout / ".env.example").open("a") as example:
        example.write("# a setting added by a later version\nASAT_NEW_SETTING=on\n")
    run = run_install(checkout)
    assert run.code == 0, run.err
    env = read_env(env_file)
    assert env["ASAT_EMBEDDER"] == "ollama"
    assert env["ASAT_NEW_SETTING"] == "on"
    assert env["ASAT_EMBEDDER_DIM"] == ""
    assert "added to .env (new in .env.example): ASAT_EMBEDDER_DIM ASAT_NEW_SETTING" in run.out


def test_existing_env_with_empty_passwords_gets_them_filled(checkout: Path) -> None:
    shutil.copy2(checkout / ".env.example", checkout / ".env")
    assert run_install(checkout).code == 0
    env = read_env(checkout / ".env")
    assert all(len(env[key]) == 48 for key in PASSWORDS)
    assert env["ASAT_GENERATION_PROVIDER"] == "extractive"


def test_local_flag_asks_nothing(checkout: Path) -> None:
    run = run_install(checkout, args=("--local",))
    assert run.code == 0, run.err
    assert "API key" not in run.err
    assert read_env(checkout / ".env")["ASAT_GENERATION_PROVIDER"] == "extractive"


def test_no_start_writes_env_without_docker(checkout: Path) -> None:
    run = run_install(checkout, args=("--local", "--no-start"), with_docker=False)
    assert run.code == 0, run.err
    assert (checkout / ".env").exists()


def test_missing_docker_says_what_to_install_and_fails(checkout: Path) -> None:
    run = run_install(checkout, stdin="\n", with_docker=False)
    assert run.code == 2
    assert "Docker is not installed" in run.err
    assert "docs.docker.com/engine/install" in run.err
    assert "Docker Desktop" in run.err
    assert not (checkout / ".env").exists()


def test_missing_compose_v2_says_how_to_get_it(checkout: Path) -> None:
    run = run_install(checkout, stdin="\n", DOCKER_STUB_NO_COMPOSE="1")
    assert run.code == 3
    assert "Docker Compose v2 is missing" in run.err
    assert "docker-compose-plugin" in run.err
    assert not (checkout / ".env").exists()


def test_compose_v1_is_refused(checkout: Path) -> None:
    run = run_install(checkout, stdin="\n", DOCKER_STUB_COMPOSE_VERSION="1.29.2")
    assert run.code == 3
    assert "says 1.29.2" in run.err


def test_unreachable_daemon_says_how_to_start_it(checkout: Path) -> None:
    run = run_install(checkout, stdin="\n", DOCKER_STUB_NO_DAEMON="1")
    assert run.code == 4
    assert "daemon is not reachable" in run.err
    assert "systemctl start docker" in run.err


def test_a_missing_corpus_stops_before_starting_anything(checkout: Path) -> None:
    shutil.rmtree(checkout.parent / "shared")
    run = run_install(checkout, stdin="\n")
    assert run.code == 6
    assert "the corpus is not at '../shared/corpus'" in run.err
    assert "ASAT_CORPUS_HOST_DIR" in run.err
    assert UP not in run.docker_calls


def test_the_corpus_folder_can_be_set_in_env(checkout: Path) -> None:
    moved = checkout.parent / "elsewhere"
    (checkout.parent / "shared" / "corpus").rename(moved)
    assert run_install(checkout, stdin="\n").code == 6
    env_file = checkout / ".env"
    env_file.write_text(env_file.read_text().replace("ASAT_CORPUS_HOST_DIR=\n", f"ASAT_CORPUS_HOST_DIR={moved}\n"))
    run = run_install(checkout)
    assert run.code == 0, run.err
    assert UP in run.docker_calls


def test_a_failed_one_shot_job_stops_the_wait_with_its_logs_command(checkout: Path) -> None:
    run = run_install(checkout, stdin="\n", DOCKER_STUB_FAIL_SERVICE="ingest-build")
    assert run.code == 5
    assert "ingest-build failed (exit code 1)" in run.err
    assert "docker compose -f docker-compose.dev.yml logs ingest-build" in run.err


def test_a_service_never_healthy_times_out_naming_it(checkout: Path) -> None:
    run = run_install(
        checkout,
        stdin="\n",
        DOCKER_STUB_NEVER_HEALTHY="research",
        # Bash's SECONDS counts whole seconds: a 1 s deadline can fall before the second poll on a
        # busy machine, when the other services still read as starting. 3 s leaves room for it.
        ASAT_INSTALL_TIMEOUT="3",
        ASAT_INSTALL_POLL_SECONDS="0.3",
    )
    assert run.code == 5
    assert "error: not up after 3s: research (running, starting)\n" in run.err
    assert "ASAT_INSTALL_TIMEOUT=1800 ./install.sh waits longer" in run.err


def test_waits_through_starting_services_until_healthy(checkout: Path) -> None:
    run = run_install(checkout, stdin="\n")
    assert run.code == 0
    assert "waiting: " in run.out
    assert sum("ps" in call.split() for call in run.docker_calls) == 2


def test_prints_the_web_address_once_a_web_service_exists(checkout: Path) -> None:
    services = " ".join([*services_of(load_yaml(DEV_COMPOSE)), "web"])
    run = run_install(checkout, stdin="\n", DOCKER_STUB_SERVICES=services)
    assert run.code == 0, run.err
    assert "open http://localhost:8740" in run.out


def test_one_shot_list_matches_the_compose_file() -> None:
    text = (REPO_ROOT / "install.sh").read_text()
    listed = re.search(r"^ONE_SHOT_SERVICES=\(([^)]*)\)", text, re.M)
    assert listed
    compose = services_of(load_yaml(DEV_COMPOSE))
    assert set(re.findall(r'"([^"]+)"', listed.group(1))) == {n for n, s in compose.items() if s.get("restart") == "no"}


def test_unknown_option_is_refused(checkout: Path) -> None:
    run = run_install(checkout, args=("--frobnicate",))
    assert run.code == 1
    assert "unknown option '--frobnicate'" in run.err


@pytest.mark.parametrize("script", [REPO_ROOT / "install.sh", STUB], ids=["install.sh", "docker_stub.sh"])
def test_shellcheck_clean(script: Path) -> None:
    shellcheck = shutil.which("shellcheck")
    if shellcheck is None:
        if os.environ.get("CI"):
            pytest.fail("shellcheck is not installed: apt-get install -y shellcheck")
        pytest.skip("shellcheck is not installed (apt-get install -y shellcheck)")
    done = subprocess.run([shellcheck, "--severity=style", str(script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout
