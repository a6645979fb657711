"""Azure AI Search through the async `azure-search-documents` SDK.

A hybrid query is one request carrying both the search text and a vector query; the service
fuses the keyword and vector rankings with RRF itself. Filters travel as OData and apply
inside the service, before the top results are cut. The index is defined here, in code, and
its description records the embedding model that built it.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Sequence
from typing import Any

from app.providers.azure_credentials import azure_credential
from app.providers.errors import UpstreamError, retry_after_seconds
from app.providers.protocols import NO_SEMANTIC, IndexDocument, IndexInfo, SearchHit, SemanticOptions
from app.search.filters import DIET_FLAGS, NO_FILTERS, RecipeFilters
from app.search.recipe_facts import facts
from app.settings import Settings

log = logging.getLogger(__name__)

VECTOR_FIELD = "embedding"
# Vector candidates handed to fusion, matching the keyword side's 50.
VECTOR_CANDIDATES = 50
HNSW_CONFIG = "recipes-hnsw"
VECTOR_PROFILE = "recipes-vector-profile"
SEMANTIC_CONFIG = "recipes-semantic"
INFO_PATTERN = re.compile(r"embedding model: (?P<model>.+) \((?P<dimensions>\d+) dimensions\)")


def odata_filter(filters: RecipeFilters) -> str | None:
    clauses = [f"{flag} eq {str(wanted).lower()}" for flag, wanted in filters.diet().items()]
    if filters.max_total_minutes is not None:
        # `le` is false for a null time, so recipes with no known time never pass a limit.
        clauses.append(f"total_minutes le {filters.max_total_minutes}")
    if filters.exclude:
        # Phrases hold only letters, spaces, dashes and apostrophes; OData doubles the latter.
        phrases = " | ".join(f'"{phrase}"' for phrase in filters.exclude).replace("'", "''")
        clauses.append(f"not search.ismatch('{phrases}', 'title,ingredients,facts', 'simple', 'any')")
    return " and ".join(clauses) or None


def index_definition(name: str, info: IndexInfo) -> Any:
    from azure.search.documents.indexes.models import (
        HnswAlgorithmConfiguration,
        SearchableField,
        SearchField,
        SearchFieldDataType,
        SearchIndex,
        SemanticConfiguration,
        SemanticField,
        SemanticPrioritizedFields,
        SemanticSearch,
        SimpleField,
        VectorSearch,
        VectorSearchProfile,
    )

    fields = [
        SimpleField(name="id", type=SearchFieldDataType.STRING, key=True, filterable=True),
        SearchableField(name="title", analyzer_name="en.microsoft"),
        SearchableField(name="description", analyzer_name="en.microsoft"),
        SearchableField(name="ingredients", collection=True, analyzer_name="en.microsoft"),
        SearchableField(name="tags", collection=True, filterable=True, facetable=True),
        # What the recipe's own data says of it (app/search/recipe_facts.py): "main course",
        # "baked", "seafood"…, searched and excluded by as the embedded index does.
        SearchableField(name="facts", collection=True, analyzer_name="en.microsoft"),
        *(
            SimpleField(name=flag, type=SearchFieldDataType.BOOLEAN, filterable=True, facetable=True)
            for flag in DIET_FLAGS
        ),
        SimpleField(name="total_minutes", type=SearchFieldDataType.INT32, filterable=True, sortable=True),
        SimpleField(name="content_hash", type=SearchFieldDataType.STRING),
        SearchField(
            name=VECTOR_FIELD,
            # The SDK adds `Collection` at run time (indexes/models/_patch.py); its types omit it.
            type=SearchFieldDataType.Collection(SearchFieldDataType.SINGLE),  # type: ignore[operator]
            searchable=True,
            vector_search_dimensions=info.dimensions,
            vector_search_profile_name=VECTOR_PROFILE,
        ),
    ]
    return SearchIndex(
        name=name,
        description=f"recipes; embedding model: {info.embedding_model} ({info.dimensions} dimensions)",
        fields=fields,
        vector_search=VectorSearch(
            algorithms=[HnswAlgorithmConfiguration(name=HNSW_CONFIG)],
            profiles=[VectorSearchProfile(name=VECTOR_PROFILE, algorithm_configuration_name=HNSW_CONFIG)],
        ),
        semantic_search=SemanticSearch(
            configurations=[
                SemanticConfiguration(
                    name=SEMANTIC_CONFIG,
                    prioritized_fields=SemanticPrioritizedFields(
                        title_field=SemanticField(field_name="title"),
                        content_fields=[
                            SemanticField(field_name="description"),
                            SemanticField(field_name="ingredients"),
                        ],
                        keywords_fields=[SemanticField(field_name="tags"), SemanticField(field_name="facts")],
                    ),
                )
            ]
        ),
    )


def search_document(doc: IndexDocument) -> dict[str, Any]:
    recipe = doc.recipe
    return {
        "id": recipe.id,
        "title": recipe.title,
        "description": recipe.description,
        "ingredients": recipe.ingredients,
        "tags": recipe.tags,
        "facts": facts(recipe),
        "vegetarian": recipe.vegetarian,
        "vegan": recipe.vegan,
        "gluten_free": recipe.gluten_free,
        "dairy_free": recipe.dairy_free,
        "total_minutes": recipe.total_minutes,
        "content_hash": doc.content_hash,
        VECTOR_FIELD: list(doc.vector),
    }


def client_limits(settings: Settings) -> dict[str, Any]:
    """The bounds every Azure SDK client here is built with (both SDKs take these names)."""
    return {
        "connection_timeout": settings.azure_timeout_seconds,
        "read_timeout": settings.azure_timeout_seconds,
        "retry_total": settings.azure_max_retries,
        "retry_backoff_max": settings.azure_timeout_seconds,
    }


def azure_failure(error: Exception, service: str) -> UpstreamError:
    """An Azure SDK failure as a safe public error; throttling and transient faults retryable."""
    from azure.core.exceptions import (
        HttpResponseError,
        ServiceRequestError,
        ServiceRequestTimeoutError,
        ServiceResponseError,
        ServiceResponseTimeoutError,
    )

    log.warning("%s failed: %s: %s", service, type(error).__name__, error)
    if isinstance(error, ServiceRequestTimeoutError | ServiceResponseTimeoutError):
        return UpstreamError(f"The {service} took too long to answer.", status=504, retryable=True)
    status = getattr(error, "status_code", None)
    retry_after = None
    if isinstance(error, HttpResponseError) and error.response is not None:
        # Every HttpResponse has headers; the SDK's common base type does not declare them.
        retry_after = retry_after_seconds(error.response.headers.get("Retry-After"))  # type: ignore[attr-defined]
    transient = status in (408, 429, 500, 502, 503, 504) or isinstance(
        error, ServiceRequestError | ServiceResponseError
    )
    return UpstreamError(
        f"The {service} failed. Please try again.",
        status=503 if status == 429 else 502,
        retryable=transient,
        retry_after=retry_after,
    )


class AzureSearchIndex:
    supports_semantic = True

    def __init__(self, settings: Settings, **client_options: Any) -> None:
        from azure.search.documents.aio import SearchClient
        from azure.search.documents.indexes.aio import SearchIndexClient

        credential = azure_credential(settings.azure_search_api_key)
        endpoint = settings.azure_search_endpoint or ""
        self._name = settings.azure_search_index
        options = client_limits(settings) | client_options
        self._client = SearchClient(endpoint, self._name, credential, **options)
        self._indexes = SearchIndexClient(endpoint, credential, **options)
        self._info: IndexInfo | None = None
        self._vector_weight = settings.hybrid_vector_weight

    async def search(
        self,
        text: str | None,
        vector: Sequence[float] | None,
        top: int,
        filters: RecipeFilters = NO_FILTERS,
        semantic: SemanticOptions = NO_SEMANTIC,
    ) -> list[SearchHit]:
        from azure.core.exceptions import AzureError
        from azure.search.documents.models import VectorizedQuery, VectorQuery

        # The semantic ranker reranks by the search text, and captions come only with it.
        ranked = semantic.ranker and text is not None
        semantic_query: dict[str, Any] = {
            "query_type": "semantic",
            "semantic_configuration_name": SEMANTIC_CONFIG,
            "query_caption": "extractive" if semantic.captions else None,
        }
        queries: list[VectorQuery] = []
        if vector is not None:
            queries.append(
                VectorizedQuery(
                    vector=list(vector),
                    k_nearest_neighbors=VECTOR_CANDIDATES,
                    fields=VECTOR_FIELD,
                    # The vector ranking's weight in the fusion with the text query's; unset (not
                    # sent) when there is no text query, or when it is the service's default of 1.
                    weight=self._vector_weight if text is not None and self._vector_weight != 1 else None,
                )
            )
        try:
            results = await self._client.search(
                search_text=text,
                vector_queries=queries or None,
                filter=odata_filter(filters),
                top=top,
                select=["id"],
                **(semantic_query if ranked else {}),
            )
            return [
                SearchHit(
                    id=doc["id"],
                    score=doc.get("@search.reranker_score") or doc["@search.score"],
                    captions=tuple(c.text for c in doc.get("@search.captions") or () if c.text),
                )
                async for doc in results
            ]
        except AzureError as error:
            raise azure_failure(error, "search service") from error

    async def index_info(self) -> IndexInfo | None:
        """Read from the index's description once per process: the definition rarely changes."""
        from azure.core.exceptions import AzureError, ResourceNotFoundError

        if self._info is None:
            try:
                index = await self._indexes.get_index(self._name)
            except ResourceNotFoundError:
                return None
            except AzureError as error:
                raise azure_failure(error, "search service") from error
            match = INFO_PATTERN.search(index.description or "")
            if match:
                self._info = IndexInfo(match["model"], int(match["dimensions"]))
        return self._info

    async def prepare(self, info: IndexInfo, *, rebuild: bool = False) -> None:
        from azure.core.exceptions import AzureError, ResourceNotFoundError

        try:
            if rebuild:
                with contextlib.suppress(ResourceNotFoundError):
                    await self._indexes.delete_index(self._name)
            await self._indexes.create_or_update_index(index_definition(self._name, info))
        except AzureError as error:
            raise azure_failure(error, "search service") from error
        self._info = info

    async def content_hashes(self, ids: Sequence[str]) -> dict[str, str]:
        from azure.core.exceptions import AzureError, ResourceNotFoundError

        found: dict[str, str] = {}
        try:
            for start in range(0, len(ids), 500):
                chunk = list(ids[start : start + 500])
                # Recipe ids hold only [a-z0-9-], so a comma is a safe delimiter.
                results = await self._client.search(
                    search_text="*",
                    filter=f"search.in(id, '{','.join(chunk)}', ',')",
                    select=["id", "content_hash"],
                    top=len(chunk),
                )
                found.update({doc["id"]: doc["content_hash"] async for doc in results})
        except ResourceNotFoundError:
            return {}
        except AzureError as error:
            raise azure_failure(error, "search service") from error
        return found

    async def upsert(self, documents: Sequence[IndexDocument]) -> dict[str, str]:
        from azure.core.exceptions import AzureError

        try:
            results = await self._client.merge_or_upload_documents([search_document(d) for d in documents])
        except AzureError as error:
            raise azure_failure(error, "search service") from error
        return {r.key: r.error_message or f"status {r.status_code}" for r in results if not r.succeeded}

    async def delete(self, ids: Sequence[str]) -> None:
        from azure.core.exceptions import AzureError

        if not ids:
            return
        try:
            # Deleting an id that is not there succeeds, as a delete should.
            await self._client.delete_documents([{"id": i} for i in ids])
        except AzureError as error:
            raise azure_failure(error, "search service") from error

    async def close(self) -> None:
        await self._client.close()
        await self._indexes.close()
