"""The catalog's names, read from the store once and kept fresh."""

from __future__ import annotations

import time

from app.catalog.names import RecipeNames
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
