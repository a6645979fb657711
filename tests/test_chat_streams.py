"""Streamed answers from the two chat providers.

The OpenAI-compatible one is checked on the requests the `openai` SDK really sends, against an
`httpx.MockTransport` answering with server-sent events as Azure OpenAI and OpenAI do. The
embedded one runs a stand-in for `llama_cpp.Llama` that generates only when the test lets it,
and once the shipped SmolLM2 model itself.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.providers.errors import ContentFilteredError, ModelBusyError, UpstreamError
from app.providers.llama_cpp_llm import FAILED, LlamaCppChatModel, bundled_model_path
from app.providers.openai_clients import ANSWER_FILTERED
from app.providers.protocols import ChatTurn, Usage
from tests.support import SECRET, Server, chat_model

MESSAGES: list[ChatTurn] = [{"role": "user", "content": "Dinner?"}]
CONTENT_FILTERED = "Your message contains content that was flagged by the content filter."
# Only a guard against a test that hangs: a passing test never waits this long.
GUARD_SECONDS = 30


def chunk(content: str | None = None, finish_reason: str | None = None) -> dict[str, Any]:
    delta = {"content": content} if content is not None else {"role": "assistant"}
    return {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "gpt-4o-mini",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
    }


# Azure OpenAI opens a stream with a chunk holding only the prompt's filter results.
PROMPT_FILTER_RESULTS = {
    "id": "",
    "object": "",
    "created": 0,
    "model": "",
    "choices": [],
    "prompt_filter_results": [],
}
USAGE = {
    "id": "c1",
    "object": "chat.completion.chunk",
    "created": 0,
    "model": "gpt-4o-mini",
    "choices": [],
    "usage": {"prompt_tokens": 50, "completion_tokens": 3, "total_tokens": 53},
}


def events(*data: dict[str, Any]) -> httpx.Response:
    body = "".join(f"data: {json.dumps(d)}\n\n" for d in data) + "data: [DONE]\n\n"
    return httpx.Response(200, content=body.encode(), headers={"content-type": "text/event-stream"})


def refusal(message: str, code: str | None = None) -> httpx.Response:
    return httpx.Response(
        400, json={"error": {"message": message, "code": code, "type": "invalid_request_error"}}
    )


async def read(stream) -> list[str]:
    return [piece async for piece in stream]


async def test_a_stream_yields_the_answer_piece_by_piece_and_the_usage_reported_at_its_end():
    answer = events(
        PROMPT_FILTER_RESULTS, chunk(), chunk("Try the "), chunk("risotto."), chunk(None, "stop"), USAGE
    )
    server = Server(lambda _: answer)

    stream = await chat_model(server).stream(MESSAGES, max_tokens=50, temperature=0.3)

    assert await read(stream) == ["Try the ", "risotto."]
    assert stream.usage == Usage(prompt_tokens=50, completion_tokens=3, total_tokens=53)
    assert stream.finish_reason == "stop"
    assert stream.model == "smollm2"
    assert server.body() == {
        "model": "smollm2",
        "messages": MESSAGES,
        "max_tokens": 50,
        "temperature": 0.3,
        "stream": True,
        "stream_options": {"include_usage": True},
    }


async def test_a_server_that_refuses_stream_options_is_asked_again_without_them_and_never_again():
    def respond(request: httpx.Request) -> httpx.Response:
        if "stream_options" in json.loads(request.content):
            return refusal("Unrecognized request argument supplied: stream_options")
        return events(chunk("Hi."))

    server = Server(respond)
    model = chat_model(server)

    first = await model.stream(MESSAGES, max_tokens=5)
    second = await model.stream(MESSAGES, max_tokens=5)

    assert await read(first) == ["Hi."] and await read(second) == ["Hi."]
    assert first.usage is None
    assert ["stream_options" in json.loads(r.content) for r in server.requests] == [True, False, False]


async def test_a_request_refused_for_another_reason_is_still_refused():
    server = Server(lambda _: refusal(f"This model's maximum context length is 8192 tokens {SECRET}"))

    with pytest.raises(UpstreamError) as raised:
        await chat_model(server).stream(MESSAGES, max_tokens=5)

    assert raised.value.public_message == "The language model failed. Please try again."
    assert SECRET not in str(raised.value)


@pytest.mark.parametrize("streamed", [False, True])
async def test_input_the_azure_content_filter_flagged_is_a_400_not_a_provider_failure(streamed: bool):
    server = Server(lambda _: refusal("The response was filtered due to the prompt.", "content_filter"))
    model = chat_model(server)

    with pytest.raises(ContentFilteredError) as raised:
        if streamed:
            await model.stream(MESSAGES, max_tokens=5)
        else:
            await model.complete(MESSAGES, max_tokens=5)

    assert (raised.value.status, raised.value.public_message) == (400, CONTENT_FILTERED)
    assert len(server.requests) == 1


async def test_an_answer_the_content_filter_stops_mid_stream_raises_while_it_is_read():
    server = Server(lambda _: events(chunk("Here is how "), chunk(None, "content_filter")))
    stream = await chat_model(server).stream(MESSAGES, max_tokens=50)

    pieces = []
    with pytest.raises(ContentFilteredError) as raised:
        async for piece in stream:
            pieces.append(piece)

    assert pieces == ["Here is how "]
    assert raised.value.public_message == ANSWER_FILTERED


async def test_a_stream_that_breaks_off_raises_a_clean_upstream_error():
    broken = events(chunk("Try "), {"error": {"message": f"server overloaded {SECRET}"}})
    stream = await chat_model(Server(lambda _: broken)).stream(MESSAGES, max_tokens=50)

    with pytest.raises(UpstreamError) as raised:
        await read(stream)

    assert raised.value.public_message == "The language model failed. Please try again."
    assert SECRET not in str(raised.value)


async def test_a_reply_cut_at_the_token_limit_says_so():
    server = Server(lambda _: events(chunk(), chunk("Try the risotto, which"), chunk(None, "length")))

    stream = await chat_model(server).stream(MESSAGES, max_tokens=5)

    assert await read(stream) == ["Try the risotto, which"]
    assert stream.finish_reason == "length"


class FakeLlama:
    """Stands in for `llama_cpp.Llama`: streams `pieces` in llama.cpp's chunk format, each only
    once the test has allowed it, and notes where and how far it got."""

    def __init__(self, pieces: list[str | Exception], finish: str = "stop") -> None:
        self.pieces = pieces
        self.finish = finish
        self._permits = threading.Semaphore(0)
        self.started = threading.Event()
        self.closed = threading.Event()
        self.served = 0
        self.thread: threading.Thread | None = None

    def create_chat_completion(self, **kwargs: Any) -> Iterator[dict[str, Any]]:
        assert kwargs["stream"] is True

        def chunks() -> Iterator[dict[str, Any]]:
            self.thread = threading.current_thread()
            self.started.set()
            try:
                yield {"choices": [{"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}]}
                for piece in self.pieces:
                    assert self._permits.acquire(timeout=GUARD_SECONDS), "the test never allowed it"
                    if isinstance(piece, Exception):
                        raise piece
                    self.served += 1
                    yield {"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
                yield {"choices": [{"index": 0, "delta": {}, "finish_reason": self.finish}]}
            finally:
                self.closed.set()

        return chunks()

    def allow(self, pieces: int | None = None) -> None:
        self._permits.release(len(self.pieces) if pieces is None else pieces)


@pytest.fixture
def fake_llama(monkeypatch: pytest.MonkeyPatch) -> FakeLlama:
    fake = FakeLlama(["Try ", "the ", "risotto."])
    monkeypatch.setattr("llama_cpp.Llama", lambda **_: fake)
    return fake


def embedded_model() -> LlamaCppChatModel:
    return LlamaCppChatModel(Path("model.gguf"), context_tokens=512, threads=1, temperature=0.0)


async def test_the_embedded_model_generates_in_a_worker_thread_holding_its_lock_throughout(fake_llama):
    model = embedded_model()
    stream = await model.stream(MESSAGES, max_tokens=20)
    reading = asyncio.create_task(read(stream))

    # Generation has begun and waits to be allowed on: were it running on the event loop,
    # this coroutine could not go on to allow it.
    assert await asyncio.to_thread(fake_llama.started.wait, GUARD_SECONDS)
    assert fake_llama.thread is not threading.current_thread()
    # Another call (a rewrite, a second request) waits for the model's lock, held for the whole
    # generation, not per piece: llama.cpp keeps one KV cache.
    assert model._lock.locked()
    fake_llama.allow()

    assert await reading == ["Try ", "the ", "risotto."]
    assert await asyncio.to_thread(fake_llama.closed.wait, GUARD_SECONDS)
    assert await asyncio.to_thread(model._lock.acquire, True, GUARD_SECONDS)


async def test_a_stream_closed_early_stops_the_generation_and_frees_the_model(fake_llama):
    model = embedded_model()
    fake_llama.allow(1)
    pieces = aiter(await model.stream(MESSAGES, max_tokens=20))

    assert await anext(pieces) == "Try "
    await pieces.aclose()
    fake_llama.allow(1)

    # The thread notices at its next piece, and writes no more.
    assert await asyncio.to_thread(fake_llama.closed.wait, GUARD_SECONDS)
    assert fake_llama.served == 2
    assert await asyncio.to_thread(model._lock.acquire, True, GUARD_SECONDS)


async def test_the_embedded_model_says_why_it_stopped(fake_llama):
    fake_llama.finish = "length"
    fake_llama.allow()
    stream = await embedded_model().stream(MESSAGES, max_tokens=3)

    assert await read(stream) == ["Try ", "the ", "risotto."]
    assert stream.finish_reason == "length"


async def test_a_chat_waits_for_a_busy_embedded_model_only_so_long_then_hears_it_is_busy(fake_llama):
    model = LlamaCppChatModel(
        Path("model.gguf"), context_tokens=512, threads=1, temperature=0.0, wait_seconds=0.0
    )
    first = asyncio.create_task(read(await model.stream(MESSAGES, max_tokens=20)))
    assert await asyncio.to_thread(fake_llama.started.wait, GUARD_SECONDS)

    # The first generation holds the model: the second does not queue behind it.
    with pytest.raises(ModelBusyError):
        await read(await model.stream(MESSAGES, max_tokens=20))

    fake_llama.allow()
    assert await first == ["Try ", "the ", "risotto."]


async def test_a_failure_of_the_embedded_model_mid_stream_is_a_clean_upstream_error(fake_llama):
    fake_llama.pieces = ["Try ", ValueError("Requested tokens (9000) exceed context window of 512")]
    fake_llama.allow()
    stream = await embedded_model().stream(MESSAGES, max_tokens=20)

    with pytest.raises(UpstreamError) as raised:
        await read(stream)

    assert raised.value.public_message == FAILED
    assert "9000" not in str(raised.value)


@pytest.mark.model
async def test_the_shipped_model_streams_its_answer():
    model = LlamaCppChatModel(bundled_model_path(), context_tokens=1024, threads=None, temperature=0.0)

    stream = await model.stream([{"role": "user", "content": "Name a soup."}], max_tokens=12)
    pieces = await read(stream)

    assert len(pieces) > 1 and "".join(pieces).strip()
    assert stream.model == bundled_model_path().name
    assert stream.usage is None
    assert stream.finish_reason in ("stop", "length")
