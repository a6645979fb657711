"""A follow-up resolved against the catalog's names and the recipes the conversation named."""

from __future__ import annotations

from collections.abc import Sequence

from app.catalog.fresh import CatalogNames
from app.chat.references.resolution import Resolution
from app.chat.references.resolver import Resolver, as_read
from app.http.bodies import Message
from app.providers.protocols import RecipeStore


class Catalog:
    """The catalog's names, and the data of the recipes a conversation named, read on demand."""

    def __init__(self, store: RecipeStore, names: CatalogNames) -> None:
        self.store = store
        self.names = names

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
