"""The provider seam: the small protocols that cloud and embedded parts both implement, and
the values that cross it (chat turns, streams, search hits, index documents).

Everything above this seam (rewriting, retrieval, answering) is one code path; each
implementation lives in its own module and is imported only when chosen, so that a cloud
deployment never loads the local model and a local run never imports the Azure SDKs.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypedDict

from app.recipes import Recipe
from app.search.filters import NO_FILTERS, RecipeFilters


class ChatTurn(TypedDict):
    role: str
    content: str


class ChatModel(Protocol):
    """A chat-completions LLM."""

    async def complete(
        self,
        messages: Sequence[ChatTurn],
        *,
        json_schema: dict[str, Any] | None = None,
        max_tokens: int,
        temperature: float | None = None,
    ) -> str:
        """The model's reply text. With `json_schema`, the reply is asked to be that JSON.

        `temperature` None means the provider's configured default.
        """
        ...

    async def stream(
        self,
        messages: Sequence[ChatTurn],
        *,
        max_tokens: int,
        temperature: float | None = None,
    ) -> ChatStream:
        """The model's reply as it is written. Returns as soon as the provider has taken the
        request, so that a refusal (the content filter, throttling) is raised here, before a
        response has been committed to; failures after that are raised while iterating."""
        ...


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


@dataclass(frozen=True)
class Finish:
    """Why the model stopped, as the provider said: "stop", or "length" at the token limit."""

    reason: str


class ChatStream:
    """A reply being written: iterate it once for the text, piece by piece. After the last
    piece, `usage` holds the token counts if the provider reported them, and `finish_reason`
    why the model stopped ("length": cut at the token limit), if it said."""

    def __init__(self, parts: AsyncGenerator[str | Usage | Finish, None], model: str) -> None:
        self.model = model
        self.usage: Usage | None = None
        self.finish_reason: str | None = None
        self._parts = parts

    async def __aiter__(self) -> AsyncGenerator[str, None]:
        # Leaving the loop early (the client went away) closes the provider's generator too,
        # so that the model stops writing for nobody and frees its connection or its lock.
        async with contextlib.aclosing(self._parts):
            async for part in self._parts:
                if isinstance(part, Usage):
                    self.usage = part
                elif isinstance(part, Finish):
                    self.finish_reason = part.reason
                elif part:
                    yield part


class Embedder(Protocol):
    model: str
    dimensions: int

    async def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


@dataclass(frozen=True)
class SearchHit:
    id: str
    score: float
    # Passages the service picked as the most relevant (Azure AI Search's semantic captions).
    captions: tuple[str, ...] = ()


@dataclass(frozen=True)
class SemanticOptions:
    """Azure AI Search's semantic reranking of the top results, and captions from them."""

    ranker: bool = False
    captions: bool = False


NO_SEMANTIC = SemanticOptions()


@dataclass(frozen=True)
class IndexInfo:
    """What built an index's vectors: searching it with another model gives wrong results."""

    embedding_model: str
    dimensions: int


@dataclass(frozen=True)
class IndexDocument:
    recipe: Recipe
    content_hash: str
    vector: Sequence[float]


class SearchIndex(Protocol):
    # Whether `semantic` can apply: an index without semantic ranking ignores it.
    supports_semantic: bool

    async def search(
        self,
        text: str | None,
        vector: Sequence[float] | None,
        top: int,
        filters: RecipeFilters = NO_FILTERS,
        semantic: SemanticOptions = NO_SEMANTIC,
    ) -> list[SearchHit]:
        """Keyword search with only `text`, vector search with only `vector`, and both fused
        by RRF (k=60) with both; `filters` apply before the top results are cut."""
        ...

    async def index_info(self) -> IndexInfo | None:
        """The embedding model that built the index; None for an index not created yet."""
        ...

    async def prepare(self, info: IndexInfo, *, rebuild: bool = False) -> None:
        """Create the index for `info`, or update its definition; `rebuild` empties it first."""
        ...

    async def content_hashes(self, ids: Sequence[str]) -> dict[str, str]:
        """The content hash each of these recipes was indexed with; absent ids are left out."""
        ...

    async def upsert(self, documents: Sequence[IndexDocument]) -> dict[str, str]:
        """Add or replace documents; returns an error message for each id that failed."""
        ...

    async def delete(self, ids: Sequence[str]) -> None: ...


class RecipeStore(Protocol):
    async def titles(self) -> dict[str, str]:
        """Every recipe's title, by id: what follow-ups and answers are grounded in."""
        ...

    async def ingredients_and_steps(self) -> dict[str, list[str]]:
        """Every recipe's ingredient lines and steps, by id: where the everyday words of
        cooking stand, which name no recipe ("the pastry" of a Beef Wellington is no Puff
        Pastry, "the skillet" no Country Breakfast Skillet)."""
        ...

    async def get_many(self, ids: Sequence[str]) -> list[Recipe]:
        """The recipes with these ids, in the order asked; ids not found are left out."""
        ...

    async def content_hashes(self, ids: Sequence[str]) -> dict[str, str]: ...

    async def upsert(self, recipes: Sequence[tuple[Recipe, str]]) -> dict[str, str]:
        """Add or replace (recipe, content hash) pairs; returns an error message per failed id."""
        ...

    async def delete(self, ids: Sequence[str]) -> None: ...
