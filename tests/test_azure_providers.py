"""The Azure AI Search and Cosmos DB providers, checked on the requests the SDKs really send.

A local aiohttp server plays the two services, so the SDKs run unchanged, through their
whole pipeline and their default async transport, with no network and no Azure account.
"""

from __future__ import annotations

import json

import pytest
from aiohttp import web

from app.providers.azure_search import AzureSearchIndex
from app.providers.cosmos_store import CosmosRecipeStore
from app.providers.errors import UpstreamError
from app.providers.protocols import IndexDocument, IndexInfo, SemanticOptions
from app.recipes import Recipe
from app.search.filters import RecipeFilters
from tests.support import COSMOS_KEY, DOCS, INDEX, QUICK_GIVE_UP, SEARCH_KEY, FakeAzure, never_answer, reply


def recipe(recipe_id: str, **fields) -> Recipe:
    return Recipe(id=recipe_id, title=recipe_id.title(), ingredients=["rice"], steps=["Cook."], **fields)


HITS = reply(
    {"value": [{"id": "mushroom-risotto", "@search.score": 0.033}, {"id": "aljotta", "@search.score": 0.02}]}
)


# --- Azure AI Search: searching ------------------------------------------------------------------


async def test_a_hybrid_search_is_one_request_with_text_and_vector(azure: FakeAzure, index):
    azure.on("POST", f"{INDEX}/docs/search.post.search", HITS)

    hits = await index.search("vegetarian mushroom recipes", [0.25, -0.5], top=3)

    assert [(h.id, h.score) for h in hits] == [("mushroom-risotto", 0.033), ("aljotta", 0.02)]
    [sent] = azure.requests("POST", f"{INDEX}/docs/search.post.search")
    assert sent.headers["api-key"] == SEARCH_KEY
    assert sent.json() == {
        "search": "vegetarian mushroom recipes",
        "top": 3,
        "select": "id",
        # HYBRID_VECTOR_WEIGHT (1.5): the vector ranking's weight in the service's fusion.
        "vectorQueries": [
            {"kind": "vector", "vector": [0.25, -0.5], "k": 50, "fields": "embedding", "weight": 1.5}
        ],
    }


async def test_text_and_vector_modes_send_only_their_half(azure: FakeAzure, index):
    azure.on("POST", f"{INDEX}/docs/search.post.search", HITS)

    await index.search("mushrooms", None, top=3)
    await index.search(None, [1.0, 0.0], top=3)

    text_only, vector_only = (s.json() for s in azure.requests("POST", f"{INDEX}/docs/search.post.search"))
    assert text_only == {"search": "mushrooms", "top": 3, "select": "id"}
    assert "search" not in vector_only and vector_only["vectorQueries"][0]["vector"] == [1.0, 0.0]
    assert "weight" not in vector_only["vectorQueries"][0]  # nothing to weigh it against


async def test_filters_travel_as_odata_so_the_service_applies_them_before_the_cut(azure: FakeAzure, index):
    azure.on("POST", f"{INDEX}/docs/search.post.search", HITS)

    await index.search(
        "soup", [1.0], top=3, filters=RecipeFilters(vegan=True, gluten_free=False, max_total_minutes=30)
    )

    [sent] = azure.requests("POST", f"{INDEX}/docs/search.post.search")
    assert sent.json()["filter"] == "vegan eq true and gluten_free eq false and total_minutes le 30"


async def test_exclusions_are_a_full_text_match_on_title_ingredients_and_facts_negated(
    azure: FakeAzure, index
):
    azure.on("POST", f"{INDEX}/docs/search.post.search", HITS)

    await index.search("beef", [1.0], top=3, filters=RecipeFilters(exclude=("stew", "cook's pie")))

    [sent] = azure.requests("POST", f"{INDEX}/docs/search.post.search")
    assert sent.json()["filter"] == (
        "not search.ismatch('\"stew\" | \"cook''s pie\"', 'title,ingredients,facts', 'simple', 'any')"
    )


async def test_the_semantic_ranker_and_captions_are_asked_for_and_read(azure: FakeAzure, index):
    reranked = {
        "value": [
            {
                "id": "aljotta",
                "@search.score": 0.02,
                "@search.rerankerScore": 2.9,
                "@search.captions": [{"text": "A Maltese fish soup.", "highlights": ""}],
            }
        ]
    }
    azure.on("POST", f"{INDEX}/docs/search.post.search", reply(reranked))

    hits = await index.search("fish soup", [1.0], 3, semantic=SemanticOptions(ranker=True, captions=True))
    await index.search(None, [1.0], 3, semantic=SemanticOptions(ranker=True))

    assert [(h.id, h.score, h.captions) for h in hits] == [("aljotta", 2.9, ("A Maltese fish soup.",))]
    semantic, vectors_only = (s.json() for s in azure.requests("POST", f"{INDEX}/docs/search.post.search"))
    assert semantic["queryType"] == "semantic"
    assert semantic["semanticConfiguration"] == "recipes-semantic"
    assert semantic["captions"] == "extractive"
    assert "queryType" not in vectors_only  # the ranker needs search text


