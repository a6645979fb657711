"""The protocol's responses to a started answer, in the dialect the request spoke
(app/protocol/dialects.py): one JSON answer, or a stream framed as JSON lines or, for a
client that asks with `Accept: text/event-stream`, as server-sent events. The second framing
exists because Azure Static Web Apps buffers the proxied responses of other content types
until they end, which would turn a stream back into one late reply.

The 2024-01-28 chat completion and its chunks are built here; current.py and component.py add
what their readers need."""

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
from app.chat.thoughts import thought
from app.http.edge import DEADLINE_PASSED, INTERNAL_ERROR, ErrorFormat, TimedStream
from app.protocol import component, current
from app.protocol.chat_protocol import EVENT_STREAM, JSON_LINES
from app.protocol.dialects import Dialect, ProtocolCall
from app.providers.errors import UpstreamError

log = logging.getLogger(__name__)

ErrorEvent = Callable[[int, str], dict[str, Any]]


def _metadata(answer: StartedAnswer, kind: str) -> dict[str, Any]:
    return {
        "created": int(time.time()),
        "id": f"chatcmpl-{uuid.uuid4().hex}",
        "model": answer.reply.model,
        "object": kind,
    }


def _usage(answer: StartedAnswer) -> dict[str, Any]:
    usage = current.ending(answer).get("usage")
    return {} if usage is None else {"usage": usage}


def _followups(answer: StartedAnswer) -> dict[str, Any]:
    questions = answer.reply.followup_questions
    return {} if questions is None else {"followup_questions": questions}


def context_of(answer: StartedAnswer, call: ProtocolCall) -> dict[str, Any]:
    """The answer's context, with a thought naming what the request said that was not used."""
    if not call.unused:
        return answer.context
    note = thought("Request fields not used", "; ".join(call.unused) + ": this app does not use them.")
    return answer.context | {"thoughts": [*answer.context["thoughts"], note]}


async def completion(answer: StartedAnswer, call: ProtocolCall) -> JSONResponse:
    """The whole answer, in the dialect of the request."""
    context = context_of(answer, call)
    content = "".join([piece async for piece in answer.reply])
    if call.dialect is Dialect.CURRENT:
        return JSONResponse(current.completion(answer, content, context, call.session_state))
    message: dict[str, Any] = {"content": content, "role": "assistant"}
    if call.dialect is Dialect.COMPONENT:
        followups = answer.reply.followup_questions
        message["content"] = component.escape(content) + "".join(component.followup_pieces(followups or []))
        message["context"] = component.message_context(context, followups)
    choice = {
        "context": context | _followups(answer),
        # "length" when the model was cut at its token limit (its unfinished sentence dropped).
        "finish_reason": answer.reply.finish_reason,
        "index": 0,
        "message": message,
        "session_state": call.session_state,
    }
    body = {"choices": [choice], **_metadata(answer, "chat.completion"), **_usage(answer)}
    if call.dialect is Dialect.UNMARKED:
        # The official client's first call looks like this too: its fields as well.
        body |= current.completion(answer, content, context, call.session_state)
    return JSONResponse(body)


async def chunks(answer: StartedAnswer, call: ProtocolCall) -> AsyncGenerator[dict[str, Any], None]:
    """The answer as 2024-01-28 chunks: first the role and the whole context (known before the
    model writes anything), then one chunk per piece of text, and last the finish, with the
    follow-up questions and the usage where there are any. For the chat-component the context
    is in the delta as well, the text is escaped, and the follow-up questions end the text."""
    metadata = _metadata(answer, "chat.completion.chunk")
    shown = call.dialect is Dialect.COMPONENT

    def chunk(delta: dict[str, Any], finish_reason: str | None = None, **choice: Any) -> dict[str, Any]:
        return {
            "choices": [{"delta": delta, **choice, "finish_reason": finish_reason, "index": 0}],
            **metadata,
        }

    context = context_of(answer, call)
    opening = {"role": "assistant"} | ({"context": component.message_context(context)} if shown else {})
    yield chunk(opening, context=context, session_state=call.session_state)
    async for piece in answer.reply:
        yield chunk({"content": component.escape(piece) if shown else piece})
    if shown:
        for piece in component.followup_pieces(answer.reply.followup_questions or []):
            yield chunk({"content": piece})
    last = {"context": followups} if (followups := _followups(answer)) else {}
    yield chunk({}, answer.reply.finish_reason, **last) | _usage(answer)


def streaming_response(answer: StartedAnswer, call: ProtocolCall, *, event_stream: bool) -> TimedStream:
    """The answer's stream in the request's dialect, framed for the client."""
    if call.dialect is Dialect.CURRENT:
        nested = ErrorFormat(nested=True)
        stream = current.deltas(answer, context_of(answer, call), call.session_state)
        return event_response(
            stream, event_stream=event_stream, error_event=nested.body, media_type=current.JSONL
        )
    error_event = component.stream_error if call.dialect is Dialect.COMPONENT else legacy_error
    return event_response(chunks(answer, call), event_stream=event_stream, error_event=error_event)


def legacy_error(status: int, message: str) -> dict[str, Any]:
    return {"error": message}


def json_line(event: Mapping[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False) + "\n"


def server_sent_event(event: Mapping[str, Any]) -> str:
    return f"data: {json.dumps(event, ensure_ascii=False)}\n\n"


def event_response(
    stream: AsyncGenerator[dict[str, Any], None],
    *,
    event_stream: bool,
    error_event: ErrorEvent = legacy_error,
    media_type: str = JSON_LINES,
) -> TimedStream:
    """Events, framed for the client: JSON lines or server-sent events. Once the stream has
    begun the status is sent, so a failure after that, or the request's deadline passing, is
    a last error event (`error_event`, in the dialect's shape), as the protocol says."""
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
            yield frame(error_event(504, DEADLINE_PASSED))
        except UpstreamError as error:
            log.warning("request %s: upstream failure in the stream: %r", request_id(), error.__cause__)
            yield frame(error_event(error.status, error.public_message))
        except Exception:
            log.exception("request %s: the stream failed", request_id())
            yield frame(error_event(500, INTERNAL_ERROR))
        finally:
            await stream.aclose()

    response = TimedStream(
        events(),
        media_type=EVENT_STREAM if event_stream else media_type,
        # Proxies that honour these (nginx, and others that copy it) pass each event on at once.
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )

    def request_id() -> str:
        # Set on the response by the endpoint after this function returns, and before the
        # events are generated: they run only when the response is sent.
        return response.headers.get("x-request-id", "-")

    return response
