"""The protocol's responses to a started answer: one JSON chat completion, or a stream of
completion chunks framed as JSON lines or as server-sent events (see chat_protocol.py)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Mapping
from typing import Any

from starlette.responses import JSONResponse

from app.chat.answers import StartedAnswer
from app.http.edge import DEADLINE_PASSED, INTERNAL_ERROR, TimedStream
from app.protocol.chat_protocol import EVENT_STREAM, JSON_LINES
from app.providers.errors import UpstreamError

log = logging.getLogger(__name__)


def _metadata(answer: StartedAnswer, kind: str) -> dict[str, Any]:
    return {
        "created": int(time.time()),
        "id": f"chatcmpl-{uuid.uuid4().hex}",
        "model": answer.reply.model,
        "object": kind,
    }


def _usage(answer: StartedAnswer) -> dict[str, Any]:
    usage = answer.reply.usage
    if usage is None:
        return {}
    return {
        "usage": {
            "completion_tokens": usage.completion_tokens,
            "prompt_tokens": usage.prompt_tokens,
            "total_tokens": usage.total_tokens,
        }
    }


def _followups(answer: StartedAnswer) -> dict[str, Any]:
    questions = answer.reply.followup_questions
    return {} if questions is None else {"followup_questions": questions}


async def completion(answer: StartedAnswer, session_state: Any) -> JSONResponse:
    """The whole answer as one protocol chat completion."""
    content = "".join([piece async for piece in answer.reply])
    choice = {
        "context": answer.context | _followups(answer),
        # "length" when the model was cut at its token limit (its unfinished sentence dropped).
        "finish_reason": answer.reply.finish_reason,
        "index": 0,
        "message": {"content": content, "role": "assistant"},
        "session_state": session_state,
    }
    return JSONResponse({"choices": [choice], **_metadata(answer, "chat.completion"), **_usage(answer)})


async def chunks(answer: StartedAnswer, session_state: Any) -> AsyncGenerator[dict[str, Any], None]:
    """The answer as protocol chunks: first the role and the whole context (known before the
    model writes anything), then one chunk per piece of text, and last the finish, with the
    follow-up questions and the usage where there are any."""
    metadata = _metadata(answer, "chat.completion.chunk")

    def chunk(delta: dict[str, Any], finish_reason: str | None = None, **choice: Any) -> dict[str, Any]:
        return {
            "choices": [{"delta": delta, **choice, "finish_reason": finish_reason, "index": 0}],
            **metadata,
        }

    yield chunk({"role": "assistant"}, context=answer.context, session_state=session_state)
    async for piece in answer.reply:
        yield chunk({"content": piece})
    last = {"context": followups} if (followups := _followups(answer)) else {}
    yield chunk({}, answer.reply.finish_reason, **last) | _usage(answer)


def json_line(event: Mapping[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False) + "\n"


def server_sent_event(event: Mapping[str, Any]) -> str:
    return f"data: {json.dumps(event, ensure_ascii=False)}\n\n"


def streaming_response(answer: StartedAnswer, session_state: Any, *, event_stream: bool) -> TimedStream:
    """The protocol's chunks, framed for the client."""
    return event_response(chunks(answer, session_state), event_stream=event_stream)


def event_response(stream: AsyncGenerator[dict[str, Any], None], *, event_stream: bool) -> TimedStream:
    """Events, framed for the client: JSON lines or server-sent events. Once the stream has
    begun the status is sent, so a failure after that, or the request's deadline passing, is
    a last `{"error": ...}` event, as the protocol says."""
    frame: Callable[[Mapping[str, Any]], str] = server_sent_event if event_stream else json_line

    async def events() -> AsyncIterator[str]:
        try:
            while True:
                # The deadline bounds each step, never a `yield`: a timeout left open across
                # one would cancel whatever the consumer of the stream is doing at the time.
                async with asyncio.timeout_at(response.deadline_at):
                    event = await anext(stream, None)
                if event is None:
                    break
                yield frame(event)
        except TimeoutError:
            log.warning("request %s: the deadline passed during the stream", request_id())
            yield frame({"error": DEADLINE_PASSED})
        except UpstreamError as error:
            log.warning("request %s: upstream failure in the stream: %r", request_id(), error.__cause__)
            yield frame({"error": error.public_message})
        except Exception:
            log.exception("request %s: the stream failed", request_id())
            yield frame({"error": INTERNAL_ERROR})
        finally:
            await stream.aclose()

    response = TimedStream(
        events(),
        media_type=EVENT_STREAM if event_stream else JSON_LINES,
        # Proxies that honour these (nginx, and others that copy it) pass each event on at once.
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )

    def request_id() -> str:
        # Set on the response by the endpoint after this function returns, and before the
        # events are generated: they run only when the response is sent.
        return response.headers.get("x-request-id", "-")

    return response