async def test_a_search_failure_becomes_a_safe_public_error(azure: FakeAzure, index):
    azure.on(
        "POST",
        f"{INDEX}/docs/search.post.search",
        reply({"error": {"message": f"bad key {SEARCH_KEY}"}}, 403),
    )

    with pytest.raises(UpstreamError) as raised:
        await index.search("soup", [1.0], top=3)

    assert raised.value.public_message == "The search service failed. Please try again."
    assert not raised.value.retryable
    assert SEARCH_KEY not in str(raised.value)


async def test_a_silent_search_service_is_given_up_on_after_the_set_timeout(azure: FakeAzure):
    azure.on("POST", f"{INDEX}/docs/search.post.search", never_answer)
    index = AzureSearchIndex(azure.settings(**QUICK_GIVE_UP))

    with pytest.raises(UpstreamError) as raised:
        await index.search("soup", [1.0], top=3)
    await index.close()

    assert (raised.value.status, raised.value.public_message) == (
        504,
        "The search service took too long to answer.",
    )


# --- Azure AI Search: the index and its documents ------------------------------------------------


async def test_the_index_is_defined_in_code_for_the_embedding_model(azure: FakeAzure, index):
    azure.on("PUT", INDEX, lambda request, body: web.json_response(json.loads(body), status=201))

    await index.prepare(IndexInfo("text-embedding-3-small", 1536))

    definition = azure.requests("PUT", INDEX)[0].json()
    fields = {f["name"]: f for f in definition["fields"]}
    assert fields["id"]["key"] is True
    assert {name for name, f in fields.items() if f.get("searchable")} == {
        "title",
        "description",
        "ingredients",
        "tags",
        "facts",
        "embedding",
    }
    assert fields["embedding"]["dimensions"] == 1536
    assert fields["embedding"]["vectorSearchProfile"] == "recipes-vector-profile"
    for name in ("vegetarian", "vegan", "gluten_free", "dairy_free", "total_minutes", "tags"):
        assert fields[name]["filterable"] is True
    assert fields["total_minutes"]["sortable"] is True
    assert definition["vectorSearch"]["algorithms"][0]["kind"] == "hnsw"
    assert definition["vectorSearch"]["profiles"] == [
        {"name": "recipes-vector-profile", "algorithm": "recipes-hnsw"}
    ]
    semantic = definition["semantic"]["configurations"][0]["prioritizedFields"]
    assert semantic["titleField"] == {"fieldName": "title"}
    assert definition["description"] == "recipes; embedding model: text-embedding-3-small (1536 dimensions)"


async def test_the_index_says_which_embedding_model_built_it(azure: FakeAzure, index):
    described = {
        "name": "recipes",
        "fields": [],
        "description": "recipes; embedding model: m-1 (3 dimensions)",
    }
    azure.on("GET", INDEX, reply(described))

    assert await index.index_info() == IndexInfo("m-1", 3)


async def test_a_missing_index_has_no_model_yet(index):
    assert await index.index_info() is None


async def test_a_rebuild_deletes_the_index_before_creating_it(azure: FakeAzure, index):
    azure.on("DELETE", INDEX, lambda request, body: web.Response(status=204))
    azure.on("PUT", INDEX, lambda request, body: web.json_response(json.loads(body), status=201))

    await index.prepare(IndexInfo("m", 3), rebuild=True)

    assert [(s.method, s.path) for s in azure.seen] == [("DELETE", INDEX), ("PUT", INDEX)]


async def test_documents_are_uploaded_with_their_vector_flags_and_hash_and_failures_reported(azure, index):
    results = [
        {"key": "a", "status": True, "errorMessage": None, "statusCode": 201},
        {"key": "b", "status": False, "errorMessage": "Document is too large.", "statusCode": 400},
    ]
    azure.on("POST", f"{INDEX}/docs/search.index", reply({"value": results}, 207))
    documents = [
        IndexDocument(recipe("a", vegan=True, total_minutes=20), "hash-a", [0.5, 0.5]),
        IndexDocument(recipe("b"), "hash-b", [1.0, 0.0]),
    ]

    errors = await index.upsert(documents)

    assert errors == {"b": "Document is too large."}
    first = azure.requests("POST", f"{INDEX}/docs/search.index")[0].json()["value"][0]
    assert first == {
        "@search.action": "mergeOrUpload",
        "id": "a",
        "title": "A",
        "description": "",
        "ingredients": ["rice"],
        "tags": [],
        "facts": ["quick"],
        "vegetarian": False,
        "vegan": True,
        "gluten_free": False,
        "dairy_free": False,
        "total_minutes": 20,
        "content_hash": "hash-a",
        "embedding": [0.5, 0.5],
    }


async def test_content_hashes_are_read_with_one_filtered_query(azure: FakeAzure, index):
    azure.on(
        "POST",
        f"{INDEX}/docs/search.post.search",
        reply({"value": [{"id": "a", "content_hash": "h1", "@search.score": 1}]}),
    )

    assert await index.content_hashes(["a", "b"]) == {"a": "h1"}
    [sent] = azure.requests("POST", f"{INDEX}/docs/search.post.search")
    assert sent.json() == {
        "search": "*",
        "filter": "search.in(id, 'a,b', ',')",
        "select": "id,content_hash",
        "top": 2,
    }


