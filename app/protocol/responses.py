"""The AI chat app protocol's responses as pydantic models, for the OpenAPI document.

`app/protocol/chat_protocol.py` builds these responses as plain dicts (cheap, and in the protocol's
field order); these models describe them. They forbid unknown fields, so that a field added
there and not here fails the tests that validate real responses against the document
(tests/test_openapi.py and the schemathesis run), instead of drifting silently.
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


class AssistantMessage(Strict):
    content: str
    role: Literal["assistant"]


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


class ChatCompletion(Strict):
    """The answer to a protocol request with `"stream": false`."""

    choices: list[CompletionChoice]
    created: int
    id: str
    model: str
    object: Literal["chat.completion"]
    usage: TokenUsage | None = None


class Delta(Strict):
    role: Literal["assistant"] | None = None
    content: str | None = None


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
