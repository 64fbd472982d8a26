"""The deployment files as data: paths, the parsed compose files, and the parts of Compose's
rules the tests need (depends_on forms, override merging). Nothing here talks to a Docker engine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
DEV_COMPOSE = REPO_ROOT / "docker-compose.dev.yml"
CLUSTER_COMPOSE = REPO_ROOT / "docker-compose.cluster.yml"
SERVICE_DOCKERFILES = {
    name: REPO_ROOT / "services" / name / "Dockerfile" for name in ("verifier", "ingest", "research", "web")
}


def load_yaml(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{path.name} is not a YAML mapping"
    return data


def services_of(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    services = compose.get("services")
    assert isinstance(services, dict), "a compose file needs a services mapping"
    return services


def depends_on_targets(service: dict[str, Any]) -> dict[str, str]:
    """``depends_on`` as {target: condition}; the short list form means service_started."""
    raw = service.get("depends_on") or {}
    if isinstance(raw, list):
        return dict.fromkeys(raw, "service_started")
    return {target: spec.get("condition", "service_started") for target, spec in raw.items()}


def merge_override(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """The parts of Compose's merge these tests look at: services are merged key by key, with
    mappings (environment, depends_on, healthcheck) merged and anything else replaced."""
    merged = {**base, "services": {name: dict(spec) for name, spec in services_of(base).items()}}
    for name, spec in services_of(override).items():
        target = merged["services"].setdefault(name, {})
        for key, value in spec.items():
            if isinstance(value, dict) and isinstance(target.get(key), dict):
                target[key] = {**target[key], **value}
            else:
                target[key] = value
    return merged
