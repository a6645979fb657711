"""Shared fixtures: the real embedded catalog and embedder, and a scripted LLM.

The LLM is the one part scripted in these tests, so that what the app sends to it and does
with its reply can be asserted exactly; the end-to-end tests use a real local model.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncGenerator, Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.answer_guard import Named
from app.providers import ChatStream, ChatTurn, Finish, Usage
from app.providers.wordllama_embedder import WordLlamaEmbedder
from app.recipe_names import RecipeNames
from app.recipes import read_catalog
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


# Only a guard against a test that hangs: a passing test opens the gate at once.
GATE_GUARD_SECONDS = 30

Script = Sequence[str | Usage | Finish | Exception] | Exception | Callable[[Sequence[ChatTurn]], str]


class StreamingScriptedModel(ScriptedChatModel):
    """The scripted LLM of conftest, which can also stream.

    Each entry of `streams` scripts one answer: its pieces, in order (a `Usage` among them is
    reported as the provider's token counts, an exception is raised at that point of the
    stream), or one exception, raised when the answer is asked for, before any piece. With a
    `Finish("length")` among them reports a reply cut at the token limit; a function of the
    messages writes its reply a few words a piece. With a
    `gate`, the stream waits for the test to open it before its first piece.
    """

    def __init__(self, *replies: Any) -> None:
        super().__init__(*replies)
        self.streams: list[Script] = []
        self.stream_calls: list[dict[str, Any]] = []
        self.gate: threading.Event | None = None
        self.pieces_written = 0

    async def stream(
        self, messages: Sequence[ChatTurn], *, max_tokens: int, temperature: float | None = None
    ) -> ChatStream:
        self.stream_calls.append(
            {"messages": list(messages), "max_tokens": max_tokens, "temperature": temperature}
        )
        if not self.streams:
            raise AssertionError("the LLM streamed more often than the test expected")
        script = self.streams.pop(0)
        if isinstance(script, Exception):
            raise script
        if callable(script):
            script = say(script(messages))
        return ChatStream(self._write(script), "scripted-model")

    async def _write(
        self, script: Iterable[str | Usage | Finish | Exception]
    ) -> AsyncGenerator[str | Usage | Finish, None]:
        if self.gate is not None and not await asyncio.to_thread(self.gate.wait, GATE_GUARD_SECONDS):
            raise AssertionError("the test never opened the gate")
        for item in script:
            if isinstance(item, Exception):
                raise item
            if isinstance(item, str):
                self.pieces_written += 1
            yield item


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


@pytest.fixture(scope="session")
def named(settings: Settings) -> Named:
    """Which catalog recipes an answer names, as the app reads them from the shipped catalog."""
    return RecipeNames({r.id: r.title for r in read_catalog(settings.local_catalog_path)}).in_prose


@pytest.fixture
def llm() -> StreamingScriptedModel:
    return StreamingScriptedModel()


def say(text: str) -> list[str]:
    """A scripted stream of `text`, a few words a piece, as a model writes."""
    words = text.split(" ")
    return [" ".join(words[i : i + 3]) + (" " if i + 3 < len(words) else "") for i in range(0, len(words), 3)]


@pytest.fixture
def client(llm: StreamingScriptedModel, retriever: Retriever, named: Named) -> Iterator[TestClient]:
    """The app's own routes (as the local host mounts them), on the embedded catalog."""
    from local_host import create_app

    use_services(Services(llm=llm, retriever=retriever, named=named))
    with TestClient(create_app()) as test_client:
        yield test_client
    use_services(None)


@pytest.fixture(autouse=True)
def model_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The scripted model writes the answers in these tests, on the embedded defaults too
    (where `auto` has the recipes' data write them); `data_writes` restores the default."""
    import function_app

    monkeypatch.setattr(function_app.settings, "answer_writer", "model")


@pytest.fixture
def data_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default choice of writer, `auto`: on the embedded defaults, the recipes' data."""
    import function_app

    monkeypatch.setattr(function_app.settings, "answer_writer", "auto")


@pytest.fixture
def cloud(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The routes' settings as with a cloud model: it stays in charge of the answer, and its
    prompt holds whole recipes."""
    import function_app

    cloud_settings = settings.model_copy(
        update={"openai_base_url": "http://model.invalid/v1", "answer_writer": "auto"}
    )
    monkeypatch.setattr(function_app, "settings", cloud_settings)
    return cloud_settings
