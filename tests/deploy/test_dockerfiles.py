"""Static checks of services/*/Dockerfile and .dockerignore: pinned slim base, non-root user,
health check without curl, the domain package installed first, no pip cache, a context that
carries no secrets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from compose_model import DEV_COMPOSE, REPO_ROOT, SERVICE_DOCKERFILES, load_yaml, services_of

PINNED_PYTHON = re.compile(r"^python:3\.11\.\d+-slim-(bookworm|trixie)$")
PORTS = {"verifier": 8710, "ingest": 8720, "research": 8730, "web": 8740, "extraction": 8750}
# Built by `make models` and committed; the images that serve them copy them in.
SHIPPED_MODELS = ("models/relevance", "models/premise", "models/static-minilm", "models/static-corpus")


def instructions(path: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    joined = re.sub(r"\\\n", " ", path.read_text(encoding="utf-8"))
    result = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            result.append((keyword.upper(), rest.strip()))
    return result


def final_stage(path: Path) -> list[tuple[str, str]]:
    steps = instructions(path)
    last_from = max(index for index, (keyword, _) in enumerate(steps) if keyword == "FROM")
    return steps[last_from:]


@pytest.fixture(params=sorted(SERVICE_DOCKERFILES), ids=str)
def service(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


def test_every_service_has_a_dockerfile_and_the_libraries_none() -> None:
    assert all(path.is_file() for path in SERVICE_DOCKERFILES.values())
    for library in ("corpus", "audit"):
        assert not (REPO_ROOT / "services" / library / "Dockerfile").exists(), library


def test_research_installs_the_audit_library_it_depends_on() -> None:
    steps = instructions(SERVICE_DOCKERFILES["research"])
    copied = {args.split()[0] for keyword, args in steps if keyword == "COPY" and "--from" not in args}
    assert {"services/audit/pyproject.toml", "services/audit/src"} <= copied
    installs = [args for keyword, args in steps if keyword == "RUN" and "pip install" in args]
    assert any("asat_audit-" in args and args.find("asat_audit-") < args.find("asat_research-") for args in installs)


def test_base_image_is_an_exact_slim_python_3_11(service: str) -> None:
    bases = [args.split()[0] for keyword, args in instructions(SERVICE_DOCKERFILES[service]) if keyword == "FROM"]
    assert bases
    assert all(PINNED_PYTHON.match(base) for base in bases), bases


def test_every_service_uses_the_same_base() -> None:
    bases = {
        args.split()[0]
        for path in SERVICE_DOCKERFILES.values()
        for keyword, args in instructions(path)
        if keyword == "FROM"
    }
    assert len(bases) == 1, bases


def test_runs_as_a_non_root_user(service: str) -> None:
    users = [args for keyword, args in final_stage(SERVICE_DOCKERFILES[service]) if keyword == "USER"]
    assert users, "the final stage sets USER"
    user = users[-1].split(":")[0]
    assert user not in {"root", "0"}
    steps = final_stage(SERVICE_DOCKERFILES[service])
    user_at = max(i for i, (keyword, _) in enumerate(steps) if keyword == "USER")
    assert not any(keyword == "RUN" for keyword, _ in steps[user_at:]), "nothing runs as root after USER"


def test_health_check_uses_python_on_the_service_port(service: str) -> None:
    checks = [args for keyword, args in final_stage(SERVICE_DOCKERFILES[service]) if keyword == "HEALTHCHECK"]
    assert len(checks) == 1
    assert '"python"' in checks[0] and "/healthz" in checks[0]
    assert not re.search(r"\b(curl|wget)\b", checks[0])
    assert str(PORTS[service]) in checks[0]
    exposed = [args for keyword, args in final_stage(SERVICE_DOCKERFILES[service]) if keyword == "EXPOSE"]
    assert exposed == [str(PORTS[service])]


def test_compose_health_check_probes_the_exposed_port(service: str) -> None:
    compose = services_of(load_yaml(DEV_COMPOSE))
    check = " ".join(compose[service]["healthcheck"]["test"])
    assert f"127.0.0.1:{PORTS[service]}/healthz" in check


def test_corpus_package_is_installed_before_the_service(service: str) -> None:
    for keyword, args in instructions(SERVICE_DOCKERFILES[service]):
        if keyword == "RUN" and "pip " in args:
            assert "--no-cache-dir" in args, args
            corpus_at, service_at = args.find("corpus"), args.find(service)
            assert 0 <= corpus_at < service_at, args


def test_copied_sources_exist_and_are_only_pyproject_and_src(service: str) -> None:
    for keyword, args in instructions(SERVICE_DOCKERFILES[service]):
        if keyword == "COPY" and "--from" not in args:
            source = args.split()[0]
            assert (REPO_ROOT / source).exists(), source
            # Package sources, and the trained models that ship with the repository.
            assert source.endswith(("pyproject.toml", "/src")) or source in SHIPPED_MODELS, source


@pytest.mark.parametrize(
    ("service", "model", "variable"),
    [
        ("research", "models/relevance", "ASAT_RERANKER_MODEL_DIR"),
        ("research", "models/premise", "ASAT_PREMISE_MODEL_DIR"),
        ("ingest", "models/static-minilm", "ASAT_STATIC_EMBEDDER_DIR"),
        ("ingest", "models/static-corpus", "ASAT_STATIC_CORPUS_DIR"),
    ],
)
def test_each_shipped_model_is_copied_where_its_variable_points(service: str, model: str, variable: str) -> None:
    """An image without the model (or with the variable pointing elsewhere) would refuse the
    setting that selects it (ASAT_EMBEDDER=static-corpus, say) only when a container starts."""
    final = final_stage(SERVICE_DOCKERFILES[service])
    copies = {args.split()[0]: args.split()[1] for keyword, args in final if keyword == "COPY" and "--from" not in args}
    assert model in copies, f"{service}'s image does not copy {model}"
    env = " ".join(args for keyword, args in final if keyword == "ENV")
    assert re.search(rf"{variable}={re.escape(copies[model])}(\s|$)", env), (variable, copies[model])


def test_the_research_image_prepares_the_audit_volumes_for_its_user() -> None:
    """A named volume starts as a copy of the image's directory: each one the research image's
    jobs mount (audit-keygen, the checkpointer, research) must exist there, owned by the service
    user, the signing key's directory closed to everyone else."""
    compose = services_of(load_yaml(DEV_COMPOSE))
    targets = set()
    for name in ("audit-keygen", "checkpointer", "research"):
        for entry in compose[name].get("volumes") or []:
            if isinstance(entry, str) and entry.split(":")[0].startswith("audit-"):
                targets.add(entry.split(":")[1])
    assert targets == {"/var/lib/asat/audit-keys", "/var/lib/asat/audit"}
    runs = " ".join(args for keyword, args in final_stage(SERVICE_DOCKERFILES["research"]) if keyword == "RUN")
    for target in targets:
        assert re.search(rf"mkdir -p [^&]*{re.escape(target)}(\s|$)", runs), target
    assert "chown -R 10001:10001 /var/lib/asat" in runs
    assert "chmod 700 /var/lib/asat/audit-keys" in runs


def test_dockerignore_allows_only_package_sources() -> None:
    lines = [
        line.strip()
        for line in (REPO_ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert lines[0] == "*", "ignore everything, then allow what the images need"
    allowed = {line[1:] for line in lines if line.startswith("!")}
    assert allowed == {"services/*/pyproject.toml", "services/*/src", *SHIPPED_MODELS}
