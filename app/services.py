"""Pick each provider once, from settings, and share them for the life of the process."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.chat.answer_guard import Named
from app.indexing.pipeline import Indexer, IndexingOptions
from app.providers.protocols import ChatModel, Embedder, RecipeStore, SearchIndex
from app.recipes import read_catalog
from app.search.question_reader import ModelReader, QuestionReader, RuleReader
from app.search.recipe_facts import DOCUMENT_VERSION
from app.search.retrieval import Retriever
from app.settings import Settings

if TYPE_CHECKING:
    from openai import AsyncOpenAI

    from app.providers.sqlite_catalog import SqliteDatabase

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Services:
    llm: ChatModel
    retriever: Retriever
    # Which catalog recipes a text names (the answer guard's check for invented recipes):
    # the catalog's own names unless a test sets a stand-in.
    named: Named | None = None
    # The `openai` clients built for these providers, closed with them (their aiohttp sessions).
    clients: tuple[AsyncOpenAI, ...] = ()

    async def names(self) -> Named:
        return self.named or (await self.retriever.names.get()).in_prose

    def indexer(self) -> Indexer:
        retriever = self.retriever
        return Indexer(retriever.embedder, retriever.store, retriever.index, changed=retriever.names.forget)


def chat_model(settings: Settings, client: AsyncOpenAI | None = None) -> ChatModel:
    """The chat model; on Azure OpenAI or an OpenAI-compatible server through `client`, the
    process's one client, when the caller has it."""
    if settings.uses_cloud_llm:
        from app.providers.openai_clients import OpenAIChatModel, create_client

        model = (
            settings.azure_openai_chat_deployment
            if settings.uses_azure_openai
            else settings.openai_chat_model
        )
        if not model:
            raise RuntimeError(
                "Set AZURE_OPENAI_CHAT_DEPLOYMENT or OPENAI_CHAT_MODEL to name the chat model."
            )
        return OpenAIChatModel(
            client or create_client(settings),
            model,
            response_format_mode=settings.llm_response_format,
            temperature=settings.llm_temperature,
        )
    from app.providers.llama_cpp_llm import LlamaCppChatModel, bundled_model_path

    return LlamaCppChatModel(
        settings.local_llm_model_path or bundled_model_path(),
        context_tokens=settings.local_llm_context_tokens,
        threads=settings.local_llm_threads,
        temperature=settings.llm_temperature,
        wait_seconds=settings.local_llm_wait_seconds,
    )


def embedder(settings: Settings, client: AsyncOpenAI | None = None) -> Embedder:
    azure_model = settings.uses_azure_openai and settings.azure_openai_embedding_deployment
    openai_model = settings.uses_openai_compatible and settings.openai_embedding_model
    if azure_model or openai_model:
        from app.providers.openai_clients import OpenAIEmbedder, create_client

        return OpenAIEmbedder(client or create_client(settings), azure_model or openai_model or "")
    if settings.local_embedder == "minilm":
        from app.providers.minilm_embedder import MiniLMEmbedder

        return MiniLMEmbedder()
    from app.providers.wordllama_embedder import WordLlamaEmbedder

    return WordLlamaEmbedder()


def search_index(settings: Settings, local: SqliteDatabase | None) -> SearchIndex:
    if settings.azure_search_endpoint:
        from app.providers.azure_search import AzureSearchIndex

        return AzureSearchIndex(settings)
    from app.providers.sqlite_index import SqliteSearchIndex

    assert local is not None
    return SqliteSearchIndex(local, vector_weight=settings.hybrid_vector_weight)


def recipe_store(settings: Settings, local: SqliteDatabase | None) -> RecipeStore:
    if settings.azure_cosmos_endpoint:
        from app.providers.cosmos_store import CosmosRecipeStore

        return CosmosRecipeStore(settings)
    from app.providers.sqlite_catalog import SqliteRecipeStore

    assert local is not None
    return SqliteRecipeStore(local)


def open_local_database(settings: Settings) -> SqliteDatabase:
    from app.providers.sqlite_catalog import SqliteDatabase

    return SqliteDatabase(settings.local_db_path)


async def load_sample_catalog(settings: Settings, retriever: Retriever) -> None:
    """On a first run, an empty embedded store gets the shipped recipes, through the same
    pipeline as any other catalog; an embedded index behind its store (after a change of its
    layout), built by another embedding model (LOCAL_EMBEDDER changed) or from other documents
    (recipe_facts.DOCUMENT_VERSION changed) is rebuilt from the store, so no recipe loaded
    since is lost."""
    from app.providers.sqlite_catalog import SqliteRecipeStore
    from app.providers.sqlite_index import SqliteSearchIndex

    store, index = retriever.store, retriever.index
    if not isinstance(store, SqliteRecipeStore) or not isinstance(index, SqliteSearchIndex):
        return
    built = await index.index_info()
    if store.count() == 0:
        recipes, source = list(read_catalog(settings.local_catalog_path)), settings.local_catalog_path
    elif (
        index.count() < store.count()
        or (built and built.embedding_model != retriever.embedder.model)
        or (built and index.document_version() != DOCUMENT_VERSION)
    ):
        recipes, source = store.all(), settings.local_db_path
    else:
        return
    indexer = Indexer(retriever.embedder, store, index)
    report = await indexer.run(
        [(r.id, r.model_dump()) for r in recipes], IndexingOptions(force_indexing=True)
    )
    log.info("indexed %d recipes from %s (%d failed)", report.indexed, source, report.failed)


def question_reader(settings: Settings, llm: ChatModel | None) -> QuestionReader:
    cloud = settings.uses_azure_openai or settings.uses_openai_compatible
    wanted = settings.question_reader
    if llm is not None and (
        wanted == "model" or (wanted == "auto" and cloud and settings.llm_response_format == "json_schema")
    ):
        return ModelReader(llm)
    return RuleReader()


def build_retriever(
    settings: Settings, llm: ChatModel | None = None, client: AsyncOpenAI | None = None
) -> Retriever:
    local = None
    if not (settings.azure_search_endpoint and settings.azure_cosmos_endpoint):
        local = open_local_database(settings)
    index, store = search_index(settings, local), recipe_store(settings, local)
    return Retriever(embedder(settings, client), index, store, question_reader(settings, llm))


async def build_services(settings: Settings) -> Services:
    # One client, and so one connection pool and one credential, for the chat model and
    # the embedder.
    client = None
    if settings.uses_cloud_llm:
        from app.providers.openai_clients import create_client

        client = create_client(settings)
    llm = chat_model(settings, client)
    retriever = build_retriever(settings, llm, client)
    await load_sample_catalog(settings, retriever)
    # The embedder has a client of its own where the chat model has none.
    embedder_client = getattr(retriever.embedder, "_client", None)
    clients = tuple(c for c in dict.fromkeys((client, embedder_client)) if c is not None)
    return Services(llm, retriever, clients=clients)


_services: Services | None = None
_lock = asyncio.Lock()


async def get_services(settings: Settings) -> Services:
    """The process's providers, built on first use so that importing the app stays fast."""
    global _services
    if _services is None:
        async with _lock:
            if _services is None:
                _services = await build_services(settings)
    return _services


async def close_services() -> None:
    """Close the process's providers' connections (the host is shutting down); the next
    request builds them again."""
    global _services
    if _services is None or not _services.clients:
        return  # nothing open (the embedded providers, or a test's stand-ins)
    services, _services = _services, None
    for client in services.clients:
        await client.close()


def use_services(services: Services | None) -> None:
    """Replace the process's providers: for tests and for hosts that build their own."""
    global _services
    _services = services
