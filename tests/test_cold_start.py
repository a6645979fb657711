"""Importing the app loads no provider's SDK: a cloud deployment never pays for the local
model and a local run never for the Azure SDKs, and neither pays for any provider until the
first request builds it. Checked in a fresh interpreter, by what is loaded, not by a clock."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Each is imported only when a provider (or the OpenAPI document) is first built.
LAZY = [
    "openai",
    "httpx",
    "numpy",
    "wordllama",
    "llama_cpp",
    "sqlite3",
    "azure.search",
    "azure.cosmos",
    "azure.identity",
    "app.providers.openai_clients",
    "app.providers.sqlite_catalog",
    "app.http.openapi",
]


def loaded_after_import(env: dict[str, str]) -> list[str]:
    code = f"import function_app, json, sys; print(json.dumps([m for m in {LAZY!r} if m in sys.modules]))"
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=os.environ | {"PYTHONPATH": str(ROOT)} | env,
        capture_output=True,
        text=True,
        check=True,
    )
    return list(json.loads(out.stdout.strip().splitlines()[-1]))


def test_importing_the_app_on_the_embedded_defaults_loads_no_provider() -> None:
    assert loaded_after_import({}) == []


def test_importing_the_app_configured_for_the_cloud_loads_no_provider() -> None:
    cloud = {
        "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
        "OPENAI_CHAT_MODEL": "m",
        "AZURE_SEARCH_ENDPOINT": "https://search.example",
        "AZURE_COSMOS_ENDPOINT": "https://cosmos.example",
    }
    assert loaded_after_import(cloud) == []
