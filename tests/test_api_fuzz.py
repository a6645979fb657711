"""Schemathesis against the app's own OpenAPI document: generated requests to every documented
operation, valid and invalid, must never get a 5xx, and every response must match the
document (status, content type, body schema, the x-request-id header), in bounded time.

The app runs in process (the Starlette app the local host mounts) on a scratch embedded
store loaded with the shipped catalog, so the indexing and delete endpoints write to a
store no other test reads, with a model that answers anything instantly. The run is
deterministic (derandomized, no example database) and bounded: FUZZ_EXAMPLES cases per
operation and mode, 150 by default (CI: 300 per operation that takes input, about a minute). A longer run:
`FUZZ_EXAMPLES=2000 .venv/bin/python -m pytest tests/test_api_fuzz.py`.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from pydantic import SecretStr
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    max_response_time,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

import function_app
from app.http.openapi import OPERATIONS
from app.providers.wordllama_embedder import WordLlamaEmbedder
from app.search.retrieval import Retriever
from app.services import (
    Services,
    load_sample_catalog,
    open_local_database,
    recipe_store,
    search_index,
    use_services,
)
from app.settings import Settings
from tests.support import AnswersAnything

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "150"))
# A response slower than this is a hang: the fake model answers at once, so a real request
# takes milliseconds, and the slowest (a catalog of generated recipes indexed) well under one s.
HANG_SECONDS = 20.0
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
    max_response_time,
]


@pytest.fixture(scope="module")
def scratch_retriever(tmp_path_factory: pytest.TempPathFactory, embedder: WordLlamaEmbedder) -> Retriever:
    scratch = Settings(local_db_path=Path(tmp_path_factory.mktemp("fuzz")) / "recipes.sqlite3")
    database = open_local_database(scratch)
    loaded = Retriever(embedder, search_index(scratch, database), recipe_store(scratch, database))
    asyncio.run(load_sample_catalog(scratch, loaded))
    return loaded


@pytest.fixture(scope="module")
def api_schema(scratch_retriever: Retriever) -> Iterator[Any]:
    """The document as the app serves it, bound to the app in process."""
    from local_host import create_app

    use_services(Services(llm=AnswersAnything(), retriever=scratch_retriever))
    # The admin routes are fuzzed with their key, so that their input is what gets tested.
    patch = pytest.MonkeyPatch()
    patch.setattr(function_app.settings, "admin_key", SecretStr(FUZZ_ADMIN_KEY))
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", with_admin_key(create_app()))
    schema.config.checks.update(max_response_time=HANG_SECONDS)
    yield schema
    use_services(None)
    patch.undo()


FUZZ_ADMIN_KEY = "fuzz-admin-key"


def with_admin_key(app: Any) -> Any:
    """The app, with the admin key on every request that does not carry one."""

    async def call(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and not any(k == b"x-functions-key" for k, _ in scope["headers"]):
            scope = scope | {"headers": [*scope["headers"], (b"x-functions-key", FUZZ_ADMIN_KEY.encode())]}
        await app(scope, receive, send)

    return call


def cases() -> list[Any]:
    """Every operation with valid inputs, and those that take any input with invalid ones too."""
    params = []
    for (path, method), operation in OPERATIONS.items():
        modes = [GenerationMode.POSITIVE]
        # A recipe id has a pattern to break; a citation is any text, with no invalid value.
        if operation.body or operation.flags or "{id}" in path:
            modes.append(GenerationMode.NEGATIVE)
        params += [pytest.param(path, method, mode, id=f"{method} {path} {mode.value}") for mode in modes]
    return params


@pytest.mark.parametrize(("path", "method", "mode"), cases())
def test_no_generated_request_breaks_the_documented_contract(
    api_schema: Any, path: str, method: str, mode: GenerationMode
) -> None:
    operation = api_schema.find_operation_by_label(f"{method.upper()} {path}")

    @given(operation.as_strategy(generation_mode=mode))
    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    def any_case_is_answered_as_documented(case: Any) -> None:
        case.call_and_validate(checks=CHECKS)

    any_case_is_answered_as_documented()
