"""Shared fixtures: the real embedded catalog and embedder, a scripted LLM, a fake Azure.

The fakes themselves are in tests/support.py.

The LLM is the one part scripted in these tests, so that what the app sends to it and does
with its reply can be asserted exactly; the end-to-end tests use a real local model.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer
from starlette.testclient import TestClient

from app.catalog.names import RecipeNames
from app.chat.answer_guard import Named
from app.providers.azure_search import AzureSearchIndex
from app.providers.cosmos_store import CosmosRecipeStore
from app.providers.wordllama_embedder import WordLlamaEmbedder
from app.recipes import read_catalog
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
from tests.support import (
    DOCS,
    SWA,
    FakeAzure,
    ScriptedChatModel,
    Seen,
    free_port,
    start,
    stop,
    wait_until_up,
)


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
    return RecipeNames.of(read_catalog(settings.local_catalog_path)).in_prose


@pytest.fixture
def llm() -> ScriptedChatModel:
    return ScriptedChatModel()


@pytest.fixture
async def azure() -> AsyncIterator[FakeAzure]:
    fake: FakeAzure

    async def handle(request: web.Request) -> web.Response:
        body = await request.text()
        path = request.rel_url.path
        fake.seen.append(Seen(request.method, path, dict(request.headers), body))
        handler = fake.routes.get((request.method, path))
        if handler is None and path.startswith(DOCS):  # any single document
            handler = fake.routes.get((request.method, DOCS + "*"))
        if handler is not None:
            response = handler(request, body)
            return await response if inspect.isawaitable(response) else response
        if path == "/":  # Cosmos asks for the account's regions first.
            here = [{"name": "local", "databaseAccountEndpoint": fake.url + "/"}]
            return web.json_response({"id": "local", "writableLocations": here, "readableLocations": here})
        if path == "/dbs/recipe-chat/colls/recipes/":
            return web.json_response(
                {"id": "recipes", "_rid": "abc=", "partitionKey": {"paths": ["/id"], "kind": "Hash"}}
            )
        return web.json_response({"error": {"message": "not found"}}, status=404)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handle)
    async with TestServer(app, host="127.0.0.1") as server:
        fake = FakeAzure(url=str(server.make_url("")).rstrip("/"))
        yield fake


@pytest.fixture
async def index(azure: FakeAzure) -> AsyncIterator[AzureSearchIndex]:
    search_index = AzureSearchIndex(azure.settings())
    yield search_index
    await search_index.close()


@pytest.fixture
async def store(azure: FakeAzure) -> AsyncIterator[CosmosRecipeStore]:
    recipe_store = CosmosRecipeStore(azure.settings())
    yield recipe_store
    await recipe_store.close()


@pytest.fixture(scope="module")
def site(api: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The SWA CLI serving the page and proxying /api to the module's own `api` fixture (its
    URL), as `make run` does."""
    if not SWA.exists():
        pytest.skip("the SWA CLI is not installed: run `make setup` (npm ci)")
    port, log = free_port(), tmp_path_factory.mktemp("swa") / "swa.log"
    command = [str(SWA), "start", "web", "--swa-config-location", ".", "--api-devserver-url", api]
    swa = start([*command, "--host", "127.0.0.1", "--port", str(port)], log)
    wait_until_up(f"http://127.0.0.1:{port}/", swa, log)
    yield f"http://localhost:{port}"
    stop(swa)


@pytest.fixture
def client(llm: ScriptedChatModel, retriever: Retriever, named: Named) -> Iterator[TestClient]:
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
