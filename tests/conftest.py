"""Shared fixtures: the real embedded catalog and embedder, and a scripted LLM.

The LLM is the one part scripted in these tests, so that what the app sends to it and does
with its reply can be asserted exactly; the end-to-end tests use a real local model.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.providers import ChatTurn
from app.providers.wordllama_embedder import WordLlamaEmbedder
from app.retrieval import Retriever
from app.services import (
    Services,
    load_sample_catalog,
    open_local_database,
    recipe_store,
    search_index,
    use_services,
)
from app.settings import Settings

Reply = str | Callable[[Sequence[ChatTurn]], str] | Exception


class ScriptedChatModel:
    """An LLM that returns the replies it was given, in order, and records every call."""

    def __init__(self, *replies: Reply) -> None:
        self.replies = list(replies)
        self.calls: list[dict[str, Any]] = []

    async def complete(
        self,
        messages: Sequence[ChatTurn],
        *,
        json_schema: dict[str, Any] | None = None,
        max_tokens: int,
        temperature: float | None = None,
    ) -> str:
        self.calls.append({"messages": list(messages), "json_schema": json_schema, "max_tokens": max_tokens})
        if not self.replies:
            raise AssertionError("the LLM was called more often than the test expected")
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply(messages) if callable(reply) else reply


def model_json(answer: str, *ids: str, title: str = "a title the model made up") -> str:
    return json.dumps({"answer": answer, "sources": [{"id": i, "title": title} for i in ids]})


@pytest.fixture(scope="session")
def embedder() -> WordLlamaEmbedder:
    return WordLlamaEmbedder()


@pytest.fixture(scope="session")
def catalog_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("db") / "recipes.sqlite3"


@pytest.fixture(scope="session")
def settings(catalog_path: Path) -> Settings:
    return Settings(local_db_path=catalog_path)


@pytest.fixture(scope="session")
def retriever(settings: Settings, embedder: WordLlamaEmbedder) -> Retriever:
    """The embedded store and index, loaded with the shipped sample catalog by the same
    first-run code the app uses."""
    database = open_local_database(settings)
    loaded = Retriever(embedder, search_index(settings, database), recipe_store(settings, database))
    asyncio.run(load_sample_catalog(settings, loaded))
    return loaded


@pytest.fixture
def llm() -> ScriptedChatModel:
    return ScriptedChatModel()


@pytest.fixture
def client(llm: ScriptedChatModel, retriever: Retriever) -> Iterator[TestClient]:
    """The app's own routes (as the local host mounts them), on the embedded catalog."""
    from local_host import create_app

    use_services(Services(llm=llm, retriever=retriever))
    with TestClient(create_app()) as test_client:
        yield test_client
    use_services(None)
