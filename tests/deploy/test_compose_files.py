"""Static checks of docker-compose.dev.yml and docker-compose.cluster.yml (no engine runs here).

The files are validated against the Compose Specification JSON schema (vendored from a PyPI
wheel, see fixtures/compose_spec.SOURCE.md), then against the rules the deployment relies on:
dependencies exist and wait on the right conditions, every long-running service is
health-checked, Qdrant keeps no volume, images are pinned, no secret is written in the file.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from compose_model import (
    CLUSTER_COMPOSE,
    DEV_COMPOSE,
    REPO_ROOT,
    depends_on_targets,
    load_yaml,
    merge_override,
    services_of,
)

SCHEMA_PATH = Path(__file__).parent / "fixtures" / "compose_spec.json"
PINNED_TAG = re.compile(r"^[\w./-]+:v?\d+\.\d+(\.\d+)?([-.][\w.]+)?$")
SECRET_KEY = re.compile(r"(PASSWORD|API_KEY|SECRET|TOKEN)")
ONE_SHOTS = {"audit-migrate", "audit-keygen", "ingest-build", "extraction-migrate", "accounts-migrate"}
SIGNING_KEY = "ASAT_AUDIT_SIGNING_KEY_FILE"


def one_shots(compose: dict[str, Any]) -> set[str]:
    return {name for name, spec in services_of(compose).items() if spec.get("restart") == "no"}


def long_running(compose: dict[str, Any]) -> set[str]:
    return set(services_of(compose)) - one_shots(compose)


def environment(service: dict[str, Any]) -> dict[str, str]:
    raw = service.get("environment") or {}
    if isinstance(raw, list):
        return dict(item.split("=", 1) if "=" in item else (item, "") for item in raw)
    return {key: "" if value is None else str(value) for key, value in raw.items()}


def split_volume(entry: str) -> tuple[str, str, str]:
    """(source, target, mode) of a short-syntax volume entry; a ``${VAR:-default}`` source
    keeps its colons."""
    placeholders = re.findall(r"\$\{[^}]*\}", entry)
    masked = entry
    for index, token in enumerate(placeholders):
        masked = masked.replace(token, f"\0{index}\0", 1)
    parts = masked.split(":")
    for index, token in enumerate(placeholders):
        parts = [part.replace(f"\0{index}\0", token) for part in parts]
    source, target, *mode = parts
    return source, target, mode[0] if mode else "rw"


def volume_mounts(service: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(source, target, mode) of each volume entry, short or long syntax."""
    mounts = []
    for entry in service.get("volumes") or []:
        if isinstance(entry, str):
            mounts.append(split_volume(entry))
        else:
            mode = "ro" if entry.get("read_only") else "rw"
            mounts.append((entry.get("source", ""), entry["target"], mode))
    return mounts


def test_split_volume_keeps_interpolated_defaults() -> None:
    assert split_volume("${DIR:-../a:b}:/corpus:ro") == ("${DIR:-../a:b}", "/corpus", "ro")
    assert split_volume("cache:/var/cache") == ("cache", "/var/cache", "rw")


