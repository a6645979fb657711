"""An OpenAI-compatible stand-in for the model, whose own time is known exactly.

It serves `/v1/chat/completions` (JSON and server-sent events) and `/v1/embeddings`, waits
a configurable time per call, per generated token and per prompt token, and records, for
every call, how long it spent from the request's first byte to the response's last one
(and to its headers, for streams) and how large the prompt was. The benchmark subtracts
that time from what its client measured, so what is left is what the app costs around it.

Prompt tokens are estimated, not counted: an exact count needs each model's vocabulary,
which tiktoken downloads at run time (impossible offline). The estimate is OpenAI's rule of
thumb, one token per 4 characters of content plus 4 per message and 3 per reply; a
structured-output schema, which the model reads too, is recorded apart (`schema_tokens`, its
compact JSON by the same rule), so that `prompt_tokens` stays comparable with earlier runs. It
applies to both pipelines alike, and `prompt_chars` is recorded too, which is exact.

Control (not timed): `POST /_bench/config` sets the latencies, `GET /_bench/records` returns
the records (`?clear=1` empties them). Run: `python -m bench.fake_openai --port 8100`.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import math
import re
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import asdict, dataclass
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CHARS_PER_TOKEN = 4
TOKENS_PER_MESSAGE = 4
TOKENS_PER_REPLY = 3
WORD = " simmer"  # one token of generated text
# An answer's words, each one token, none repeated: the app's answer guard stops a reply that
# loops, which "simmer simmer simmer..." would be.
VOCAB = [
    "simmer",
    "the",
    "onions",
    "slowly",
    "then",
    "stir",
    "in",
    "garlic",
    "with",
    "fresh",
    "herbs",
    "and",
    "serve",
    "warm",
    "over",
    "rice",
    "beside",
    "crusty",
    "bread",
    "for",
    "supper",
    "tonight",
]


def answer_words(tokens: int) -> str:
    return " ".join(f"{VOCAB[i % len(VOCAB)]}{i // len(VOCAB) or ''}" for i in range(tokens))


def first_recipe_id(messages: list[dict[str, Any]]) -> str | None:
    """The first recipe the answer prompt lists (`Title [id]: facts`), which the answer cites."""
    system = str(messages[0].get("content") or "") if messages else ""
    match = re.search(r"BEGIN RECIPES\n[^\n]*? \[([a-z0-9-]+)\]:", system)
    return match.group(1) if match else None


@dataclass
class Latency:
    call_ms: float = 0.0  # before the first byte of every call
    token_ms: float = 0.0  # per generated token
    prompt_token_ms: float = 0.0  # per prompt token: a stand-in for the model's prefill
    tokens: int = 20  # generated tokens per answer


def estimate_prompt_tokens(messages: list[dict[str, Any]]) -> int:
    total = TOKENS_PER_REPLY
    for message in messages:
        content = message.get("content") or ""
        if isinstance(content, list):  # content parts
            content = " ".join(str(part.get("text", "")) for part in content)
        total += TOKENS_PER_MESSAGE + math.ceil(len(content) / CHARS_PER_TOKEN)
    return total


def schema_tokens(response_format: dict[str, Any] | None) -> int:
    """A structured-output schema is part of the prompt the model reads (and is billed for):
    counted as its compact JSON, by the same rule."""
    schema = ((response_format or {}).get("json_schema") or {}).get("schema")
    return math.ceil(len(json.dumps(schema, separators=(",", ":"))) / CHARS_PER_TOKEN) if schema else 0


class Recorder:
    """The per-call records and the latencies in force, shared by the routes."""

    def __init__(self, latency: Latency) -> None:
        self.latency = latency
        self.records: list[dict[str, Any]] = []


class Timing:
    """ASGI wrapper: the time from the call to the last byte sent, which is the upstream's
    whole share of a request, HTTP parsing and serialising included."""

    def __init__(self, app: ASGIApp, recorder: Recorder) -> None:
        self.app = app
        self.recorder = recorder

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/_bench"):
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        record: dict[str, Any] = {"path": scope["path"]}
        scope.setdefault("state", {})["record"] = record

        async def timed_send(message: Message) -> None:
            await send(message)
            if message["type"] == "http.response.start":
                record["headers_s"] = time.perf_counter() - start
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                record["total_s"] = time.perf_counter() - start
                self.recorder.records.append(record)

        await self.app(scope, receive, timed_send)


def last_user_text(messages: list[dict[str, Any]]) -> str:
    for message in reversed(messages):
        if message.get("role") == "user":
            return str(message.get("content") or "")
    return ""


# What a rewrite prompt asks for, LangChain's ("standalone question") and the app's ("to stand
# alone"), in any spelling.
STANDALONE = re.compile(r"stand[- ]?alone", re.IGNORECASE)


def rewrite_of(messages: list[dict[str, Any]]) -> str | None:
    """A rewrite call (ours or LangChain's) gets the latest question back, naming what the
    app's resolver found (the recipes it refers to, the requests it keeps), as a model that
    follows the prompt would: a rewrite that passes the app's guard, so that no fallback path
    is what gets measured."""
    system = str(messages[0].get("content") or "") if messages else ""
    if not STANDALONE.search(system):
        return None
    text = last_user_text(messages)
    marker = "Latest question:"
    if marker not in text:
        return text.strip()
    question, *found = text.rsplit(marker, 1)[1].strip().split("\n")
    named = [line.split(":", 1)[1].strip() for line in found if ":" in line]
    if not named:
        return question
    return f"{question.rstrip('?')} ({'; '.join(named)})?"


def reply_text(body: dict[str, Any], tokens: int) -> str:
    messages = body.get("messages") or []
    words = answer_words(tokens)
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        schema = fmt.get("json_schema", {}).get("schema", {})
        properties = schema.get("properties", {})
        if "search_text" in properties:  # the app's question reader: no filters read
            # Arrays empty, the rest null: a reading of no filters that the app accepts.
            reading: dict[str, Any] = {
                name: [] if spec.get("type") == "array" else None for name, spec in properties.items()
            }
            searched = last_user_text(messages)
            if "question" in properties:  # with the rewrite, in one call: the question unchanged
                searched = rewrite_of(messages) or searched
                reading["question"] = searched
            return json.dumps(reading | {"search_text": searched})
        ids = properties.get("sources", {}).get("items", {}).get("properties", {}).get("id", {}).get("enum")
        sources = [{"id": ids[0], "title": ids[0]}] if ids else []
        return json.dumps({"answer": words, "sources": sources})
    if fmt.get("type") == "json_object":
        return json.dumps({"answer": words, "sources": []})
    rewrite = rewrite_of(messages)
    if rewrite is not None:
        return rewrite
    cited = first_recipe_id(messages)
    return f"{words} [{cited}]" if cited else words


async def chat_completions(request: Request) -> Response:
    recorder: Recorder = request.app.state.recorder
    latency = recorder.latency
    body = await request.json()
    messages = body.get("messages") or []
    prompt_tokens = estimate_prompt_tokens(messages)
    schema = schema_tokens(body.get("response_format"))
    stream = bool(body.get("stream"))
    text = reply_text(body, latency.tokens)
    request.state.record.update(
        stream=stream,
        prompt_tokens=prompt_tokens,
        schema_tokens=schema,
        prompt_chars=sum(len(str(m.get("content") or "")) for m in messages),
        messages=len(messages),
        response_format=(body.get("response_format") or {}).get("type"),
        system_head=str(messages[0].get("content") or "")[:60] if messages else "",
    )
    await asyncio.sleep((latency.call_ms + latency.prompt_token_ms * (prompt_tokens + schema)) / 1000)
    pieces = [text] if not stream else split_pieces(text, latency.tokens)
    completion_tokens = max(1, len(pieces) if stream else latency.tokens)
    usage = {
        "prompt_tokens": prompt_tokens + schema,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + schema + completion_tokens,
    }
    base = {"id": f"chatcmpl-{uuid.uuid4().hex[:12]}", "created": int(time.time()), "model": body["model"]}
    if not stream:
        await asyncio.sleep(latency.token_ms * latency.tokens / 1000)
        choice = {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        return JSONResponse(base | {"object": "chat.completion", "choices": [choice], "usage": usage})
    include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
    return StreamingResponse(
        sse_chunks(base, pieces, latency.token_ms, usage if include_usage else None),
        media_type="text/event-stream",
    )


def split_pieces(text: str, tokens: int) -> list[str]:
    """The reply in about `tokens` pieces, as a model streams it."""
    if not text:
        return [""]
    size = max(1, math.ceil(len(text) / max(1, tokens)))
    return [text[i : i + size] for i in range(0, len(text), size)]


async def sse_chunks(
    base: dict[str, Any], pieces: list[str], token_ms: float, usage: dict[str, int] | None
) -> AsyncIterator[str]:
    def event(choices: list[dict[str, Any]], **extra: Any) -> str:
        return (
            f"data: {json.dumps(base | {'object': 'chat.completion.chunk', 'choices': choices} | extra)}\n\n"
        )

    yield event([{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}])
    for piece in pieces:
        await asyncio.sleep(token_ms / 1000)
        yield event([{"index": 0, "delta": {"content": piece}, "finish_reason": None}])
    yield event([{"index": 0, "delta": {}, "finish_reason": "stop"}])
    if usage is not None:
        yield event([], usage=usage)
    yield "data: [DONE]\n\n"


def embedding(text: str, dimensions: int) -> list[float]:
    """A deterministic unit vector per text: enough for plumbing, meaningless for ranking."""
    seed = hashlib.sha256(text.encode()).digest()
    raw = [seed[i % len(seed)] - 127.5 for i in range(dimensions)]
    norm = math.sqrt(sum(v * v for v in raw)) or 1.0
    return [v / norm for v in raw]


async def embeddings(request: Request) -> Response:
    recorder: Recorder = request.app.state.recorder
    body = await request.json()
    texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
    request.state.record.update(
        stream=False, prompt_tokens=sum(math.ceil(len(str(t)) / CHARS_PER_TOKEN) for t in texts)
    )
    await asyncio.sleep(recorder.latency.call_ms / 1000)
    data = [
        {"object": "embedding", "index": i, "embedding": embedding(str(t), 256)} for i, t in enumerate(texts)
    ]
    tokens = request.state.record["prompt_tokens"]
    return JSONResponse(
        {
            "object": "list",
            "data": data,
            "model": body["model"],
            "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
        }
    )


async def set_config(request: Request) -> Response:
    recorder: Recorder = request.app.state.recorder
    recorder.latency = Latency(**(asdict(recorder.latency) | await request.json()))
    return JSONResponse(asdict(recorder.latency))


async def get_records(request: Request) -> Response:
    recorder: Recorder = request.app.state.recorder
    records = list(recorder.records)
    if request.query_params.get("clear"):
        recorder.records.clear()
    return JSONResponse(records)


def create_app(latency: Latency | None = None) -> ASGIApp:
    app = Starlette(
        routes=[
            Route("/v1/chat/completions", chat_completions, methods=["POST"]),
            Route("/v1/embeddings", embeddings, methods=["POST"]),
            Route("/_bench/config", set_config, methods=["POST"]),
            Route("/_bench/records", get_records, methods=["GET"]),
        ]
    )
    recorder = Recorder(latency or Latency())
    app.state.recorder = recorder
    return Timing(app, recorder)


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8100)
    parser.add_argument("--call-ms", type=float, default=0.0)
    parser.add_argument("--token-ms", type=float, default=0.0)
    parser.add_argument("--prompt-token-ms", type=float, default=0.0)
    parser.add_argument("--tokens", type=int, default=20)
    args = parser.parse_args()
    latency = Latency(args.call_ms, args.token_ms, args.prompt_token_ms, args.tokens)
    # No access log: writing a line per call would be the fake's time, not the app's, but
    # it would still take CPU from the app on a 2-core machine.
    uvicorn.run(create_app(latency), host="127.0.0.1", port=args.port, log_level="warning", access_log=False)


if __name__ == "__main__":
    main()
