"""Retrieval: a question in, the best recipes out, with no LLM call."""

from __future__ import annotations

from dataclasses import dataclass

from app.providers import Embedder, RecipeStore, SearchIndex
from app.recipes import Recipe


@dataclass(frozen=True)
class Retriever:
    embedder: Embedder
    index: SearchIndex
    store: RecipeStore

    async def retrieve(self, question: str, top: int) -> list[Recipe]:
        [vector] = await self.embedder.embed([question])
        hits = await self.index.hybrid_search(question, vector, top)
        return await self.store.get_many([hit.id for hit in hits])
