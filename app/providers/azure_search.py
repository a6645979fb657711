"""Azure AI Search through the async `azure-search-documents` SDK.

A hybrid query is one request carrying both the search text and a vector query; the service
fuses the keyword and vector rankings with RRF itself.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from app.providers import SearchHit, UpstreamError
from app.providers.azure_credentials import azure_credential
from app.settings import Settings

log = logging.getLogger(__name__)

VECTOR_FIELD = "embedding"
# Vector candidates handed to fusion, matching the keyword side's 50.
VECTOR_CANDIDATES = 50


class AzureSearchIndex:
    def __init__(self, settings: Settings, **client_options: Any) -> None:
        from azure.search.documents.aio import SearchClient

        self._client = SearchClient(
            endpoint=settings.azure_search_endpoint or "",
            index_name=settings.azure_search_index,
            credential=azure_credential(settings.azure_search_api_key),
            **client_options,
        )

    async def hybrid_search(self, text: str, vector: Sequence[float], top: int) -> list[SearchHit]:
        from azure.core.exceptions import AzureError
        from azure.search.documents.models import VectorizedQuery

        query = VectorizedQuery(
            vector=list(vector), k_nearest_neighbors=VECTOR_CANDIDATES, fields=VECTOR_FIELD
        )
        try:
            results = await self._client.search(
                search_text=text, vector_queries=[query], top=top, select=["id"]
            )
            return [SearchHit(id=doc["id"], score=doc["@search.score"]) async for doc in results]
        except AzureError as error:
            log.warning("search failed: %s: %s", type(error).__name__, error)
            raise UpstreamError("The search service failed. Please try again.") from error

    async def close(self) -> None:
        await self._client.close()
