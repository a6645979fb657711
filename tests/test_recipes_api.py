"""The retrieval and recipe endpoints: /api/retrieve, /api/recipes/{id}, /api/recipes/index."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr
from starlette.testclient import TestClient

import function_app
from app.providers.protocols import IndexInfo
from app.providers.sqlite_catalog import SqliteDatabase, SqliteRecipeStore
from app.providers.sqlite_index import SqliteSearchIndex
from app.search.retrieval import Retriever
from app.services import Services, use_services

TEST_ADMIN_KEY = "recipes-api-test-key"
SOUP = {"id": "new-soup", "title": "New soup", "ingredients": ["water", "leeks"], "steps": ["Boil."]}


@pytest.fixture
def empty_retriever(tmp_path: Path, embedder) -> Retriever:
    database = SqliteDatabase(tmp_path / "t.sqlite3")
    return Retriever(embedder, SqliteSearchIndex(database), SqliteRecipeStore(database))


@pytest.fixture
def empty_client(empty_retriever: Retriever, llm, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The app on an empty store and index of its own, for tests that write, with the admin key."""
    from local_host import create_app

    monkeypatch.setattr(function_app.settings, "admin_key", SecretStr(TEST_ADMIN_KEY))
    use_services(Services(llm=llm, retriever=empty_retriever))
    with TestClient(create_app(), headers={"x-functions-key": TEST_ADMIN_KEY}) as test_client:
        yield test_client
    use_services(None)


# --- /api/retrieve -------------------------------------------------------------------------------


def test_retrieve_returns_ranked_recipes_with_scores_and_no_llm_call(client, llm):
    response = client.post("/api/retrieve", json={"query": "something warm with oysters", "top": 3})

    results = response.json()["results"]
    assert response.status_code == 200
    assert len(results) == 3
    assert [r["score"] for r in results] == sorted((r["score"] for r in results), reverse=True)
    assert "ingredients" in results[0]["recipe"]
    assert llm.calls == []


@pytest.mark.parametrize("mode", ["hybrid", "vectors", "text"])
def test_retrieve_applies_diet_and_time_filters_in_each_mode(client, mode):
    body = {
        "query": "soup",
        "top": 5,
        "retrieval_mode": mode,
        "filters": {"vegan": True, "max_total_minutes": 60},
    }

    results = client.post("/api/retrieve", json=body).json()["results"]

    assert results
    assert all(r["recipe"]["vegan"] and r["recipe"]["total_minutes"] <= 60 for r in results)


def test_retrieve_defaults_to_the_configured_top(client, settings):
    assert (
        len(client.post("/api/retrieve", json={"query": "chicken"}).json()["results"]) == settings.search_top
    )


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (
            {"query": "soup", "retrieval_mode": "fuzzy"},
            "retrieval_mode: Input should be 'hybrid', 'vectors' or 'text'.",
        ),
        ({"query": "soup", "top": 0}, "top: Input should be greater than or equal to 1."),
        ({"query": "soup", "filters": {"halal": True}}, "filters.halal: is not a known field."),
        ({"query": "  "}, "query: must not be empty."),
    ],
)
def test_a_bad_retrieve_request_says_what_is_wrong(client, body, error):
    response = client.post("/api/retrieve", json=body)

    assert (response.status_code, response.json()) == (400, {"error": error})


def test_retrieving_from_an_index_built_by_another_model_is_a_409(empty_client, empty_retriever):
    asyncio.run(empty_retriever.index.prepare(IndexInfo("text-embedding-3-small", 1536)))

    response = empty_client.post("/api/retrieve", json={"query": "soup"})

    assert response.status_code == 409
    assert response.json()["code"] == "index_incompatible"
    assert "text-embedding-3-small" in response.json()["error"]


# --- /api/recipes/{id} ---------------------------------------------------------------------------


def test_retrieve_reads_diets_time_and_exclusions_from_the_query_and_shows_them(client):
    response = client.post("/api/retrieve", json={"query": "vegetarian pasta without tomatoes", "top": 5})

    body = response.json()
    assert body["searched"] == "pasta"  # the diet and the exclusion became filters
    assert body["filters"]["vegetarian"] is True
    assert body["filters"]["exclude"] == ["tomatoes"]
    assert body["results"]
    for result in body["results"]:
        recipe = result["recipe"]
        assert recipe["vegetarian"]
        assert "tomato" not in (recipe["title"] + " ".join(recipe["ingredients"])).lower()


def test_filters_given_win_over_those_read_and_reading_can_be_turned_off(client):
    given = client.post("/api/retrieve", json={"query": "vegan soup", "filters": {"vegan": False}}).json()
    raw = client.post(
        "/api/retrieve", json={"query": "vegan soup without leeks", "read_filters": False}
    ).json()

    assert given["filters"]["vegan"] is False
    assert all(not r["recipe"]["vegan"] for r in given["results"])
    assert raw["searched"] == "vegan soup without leeks"
    assert raw["filters"]["vegan"] is None and raw["filters"]["exclude"] == []


def test_a_recipe_is_returned_whole(client):
    response = client.get("/api/recipes/apple-pie")

    recipe = response.json()
    assert response.status_code == 200
    assert recipe["title"] == "Apple Pie"
    assert recipe["ingredients"] and recipe["steps"]
    assert recipe["total_minutes"] == 75


def test_a_missing_recipe_is_a_404(client):
    response = client.get("/api/recipes/no-such-dish")

    assert (response.status_code, response.json()) == (
        404,
        {"error": "There is no recipe with the id 'no-such-dish'."},
    )