@pytest.fixture(scope="module")
def validator() -> Any:
    return jsonschema_rs.validator_for(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


@pytest.mark.parametrize("path", [DEV_COMPOSE, CLUSTER_COMPOSE], ids=lambda p: p.name)
def test_compose_file_is_valid_against_the_compose_spec_schema(validator: Any, path: Path) -> None:
    errors = [f"{'/'.join(map(str, e.instance_path))}: {e.message}" for e in validator.iter_errors(load_yaml(path))]
    assert errors == []


def test_merged_cluster_composition_is_valid_against_the_schema(
    validator: Any, cluster_compose: dict[str, Any]
) -> None:
    assert list(validator.iter_errors(cluster_compose)) == []


def test_schema_rejects_an_unknown_depends_on_condition(validator: Any, dev_compose: dict[str, Any]) -> None:
    broken = merge_override(dev_compose, {"services": {"research": {"depends_on": {"ingest": {"condition": "ready"}}}}})
    assert not validator.is_valid(broken)


@pytest.mark.parametrize("which", ["dev", "cluster"])
def test_every_depends_on_target_exists(
    which: str, dev_compose: dict[str, Any], cluster_compose: dict[str, Any]
) -> None:
    compose = dev_compose if which == "dev" else cluster_compose
    services = services_of(compose)
    missing = {
        (name, target)
        for name, spec in services.items()
        for target in depends_on_targets(spec)
        if target not in services
    }
    assert missing == set()


@pytest.mark.parametrize("which", ["dev", "cluster"])
def test_dependencies_have_no_cycle(which: str, dev_compose: dict[str, Any], cluster_compose: dict[str, Any]) -> None:
    services = services_of(dev_compose if which == "dev" else cluster_compose)
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"dependency cycle: {' -> '.join((*path, name))}"
        if name not in done:
            for target in depends_on_targets(services[name]):
                visit(target, (*path, name))
            done.add(name)

    for name in services:
        visit(name, ())


@pytest.mark.parametrize("which", ["dev", "cluster"])
def test_every_long_running_service_has_a_health_check(
    which: str, dev_compose: dict[str, Any], cluster_compose: dict[str, Any]
) -> None:
    compose = dev_compose if which == "dev" else cluster_compose
    unchecked = {
        name for name in long_running(compose) if not (services_of(compose)[name].get("healthcheck") or {}).get("test")
    }
    assert unchecked == set()


@pytest.mark.parametrize("which", ["dev", "cluster"])
def test_conditions_match_what_the_target_can_report(
    which: str, dev_compose: dict[str, Any], cluster_compose: dict[str, Any]
) -> None:
    compose = dev_compose if which == "dev" else cluster_compose
    shots = one_shots(compose)
    for name, spec in services_of(compose).items():
        for target, condition in depends_on_targets(spec).items():
            if condition == "service_completed_successfully":
                assert target in shots, f"{name} waits for {target} to complete, but {target} keeps running"
            else:
                assert condition == "service_healthy", f"{name} -> {target}: wait for health, not mere start"
                assert target not in shots, f"{name} waits for one-shot {target} to be healthy"


def test_one_shot_jobs_are_the_audit_migration_the_audit_key_and_the_index_build(
    dev_compose: dict[str, Any],
) -> None:
    assert one_shots(dev_compose) == ONE_SHOTS
    build = services_of(dev_compose)["ingest-build"]
    assert build["command"] == ["python", "-m", "asat_ingest", "build"]


def test_extraction_migrates_as_the_owner_and_serves_as_the_app_role(dev_compose: dict[str, Any]) -> None:
    services = services_of(dev_compose)
    migrate, extraction = services["extraction-migrate"], services["extraction"]
    assert migrate["command"] == ["python", "-m", "asat_extraction", "migrate", "--app-role", "asat_app"]
    assert environment(migrate)["ASAT_EXTRACTION_MIGRATE_URL"].startswith("postgresql://asat_owner:")
    assert depends_on_targets(extraction)["extraction-migrate"] == "service_completed_successfully"
    serving = environment(extraction)
    assert serving["ASAT_EXTRACTION_DATABASE_URL"].startswith("postgresql://asat_app:")
    assert not any("asat_owner" in str(value) for value in serving.values())


def test_research_serves_only_after_the_index_is_built_and_its_dependencies_are_healthy(
    dev_compose: dict[str, Any],
) -> None:
    deps = depends_on_targets(services_of(dev_compose)["research"])
    assert deps["ingest-build"] == "service_completed_successfully"
    assert deps["audit-migrate"] == "service_completed_successfully"
    for target in ("qdrant", "postgres", "verifier", "ingest"):
        assert deps[target] == "service_healthy"
    ingest = depends_on_targets(services_of(dev_compose)["ingest"])
    assert ingest["ingest-build"] == "service_completed_successfully"


def mounts_of(service: dict[str, Any], volume: str) -> list[tuple[str, str]]:
    """(target, mode) of each mount of the named ``volume`` in ``service``."""
    return [(target, mode) for source, target, mode in volume_mounts(service) if source == volume]


def under(path: str, directory: str) -> bool:
    return path.startswith(directory.rstrip("/") + "/")


@pytest.mark.parametrize("which", ["dev", "cluster"])
def test_only_the_checkpointer_holds_the_audit_signing_key(
    which: str, dev_compose: dict[str, Any], cluster_compose: dict[str, Any]
) -> None:
    services = services_of(dev_compose if which == "dev" else cluster_compose)
    assert "audit-keys" in (dev_compose.get("volumes") or {})
    holders = {name for name, spec in services.items() if mounts_of(spec, "audit-keys")}
    assert holders == {"audit-keygen", "checkpointer"}
    given = {name for name, spec in services.items() if SIGNING_KEY in environment(spec)}
    assert given == {"checkpointer"}
    key = environment(services["checkpointer"])[SIGNING_KEY]
    [(keys_dir, mode)] = mounts_of(services["checkpointer"], "audit-keys")
    assert under(key, keys_dir), f"the checkpointer's key {key} is not on the audit-keys volume"
    assert mode == "ro", "the checkpointer only reads the key"
    [(_, keygen_mode)] = mounts_of(services["audit-keygen"], "audit-keys")
    assert keygen_mode == "rw"
    assert keys_dir in " ".join(services["audit-keygen"]["command"]), "keygen writes the key the checkpointer reads"
    # Nothing else reaches the key: no other service mounts any volume or path holding it.
    for name, spec in services.items():
        if name not in holders:
            assert not any(under(key, target) or target == keys_dir for _, target, _ in volume_mounts(spec)), name


def test_research_checks_the_checkpoints_read_only_with_the_public_key(dev_compose: dict[str, Any]) -> None:
    services = services_of(dev_compose)
    research, checkpointer = environment(services["research"]), environment(services["checkpointer"])
    assert research["ASAT_AUDIT_CHECKPOINT_FILE"] == checkpointer["ASAT_AUDIT_CHECKPOINT_FILE"]
    public_key = research["ASAT_AUDIT_PUBLIC_KEY_FILE"]
    assert public_key.endswith(".pub")
    [(anchor_dir, mode)] = mounts_of(services["research"], "audit-anchor")
    assert mode == "ro"
    assert under(research["ASAT_AUDIT_CHECKPOINT_FILE"], anchor_dir) and under(public_key, anchor_dir)
    [(written_dir, written_mode)] = mounts_of(services["checkpointer"], "audit-anchor")
    assert written_mode == "rw" and under(checkpointer["ASAT_AUDIT_CHECKPOINT_FILE"], written_dir)
    # audit-keygen copies the public half to exactly where research reads it.
    [(keygen_dir, _)] = mounts_of(services["audit-keygen"], "audit-anchor")
    copied = public_key.replace(anchor_dir.rstrip("/"), keygen_dir.rstrip("/"), 1)
    assert copied in " ".join(services["audit-keygen"]["command"])
    assert "audit-anchor" in (dev_compose.get("volumes") or {})


def test_the_checkpointer_starts_after_the_migration_and_the_key(dev_compose: dict[str, Any]) -> None:
    services = services_of(dev_compose)
    checkpointer = services["checkpointer"]
    deps = depends_on_targets(checkpointer)
    assert deps["audit-migrate"] == deps["audit-keygen"] == "service_completed_successfully"
    assert deps["postgres"] == "service_healthy"
    assert depends_on_targets(services["research"])["audit-keygen"] == "service_completed_successfully"
    command = checkpointer["command"]
    assert command[:4] == ["python", "-m", "asat_audit", "checkpointer"]
    assert command[command.index("--every-rows") + 1] == "${ASAT_AUDIT_CHECKPOINT_EVERY_ROWS:-100}"
    assert command[command.index("--every-seconds") + 1] == "${ASAT_AUDIT_CHECKPOINT_EVERY_SECONDS:-300}"
    # The app role: it reads rows and adds checkpoints; it can change no row.
    assert environment(checkpointer)["ASAT_DATABASE_URL"].startswith("postgresql://asat_app:")
    assert checkpointer["image"] == services["research"]["image"]  # the research image carries asat_audit


@pytest.mark.parametrize("which", ["dev", "cluster"])
def test_qdrant_keeps_no_volume(which: str, dev_compose: dict[str, Any], cluster_compose: dict[str, Any]) -> None:
    compose = dev_compose if which == "dev" else cluster_compose
    for name, spec in services_of(compose).items():
        if str(spec.get("image", "")).startswith("qdrant/"):
            assert not spec.get("volumes"), f"{name}: the index is rebuilt from the corpus; no storage volume"
        assert all(target != "/qdrant/storage" for _, target, _ in volume_mounts(spec))
    assert not any("qdrant" in volume for volume in compose.get("volumes") or {})


def test_vector_cache_is_a_named_volume_shared_by_the_build_and_the_service(dev_compose: dict[str, Any]) -> None:
    named = set(dev_compose.get("volumes") or {})
    for name in ("ingest-build", "ingest"):
        spec = services_of(dev_compose)[name]
        cache_dir = environment(spec)["ASAT_VECTOR_CACHE_DIR"]
        holders = [
            source for source, target, _ in volume_mounts(spec) if cache_dir.startswith(target.rstrip("/") + "/")
        ]
        assert holders and holders[0] in named, f"{name}: {cache_dir} is not on a named volume"


def test_corpus_is_mounted_read_only(dev_compose: dict[str, Any]) -> None:
    for name in ("ingest-build", "ingest", "research"):
        spec = services_of(dev_compose)[name]
        corpus_dir = environment(spec)["ASAT_CORPUS_DIR"]
        mounts = [entry for entry in spec["volumes"] if isinstance(entry, dict) and entry["target"] == corpus_dir]
        assert len(mounts) == 1, f"{name}: mount the corpus at {corpus_dir} with the long syntax"
        assert mounts[0]["type"] == "bind"
        assert mounts[0]["read_only"] is True, f"{name}: mount the corpus read-only"


@pytest.mark.parametrize("path", [DEV_COMPOSE, CLUSTER_COMPOSE], ids=lambda p: p.name)
def test_images_are_pinned(path: Path, dev_compose: dict[str, Any]) -> None:
    built = {spec["image"] for spec in services_of(dev_compose).values() if "build" in spec}
    for name, spec in services_of(load_yaml(path)).items():
        image = spec.get("image")
        if image is None:
            assert path == CLUSTER_COMPOSE, f"{name} has no image"
            continue
        if image in built:
            continue
        assert PINNED_TAG.match(image), f"{name}: pin {image!r} to an exact version tag"
        assert not image.endswith(":latest")


def test_images_built_here_come_from_a_service_dockerfile(dev_compose: dict[str, Any]) -> None:
    images = set()
    for name, spec in services_of(dev_compose).items():
        if "build" in spec:
            assert spec["build"]["context"] == ".", f"{name}: build from the repository root"
            assert (REPO_ROOT / spec["build"]["dockerfile"]).is_file()
            images.add(spec["image"])
    used = {spec["image"] for spec in services_of(dev_compose).values() if spec.get("image", "").startswith("asat-")}
    assert used == images, "every asat-* image a service runs is built by some service"


def test_bind_mounted_files_exist(dev_compose: dict[str, Any]) -> None:
    for spec in services_of(dev_compose).values():
        for source, _, _ in volume_mounts(spec):
            if source.startswith("./"):
                assert (REPO_ROOT / source).exists(), source


@pytest.mark.parametrize("path", [DEV_COMPOSE, CLUSTER_COMPOSE], ids=lambda p: p.name)
def test_no_secret_is_written_in_a_compose_file(path: Path) -> None:
    for name, spec in services_of(load_yaml(path)).items():
        for key, value in environment(spec).items():
            if SECRET_KEY.search(key) or re.search(r"://[^/@]*:[^/@]+@", value):
                assert "${" in value, f"{name}.{key}: take the value from .env (${{...}}), never a literal"


def test_database_roles_in_urls_are_created_by_the_init_script(dev_compose: dict[str, Any]) -> None:
    init_sql = (REPO_ROOT / "deploy" / "postgres" / "init.sql").read_text(encoding="utf-8")
    roles = set()
    for spec in services_of(dev_compose).values():
        for value in environment(spec).values():
            roles.update(re.findall(r"postgresql://(\w+):", value))
    assert roles == {"asat_owner", "asat_app"}
    for role in roles:
        assert re.search(rf"CREATE ROLE {role} LOGIN", init_sql)
    assert re.search(r"CREATE ROLE asat_app .*NOSUPERUSER.*NOBYPASSRLS", init_sql, re.S)


def test_published_ports_listen_on_loopback_by_default(dev_compose: dict[str, Any]) -> None:
    published = [port for spec in services_of(dev_compose).values() for port in spec.get("ports") or []]
    assert published, "the research API is published"
    assert all(str(port).startswith("${ASAT_BIND_ADDRESS:-127.0.0.1}:") for port in published)


def test_cluster_runs_three_qdrant_peers_with_one_bootstrap(cluster_compose: dict[str, Any]) -> None:
    services = services_of(cluster_compose)
    peers = {name: spec for name, spec in services.items() if str(spec.get("image", "")).startswith("qdrant/")}
    assert len(peers) == 3
    for spec in peers.values():
        assert environment(spec)["QDRANT__CLUSTER__ENABLED"] == "true"
    bootstraps = [spec["command"] for spec in peers.values() if "--bootstrap" in spec["command"]]
    assert len(bootstraps) == 2
    first_uri = services["qdrant"]["command"][services["qdrant"]["command"].index("--uri") + 1]
    assert all(command[command.index("--bootstrap") + 1] == first_uri for command in bootstraps)
    build_deps = depends_on_targets(services["ingest-build"])
    assert all(build_deps.get(name) == "service_healthy" for name in peers)


def test_cluster_shards_and_replicates_behind_the_same_adapter(
    dev_compose: dict[str, Any], cluster_compose: dict[str, Any]
) -> None:
    build_env = environment(services_of(cluster_compose)["ingest-build"])
    assert build_env["ASAT_QDRANT_SHARDS"] == "${ASAT_QDRANT_SHARDS:-6}"
    assert build_env["ASAT_QDRANT_REPLICAS"] == "${ASAT_QDRANT_REPLICAS:-2}"
    for name in ("ingest-build", "ingest"):
        dev_env = environment(services_of(dev_compose)[name])
        cluster_env = environment(services_of(cluster_compose)[name])
        assert cluster_env["ASAT_INDEX"] == dev_env["ASAT_INDEX"] == "qdrant"
        assert cluster_env["ASAT_QDRANT_URL"] == dev_env["ASAT_QDRANT_URL"]
