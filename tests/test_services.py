"""Providers are chosen once, from settings: embedded with none, cloud as configured."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pydantic import SecretStr

from app.providers.azure_search import AzureSearchIndex
from app.providers.cosmos_store import CosmosRecipeStore
from app.providers.llama_cpp_llm import LlamaCppChatModel
from app.providers.minilm_embedder import MiniLMEmbedder
from app.providers.openai_clients import OpenAIChatModel, OpenAIEmbedder
from app.providers.sqlite_catalog import SqliteRecipeStore
from app.providers.sqlite_index import SqliteSearchIndex
from app.providers.wordllama_embedder import WordLlamaEmbedder
from app.services import build_services, embedder
from app.settings import Settings


@pytest.fixture
def no_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings come only from what each test passes, never from the machine's environment."""
    for name in list(os.environ):
        if name.startswith(("AZURE_", "OPENAI_", "LLM_", "LOCAL_")):
            monkeypatch.delenv(name)


async def test_with_no_settings_everything_is_embedded(no_env, tmp_path: Path):
    services = await build_services(Settings(local_db_path=tmp_path / "r.sqlite3"))

    assert isinstance(services.llm, LlamaCppChatModel)
    assert services.llm.model_path.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert isinstance(services.retriever.embedder, MiniLMEmbedder)
    assert isinstance(services.retriever.index, SqliteSearchIndex)
    assert isinstance(services.retriever.store, SqliteRecipeStore)


async def test_an_openai_compatible_server_takes_the_llm_and_keeps_local_embeddings(no_env, tmp_path):
    settings = Settings(
        openai_base_url="http://127.0.0.1:9/v1",
        openai_chat_model="smollm2",
        local_db_path=tmp_path / "r",
        local_embedder="wordllama",
    )

    services = await build_services(settings)

    assert isinstance(services.llm, OpenAIChatModel)
    assert isinstance(services.retriever.embedder, WordLlamaEmbedder)


def test_the_local_embedder_is_chosen_by_a_setting(no_env, monkeypatch):
    assert isinstance(embedder(Settings()), MiniLMEmbedder)
    monkeypatch.setenv("LOCAL_EMBEDDER", "wordllama")
    assert isinstance(embedder(Settings()), WordLlamaEmbedder)
    # A cloud embedding deployment wins over either.
    cloud = Settings(azure_openai_endpoint="https://x.openai.azure.com", azure_openai_api_key=SecretStr("k"))
    assert isinstance(
        embedder(cloud.model_copy(update={"azure_openai_embedding_deployment": "e"})), OpenAIEmbedder
    )


async def test_azure_settings_select_every_cloud_provider(no_env, tmp_path):
    settings = Settings(
        azure_openai_endpoint="https://x.openai.azure.com",
        azure_openai_api_key=SecretStr("k"),
        azure_openai_chat_deployment="gpt-4o-mini",
        azure_openai_embedding_deployment="text-embedding-3-small",
        azure_search_endpoint="https://x.search.windows.net",
        azure_search_api_key=SecretStr("k"),
        azure_cosmos_endpoint="https://x.documents.azure.com:443/",
        azure_cosmos_key=SecretStr("a2V5"),
        local_db_path=tmp_path / "never-created.sqlite3",
    )

    services = await build_services(settings)

    assert isinstance(services.llm, OpenAIChatModel)
    assert isinstance(services.retriever.embedder, OpenAIEmbedder)
    assert services.retriever.embedder.model == "text-embedding-3-small"
    assert isinstance(services.retriever.index, AzureSearchIndex)
    assert isinstance(services.retriever.store, CosmosRecipeStore)
    assert not settings.local_db_path.exists()
    # One client, one connection pool and one credential, for the chat model and the embedder.
    assert services.llm._client is services.retriever.embedder._client


async def test_a_chat_model_must_be_named(no_env, tmp_path):
    settings = Settings(openai_base_url="http://127.0.0.1:9/v1", local_db_path=tmp_path / "r")

    with pytest.raises(RuntimeError, match="OPENAI_CHAT_MODEL"):
        await build_services(settings)
