"""Recipes in Azure Cosmos DB through the async `azure-cosmos` SDK.

The container is partitioned on `/id`, so fetching a recipe is a point read: the cheapest
operation Cosmos DB has (1 RU for a small item).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from app.providers import UpstreamError
from app.providers.azure_credentials import entra_credential
from app.recipes import Recipe
from app.settings import Settings

log = logging.getLogger(__name__)


class CosmosRecipeStore:
    def __init__(self, settings: Settings, **client_options: Any) -> None:
        from azure.cosmos.aio import CosmosClient

        key = settings.azure_cosmos_key
        # Unlike the other Azure SDKs, Cosmos DB takes its account key as a plain string.
        credential = key.get_secret_value() if key else entra_credential()
        self._client = CosmosClient(
            settings.azure_cosmos_endpoint or "", credential=credential, **client_options
        )
        self._container = self._client.get_database_client(
            settings.azure_cosmos_database
        ).get_container_client(settings.azure_cosmos_container)

    async def get_many(self, ids: Sequence[str]) -> list[Recipe]:
        from azure.core.exceptions import AzureError

        try:
            items = await asyncio.gather(*(self._read(i) for i in ids))
        except AzureError as error:
            log.warning("recipe store failed: %s: %s", type(error).__name__, error)
            raise UpstreamError("The recipe store failed. Please try again.") from error
        return [item for item in items if item is not None]

    async def _read(self, recipe_id: str) -> Recipe | None:
        from azure.cosmos.exceptions import CosmosResourceNotFoundError

        try:
            item = await self._container.read_item(item=recipe_id, partition_key=recipe_id)
        except CosmosResourceNotFoundError:
            return None
        # Cosmos adds system properties (_rid, _etag, _ts...) that are not part of a recipe.
        return Recipe.model_validate({k: v for k, v in item.items() if not k.startswith("_")})

    async def close(self) -> None:
        await self._client.close()
