"""Fixtures for the deployment tests. The helpers live in compose_model.py beside this file;
this directory is put on sys.path so the test modules can import it (pytest runs with
--import-mode=importlib, which does not)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from compose_model import CLUSTER_COMPOSE, DEV_COMPOSE, load_yaml, merge_override


@pytest.fixture(scope="session")
def dev_compose() -> dict[str, Any]:
    return load_yaml(DEV_COMPOSE)


@pytest.fixture(scope="session")
def cluster_override() -> dict[str, Any]:
    return load_yaml(CLUSTER_COMPOSE)


@pytest.fixture(scope="session")
def cluster_compose(dev_compose: dict[str, Any], cluster_override: dict[str, Any]) -> dict[str, Any]:
    return merge_override(dev_compose, cluster_override)
