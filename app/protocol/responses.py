"""The AI chat protocol's responses, in each dialect, as pydantic models, for the OpenAPI document.

`app/protocol/rendering.py`, `current.py` and `component.py` build these responses as plain
dicts (cheap, and in the protocol's field order); these models describe them. They forbid
unknown fields, so that a field added there and not here fails the tests that validate real
responses against the document (tests/test_openapi.py and the schemathesis run), instead of
drifting silently.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Thought(Strict):
    title: str
    description: Any
    props: dict[str, Any] | None


class DataPoints(Strict):
    text: list[str]


class CompletionContext(Strict):
    data_points: DataPoints
    thoughts: list[Thought]
    followup_questions: list[str] | None = None


class ComponentContext(Strict):
    """The context where the chat-component reads it, with the thoughts as one HTML string."""

    data_points: DataPoints
    thoughts: str
    followup_questions: list[str] | None = None


class AssistantMessage(Strict):
    content: str
    role: Literal["assistant"]
    # Only for the chat-component (its overrides flat in `context`).
    context: ComponentContext | None = None


class TokenUsage(Strict):
    completion_tokens: int
    prompt_tokens: int
    total_tokens: int


class CompletionChoice(Strict):
    context: CompletionContext
    finish_reason: Literal["stop"]
    index: int
    message: AssistantMessage
    session_state: Any


class CurrentContext(Strict):
    """The current protocol's context (the app's to define): the 2024-01-28 context, and what is
    known at the end of the answer. In a stream, the first line has the first three, the last
    line the others."""

    data_points: DataPoints | None = None
    thoughts: list[Thought] | None = None
    followup_questions: list[str] | None = None
    finish_reason: Literal["stop", "length"] | None = None
    usage: TokenUsage | None = None


class CurrentMessage(Strict):
    content: str
    role: Literal["assistant"]


class ChatCompletion(Strict):
    """The answer to a 2024-01-28 or chat-component request with `"stream": false`. To a body
    of only `messages` (the official client's first call, or a terse 2024-01-28 client) it
    also carries the current protocol's `message`, `context` and `sessionState`."""

    choices: list[CompletionChoice]
    created: int
    id: str
    model: str
    object: Literal["chat.completion"]
    usage: TokenUsage | None = None
    message: CurrentMessage | None = None
    context: CurrentContext | None = None
    sessionState: Any = None


class CurrentCompletion(Strict):
    """The answer to a request of the current protocol (with `sessionState`)."""

    message: CurrentMessage
    context: CurrentContext
    sessionState: Any


class Delta(Strict):
    role: Literal["assistant"] | None = None
    content: str | None = None
    # Only for the chat-component, in the first chunk.
    context: ComponentContext | None = None


class ChunkContext(Strict):
    # The first chunk carries the data points and thoughts; the last, the follow-up questions.
    data_points: DataPoints | None = None
    thoughts: list[Thought] | None = None
    followup_questions: list[str] | None = None


class ChunkChoice(Strict):
    delta: Delta
    context: ChunkContext | None = None
    session_state: Any = None
    finish_reason: Literal["stop"] | None
    index: int


class ChatCompletionChunk(Strict):
    """One line (or server-sent event) of a protocol stream."""

    choices: list[ChunkChoice]
    created: int
    id: str
    model: str
    object: Literal["chat.completion.chunk"]
    usage: TokenUsage | None = None


class CurrentDelta(Strict):
    """One line (or server-sent event) of a stream of the current protocol, at /api/chat/stream."""

    delta: Delta
    context: CurrentContext | None = None
    sessionState: Any = None
