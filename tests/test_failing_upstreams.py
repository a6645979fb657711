"""Upstreams on a bad day: each fault gets its documented status and `{"error"}`, with bounded
retries, nothing internal in the response, and the request id on the response and its log line.

The language model is the real `openai` SDK client over `httpx.MockTransport` (no network, no
real waiting but the SDK's own backoff where no Retry-After is sent); the search service and Cosmos DB are the
aiohttp fake of tests/test_azure_providers.py, driven through the real Azure SDKs.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest
from pydantic import SecretStr

import function_app
from app.providers.errors import UpstreamError
from app.providers.openai_clients import OpenAIChatModel, create_client
from app.providers.protocols import ChatStream
from app.search.retrieval import Retriever
from app.services import Services, use_services
from app.settings import Settings
from tests.support import DOCS, INDEX, SEARCH_KEY, FakeAzure, reply

SECRET = "sk-upstream-secret-never-shown"
BASE_URL = "http://llm.internal.test/v1"
RETRIES = 2
FORBIDDEN_IN_RESPONSES = (
    SECRET,
    "llm.internal.test",
    "Traceback",
    "Error:",
    "httpx",
    "openai",
    "You are the",
)
# A question the model answers (on the embedded defaults, the recipes' data answers "which is
# quickest" with no model call).
APP_BODY = {"userMessage": "Which soups are warming on a cold day?"}
# The 2024-01-28 protocol's body (with `stream`), whose errors are strings; the current
# protocol's nested errors are tested in tests/test_dialects.py.
PROTOCOL_BODY = {
    "messages": [{"role": "user", "content": "Which soups are warming on a cold day?"}],
    "stream": False,
}

Respond = Callable[[httpx.Request], httpx.Response]


def completion(content: str | None, finish_reason: str = "stop") -> httpx.Response:
    message = {"role": "assistant", "content": content}
    choice = {"index": 0, "finish_reason": finish_reason, "message": message}
    body = {"id": "c", "object": "chat.completion", "created": 0, "model": "m", "choices": [choice]}
    return httpx.Response(200, json=body)


def streamed(content: str | None, finish_reason: str = "stop") -> httpx.Response:
    """A streamed reply: its text in one chunk, then the finish."""
    parts = [chunk(content)] if content else []
    body = b"".join([*parts, chunk("", finish_reason), b"data: [DONE]\n\n"])
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)


def chunk(content: str, finish_reason: str | None = None) -> bytes:
    choice = {"index": 0, "delta": {"content": content}, "finish_reason": finish_reason}
    body = {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "m", "choices": [choice]}
    return f"data: {json.dumps(body)}\n\n".encode()


class FakeOpenAI:
    """Answers each request with `respond`, and counts them."""

    def __init__(self, respond: Respond) -> None:
        self.respond = respond
        self.calls = 0

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.calls += 1
        return self.respond(request)


def llm_over(fake: FakeOpenAI) -> OpenAIChatModel:
    settings = Settings(openai_base_url=BASE_URL, openai_api_key=SecretStr(SECRET), llm_max_retries=RETRIES)
    client = create_client(settings, httpx.AsyncClient(transport=httpx.MockTransport(fake)))
    return OpenAIChatModel(client, "m", response_format_mode="json_schema", temperature=0.0)


@pytest.fixture
def app_over(retriever: Retriever) -> Iterator[Callable[[FakeOpenAI], Any]]:
    """A client of the app whose language model is the SDK over a fake server."""
    from starlette.testclient import TestClient

    from local_host import create_app

    clients: list[TestClient] = []

    def start(fake: FakeOpenAI) -> TestClient:
        use_services(Services(llm=llm_over(fake), retriever=retriever))
        client = TestClient(create_app())
        clients.append(client)
        return client

    yield start
    use_services(None)


def assert_clean(response: Any, status: int, error: str, caplog: pytest.LogCaptureFixture) -> None:
    assert response.status_code == status, response.text
    assert response.json() == {"error": error}
    for secret in FORBIDDEN_IN_RESPONSES:
        assert secret not in response.text
    request_id = response.headers["x-request-id"]
    assert any(request_id in r.getMessage() and str(status) in r.getMessage() for r in caplog.records)


BUSY = "The language model is busy. Please try again in a moment."
FAILED = "The language model failed. Please try again."
SLOW = "The language model took too long to answer."
FILTERED = "Your message contains content that was flagged by the content filter."


def dropped(request: httpx.Request) -> httpx.Response:
    raise httpx.RemoteProtocolError("Server disconnected without sending a response.", request=request)


def timed_out(request: httpx.Request) -> httpx.Response:
    raise httpx.ReadTimeout(f"timed out reading {BASE_URL}", request=request)


RETRIED_FAULTS = {
    "429 with Retry-After": (
        lambda r: httpx.Response(429, headers={"retry-after": "0.01"}, json={}),
        503,
        BUSY,
    ),
    "429 without Retry-After": (
        lambda r: httpx.Response(429, headers={"retry-after-ms": "10"}, json={}),
        503,
        BUSY,
    ),
    "500": (lambda r: httpx.Response(500, json={"error": {"message": f"boom {SECRET}"}}), 502, FAILED),
    "503": (
        lambda r: httpx.Response(503, headers={"retry-after": "0.01"}, text="upstream down"),
        502,
        FAILED,
    ),
    "a timeout": (timed_out, 504, SLOW),
    "a dropped connection": (dropped, 502, FAILED),
}


@pytest.mark.parametrize("body", [APP_BODY, PROTOCOL_BODY], ids=["app", "protocol"])
@pytest.mark.parametrize("fault", RETRIED_FAULTS)
def test_a_failing_model_is_retried_a_bounded_number_of_times_then_a_clean_error(
    app_over, caplog, fault, body
):
    caplog.set_level(logging.INFO)
    respond, status, error = RETRIED_FAULTS[fault]
    fake = FakeOpenAI(respond)

    response = app_over(fake).post("/api/chat", json=body)

    assert_clean(response, status, error, caplog)
    assert fake.calls == RETRIES + 1


def test_a_content_filter_refusal_is_a_400_and_not_retried(app_over, caplog):
    caplog.set_level(logging.INFO)
    refusal = {"error": {"code": "content_filter", "message": "flagged", "param": "prompt", "type": None}}
    fake = FakeOpenAI(lambda r: httpx.Response(400, json=refusal))

    response = app_over(fake).post("/api/chat", json=APP_BODY)

    assert_clean(response, 400, FILTERED, caplog)
    assert fake.calls == 1


@pytest.mark.parametrize(
    "content",
    ['{"answer": "Soup', "Sure! Here is some soup.", "", None],
    ids=["JSON", "prose", "empty", "null"],
)
def test_a_reply_that_names_no_recipe_still_gets_the_matching_recipes_never_an_apology(app_over, content):
    response = app_over(FakeOpenAI(lambda r: streamed(content))).post("/api/chat", json=APP_BODY)

    assert response.status_code == 200
    assert "Sorry" not in response.json()["answer"]
    assert "These 3 recipes match best:" in response.json()["answer"]
    assert len(response.json()["sources"]) == 3


def test_made_up_citations_are_dropped(app_over):
    response = app_over(FakeOpenAI(lambda r: streamed("Soup [unicorn-stew]."))).post(
        "/api/chat", json=APP_BODY
    )

    assert response.status_code == 200
    assert "unicorn-stew" not in response.text
    assert len(response.json()["sources"]) == 3


def test_a_stream_cut_halfway_ends_with_an_error_line(app_over, caplog, cloud):
    caplog.set_level(logging.INFO)

    async def cut_short() -> AsyncIterator[bytes]:
        yield chunk("The warmest ")
        yield chunk("is a soup. It")
        raise httpx.RemoteProtocolError("peer closed connection without sending complete message body")

    def respond(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=cut_short())

    response = app_over(FakeOpenAI(respond)).post("/api/chat", json=PROTOCOL_BODY | {"stream": True})

    assert response.status_code == 200
    lines = [json.loads(line) for line in response.text.splitlines()]
    assert lines[-1] == {"error": FAILED}
    assert (
        "".join(line["choices"][0]["delta"].get("content") or "" for line in lines[:-1]).rstrip()
        == "The warmest is a soup."
    )
    for secret in FORBIDDEN_IN_RESPONSES:
        assert secret not in lines[-1]["error"]
    assert response.headers["x-request-id"]


# --- the total deadline --------------------------------------------------------------------------

SWA_LIMIT_SECONDS = 45


def test_the_default_deadline_ends_every_request_before_static_web_apps_gives_up():
    defaults = Settings()
    # What the SDKs alone allow: up to three model calls, each timeout x (retries + 1), plus
    # the SDK's waits between tries (it honours a Retry-After of up to 60 s).
    sdk_worst_case = 3 * (
        defaults.llm_timeout_seconds * (defaults.llm_max_retries + 1) + 60 * defaults.llm_max_retries
    )

    assert sdk_worst_case > SWA_LIMIT_SECONDS  # why the deadline exists
    assert defaults.request_deadline_seconds < SWA_LIMIT_SECONDS


class NeverAnswers:
    """A model whose calls never end: only the deadline can end the request."""

    async def complete(self, *args: Any, **kwargs: Any) -> str:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    async def stream(self, *args: Any, **kwargs: Any) -> ChatStream:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


@pytest.mark.parametrize("body", [APP_BODY, PROTOCOL_BODY, PROTOCOL_BODY | {"stream": True}])
def test_a_request_past_its_deadline_is_a_clean_504(client, retriever, monkeypatch, caplog, body):
    caplog.set_level(logging.INFO)
    monkeypatch.setattr(function_app.settings, "request_deadline_seconds", 0.05)
    use_services(Services(llm=NeverAnswers(), retriever=retriever))

    response = client.post("/api/chat", json=body)

    assert_clean(response, 504, "The request took too long. Please try again.", caplog)


class StallsMidStream:
    """A model that writes a few words of its answer and then nothing more, ever."""

    def __init__(self) -> None:
        self.stopped = False

    async def complete(self, *args: Any, **kwargs: Any) -> str:
        raise AssertionError("the answer is streamed: nothing here calls complete")

    async def stream(self, *args: Any, **kwargs: Any) -> ChatStream:
        async def parts() -> AsyncGenerator[str, None]:
            try:
                yield "A lentil soup is warming. "
                await asyncio.Event().wait()
            finally:
                self.stopped = True

        return ChatStream(parts(), "m")


# Slow: each takes about 40 s, though its deadline is 1 s (the stalled stream's end is waited for).
@pytest.mark.slow
@pytest.mark.parametrize("accept", ["application/json", "text/event-stream"])
def test_a_stream_past_its_deadline_ends_with_an_error_event(
    client, retriever, monkeypatch, caplog, accept, cloud
):
    caplog.set_level(logging.INFO)
    # Long enough for retrieval to finish first, so the deadline falls inside the stream.
    monkeypatch.setattr(cloud, "request_deadline_seconds", 1.0)
    model = StallsMidStream()
    use_services(Services(llm=model, retriever=retriever))

    response = client.post("/api/chat", json=PROTOCOL_BODY | {"stream": True}, headers={"accept": accept})

    assert response.status_code == 200
    events = [json.loads(line.removeprefix("data: ")) for line in response.text.splitlines() if line]
    assert events[1]["choices"][0]["delta"]["content"].startswith("A lentil soup is warming.")
    assert events[-1] == {"error": "The request took too long. Please try again."}
    assert model.stopped  # the model was told to stop, not left writing for nobody
    request_id = response.headers["x-request-id"]
    assert any(request_id in r.getMessage() and "deadline" in r.getMessage() for r in caplog.records)


# --- the search service and Cosmos DB ------------------------------------------------------------


class ScriptedEmbedder:
    model, dimensions = "fake", 3

    async def embed(self, texts: Any) -> list[list[float]]:
        return [[1.0, 0.0, 0.0] for _ in texts]


async def post(services: Services, route: str, body: dict[str, Any]) -> httpx.Response:
    from local_host import create_app

    use_services(services)
    try:
        transport = httpx.ASGITransport(app=create_app())
        async with httpx.AsyncClient(transport=transport, base_url="http://app") as client:
            return await client.post(route, json=body)
    finally:
        use_services(None)


def over_azure(search_index: Any, recipe_store: Any) -> Services:
    """The app's services with retrieval through the Azure SDKs, to the aiohttp fake."""
    return Services(
        llm=llm_over(FakeOpenAI(lambda r: completion("{}"))),
        retriever=Retriever(ScriptedEmbedder(), search_index, recipe_store),
    )


