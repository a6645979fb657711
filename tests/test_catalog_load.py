"""Loading a catalog never holds the app (issue 15, item 2).

A recipe with a 20 MB description once took 91 s and 15 GB to load, and the app answered
nothing else meanwhile. Each field is bounded now, and recipes are parsed, validated and
embedded off the event loop. The second test needs no clock: the embedding of the catalog is
held, in its worker thread, until a search sent during the load has been answered; were the
embedding on the event loop, the search could never be answered and the test would stop at
its (generous) guard. Figures for time and memory: bench/catalog_load.py.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Sequence
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr

import function_app
from app.providers.wordllama_embedder import WordLlamaEmbedder
from app.recipes import MAX_DESCRIPTION_CHARS
from app.search.retrieval import Retriever
from app.services import Services, open_local_database, recipe_store, search_index, use_services
from app.settings import Settings
from tests.support import AnswersAnything

KEY = "catalog-load-test-key"
MARK = "zzcatalogmark"  # in every catalog recipe's text, never in a question
GUARD_SECONDS = 60  # a bound on a hang, not a timing: the test takes well under a second


def recipe(n: int, **fields: object) -> dict[str, object]:
    return {
        "id": f"load-{n}",
        "title": f"Soup number {n}",
        "description": f"A {MARK} soup.",
        "ingredients": ["water", "leeks"],
        "steps": ["Boil."],
    } | fields


class HeldEmbedder(WordLlamaEmbedder):
    """WordLlama, whose work on catalog texts waits, where it runs, until the test lets it go."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.started = threading.Event()

    def _embed(self, texts: Sequence[str]) -> list[list[float]]:
        if any(MARK in text for text in texts):
            self.started.set()
            if not self.release.wait(GUARD_SECONDS):
                raise AssertionError("the catalog's embedding was never released")
        return super()._embed(texts)


@pytest.fixture
def app_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from local_host import create_app

    def build(embedder: WordLlamaEmbedder) -> httpx.AsyncClient:
        scratch = Settings(local_db_path=tmp_path / "recipes.sqlite3")
        database = open_local_database(scratch)
        retriever = Retriever(embedder, search_index(scratch, database), recipe_store(scratch, database))
        use_services(Services(llm=AnswersAnything(), retriever=retriever))
        transport = httpx.ASGITransport(app=create_app())
        return httpx.AsyncClient(transport=transport, base_url="http://app", timeout=GUARD_SECONDS)

    monkeypatch.setattr(function_app.settings, "admin_key", SecretStr(KEY))
    yield build
    use_services(None)


async def test_each_field_is_bounded_and_an_oversized_recipe_fails_alone(app_with, embedder):
    async with app_with(embedder) as client:
        huge = recipe(2, description="x" * (MAX_DESCRIPTION_CHARS + 1))
        many = recipe(3, steps=["Stir."] * 101)
        long_line = recipe(4, ingredients=["y" * 2001])
        body = [recipe(1), huge, many, long_line]

        response = await client.post("/api/recipes/index", json=body, headers={"x-functions-key": KEY})

    report = response.json()
    assert response.status_code == 200, response.text
    assert report["indexed"] == 1 and report["failed"] == 3
    for n in (2, 3, 4):
        [error] = report["indexing_result"][f"load-{n}"]["errors"]
        assert error["type"] == "validation_error" and "at most" in error["message"]


async def test_a_search_is_answered_while_a_catalog_is_being_embedded(app_with):
    embedder = HeldEmbedder()
    async with app_with(embedder) as client:
        catalog = "\n".join(json.dumps(recipe(n)) for n in range(300))
        headers = {"x-functions-key": KEY, "content-type": "application/jsonl"}
        load = asyncio.create_task(client.post("/api/recipes/index", content=catalog, headers=headers))
        # The load has reached its embedding (in a worker thread, waiting for the test).
        await asyncio.wait_for(asyncio.to_thread(embedder.started.wait, GUARD_SECONDS), GUARD_SECONDS)

        searched = await client.post("/api/retrieve", json={"query": "leek soup"})
        answered = await client.post("/api/chat", json={"userMessage": "Any leek soup?"})

        assert not load.done()  # all the while, the load was held
        embedder.release.set()
        loaded = await asyncio.wait_for(load, GUARD_SECONDS)

    assert searched.status_code == 200 and answered.status_code == 200
    assert loaded.status_code == 200 and loaded.json()["indexed"] == 300, loaded.text[:300]


async def test_more_recipes_than_a_load_takes_is_a_413(app_with, embedder, monkeypatch):
    monkeypatch.setattr(function_app.settings, "max_index_recipes", 5)
    async with app_with(embedder) as client:
        body = [recipe(n) for n in range(6)]
        response = await client.post("/api/recipes/index", json=body, headers={"x-functions-key": KEY})

    assert response.status_code == 413 and "python -m app.index_recipes" in response.json()["error"]
