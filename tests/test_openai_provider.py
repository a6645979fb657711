"""The OpenAI-compatible provider, checked on the HTTP requests the `openai` SDK really sends.

`httpx.MockTransport` stands in for the server, so these tests need no network and no key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import httpx
import pytest
from openai.types.chat import ChatCompletionMessageParam
from openai.types.shared_params import ResponseFormatJSONSchema
from pydantic import SecretStr

from app.providers.errors import UpstreamError
from app.providers.openai_clients import OpenAIChatModel, OpenAIEmbedder, create_client
from app.providers.protocols import ChatTurn
from app.settings import Settings
from tests.support import SECRET, Server, chat_model, openai_settings


def as_sdk(messages: list[ChatTurn]) -> list[ChatCompletionMessageParam]:
    """The same dicts, as the SDK's typed path takes them (its types name each role)."""
    return cast(list[ChatCompletionMessageParam], messages)


SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {"answer": {"type": "string"}},
    "required": ["answer"],
}


def completion(content: str) -> dict:
    return {
        "id": "c1",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [
            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}
        ],
    }


async def test_a_completion_sends_the_messages_and_returns_the_reply_text():
    server = Server(lambda _: httpx.Response(200, json=completion("Try the risotto.")))
    messages: list[ChatTurn] = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Dinner?"},
    ]

    reply = await chat_model(server).complete(messages, max_tokens=50)

    assert reply == "Try the risotto."
    request = server.requests[0]
    assert request.url == "http://llm.test/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {SECRET}"
    assert server.body() == {"model": "smollm2", "messages": messages, "max_tokens": 50, "temperature": 0.0}


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        (
            "json_schema",
            {"type": "json_schema", "json_schema": {"name": "reply", "schema": SCHEMA, "strict": True}},
        ),
        ("json_object", {"type": "json_object"}),
        ("json_object_schema", {"type": "json_object", "schema": SCHEMA}),
        ("none", None),
    ],
)
async def test_the_answer_asks_for_json_the_way_the_settings_say(mode: str, expected: dict | None):
    server = Server(lambda _: httpx.Response(200, json=completion('{"answer": "x"}')))

    await chat_model(server, llm_response_format=mode).complete([], json_schema=SCHEMA, max_tokens=10)

    assert server.body().get("response_format") == expected


async def test_the_body_is_byte_for_byte_what_the_sdks_typed_path_sends():
    # The chat calls skip the SDK's typed `create` (its walk of the body and its pydantic
    # objects cost CPU, change nothing on the wire).
    ours, typed = (Server(lambda _: httpx.Response(200, json=completion("x"))) for _ in range(2))
    messages: list[ChatTurn] = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Dinner? é"},
    ]
    fmt: ResponseFormatJSONSchema = {
        "type": "json_schema",
        "json_schema": {"name": "reply", "schema": SCHEMA, "strict": True},
    }

    await chat_model(ours).complete(messages, json_schema=SCHEMA, max_tokens=50)
    sdk = create_client(openai_settings(), typed.client())
    await sdk.chat.completions.create(
        model="smollm2", messages=as_sdk(messages), max_tokens=50, temperature=0.0, response_format=fmt
    )

    assert ours.requests[0].content == typed.requests[0].content
    assert ours.requests[0].headers == typed.requests[0].headers


async def test_a_streamed_request_is_byte_for_byte_what_the_sdks_typed_path_sends():
    def answer(_: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b"data: [DONE]\n\n", headers={"content-type": "text/event-stream"})

    ours, typed = Server(answer), Server(answer)
    messages: list[ChatTurn] = [{"role": "user", "content": "Dinner? é"}]

    stream = await chat_model(ours).stream(messages, max_tokens=50, temperature=0.3)
    assert [piece async for piece in stream] == []
    sdk = create_client(openai_settings(), typed.client())
    await sdk.chat.completions.create(
        model="smollm2",
        messages=as_sdk(messages),
        max_tokens=50,
        temperature=0.3,
        stream=True,
        stream_options={"include_usage": True},
    )

    assert ours.requests[0].content == typed.requests[0].content
    assert ours.requests[0].headers == typed.requests[0].headers


async def test_azure_openai_calls_the_deployment_with_its_key_and_api_version():
    server = Server(lambda _: httpx.Response(200, json=completion("ok")))
    settings = Settings(
        azure_openai_endpoint="https://example.openai.azure.com",
        azure_openai_api_key=SecretStr(SECRET),
        azure_openai_chat_deployment="gpt-4o-mini",
        llm_max_retries=0,
    )
    model = OpenAIChatModel(
        create_client(settings, server.client()),
        "gpt-4o-mini",
        response_format_mode="json_schema",
        temperature=0,
    )

    await model.complete([{"role": "user", "content": "hi"}], max_tokens=5)

    request = server.requests[0]
    assert request.url.path == "/openai/deployments/gpt-4o-mini/chat/completions"
    assert request.url.params["api-version"] == settings.azure_openai_api_version
    assert request.headers["api-key"] == SECRET


async def test_embeddings_come_back_in_the_order_of_the_texts():
    # A server may list the embeddings in any order; `index` says which text each belongs to.
    data = [
        {"object": "embedding", "index": 1, "embedding": [0.0, 1.0]},
        {"object": "embedding", "index": 0, "embedding": [1.0, 0.0]},
    ]
    server = Server(
        lambda _: httpx.Response(
            200,
            json={
                "object": "list",
                "data": data,
                "model": "e",
                "usage": {"prompt_tokens": 2, "total_tokens": 2},
            },
        )
    )
    embedder = OpenAIEmbedder(create_client(openai_settings(), server.client()), "text-embedding-3-small")

    vectors = await embedder.embed(["first", "second"])

    assert vectors == [[1.0, 0.0], [0.0, 1.0]]
    assert embedder.dimensions == 2
    assert server.body()["model"] == "text-embedding-3-small"
    assert server.body()["input"] == ["first", "second"]


def refuse(status: int) -> Callable[[httpx.Request], httpx.Response]:
    return lambda _: httpx.Response(status, json={"error": {"message": f"internal detail {SECRET}"}})


def time_out(request: httpx.Request) -> httpx.Response:
    raise httpx.ReadTimeout("the server did not answer", request=request)


@pytest.mark.parametrize(
    ("respond", "status", "message"),
    [
        (refuse(429), 503, "The language model is busy. Please try again in a moment."),
        (refuse(500), 502, "The language model failed. Please try again."),
        (refuse(401), 502, "The language model failed. Please try again."),
        (time_out, 504, "The language model took too long to answer."),
    ],
)
async def test_a_failing_server_becomes_a_safe_public_error(respond, status: int, message: str):
    with pytest.raises(UpstreamError) as raised:
        await chat_model(Server(respond)).complete([{"role": "user", "content": "hi"}], max_tokens=5)

    assert (raised.value.status, raised.value.public_message) == (status, message)
    assert SECRET not in str(raised.value)
