"""The Azure AI Search and Cosmos DB providers, checked on the requests the SDKs really send.

A local aiohttp server plays the two services, so the SDKs run unchanged, on their default
async transport, with no network and no Azure account.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from app.providers import UpstreamError
from app.providers.azure_search import AzureSearchIndex
from app.providers.cosmos_store import CosmosRecipeStore
from app.settings import Settings

SEARCH_KEY = "search-key-never-shown"
COSMOS_KEY = "Y29zbW9zLWtleS1uZXZlci1zaG93bg=="  # base64, as Cosmos account keys are

Handler = Callable[[web.Request], web.Response]


@dataclass
class FakeAzure:
    """One server for both services; each test says how the data endpoints answer."""

    url: str
    seen: list[tuple[str, str, dict[str, str], str]] = field(default_factory=list)
    search: Handler = lambda _: web.json_response({"value": []})
    document: Handler = lambda _: web.json_response({}, status=404)

    def settings(self) -> Settings:
        return Settings(
            azure_search_endpoint=self.url,
            azure_search_api_key=SEARCH_KEY,
            azure_cosmos_endpoint=self.url + "/",
            azure_cosmos_key=COSMOS_KEY,
        )

    def requests_to(self, path_start: str) -> list[tuple[str, str, dict[str, str], str]]:
        return [r for r in self.seen if r[1].startswith(path_start)]


@pytest.fixture
async def azure() -> AsyncIterator[FakeAzure]:
    fake: FakeAzure

    async def handle(request: web.Request) -> web.Response:
        fake.seen.append((request.method, request.rel_url.path, dict(request.headers), await request.text()))
        path = request.rel_url.path
        if path.startswith("/indexes"):
            return fake.search(request)
        if path == "/":  # Cosmos asks for the account's regions first.
            here = [{"name": "local", "databaseAccountEndpoint": fake.url + "/"}]
            return web.json_response({"id": "local", "writableLocations": here, "readableLocations": here})
        if "/docs/" in path:
            return fake.document(request)
        return web.json_response({"id": "recipes", "partitionKey": {"paths": ["/id"], "kind": "Hash"}})

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handle)
    async with TestServer(app, host="127.0.0.1") as server:
        fake = FakeAzure(url=str(server.make_url("")).rstrip("/"))
        yield fake


async def test_a_hybrid_search_is_one_request_with_text_and_vector(azure: FakeAzure):
    azure.search = lambda _: web.json_response(
        {
            "value": [
                {"id": "mushroom-risotto", "@search.score": 0.033},
                {"id": "aljotta", "@search.score": 0.02},
            ]
        }
    )
    index = AzureSearchIndex(azure.settings())

    hits = await index.hybrid_search("vegetarian mushroom recipes", [0.25, -0.5], top=3)
    await index.close()

    assert [(h.id, h.score) for h in hits] == [("mushroom-risotto", 0.033), ("aljotta", 0.02)]
    [(method, path, headers, body)] = azure.requests_to("/indexes")
    assert (method, path) == ("POST", "/indexes('recipes')/docs/search.post.search")
    assert headers["api-key"] == SEARCH_KEY
    assert json.loads(body) == {
        "search": "vegetarian mushroom recipes",
        "top": 3,
        "select": "id",
        "vectorQueries": [{"kind": "vector", "vector": [0.25, -0.5], "k": 50, "fields": "embedding"}],
    }


async def test_a_search_failure_becomes_a_safe_public_error(azure: FakeAzure):
    azure.search = lambda _: web.json_response({"error": {"message": f"bad key {SEARCH_KEY}"}}, status=403)
    index = AzureSearchIndex(azure.settings())

    with pytest.raises(UpstreamError) as raised:
        await index.hybrid_search("soup", [1.0], top=3)
    await index.close()

    assert raised.value.public_message == "The search service failed. Please try again."
    assert SEARCH_KEY not in str(raised.value)


def stored(recipe_id: str, title: str) -> dict:
    return {
        "id": recipe_id,
        "title": title,
        "ingredients": ["rice"],
        "steps": ["Cook."],
        "_etag": '"1"',
        "_ts": 1,
    }


async def test_recipes_are_point_reads_by_id_in_the_order_asked(azure: FakeAzure):
    catalog = {"apple-pie": stored("apple-pie", "Apple pie"), "aljotta": stored("aljotta", "Aljotta")}

    def document(request: web.Request) -> web.Response:
        recipe_id = request.rel_url.path.rstrip("/").rsplit("/", 1)[-1]
        if recipe_id in catalog:
            return web.json_response(catalog[recipe_id])
        return web.json_response({"code": "NotFound"}, status=404)

    azure.document = document
    store = CosmosRecipeStore(azure.settings())

    recipes = await store.get_many(["aljotta", "gone", "apple-pie"])
    await store.close()

    assert [(r.id, r.title) for r in recipes] == [("aljotta", "Aljotta"), ("apple-pie", "Apple pie")]
    reads = azure.requests_to("/dbs/recipe-chat/colls/recipes/docs/")
    assert sorted((path, headers["x-ms-documentdb-partitionkey"]) for _, path, headers, _ in reads) == [
        ("/dbs/recipe-chat/colls/recipes/docs/aljotta/", '["aljotta"]'),
        ("/dbs/recipe-chat/colls/recipes/docs/apple-pie/", '["apple-pie"]'),
        ("/dbs/recipe-chat/colls/recipes/docs/gone/", '["gone"]'),
    ]
    assert all(method == "GET" for method, *_ in reads)


async def test_a_store_failure_becomes_a_safe_public_error(azure: FakeAzure):
    azure.document = lambda _: web.json_response({"code": "Forbidden", "message": "no access"}, status=403)
    store = CosmosRecipeStore(azure.settings())

    with pytest.raises(UpstreamError) as raised:
        await store.get_many(["aljotta"])
    await store.close()

    assert raised.value.public_message == "The recipe store failed. Please try again."
    assert COSMOS_KEY not in str(raised.value)
