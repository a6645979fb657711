"""The provider seam: the small protocols that cloud and embedded parts both implement.

Everything above this seam (rewriting, retrieval, answering) is one code path; each
implementation lives in its own module and is imported only when chosen, so that a cloud
deployment never loads the local model and a local run never imports the Azure SDKs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypedDict

from app.recipes import Recipe


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


class Embedder(Protocol):
    model: str
    dimensions: int

    async def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


@dataclass(frozen=True)
class SearchHit:
    id: str
    score: float


class SearchIndex(Protocol):
    async def hybrid_search(self, text: str, vector: Sequence[float], top: int) -> list[SearchHit]:
        """The best `top` recipes for both the words and the vector, fused by RRF."""
        ...


class RecipeStore(Protocol):
    async def get_many(self, ids: Sequence[str]) -> list[Recipe]:
        """The recipes with these ids, in the order asked; ids not found are left out."""
        ...


class UpstreamError(Exception):
    """A provider failed. `public_message` is safe to show; the cause is only logged."""

    status = 502

    def __init__(self, public_message: str, *, status: int = 502) -> None:
        super().__init__(public_message)
        self.public_message = public_message
        self.status = status
