"""What several test modules share: scripted models, processes to start and stop, and a fake
Azure. Fixtures are in conftest.py; everything here is imported by name."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiohttp import web
from pydantic import SecretStr

from app.providers.openai_clients import OpenAIChatModel, create_client
from app.providers.protocols import ChatStream, ChatTurn, Finish, Usage
from app.settings import Settings

Reply = str | Callable[[Sequence[ChatTurn]], str] | Exception
# Only a guard against a test that hangs: a passing test opens the gate at once.
GATE_GUARD_SECONDS = 30

Script = Sequence[str | Usage | Finish | Exception] | Exception | Callable[[Sequence[ChatTurn]], str]


class ScriptedChatModel:
    """An LLM that returns the replies it was given, in order, and records every call.

    `replies` script its `complete` calls: a text, a function of the messages, or an exception
    to raise. Each entry of `streams` scripts one streamed answer: its pieces, in order (a
    `Usage` among them is reported as the provider's token counts, a `Finish("length")` reports
    a reply cut at the token limit, an exception is raised at that point of the stream), or one
    exception, raised when the answer is asked for, before any piece; a function of the
    messages writes its reply a few words a piece. With a `gate`, the stream waits for the test
    to open it before its first piece.
    """

    def __init__(self, *replies: Reply) -> None:
        self.replies = list(replies)
        self.calls: list[dict[str, Any]] = []
        self.streams: list[Script] = []
        self.stream_calls: list[dict[str, Any]] = []
        self.gate: threading.Event | None = None
        self.pieces_written = 0

    async def complete(
        self,
        messages: Sequence[ChatTurn],
        *,
        json_schema: dict[str, Any] | None = None,
        max_tokens: int,
        temperature: float | None = None,
    ) -> str:
        self.calls.append({"messages": list(messages), "json_schema": json_schema, "max_tokens": max_tokens})
        if not self.replies:
            raise AssertionError("the LLM was called more often than the test expected")
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply(messages) if callable(reply) else reply

    async def stream(
        self, messages: Sequence[ChatTurn], *, max_tokens: int, temperature: float | None = None
    ) -> ChatStream:
        self.stream_calls.append(
            {"messages": list(messages), "max_tokens": max_tokens, "temperature": temperature}
        )
        if not self.streams:
            raise AssertionError("the LLM streamed more often than the test expected")
        script = self.streams.pop(0)
        if isinstance(script, Exception):
            raise script
        if callable(script):
            script = say(script(messages))
        return ChatStream(self._write(script), "scripted-model")

    async def _write(
        self, script: Iterable[str | Usage | Finish | Exception]
    ) -> AsyncGenerator[str | Usage | Finish, None]:
        if self.gate is not None and not await asyncio.to_thread(self.gate.wait, GATE_GUARD_SECONDS):
            raise AssertionError("the test never opened the gate")
        for item in script:
            if isinstance(item, Exception):
                raise item
            if isinstance(item, str):
                self.pieces_written += 1
            yield item


# Conversations several test modules hold. The dev console's: dinner ideas, narrowed to
# vegetarian (docs/api.md); and the design's: three vegetarian recipes offered (README).
DINNER_HISTORY: list[dict[str, str]] = [
    {"role": "user", "content": "I’m looking for dinner ideas."},
    {"role": "assistant", "content": "What kind of cuisine are you interested in?"},
    {"role": "user", "content": "Vegetarian."},
    {"role": "assistant", "content": "Any ingredients you particularly like or want to avoid?"},
]
VEGETARIAN_OFFERED: list[dict[str, str]] = [
    {"role": "user", "content": "I want something vegetarian"},
    {
        "role": "assistant",
        "content": "I can recommend the Mushroom sauce, the Shakshouka and the Spanish Tortilla.",
    },
]


def turns(conversation: Sequence[dict[str, str]]) -> tuple[str, ...]:
    """A conversation's texts alone, in order."""
    return tuple(m["content"] for m in conversation)


def model_json(answer: str, *ids: str, title: str = "a title the model made up") -> str:
    return json.dumps({"answer": answer, "sources": [{"id": i, "title": title} for i in ids]})


def say(text: str) -> list[str]:
    """A scripted stream of `text`, a few words a piece, as a model writes."""
    words = text.split(" ")
    return [" ".join(words[i : i + 3]) + (" " if i + 3 < len(words) else "") for i in range(0, len(words), 3)]


# Processes: the local host, the SWA CLI, a model server.

