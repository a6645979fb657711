"""What the app knows for certain: the catalog's recipe names, kept, and a follow-up resolved against them."""

from __future__ import annotations

import time
from collections.abc import Sequence

from app.chat.recipe_names import RecipeNames
from app.chat.references.resolution import Resolution
from app.chat.references.resolver import Resolver, as_read
from app.http.bodies import Message
from app.providers.protocols import RecipeStore


class CatalogNames:
    """The catalog's `RecipeNames`, read once from the store and kept: dropped when this
    process changes the catalog, and read again after `max_age` seconds, so that an
    instance picks up what another instance indexed."""

    def __init__(self, store: RecipeStore, max_age: float = 300.0) -> None:
        self._store = store
        self._max_age = max_age
        self._names: RecipeNames | None = None
        self._read_at = 0.0

    async def get(self) -> RecipeNames:
        if self._names is None or time.monotonic() - self._read_at > self._max_age:
            self._names = RecipeNames(await self._store.titles(), await self._store.ingredients_and_steps())
            self._read_at = time.monotonic()
        return self._names

    def forget(self) -> None:
        self._names = None


class Catalog:
    """What the app knows for certain: its recipes' titles, and their data on demand."""

    def __init__(self, store: RecipeStore, max_age: float = 300.0) -> None:
        self.store = store
        self.names = CatalogNames(store, max_age)

    async def resolve(self, message: str, history: Sequence[Message]) -> Resolution:
        names = await self.names.get()
        history = as_read(history)
        context = " ".join(turn.content for turn in history)
        named = [i for turn in history for i in names.in_conversation(turn.content, context)]
        # Dishes an answer names in passing, for the resolver to settle against these recipes.
        passing = [i for turn in history if turn.role == "assistant" for _, i in names.anywhere(turn.content)]
        ids = list(dict.fromkeys([*named, *passing]))
        recipes = {r.id: r for r in await self.store.get_many(ids)} if ids else {}
        return Resolver(names, recipes).resolve(message, history)
