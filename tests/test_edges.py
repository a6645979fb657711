"""The edges of the API (issue 15, items 4 to 7): numbers JSON cannot carry, slow and vanishing
clients, internals in messages, unknown routes and methods, redirects, security headers and
loose coercion. Each of these was reproduced against `make run` before it was fixed."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from starlette.testclient import TestClient

import function_app
from app.http.edge import API_HEADERS
from app.settings import Settings, get_settings
from tests.support import ScriptedChatModel

PROTOCOL = {"messages": [{"role": "user", "content": "Any quick soups?"}]}
ADMIN_KEY = "edges-admin-key"


@pytest.fixture(autouse=True)
def admin_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(function_app.settings, "admin_key", SecretStr(ADMIN_KEY))


def raw_post(client: TestClient, path: str, text: str, content_type: str = "application/json") -> Any:
    headers = {"content-type": content_type, "x-functions-key": ADMIN_KEY}
    return client.post(path, content=text.encode(), headers=headers)


def error_of(response: Any, status: int = 400) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    assert response.headers.get("x-request-id")
    return response.json()["error"]


# Item 4: a number JSON cannot carry is refused at the edge, before any model call (the
# scripted model has no reply: calling it would fail the request with a 500).


@pytest.mark.parametrize("number", ["1e999", "-1e999", "NaN", "Infinity", "-Infinity"])
@pytest.mark.parametrize("stream", ["false", "true"])
def test_a_session_state_json_cannot_carry_is_a_400_before_any_model_call(
    client: TestClient, llm: ScriptedChatModel, number: str, stream: str
):
    messages = '[{"role": "user", "content": "Soup?"}]'
    text = f'{{"messages": {messages}, "stream": {stream}, "session_state": {number}}}'

    message = error_of(raw_post(client, "/api/chat", text))

    assert "number" in message and llm.calls == []


@pytest.mark.parametrize("path", ["/api/retrieve", "/api/chat/reformulate"])
def test_a_number_json_cannot_carry_is_a_400_on_every_route(client: TestClient, path: str):
    text = '{"query": "soup", "userMessage": "soup", "top": 1e999}'

    assert "number" in error_of(raw_post(client, path, text))


# Item 5: a body that never ends, and a client that hangs up.


async def call_with_body(
    app: Any, path: str, chunks: list[bytes], *, then: str, headers: list[tuple[bytes, bytes]]
) -> list[dict[str, Any]]:
    """Call the ASGI app with a body sent in `chunks`, after which the client either `stalls`
    (never sends the rest) or `leaves` (hangs up). Returns the messages the app sent."""
    pending = list(chunks)
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if pending:
            return {"type": "http.request", "body": pending.pop(0), "more_body": True}
        if then == "leaves":
            return {"type": "http.disconnect"}
        await asyncio.Event().wait()  # stalls for ever
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 7071),
    }
    # The test's own bound: the app must answer long before it.
    await asyncio.wait_for(app(scope, receive, send), timeout=60)
    return sent


@pytest.fixture
def quick_body_deadline(monkeypatch: pytest.MonkeyPatch) -> Settings:
    fast = get_settings().model_copy(update={"body_read_seconds": 0.2, "admin_key": SecretStr("k")})
    monkeypatch.setattr(function_app, "settings", fast)
    monkeypatch.setattr("app.http.edge.get_settings", lambda: fast)
    return fast


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/api/recipes/index", b"application/jsonl"),
        ("/api/retrieve", b"application/json"),
        ("/api/chat", b"application/json"),
    ],
)
async def test_a_body_that_never_ends_is_a_408(
    client: TestClient, quick_body_deadline: Settings, path: str, content_type: bytes
):
    from local_host import create_app

    headers = [(b"content-type", content_type), (b"x-functions-key", b"k")]
    sent = await call_with_body(create_app(), path, [b'{"id": '], then="stalls", headers=headers)

    start = next(m for m in sent if m["type"] == "http.response.start")
    assert start["status"] == 408
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    assert "too long" in json.loads(body)["error"]


@pytest.mark.parametrize(
    "path", ["/api/recipes/index", "/api/retrieve", "/api/chat", "/api/chat/reformulate"]
)
async def test_a_client_that_hangs_up_is_no_500_and_no_traceback(
    client: TestClient, quick_body_deadline: Settings, caplog: pytest.LogCaptureFixture, path: str
):
    from local_host import create_app

    headers = [(b"content-type", b"application/json"), (b"x-functions-key", b"k")]
    with caplog.at_level(logging.INFO):
        sent = await call_with_body(create_app(), path, [b'{"query": '], then="leaves", headers=headers)

    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert not any(r.exc_info for r in caplog.records)
    start = next((m for m in sent if m["type"] == "http.response.start"), None)
    assert start is None or start["status"] == 499
    assert any("client closed" in r.getMessage() for r in caplog.records)


# Item 6: no internals in messages, and a JSON Lines load goes on past a bad line.

INTERNALS = ["recursion", "sys.", "set_int_max_str_digits", "RecipeFilters", "Message", "Traceback", "char "]


@pytest.mark.parametrize(
    ("path", "text", "content_type"),
    [
        ("/api/retrieve", '{"query": "soup", "top": ' + "9" * 5000 + "}", "application/json"),
        ("/api/retrieve", '{"query": "soup", "filters": 3}', "application/json"),
        ("/api/retrieve", '{"query": "soup", "filters": []}', "application/json"),
        ("/api/chat", '{"userMessage": "soup", "conversation": [3]}', "application/json"),
        ("/api/chat", '{"messages": [3]}', "application/json"),
        ("/api/retrieve", "[" * 100_000, "application/json"),
        ("/api/retrieve", '{"query": "soup"', "application/json"),
        ("/api/recipes/index", "[" * 100_000, "application/json"),
        ("/api/recipes/index", '{"recipes": [{"id": ' + "9" * 5000 + "}]}", "application/json"),
    ],
)
def test_no_message_shows_an_internal(client: TestClient, path: str, text: str, content_type: str):
    message = error_of(raw_post(client, path, text, content_type))

    assert not any(internal in message for internal in INTERNALS), message


def test_one_line_nested_too_deeply_fails_that_line_only(hostile_store_client: TestClient):
    good = json.dumps({"id": "plain-toast", "title": "Toast", "ingredients": ["bread"], "steps": ["Toast."]})
    lines = "\n".join([good, "[" * 100_000, '{"id": ' + "9" * 5000 + "}"])

    response = raw_post(hostile_store_client, "/api/recipes/index", lines, "application/jsonl")

    assert response.status_code == 200, response.text
    report = response.json()
    assert report["indexed"] == 1 and report["failed"] == 2
    messages = [e["message"] for r in report["indexing_result"].values() for e in r["errors"]]
    assert not any(internal in m for m in messages for internal in INTERNALS), messages


# Item 7: unknown routes and methods, trailing slashes, security headers, strict types.


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/api/no-such-route", 404),
        ("GET", "/nothing-here", 404),
        ("GET", "/api/chat", 405),
        ("PUT", "/api/retrieve", 405),
        ("POST", "/api/chat/", 404),  # no redirect: see below
    ],
)
def test_unknown_routes_and_methods_are_json_with_a_request_id_and_headers(
    client: TestClient, method: str, path: str, status: int
):
    response = client.request(method, path, headers={"host": "evil.example"}, follow_redirects=False)

    assert error_of(response, status)
    for name, value in API_HEADERS.items():
        assert response.headers[name] == value
    assert response.headers["cache-control"] == "no-store"
    assert "location" not in response.headers


def test_a_trailing_slash_is_never_redirected_to_the_host_header(client: TestClient):
    response = client.post(
        "/api/retrieve/", json={"query": "soup"}, headers={"host": "evil.example"}, follow_redirects=False
    )

    assert response.status_code == 404 and "location" not in response.headers


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/api/retrieve", {"query": "soup"}),
        ("POST", "/api/retrieve", {"query": ""}),
        ("GET", "/api/recipes/chicken-soup", None),
        ("GET", "/api/recipes/no-such-recipe", None),
        ("GET", "/api/openapi.json", None),
    ],
)
def test_api_responses_carry_security_headers(client: TestClient, method: str, path: str, body: Any):
    response = client.request(method, path, json=body)

    for name, value in API_HEADERS.items():
        assert response.headers[name] == value, name
    if response.status_code >= 400:
        assert response.headers["cache-control"] == "no-store"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/retrieve", {"query": "soup", "filters": {"vegetarian": "yes"}}),
        ("/api/retrieve", {"query": "soup", "filters": {"vegetarian": 1}}),
        ("/api/retrieve", {"query": "soup", "top": True}),
        ("/api/retrieve", {"query": "soup", "top": 3.0}),
        ("/api/retrieve", {"query": "soup", "top": "3"}),
        ("/api/retrieve", {"query": "soup", "read_filters": "false"}),
        ("/api/retrieve", {"query": 3}),
        ("/api/chat", {**PROTOCOL, "stream": "true"}),
        ("/api/chat", {**PROTOCOL, "context": {"overrides": {"top": True}}}),
        ("/api/chat", {**PROTOCOL, "context": {"overrides": {"suggest_followup_questions": "yes"}}}),
        ("/api/chat", {**PROTOCOL, "context": {"overrides": {"filters": {"vegan": "true"}}}}),
        ("/api/chat/reformulate", {"userMessage": "soup", "conversation": [{"role": "user", "content": 3}]}),
    ],
)
def test_types_are_strict_at_the_edge(client: TestClient, llm: ScriptedChatModel, path: str, body: Any):
    error_of(client.post(path, json=body))
    assert llm.calls == []


def test_strict_still_takes_an_array_for_a_list_and_null_where_it_may_be(client: TestClient):
    body = {"query": "soup", "top": None, "filters": {"exclude": ["beef"], "vegan": None}}

    response = client.post("/api/retrieve", json=body)

    assert response.status_code == 200, response.text
    assert response.json()["filters"]["exclude"] == ["beef"]


@pytest.fixture
def hostile_store_client(tmp_path: Path, embedder: Any) -> Any:
    """The app on an empty scratch store, so that indexing writes nowhere other tests read."""
    from app.search.retrieval import Retriever
    from app.services import Services, open_local_database, recipe_store, search_index, use_services
    from local_host import create_app

    scratch = Settings(local_db_path=tmp_path / "recipes.sqlite3")
    database = open_local_database(scratch)
    retriever = Retriever(embedder, search_index(scratch, database), recipe_store(scratch, database))
    use_services(Services(llm=ScriptedChatModel(), retriever=retriever))
    with TestClient(create_app()) as test_client:
        yield test_client
    use_services(None)