ROOT = Path(__file__).resolve().parent.parent
SWA = ROOT / "node_modules" / ".bin" / "swa"
STARTUP_SECONDS = 120


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def served(app: Any) -> Iterator[str]:
    """An ASGI app served by uvicorn in a thread, as `local_host.py` serves one: its base URL."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def start(command: list[str], log: Path, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    # Its own session, so that stopping it also stops whatever it spawned (the SWA CLI's server).
    with log.open("wb") as out:
        return subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )


def wait_until_up(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            # start() is always given a list; the first words name the program.
            command = process.args[:3] if isinstance(process.args, list) else process.args
            pytest.fail(f"{command!r} exited early:\n{log.read_text(errors='replace')[-3000:]}")
        try:
            httpx.get(url, timeout=2)
            return
        except httpx.TransportError:
            time.sleep(0.3)
    pytest.fail(f"{url} did not come up in {STARTUP_SECONDS} s:\n{log.read_text(errors='replace')[-3000:]}")


def stop(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)


# A fake of Azure AI Search and Cosmos DB (the `azure` fixture serves it).

SEARCH_KEY = "search-key-never-shown"
COSMOS_KEY = "Y29zbW9zLWtleS1uZXZlci1zaG93bg=="  # base64, as Cosmos account keys are
INDEX = "/indexes('recipes')"
DOCS = "/dbs/recipe-chat/colls/recipes/docs/"

Handler = Callable[[web.Request, str], web.Response | Awaitable[web.Response]]


@dataclass(frozen=True)
class Seen:
    method: str
    path: str
    headers: dict[str, str]
    body: str

    def json(self) -> dict:
        return json.loads(self.body)


@dataclass
class FakeAzure:
    """One server for both services. Tests set a handler per (method, path); Cosmos's account
    and container reads are answered by default."""

    url: str
    routes: dict[tuple[str, str], Handler] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)

    def settings(self, **overrides: Any) -> Settings:
        return Settings(
            azure_search_endpoint=self.url,
            azure_search_api_key=SecretStr(SEARCH_KEY),
            azure_cosmos_endpoint=self.url + "/",
            azure_cosmos_key=SecretStr(COSMOS_KEY),
            **overrides,
        )

    def on(self, method: str, path: str, handler: Handler) -> None:
        self.routes[(method, path)] = handler

    def requests(self, method: str, path_start: str) -> list[Seen]:
        return [s for s in self.seen if s.method == method and s.path.startswith(path_start)]


def reply(payload: dict, status: int = 200, **headers: str) -> Handler:
    return lambda request, body: web.json_response(payload, status=status, headers=headers)


async def never_answer(request: web.Request, body: str) -> web.Response:
    await asyncio.Event().wait()
    raise AssertionError("unreachable")


# Left to the SDKs' defaults, a silent service holds a call for 300 s per try, ten tries.
QUICK_GIVE_UP = {"azure_timeout_seconds": 0.2, "azure_max_retries": 1}


# An OpenAI-compatible server, through httpx.MockTransport.

SECRET = "sk-test-secret-never-shown"


class Server:
    """Answers every request with `respond` and keeps the requests for the test to read."""

    def __init__(self, respond: Callable[[httpx.Request], httpx.Response]) -> None:
        self.requests: list[httpx.Request] = []
        self._respond = respond

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self._respond(request)

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=httpx.MockTransport(self))

    def body(self, index: int = -1) -> dict:
        return json.loads(self.requests[index].content)


def openai_settings(**overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "openai_base_url": "http://llm.test/v1",
        "openai_api_key": SECRET,
        "llm_max_retries": 0,
    }
    return Settings(**(values | overrides))


def chat_model(server: Server, **overrides: Any) -> OpenAIChatModel:
    settings = openai_settings(**overrides)
    return OpenAIChatModel(
        create_client(settings, server.client()),
        "smollm2",
        response_format_mode=settings.llm_response_format,
        temperature=settings.llm_temperature,
    )


class AnswersAnything:
    """A model that answers anything at once, for tests that drive many requests through the
    routes: a valid JSON answer when JSON is asked for, a rewrite otherwise, and a short cited
    stream with a follow-up question. It keeps no record, so it serves any number of requests."""

    async def complete(
        self,
        messages: Sequence[ChatTurn],
        *,
        json_schema: dict[str, Any] | None = None,
        max_tokens: int,
        temperature: float | None = None,
    ) -> str:
        if json_schema is not None:
            return json.dumps({"answer": "Try the soup.", "sources": [{"id": "chicken-soup", "title": "x"}]})
        return "Which soup is the quickest to cook?"

    async def stream(
        self, messages: Sequence[ChatTurn], *, max_tokens: int, temperature: float | None = None
    ) -> ChatStream:
        async def pieces() -> AsyncGenerator[str, None]:
            for piece in ("Try the ", "[chicken-", "soup].\n<<Is it quick?>>"):
                yield piece

        return ChatStream(pieces(), "answers-anything")