@pytest.mark.parametrize("status", [403, 500, 503])
async def test_a_failing_search_service_is_a_clean_5xx(azure: FakeAzure, index, store, caplog, status):
    caplog.set_level(logging.INFO)
    azure.on(
        "POST", f"{INDEX}/docs/search.post.search", reply({"error": {"message": f"key {SEARCH_KEY}"}}, status)
    )
    response = await post(over_azure(index, store), "/api/retrieve", {"query": "soup", "read_filters": False})

    assert response.status_code in (502, 503)
    assert set(response.json()) == {"error"}
    assert SEARCH_KEY not in response.text and azure.url not in response.text
    assert response.headers["x-request-id"]


async def test_a_failing_recipe_store_is_a_clean_502(azure: FakeAzure, index, store, caplog):
    azure.on(
        "POST",
        f"{INDEX}/docs/search.post.search",
        reply({"value": [{"id": "aljotta", "@search.score": 0.1}]}),
    )
    azure.on("GET", DOCS + "*", reply({"code": "ServiceUnavailable", "message": "down"}, 503))
    response = await post(over_azure(index, store), "/api/retrieve", {"query": "soup", "read_filters": False})

    assert response.status_code in (502, 503)
    assert set(response.json()) == {"error"}
    assert azure.url not in response.text
    assert response.headers["x-request-id"]


def test_upstream_errors_keep_their_cause_out_of_the_message():
    error = UpstreamError("The search service failed. Please try again.")

    assert str(error) == error.public_message