def test_a_malformed_recipe_id_is_a_400(client):
    assert client.get("/api/recipes/Not_An_Id").status_code == 400


# --- /api/recipes/index and DELETE /api/recipes/{id} ---------------------------------------------


def test_a_json_catalog_is_indexed_and_then_searchable(empty_client):
    response = empty_client.post("/api/recipes/index", json=[SOUP])

    assert response.status_code == 200
    assert response.json() == {
        "indexing_result": {"new-soup": {"status": "indexed", "errors": []}},
        "indexed": 1,
        "unchanged": 0,
        "valid": 0,
        "deleted": 0,
        "failed": 0,
    }
    assert empty_client.get("/api/recipes/new-soup").json()["title"] == "New soup"
    found = empty_client.post("/api/retrieve", json={"query": "leeks", "retrieval_mode": "text"}).json()
    assert [r["recipe"]["id"] for r in found["results"]] == ["new-soup"]


def test_json_lines_are_indexed_line_by_line_and_bad_lines_reported(empty_client):
    body = json.dumps(SOUP) + "\nnot json\n" + json.dumps({"id": "half"}) + "\n"

    report = empty_client.post(
        "/api/recipes/index", content=body, headers={"Content-Type": "application/jsonl"}
    ).json()

    assert (report["indexed"], report["failed"]) == (1, 2)
    assert report["indexing_result"]["line 2"]["errors"][0]["type"] == "invalid_json"
    assert report["indexing_result"]["half"]["errors"][0]["type"] == "validation_error"


def test_indexing_options_come_from_the_query_or_beside_the_recipes(empty_client):
    empty_client.post("/api/recipes/index", json=[SOUP])

    unchanged = empty_client.post("/api/recipes/index", json=[SOUP]).json()
    forced = empty_client.post("/api/recipes/index?force_indexing=true", json=[SOUP]).json()
    checked = empty_client.post(
        "/api/recipes/index", json={"recipes": [SOUP | {"title": "X"}], "allow_indexing": False}
    )

    assert unchanged["unchanged"] == 1
    assert forced["indexed"] == 1
    assert checked.json()["valid"] == 1
    assert empty_client.get("/api/recipes/new-soup").json()["title"] == "New soup"


@pytest.mark.parametrize(
    ("content", "content_type", "status", "error"),
    [
        (
            "[]",
            "text/plain",
            415,
            "Send recipes as JSON (application/json) or JSON Lines (application/jsonl).",
        ),
        ("{oops", "application/json", 400, None),
        ('"a string"', "application/json", 400, None),
    ],
)
def test_a_catalog_that_cannot_be_read_is_refused_whole(empty_client, content, content_type, status, error):
    response = empty_client.post(
        "/api/recipes/index", content=content, headers={"Content-Type": content_type}
    )

    assert response.status_code == status
    assert error is None or response.json() == {"error": error}


def test_an_option_that_is_not_a_boolean_is_a_400(empty_client):
    response = empty_client.post("/api/recipes/index?force_indexing=maybe", json=[SOUP])

    assert (response.status_code, response.json()) == (
        400,
        {"error": "force_indexing must be true or false."},
    )


def test_deleting_a_recipe_removes_it_from_store_and_index(empty_client):
    empty_client.post("/api/recipes/index", json=[SOUP])

    response = empty_client.delete("/api/recipes/new-soup")

    assert response.json()["indexing_result"] == {"new-soup": {"status": "deleted", "errors": []}}
    assert empty_client.get("/api/recipes/new-soup").status_code == 404
    assert (
        empty_client.post("/api/retrieve", json={"query": "leeks", "retrieval_mode": "text"}).json()[
            "results"
        ]
        == []
    )
    assert empty_client.delete("/api/recipes/new-soup").status_code == 404


def test_changing_the_catalog_is_for_admins_and_key_holders():
    from function_app import app
    from local_host import registered_functions

    levels = {f.get_function_name(): f.get_trigger().auth_level for f in registered_functions(app)}
    config = json.loads(Path("staticwebapp.config.json").read_text())
    admin_routes = {
        (r["route"], tuple(r["methods"])) for r in config["routes"] if r.get("allowedRoles") == ["admin"]
    }

    assert str(levels["index_recipes"]).lower().endswith("function")
    assert str(levels["delete_recipe"]).lower().endswith("function")
    assert str(levels["get_recipe"]).lower().endswith("anonymous")
    # Wildcards, so that another spelling of the path is no way round (the app checks the key too).
    assert admin_routes == {("/api/recipes*", ("POST",)), ("/api/*", ("DELETE", "PUT", "PATCH"))}


@pytest.mark.parametrize("key", [None, "", "wrong", TEST_ADMIN_KEY + "x"])
@pytest.mark.parametrize(
    ("method", "path"), [("POST", "/api/recipes/index"), ("DELETE", "/api/recipes/new-soup")]
)
def test_the_admin_routes_need_the_admin_key(
    empty_client: TestClient, key: str | None, method: str, path: str
):
    headers = {"x-functions-key": key} if key is not None else {}
    empty_client.headers.pop("x-functions-key")

    response = empty_client.request(method, path, json=[SOUP], headers=headers)

    assert response.status_code in (401, 403), response.text
    assert "admin key" in response.json()["error"]


def test_the_admin_routes_are_closed_without_an_admin_key_set(empty_client: TestClient, monkeypatch):
    monkeypatch.setattr(function_app.settings, "admin_key", None)

    response = empty_client.post("/api/recipes/index", json=[SOUP])

    assert response.status_code == 403 and "python -m app.index_recipes" in response.json()["error"]
