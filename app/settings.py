"""Every setting the app reads, in one typed object.

Values come from environment variables (Functions app settings, or `local.settings.json`
when Core Tools runs the app). With no cloud setting at all, every provider falls back to
its embedded default, so a fresh checkout runs offline.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent

ResponseFormat = Literal["json_schema", "json_object", "json_object_schema", "none"]


class Settings(BaseSettings):
    # Empty values count as unset, so the example settings file can list every key.
    model_config = SettingsConfigDict(extra="ignore", env_ignore_empty=True)

    # Azure OpenAI: chosen when the endpoint is set. No key means Entra ID.
    azure_openai_endpoint: str | None = None
    azure_openai_api_key: SecretStr | None = None
    azure_openai_api_version: str = "2024-10-21"
    azure_openai_chat_deployment: str | None = None
    azure_openai_embedding_deployment: str | None = None

    # Any OpenAI-compatible server (OpenAI, llama.cpp's server, vLLM, Ollama...).
    openai_base_url: str | None = None
    openai_api_key: SecretStr | None = None
    openai_chat_model: str | None = None
    openai_embedding_model: str | None = None

    # How the answer call asks for JSON: `json_schema` is OpenAI's structured outputs (OpenAI,
    # Azure OpenAI); `json_object` is plain JSON mode; `json_object_schema` is llama.cpp's
    # server extension that holds JSON mode to the schema; `none` relies on the prompt alone.
    llm_response_format: ResponseFormat = "json_schema"
    # How diets, time limits and exclusions are read from a question: `rules` (deterministic,
    # no model call), `model` (one structured-output call), `auto` = `model` when the LLM is
    # Azure OpenAI or OpenAI-compatible with `json_schema`, else `rules`.
    question_reader: Literal["auto", "rules", "model"] = "auto"
    # Who writes the standalone question of a follow-up: `catalog` (the resolver: references
    # resolved against the catalog's titles and data, deterministic, no model call), `model`
    # (the chat model, grounded in what the resolver found and checked against it), `auto` =
    # `model` on Azure OpenAI or an OpenAI-compatible server, `catalog` on the embedded model.
    rewriter: Literal["auto", "catalog", "model"] = "auto"
    llm_temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    llm_timeout_seconds: float = Field(default=30.0, gt=0)
    llm_max_retries: int = Field(default=2, ge=0)
    # The whole request: past it the caller gets a clean 504 (or a stream, its last event). One
    # LLM call alone may take timeout x (retries + 1) plus the SDK's waits (up to 60 s per
    # Retry-After), and a request makes up to three, so the SDK's bounds cannot keep a request
    # under the 45 s after which Static Web Apps gives up on its API; this does.
    request_deadline_seconds: float = Field(default=40.0, gt=0)

    # Each call to AI Search or Cosmos DB. The SDKs' own defaults (300 s per read, up to ten
    # retries, and up to 30 s waiting out Cosmos DB's throttling) would outlast any request.
    azure_timeout_seconds: float = Field(default=10.0, gt=0)
    azure_max_retries: int = Field(default=2, ge=0)

    # Azure AI Search: chosen when the endpoint is set. No key means Entra ID.
    azure_search_endpoint: str | None = None
    azure_search_api_key: SecretStr | None = None
    azure_search_index: str = "recipes"

    # Azure Cosmos DB: chosen when the endpoint is set. No key means Entra ID.
    azure_cosmos_endpoint: str | None = None
    azure_cosmos_key: SecretStr | None = None
    azure_cosmos_database: str = "recipe-chat"
    azure_cosmos_container: str = "recipes"

    # Embedded defaults.
    local_db_path: Path = PROJECT_ROOT / ".local" / "recipes.sqlite3"
    local_catalog_path: Path = PROJECT_ROOT / "data" / "recipes.jsonl"
    local_llm_model_path: Path | None = None
    # The embedding model when no cloud one is set: all-MiniLM-L6-v2 (int8, onnxruntime) ranks
    # better; WordLlama is 50x quicker per query and indexes 40x faster (docs/benchmarks.md).
    # The index records which model built it, and a change rebuilds it from the store on start.
    local_embedder: Literal["minilm", "wordllama"] = "minilm"
    local_llm_context_tokens: int = Field(default=8192, ge=512)
    local_llm_threads: int | None = None
    # The embedded model is a 135M model on a few cores: its prompt holds each recipe's facts
    # (title, id, time, servings, diets, key ingredients) in this many characters, and its
    # reply is at most this many tokens (a few sentences, under a second on 2 cores).
    local_recipe_prompt_chars: int = Field(default=160, ge=60)
    local_answer_max_tokens: int = Field(default=80, ge=16)
    # How long a chat waits for the embedded model while other chats hold it (it generates one
    # reply at a time) before it answers from the recipes' data instead.
    local_llm_wait_seconds: float = Field(default=0.5, ge=0)
    # Who writes the answer: `model` (the LLM, checked by the answer guard, with an answer from
    # the recipes' data when it fails), `data` (the recipes' data only, no model call), or
    # `auto`: `model` on Azure OpenAI or an OpenAI-compatible server, `data` on the embedded
    # SmolLM2-135M, whose replies the guard refused or replaced nearly always (make eval).
    answer_writer: Literal["auto", "model", "data"] = "auto"

    # Conversation handling.
    history_max_messages: int = Field(default=6, ge=1)
    history_max_tokens: int = Field(default=1500, ge=50)
    search_top: int = Field(default=3, ge=1, le=50)
    # How much a hybrid search's vector ranking weighs against its keyword ranking in the
    # fusion (Azure AI Search's vector query `weight`; the embedded index weighs its RRF the
    # same way). Above 1, vectors lead and keywords break ties and lift exact names.
    hybrid_vector_weight: float = Field(default=1.5, gt=0, le=10)
    recipe_prompt_chars: int = Field(default=1800, ge=200)

    # Input limits: anything past them is refused with a 4xx, never cut silently.
    max_body_bytes: int = Field(default=262_144, ge=1024)
    max_message_chars: int = Field(default=4000, ge=1)
    max_conversation_messages: int = Field(default=200, ge=0)
    max_index_body_bytes: int = Field(default=50 * 1024 * 1024, ge=1024)
    # Recipes per catalog load over HTTP: a load of 240,000 small recipes (what 50 MB holds)
    # held the event loop 1.7 s; 20,000 stay well under a second. Larger
    # catalogs: split them, or load them with `python -m app.index_recipes`.
    max_index_recipes: int = Field(default=20_000, ge=1)
    # How long a client may take to send its whole body: past it, a 408. A body that trickles
    # in for ever would otherwise hold its request (and, for the untimed catalog load, for ever).
    body_read_seconds: float = Field(default=30.0, gt=0)

    # The key the admin routes (loading a catalog, deleting a recipe) ask for, in the header
    # `x-functions-key` (the header of Azure's function keys). Unset, they are closed to
    # everyone: load catalogs with `python -m app.index_recipes` instead. The app checks it
    # itself, so a route spelt another way through a proxy is no way round it.
    admin_key: SecretStr | None = None

    @property
    def uses_azure_openai(self) -> bool:
        return bool(self.azure_openai_endpoint)

    @property
    def uses_openai_compatible(self) -> bool:
        return not self.uses_azure_openai and bool(self.openai_base_url or self.openai_api_key)

    @property
    def uses_cloud_llm(self) -> bool:
        return self.uses_azure_openai or self.uses_openai_compatible

    @property
    def model_rewrites(self) -> bool:
        return self.rewriter == "model" or (self.rewriter == "auto" and self.uses_cloud_llm)

    @property
    def uses_embedded_llm(self) -> bool:
        return not self.uses_cloud_llm


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
