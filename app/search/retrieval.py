"""Retrieval: a question in, the best recipes out, with their scores and no LLM call.

`/api/retrieve` and `/api/chat` both go through `Retriever.retrieve`, so retrieval can be
evaluated and tuned on its own. A question that names catalog recipes ("Considering the
Mushroom sauce and the Shakshouka, which is quicker?") gets those recipes, ranked for the
question and filtered as any search, rather than a fresh search that could drift to others.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.catalog.fresh import CatalogNames
from app.providers.errors import IndexIncompatibleError
from app.providers.protocols import (
    NO_SEMANTIC,
    Embedder,
    IndexInfo,
    RecipeStore,
    SearchIndex,
    SemanticOptions,
)
from app.recipes import Recipe
from app.search import accompaniments, servings
from app.search.filters import NO_FILTERS, RecipeFilters, RetrievalMode
from app.search.intents import preferences, preferred_first
from app.search.open_question import OPEN_SEARCH, WIDER, is_open, varied
from app.search.question_reader import QuestionReader, ReadQuestion, RuleReader
from app.search.variants import variants, without_besides


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
    # The catalog recipes the question named, which the results were kept to.
    named: tuple[str, ...] = ()


@dataclass(frozen=True)
class Retriever:
    embedder: Embedder
    index: SearchIndex
    store: RecipeStore
    reader: QuestionReader = field(default_factory=RuleReader)
    names: CatalogNames = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", CatalogNames(self.store))

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
        read: ReadQuestion | None = None,
    ) -> Retrieval:
        """Retrieve for a user's question, with the diets, time limit and exclusions it asks
        for read from it, or as `read` already (`filters` given by the caller win over what
        was read)."""
        searched, applied = question, filters
        if read is None and read_filters:
            read = await self.reader.read(question)
        if read is not None:
            searched, applied = read.text, read.filters.merged(filters)
        named, left = variants(question, await self.names.get())
        searched = without_besides(searched)
        if not named and is_open(searched):
            # "I want something vegetarian": nothing left to search by but the filters.
            searched = OPEN_SEARCH
            found = await self.retrieve(
                searched, top * WIDER + len(left), mode=mode, filters=applied, semantic=semantic
            )
            return Retrieval(
                searched, applied, varied([f for f in found if f.recipe.id not in left], top), semantic
            )
        # The dish something goes beside, when it is a catalog recipe: what suits it is searched.
        dishes = (
            await self.store.get_many(left)
            if left and accompaniments.asks_for_accompaniments(question)
            else []
        )
        searched, beside = accompaniments.search_text(question, searched, dishes)
        cooks_for = servings.people(question)
        prefers = preferences(read.intents, question) if read is not None else []
        wider = servings.WIDER if cooks_for or prefers else 1
        wanted = max(top, len(named)) if named else top * wider + len(left)
        beside = beside and not named
        if beside:
            wanted = top * accompaniments.WIDER * (3 if dishes else 1)
        found = await self.retrieve(searched, wanted, mode=mode, filters=applied, semantic=semantic)
        if named:
            found = await self.keep_named(named, found, applied)
        else:
            # Moved below the others rather than dropped: when nothing else fits, it still comes.
            found = [f for f in found if f.recipe.id not in left] + [f for f in found if f.recipe.id in left]
            # What is asked for ("sides", a brunch's breakfasts) before how many each serves.
            if cooks_for is not None:
                found = servings.enough_first(found, cooks_for)
            if prefers:
                found = preferred_first(found, prefers)
            if beside and dishes:
                # Beside a catalog recipe: what goes with it, then the recipe itself, which the
                # question is also about ("how long does it roast, and what goes with it?").
                # The filters are for what goes with it: "vegan sides for the Goulash" still
                # names the Goulash being cooked.
                kept = [ScoredRecipe(dish, 0.0) for dish in dishes[: top - 1]]
                others = [f for f in found if f.recipe.id not in left]
                found = accompaniments.beside_first(others, top - len(kept)) + kept
            else:
                found = accompaniments.beside_first(found, top) if beside else found[:top]
        return Retrieval(searched, applied, found, semantic, tuple(named))

    async def keep_named(
        self, named: list[str], found: list[ScoredRecipe], filters: RecipeFilters
    ) -> list[ScoredRecipe]:
        """The named recipes that pass the filters (all of them, if none does): those the
        search ranked first, in its order, then the rest in the order the question names them."""
        ranked = {f.recipe.id: f for f in found}
        missing = [i for i in named if i not in ranked]
        extra = {r.id: ScoredRecipe(r, 0.0) for r in await self.store.get_many(missing)} if missing else {}
        kept = [ranked[i] for i in ranked if i in named] + [extra[i] for i in missing if i in extra]
        # "Is the Shakshouka vegan?" asks about the recipe: when the filters leave none of
        # the named recipes, they all stay, so that the answer can say which fits none.
        return [f for f in kept if filters.admits(f.recipe)] or kept

    async def check_index(self, dimensions: int) -> None:
        """Refuse to search vectors made by another model: the results would be noise."""
        built = await self.index.index_info()
        configured = IndexInfo(self.embedder.model, dimensions)
        if built is not None and built != configured:
            raise IndexIncompatibleError(built, configured)
