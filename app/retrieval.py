"""Retrieval: a question in, the best recipes out, with their scores and no LLM call.

`/api/retrieve` and `/api/chat` both go through `Retriever.retrieve`, so retrieval can be
evaluated and tuned on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.filters import NO_FILTERS, RecipeFilters, RetrievalMode
from app.providers import (
    NO_SEMANTIC,
    Embedder,
    IndexIncompatibleError,
    IndexInfo,
    RecipeStore,
    SearchIndex,
    SemanticOptions,
)
from app.query_filters import QuestionReader, RuleReader
from app.recipes import Recipe


@dataclass(frozen=True)
class ScoredRecipe:
    recipe: Recipe
    score: float
    captions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Retrieval:
    """What was searched for, with which filters, and what came back."""

    searched: str
    filters: RecipeFilters
    found: list[ScoredRecipe]
    semantic: SemanticOptions = NO_SEMANTIC


@dataclass(frozen=True)
class Retriever:
    embedder: Embedder
    index: SearchIndex
    store: RecipeStore
    reader: QuestionReader = field(default_factory=RuleReader)

    async def retrieve(
        self,
        query: str,
        top: int,
        *,
        mode: RetrievalMode = "hybrid",
        filters: RecipeFilters = NO_FILTERS,
        semantic: SemanticOptions = NO_SEMANTIC,
    ) -> list[ScoredRecipe]:
        vector = None
        if mode != "text":
            [vector] = await self.embedder.embed([query])
            await self.check_index(len(vector))
        hits = await self.index.search(query if mode != "vectors" else None, vector, top, filters, semantic)
        found = {r.id: r for r in await self.store.get_many([hit.id for hit in hits])}
        # A hit whose recipe is gone from the store (deleted mid-way) is left out.
        return [ScoredRecipe(found[hit.id], hit.score, hit.captions) for hit in hits if hit.id in found]

    async def retrieve_question(
        self,
        question: str,
        top: int,
        *,
        mode: RetrievalMode = "hybrid",
        filters: RecipeFilters = NO_FILTERS,
        read_filters: bool = True,
        semantic: SemanticOptions = NO_SEMANTIC,
    ) -> Retrieval:
        """Retrieve for a user's question, with the diets, time limit and exclusions it asks
        for read from it (`filters` given by the caller win over what was read)."""
        searched, applied = question, filters
        if read_filters:
            read = await self.reader.read(question)
            searched, applied = read.text, read.filters.merged(filters)
        found = await self.retrieve(searched, top, mode=mode, filters=applied, semantic=semantic)
        return Retrieval(searched, applied, found, semantic)

    async def check_index(self, dimensions: int) -> None:
        """Refuse to search vectors made by another model: the results would be noise."""
        built = await self.index.index_info()
        configured = IndexInfo(self.embedder.model, dimensions)
        if built is not None and built != configured:
            raise IndexIncompatibleError(built, configured)
