"""Recipes in Azure Cosmos DB through the async `azure-cosmos` SDK.

The container is partitioned on `/id`, so fetching a recipe is a point read: the cheapest
operation Cosmos DB has (1 RU for a small item). Each stored recipe carries its content hash,
which the indexing pipeline compares to skip unchanged recipes.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

from app.providers.azure_credentials import entra_credential
from app.providers.azure_search import azure_failure, client_limits
from app.recipes import Recipe
from app.settings import Settings


class CosmosRecipeStore:
    def __init__(self, settings: Settings, **client_options: Any) -> None:
        from azure.cosmos.aio import CosmosClient

        key = settings.azure_cosmos_key
        # Unlike the other Azure SDKs, Cosmos DB takes its account key as a plain string.
        credential = key.get_secret_value() if key else entra_credential()
        self._client = CosmosClient(
            settings.azure_cosmos_endpoint or "",
            credential=credential,
            **(client_limits(settings) | client_options),
        )
        self._container = self._client.get_database_client(
            settings.azure_cosmos_database
        ).get_container_client(settings.azure_cosmos_container)

    async def titles(self) -> dict[str, str]:
        from azure.core.exceptions import AzureError

        try:
            return {
                row["id"]: row["title"]
                async for row in self._container.query_items("SELECT c.id, c.title FROM c")
            }
        except AzureError as error:
            raise azure_failure(error, "recipe store") from error

    async def ingredients_and_steps(self) -> dict[str, list[str]]:
        from azure.core.exceptions import AzureError

        try:
            return {
                row["id"]: [*(row.get("ingredients") or []), *(row.get("steps") or [])]
                async for row in self._container.query_items("SELECT c.id, c.ingredients, c.steps FROM c")
            }
        except AzureError as error:
            raise azure_failure(error, "recipe store") from error

    async def get_many(self, ids: Sequence[str]) -> list[Recipe]:
        from azure.core.exceptions import AzureError

        try:
            items = await asyncio.gather(*(self._read(i) for i in ids))
        except AzureError as error:
            raise azure_failure(error, "recipe store") from error
        return [item for item in items if item is not None]

    async def _read(self, recipe_id: str) -> Recipe | None:
        from azure.cosmos.exceptions import CosmosResourceNotFoundError

        try:
            item = await self._container.read_item(item=recipe_id, partition_key=recipe_id)
        except CosmosResourceNotFoundError:
            return None
        # Cosmos adds system properties (_rid, _etag, _ts...), and we add the content hash.
        return Recipe.model_validate(
            {k: v for k, v in item.items() if not k.startswith("_") and k != "content_hash"}
        )

    async def content_hashes(self, ids: Sequence[str]) -> dict[str, str]:
        from azure.core.exceptions import AzureError

        query = "SELECT c.id, c.content_hash FROM c WHERE ARRAY_CONTAINS(@ids, c.id)"
        found: dict[str, str] = {}
        try:
            for start in range(0, len(ids), 500):
                chunk = list(ids[start : start + 500])
                parameters: list[dict[str, object]] = [{"name": "@ids", "value": chunk}]
                async for row in self._container.query_items(query, parameters=parameters):
                    if row.get("content_hash"):
                        found[row["id"]] = row["content_hash"]
        except AzureError as error:
            raise azure_failure(error, "recipe store") from error
        return found

    async def upsert(self, recipes: Sequence[tuple[Recipe, str]]) -> dict[str, str]:
        from azure.core.exceptions import AzureError

        async def write(recipe: Recipe, digest: str) -> str | None:
            try:
                await self._container.upsert_item(recipe.model_dump() | {"content_hash": digest})
            except AzureError as error:
                return azure_failure(error, "recipe store").public_message
            return None

        outcomes = await asyncio.gather(*(write(recipe, digest) for recipe, digest in recipes))
        return {recipe.id: failed for (recipe, _), failed in zip(recipes, outcomes, strict=True) if failed}

    async def delete(self, ids: Sequence[str]) -> None:
        from azure.core.exceptions import AzureError
        from azure.cosmos.exceptions import CosmosResourceNotFoundError

        async def remove(recipe_id: str) -> None:
            # Already gone is what a delete wants.
            with contextlib.suppress(CosmosResourceNotFoundError):
                await self._container.delete_item(item=recipe_id, partition_key=recipe_id)

        try:
            await asyncio.gather(*(remove(i) for i in ids))
        except AzureError as error:
            raise azure_failure(error, "recipe store") from error

    async def close(self) -> None:
        await self._client.close()
