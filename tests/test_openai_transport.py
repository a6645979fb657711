"""The `openai` SDK's calls over aiohttp (app/providers/aiohttp_transport.py), which the app
uses by default, against a real socket: every reply and every failure comes out as it does
over the SDK's default httpx2 transport, side by side.

A failure's kind decides what the client is told: a timeout is a 504 "took too long", a
refused, dropped or garbled connection a retryable 502 "failed", a 429 a 503 "busy" with its
Retry-After, a content-filter refusal a 400.
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import openai
import pytest
from pydantic import SecretStr

from app.providers.aiohttp_transport import TransportFailures
from app.providers.errors import UpstreamError
from app.providers.openai_clients import OpenAIChatModel, create_client
from app.providers.protocols import ChatStream, Usage
from app.settings import Settings

SECRET = "sk-transport-secret"
MESSAGES = [{"role": "user", "content": "Dinner?"}]
TRANSPORTS = ["aiohttp", "httpx2"]

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


def http(status: str, body: bytes, content_type: str = "application/json", **headers: str) -> bytes:
    lines = [f"HTTP/1.1 {status}", f"content-type: {content_type}", f"content-length: {len(body)}"]
    lines += [f"{name.replace('_', '-')}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def completion(content: str) -> bytes:
    message = {"role": "assistant", "content": content}
    choice = {"index": 0, "finish_reason": "stop", "message": message}
    return json.dumps({"id": "c", "object": "chat.completion", "model": "m", "choices": [choice]}).encode()


def chunk(**fields: Any) -> bytes:
    return f"data: {json.dumps({'id': 'c', 'object': 'chat.completion.chunk', **fields})}\n\n".encode()


STREAM = b"".join(
    [
        chunk(choices=[]),  # Azure's prompt filter results come first, with no choices
        chunk(choices=[{"index": 0, "delta": {"content": "Try the "}, "finish_reason": None}]),
        chunk(choices=[{"index": 0, "delta": {"content": "risotto."}, "finish_reason": None}]),
        chunk(choices=[{"index": 0, "delta": {}, "finish_reason": "length"}]),
        chunk(choices=[], usage={"prompt_tokens": 7, "completion_tokens": 3, "total_tokens": 10}),
        b"data: [DONE]\n\n",
    ]
)


async def read_request(reader: asyncio.StreamReader) -> None:
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(
        (
            int(line.split(b":")[1])
            for line in head.lower().split(b"\r\n")
            if line.startswith(b"content-length:")
        ),
        0,
    )
    await reader.readexactly(length)


def answer(raw: bytes, *, close: bool = False) -> Handler:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while True:
            try:
                await read_request(reader)
            except (asyncio.IncompleteReadError, ConnectionError):
                break
            writer.write(raw)
            await writer.drain()
            if close:
                break
        writer.close()

    return handle


async def drop(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await read_request(reader)
    writer.close()


async def hang(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await read_request(reader)
    await asyncio.sleep(5)
    writer.close()


@asynccontextmanager
async def serving(handler: Handler) -> AsyncIterator[str]:
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        yield f"http://127.0.0.1:{port}/v1"
        server.close()


@asynccontextmanager
async def model_over(transport: str, base_url: str) -> AsyncIterator[OpenAIChatModel]:
    settings = Settings(
        openai_base_url=base_url,
        openai_api_key=SecretStr(SECRET),
        llm_max_retries=0,
        llm_timeout_seconds=0.5,
    )
    http_client = None if transport == "aiohttp" else openai.DefaultAsyncHttpxClient()
    async with create_client(settings, http_client) as client:
        yield OpenAIChatModel(client, "m", response_format_mode="json_schema", temperature=0.0)


async def complete(transport: str, base_url: str) -> str:
    async with model_over(transport, base_url) as model:
        return await model.complete(MESSAGES, max_tokens=5)  # type: ignore[arg-type]


async def streamed(transport: str, base_url: str) -> tuple[list[str], Usage | None, str | None]:
    async with model_over(transport, base_url) as model:
        stream: ChatStream = await model.stream(MESSAGES, max_tokens=5)  # type: ignore[arg-type]
        pieces = [piece async for piece in stream]
        return pieces, stream.usage, stream.finish_reason


def the_error(raised: pytest.ExceptionInfo[UpstreamError]) -> tuple[int, str, bool, float | None]:
    error = raised.value
    assert SECRET not in str(error)
    return error.status, error.public_message, error.retryable, error.retry_after


async def test_the_app_calls_the_model_over_aiohttp_by_default():
    settings = Settings(openai_base_url="http://llm.test/v1", openai_api_key=SecretStr(SECRET))
    async with create_client(settings) as client:
        transport = client._client._transport
        assert isinstance(transport, TransportFailures)
        assert type(transport._inner).__module__.startswith("openai._vendor.httpx_aiohttp")


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_a_reply_and_a_streamed_reply_read_alike(transport: str):
    async with serving(answer(http("200 OK", completion("Try the risotto.")))) as url:
        assert await complete(transport, url) == "Try the risotto."
    async with serving(answer(http("200 OK", STREAM, "text/event-stream"))) as url:
        assert await streamed(transport, url) == (["Try the ", "risotto."], Usage(7, 3, 10), "length")


async def test_a_stream_read_to_its_end_leaves_no_reader_of_the_transport_to_the_collector():
    # The SDK stops reading at `[DONE]`; a reader left open under it is closed later, through
    # the event loop, by the garbage collector: a wake-up of the loop and a task each.
    firstiter, finalizer = sys.get_asyncgen_hooks()
    collected: list[str] = []

    def collect(reader: AsyncGenerator[Any, None]) -> None:
        collected.append(repr(reader))  # "<async_generator object Body.__aiter__ at 0x…>"
        finalizer(reader)  # type: ignore[misc]

    sys.set_asyncgen_hooks(firstiter, collect)
    try:
        async with serving(answer(http("200 OK", STREAM, "text/event-stream"))) as url:
            assert (await streamed("aiohttp", url))[0] == ["Try the ", "risotto."]
        gc.collect()
        for _ in range(10):  # each closed reader hands on the one under it, a task apiece
            await asyncio.sleep(0)
    finally:
        sys.set_asyncgen_hooks(firstiter, finalizer)
    transports = ("Body.", "AiohttpResponseStream.")  # app/providers/aiohttp_transport.py's, the SDK's
    assert [r for r in collected if any(name in r for name in transports)] == []


FAILED = (502, "The language model failed. Please try again.", True, None)
SLOW = (504, "The language model took too long to answer.", True, None)
BUSY = (503, "The language model is busy. Please try again in a moment.", True, 2.0)
FILTERED_BODY = json.dumps({"error": {"code": "content_filter", "message": f"flagged {SECRET}"}}).encode()

FAILURES: dict[str, tuple[Handler, tuple[int, str, bool, float | None]]] = {
    "dropped before a reply": (drop, FAILED),
    "not HTTP": (answer(b"this is not HTTP\r\n\r\n", close=True), FAILED),
    "body cut short": (answer(http("200 OK", completion("x"))[:-5], close=True), FAILED),
    "no reply within the timeout": (hang, SLOW),
    "429 with Retry-After": (answer(http("429 Too Many Requests", b"{}", retry_after="2")), BUSY),
    "500": (answer(http("500 Internal Server Error", f'{{"error": "{SECRET}"}}'.encode())), FAILED),
}


@pytest.mark.parametrize("transport", TRANSPORTS)
@pytest.mark.parametrize("failure", FAILURES)
async def test_each_failure_is_the_same_error_over_either_transport(transport: str, failure: str):
    handler, expected = FAILURES[failure]
    async with serving(handler) as url:
        with pytest.raises(UpstreamError) as raised:
            await complete(transport, url)
        assert the_error(raised) == expected
        with pytest.raises(UpstreamError) as raised:
            await streamed(transport, url)
        assert the_error(raised) == expected


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_a_refused_connection_is_a_retryable_failure(transport: str):
    server = await asyncio.start_server(drop, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    server.close()
    await server.wait_closed()
    with pytest.raises(UpstreamError) as raised:
        await complete(transport, f"http://127.0.0.1:{port}/v1")
    assert the_error(raised) == FAILED


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_a_content_filter_refusal_is_told_as_such(transport: str):
    async with serving(answer(http("400 Bad Request", FILTERED_BODY))) as url:
        for call in (complete, streamed):
            with pytest.raises(UpstreamError) as raised:
                await call(transport, url)
            assert raised.value.status == 400
            assert "content filter" in raised.value.public_message


@pytest.mark.parametrize("transport", TRANSPORTS)
async def test_a_stream_cut_halfway_fails_while_it_is_read(transport: str):
    head = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
    first = chunk(choices=[{"index": 0, "delta": {"content": "Try the "}, "finish_reason": None}])
    cut = head + f"{len(first):x}\r\n".encode() + first + b"\r\n"
    async with serving(answer(cut, close=True)) as url, model_over(transport, url) as model:
        stream = await model.stream(MESSAGES, max_tokens=5)  # type: ignore[arg-type]
        pieces: list[str] = []
        with pytest.raises(UpstreamError) as raised:
            async for piece in stream:
                pieces.append(piece)
    assert pieces == ["Try the "]
    assert the_error(raised) == FAILED


async def test_the_hosts_shutdown_closes_the_models_session(retriever):
    from app.services import Services, close_services, use_services

    settings = Settings(openai_base_url="http://llm.test/v1", openai_api_key=SecretStr(SECRET))
    client = create_client(settings)
    model = OpenAIChatModel(client, "m", response_format_mode="json_schema", temperature=0.0)
    use_services(Services(model, retriever, clients=(client,)))
    await close_services()
    assert client.is_closed()
    stand_in = Services(model, retriever)
    use_services(stand_in)
    await close_services()  # a test's stand-ins, with nothing open, stay
    from app import services

    assert services._services is stand_in
    use_services(None)