async def test_a_delete_sends_delete_actions(azure: FakeAzure, index):
    azure.on(
        "POST",
        f"{INDEX}/docs/search.index",
        reply({"value": [{"key": "a", "status": True, "statusCode": 200}]}),
    )

    await index.delete(["a"])

    assert azure.requests("POST", f"{INDEX}/docs/search.index")[0].json() == {
        "value": [{"@search.action": "delete", "id": "a"}]
    }


async def test_throttling_is_retryable_after_the_time_the_service_asks(azure: FakeAzure, index):
    busy = reply({"error": {"message": "Too many requests"}}, 429, **{"Retry-After": "7"})
    azure.on("POST", f"{INDEX}/docs/search.index", busy)
    client_without_sdk_retries = AzureSearchIndex(azure.settings(), retry_total=0)

    with pytest.raises(UpstreamError) as raised:
        await client_without_sdk_retries.upsert([IndexDocument(recipe("a"), "h", [1.0])])
    await client_without_sdk_retries.close()

    assert (raised.value.retryable, raised.value.retry_after, raised.value.status) == (True, 7.0, 503)


# --- Cosmos DB -----------------------------------------------------------------------------------


def stored(recipe_id: str, title: str) -> dict:
    return recipe(recipe_id).model_dump() | {"title": title, "content_hash": "h", "_etag": '"1"', "_ts": 1}


async def test_recipes_are_point_reads_by_id_in_the_order_asked(azure: FakeAzure, store):
    catalog = {"apple-pie": stored("apple-pie", "Apple pie"), "aljotta": stored("aljotta", "Aljotta")}

    def document(request: web.Request, body: str) -> web.Response:
        recipe_id = request.rel_url.path.rstrip("/").rsplit("/", 1)[-1]
        if recipe_id in catalog:
            return web.json_response(catalog[recipe_id])
        return web.json_response({"code": "NotFound"}, status=404)

    azure.on("GET", DOCS + "*", document)

    recipes = await store.get_many(["aljotta", "gone", "apple-pie"])

    assert [(r.id, r.title) for r in recipes] == [("aljotta", "Aljotta"), ("apple-pie", "Apple pie")]
    reads = azure.requests("GET", DOCS)
    assert sorted((s.path, s.headers["x-ms-documentdb-partitionkey"]) for s in reads) == [
        (DOCS + "aljotta/", '["aljotta"]'),
        (DOCS + "apple-pie/", '["apple-pie"]'),
        (DOCS + "gone/", '["gone"]'),
    ]


async def test_a_recipe_is_upserted_with_its_content_hash(azure: FakeAzure, store):
    azure.on("POST", DOCS, lambda request, body: web.json_response(json.loads(body), status=201))

    assert await store.upsert([(recipe("a"), "hash-a")]) == {}

    [sent] = azure.requests("POST", DOCS)
    assert sent.headers["x-ms-documentdb-is-upsert"] == "True"
    assert sent.headers["x-ms-documentdb-partitionkey"] == '["a"]'
    assert sent.json() == recipe("a").model_dump() | {"content_hash": "hash-a"}


async def test_content_hashes_come_from_one_query(azure: FakeAzure, store):
    azure.on("POST", DOCS, reply({"Documents": [{"id": "a", "content_hash": "h1"}], "_count": 1}))

    assert await store.content_hashes(["a", "b"]) == {"a": "h1"}
    [sent] = azure.requests("POST", DOCS)
    assert sent.headers["x-ms-documentdb-isquery"] == "true"
    assert sent.json() == {
        "query": "SELECT c.id, c.content_hash FROM c WHERE ARRAY_CONTAINS(@ids, c.id)",
        "parameters": [{"name": "@ids", "value": ["a", "b"]}],
    }


async def test_deleting_a_recipe_that_is_already_gone_succeeds(azure: FakeAzure, store):
    azure.on("DELETE", DOCS + "*", reply({"code": "NotFound"}, 404))

    await store.delete(["gone"])

    assert [s.path for s in azure.requests("DELETE", DOCS)] == [DOCS + "gone/"]


async def test_a_store_failure_becomes_a_safe_public_error(azure: FakeAzure, store):
    azure.on("GET", DOCS + "*", reply({"code": "Forbidden", "message": "no access"}, 403))

    with pytest.raises(UpstreamError) as raised:
        await store.get_many(["aljotta"])

    assert raised.value.public_message == "The recipe store failed. Please try again."
    assert COSMOS_KEY not in str(raised.value)


async def test_a_silent_store_is_given_up_on_after_the_set_timeout(azure: FakeAzure):
    azure.on("GET", DOCS + "*", never_answer)
    store = CosmosRecipeStore(azure.settings(**QUICK_GIVE_UP))

    with pytest.raises(UpstreamError) as raised:
        await store.get_many(["aljotta"])
    await store.close()

    assert (raised.value.status, raised.value.public_message) == (
        504,
        "The recipe store took too long to answer.",
    )
