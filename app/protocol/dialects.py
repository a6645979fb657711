"""Which dialect of the AI chat protocol a POST /api/chat request speaks, read from what the
request itself says, since the three kinds of front end post to the same route:

- `current`: `@microsoft/ai-chat-protocol`'s client. Its body has `sessionState` (camel case),
  or it posts to /api/chat/stream. It reads `{message, context, sessionState}`, JSON lines of
  `{delta, context?, sessionState?}`, and errors as `{"error": {"code", "message"}}`.
- `2024-01-28`: the version of the protocol's text in spec/legacy. Its body has `session_state`
  or `stream`, and it reads chat completions and their chunks, errors as `{"error": "..."}`.
- `chat-component`: Azure-Samples/azure-search-openai-javascript's web component. Its overrides
  sit flat in `context` (`retrieval_mode`, `top`, `approach`...), beside `stream`. It reads the
  2024-01-28 shapes, plus the context at `choices[0].message.context` (`delta.context` in a
  stream) with `thoughts` as HTML, and follow-up questions as `<<question>>` in the answer.
- `unmarked`: only `messages` (and perhaps `context.overrides`), which both the official
  client's first call (JSON drops its undefined `sessionState`) and a terse 2024-01-28 client
  send. The answer carries the fields of both, and errors take the current protocol's shape,
  which a 2024-01-28 client still reads as an error (its `error` is there, only not a string).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from app.protocol.chat_protocol import OVERRIDE_NAMES, ChatProtocolRequest, CurrentProtocolRequest

# What the chat-component puts flat in `context` besides the overrides.
COMPONENT_CONTEXT = OVERRIDE_NAMES | {"approach"}
BODY_FIELDS = {"messages", "stream", "context", "session_state", "sessionState"}


class Dialect(StrEnum):
    CURRENT = "current"
    LEGACY = "2024-01-28"
    COMPONENT = "chat-component"
    UNMARKED = "unmarked"

    @property
    def nested_errors(self) -> bool:
        """Whether its errors are `{"error": {"code", "message"}}` rather than `{"error": "..."}`."""
        return self in (Dialect.CURRENT, Dialect.UNMARKED)

    @property
    def request_model(self) -> type[ChatProtocolRequest]:
        """An unmarked body may be the official client's first call: read as its protocol's
        (which allows `system` messages), its answer also has the 2024-01-28 fields."""
        return CurrentProtocolRequest if self.nested_errors else ChatProtocolRequest


def dialect_of(body: Mapping[str, Any], *, stream_route: bool) -> Dialect:
    """The dialect a protocol body speaks (see the module's text). The order matters: the
    chat-component sends `stream` too, and only its context is flat."""
    if stream_route or "sessionState" in body:
        return Dialect.CURRENT
    if "session_state" in body:
        return Dialect.LEGACY
    context = body.get("context")
    if isinstance(context, Mapping) and context.keys() & COMPONENT_CONTEXT:
        return Dialect.COMPONENT
    if "stream" in body:
        return Dialect.LEGACY
    return Dialect.UNMARKED


def unused_fields(body: Mapping[str, Any], dialect: Dialect) -> list[str]:
    """What a valid request said that the app does not use: other back ends' settings, fields
    of the app's own defining, `system` messages. They are not refused (front ends send them
    to any back end), and not dropped without a word: the thoughts name them."""
    unused = [name for name in body if name not in BODY_FIELDS]
    if dialect is Dialect.CURRENT and "session_state" in body:
        unused.append("session_state (this protocol's is sessionState, which comes back)")
    context = body.get("context")
    if isinstance(context, Mapping):
        unused += [f"context.{k}" for k in context if k not in OVERRIDE_NAMES and k != "overrides"]
        overrides = context.get("overrides")
        if isinstance(overrides, Mapping):
            unused += [f"context.overrides.{k}" for k in overrides if k not in OVERRIDE_NAMES]
    messages = body.get("messages")
    if isinstance(messages, list):
        unused += [
            f"messages[{i}] (a system message: the app's own prompt is the only one the model gets)"
            for i, m in enumerate(messages)
            if isinstance(m, Mapping) and m.get("role") == "system"
        ]
    return unused


@dataclass(frozen=True)
class ProtocolCall:
    """A protocol request, the dialect it speaks, and what it said that the app does not use."""

    request: ChatProtocolRequest
    dialect: Dialect
    unused: tuple[str, ...] = ()

    @property
    def session_state(self) -> Any:
        request = self.request
        return request.sessionState if isinstance(request, CurrentProtocolRequest) else request.session_state
