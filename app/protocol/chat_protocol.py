"""The request bodies of POST /api/chat that speak an AI chat protocol, in each of its dialects
(app/protocol/dialects.py says which one a request speaks): the 2024-01-28 version
(`session_state`), the current one of `@microsoft/ai-chat-protocol` (`sessionState`, and the
`system` role), and the chat-component's (its overrides flat in `context`). All of them are
read into one `ChatProtocolRequest`, which the answer pipeline takes.

Responses are shaped in rendering.py (the 2024-01-28 shapes and their framings), current.py
and component.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from app.http.bodies import Message, check_lengths, limits
from app.search.filters import NO_FILTERS, RecipeFilters, RetrievalMode

JSON_LINES = "application/json-lines"
EVENT_STREAM = "text/event-stream"


def speaks_protocol(body: Mapping[str, Any]) -> bool:
    return "messages" in body


class ProtocolMessage(BaseModel):
    # Other fields are ignored, not refused: protocol front ends send the assistant's earlier
    # messages back as they received them, with `function_call`, `tool_calls`, `context` and the like.
    model_config = ConfigDict(extra="ignore")

    # Only the two conversational roles: a client must never be able to inject a system turn.
    role: Literal["user", "assistant"]
    content: str


class CurrentMessage(ProtocolMessage):
    # The current protocol allows `system`; such messages are read, never sent to the model
    # (the app's own prompt is the only system turn), and the thoughts say so.
    role: Literal["user", "assistant", "system"]  # type: ignore[assignment]


def default_of(model: BaseModel) -> dict[str, Any]:
    """A default built by a factory, written in the JSON schema as a plain default is. Models
    as defaults are built by factories: pydantic deep-copies a model default at every
    validation (the whole context, its overrides and filters, for each request without one)."""
    return {"default": model.model_dump(mode="json")}


class Overrides(BaseModel):
    """The request's `context.overrides`. Unknown overrides are ignored, since front ends send
    the settings of other back ends too (`use_gpt4v`, `vector_fields`...); a known one of the
    wrong type is refused."""

    model_config = ConfigDict(extra="ignore")

    top: int | None = Field(default=None, ge=1, le=50)
    retrieval_mode: RetrievalMode | None = None
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    suggest_followup_questions: bool | None = None
    # Azure AI Search features: the embedded store has neither, and says so in the thoughts.
    semantic_ranker: bool | None = None
    semantic_captions: bool | None = None
    # The app's own: diet flags and a time limit. Unlike the overrides around them, a
    # misspelt filter is refused: ignoring "vegitarian" would quietly serve meat.
    filters: RecipeFilters = Field(
        default_factory=lambda: NO_FILTERS, json_schema_extra=default_of(NO_FILTERS)
    )

    @field_validator("filters", mode="before")
    @classmethod
    def _null_is_none(cls, value: Any) -> Any:
        return NO_FILTERS if value is None else value


class RequestContext(Overrides):
    """The request's `context`: the overrides in `context.overrides` (the 2024-01-28 text), or
    flat in `context` itself (the chat-component's), checked alike; not both at once. Other
    keys are the app's to define: those it does not use are named in the thoughts
    (dialects.unused_fields), never refused, since front ends send other back ends' settings."""

    overrides: Overrides = Field(default_factory=Overrides, json_schema_extra=default_of(Overrides()))

    @field_validator("overrides", mode="before")
    @classmethod
    def _null_is_empty(cls, value: Any) -> Any:
        return {} if value is None else value

    @model_validator(mode="after")
    def _one_place(self) -> RequestContext:
        if self.overrides.model_fields_set and self.model_fields_set & OVERRIDE_NAMES:
            raise ValueError("give the overrides either flat in context or in context.overrides, not both")
        return self

    @property
    def effective(self) -> Overrides:
        if self.overrides.model_fields_set:
            return self.overrides
        flat = {name: getattr(self, name) for name in self.model_fields_set & OVERRIDE_NAMES}
        return Overrides.model_construct(_fields_set=set(flat), **flat)


OVERRIDE_NAMES = frozenset(Overrides.model_fields)


class ChatProtocolRequest(BaseModel):
    """`{"messages": [...], "stream": bool, "context": {"overrides": {...}}, "session_state": any}`.

    Other top-level fields are ignored, as the protocol lets each app define its own; only
    the fields of the app's other body shape are refused, since a body with both is a mistake.
    """

    model_config = ConfigDict(extra="ignore")

    messages: list[ProtocolMessage]
    stream: bool = False
    context: RequestContext = Field(
        default_factory=RequestContext, json_schema_extra=default_of(RequestContext())
    )
    # Handed back untouched: it is the client's memory, not ours.
    session_state: Any = None

    @model_validator(mode="before")
    @classmethod
    def _one_shape(cls, data: Any) -> Any:
        if isinstance(data, dict) and ({"userMessage", "conversation"} & data.keys()):
            raise ValueError(
                "Send either messages (the AI chat app protocol) or userMessage and conversation, not both"
            )
        return data

    @field_validator("stream", mode="before")
    @classmethod
    def _null_is_false(cls, value: Any) -> Any:
        return False if value is None else value

    @field_validator("context", mode="before")
    @classmethod
    def _null_is_empty(cls, value: Any) -> Any:
        return {} if value is None else value

    @field_validator("messages")
    @classmethod
    def _ends_with_a_question(cls, messages: list[ProtocolMessage]) -> list[ProtocolMessage]:
        if not messages:
            raise ValueError("must hold at least the user's message")
        if messages[-1].role != "user":
            raise ValueError("the last message must be the user's")
        if not messages[-1].content.strip():
            raise ValueError("the last message must not be empty")
        return messages

    @model_validator(mode="after")
    def _within_limits(self, info: ValidationInfo) -> ChatProtocolRequest:
        """The limits of the app's own shape: the same conversation passes both or neither."""
        settings = limits(info)
        most = settings.max_conversation_messages + 1 if settings is not None else None  # history + question
        if most is not None and len(self.messages) > most:
            raise ValueError(f"messages has {len(self.messages)} messages; the limit is {most}")
        check_lengths(((f"messages[{i}].content", m.content) for i, m in enumerate(self.messages)), info)
        return self

    @property
    def question(self) -> str:
        return self.messages[-1].content

    @property
    def conversation(self) -> list[Message]:
        return [Message(role=m.role, content=m.content) for m in self.messages[:-1]]

    @property
    def overrides(self) -> Overrides:
        return self.context.effective


class CurrentProtocolRequest(ChatProtocolRequest):
    """The current protocol's `{"messages", "context", "sessionState"}`: no `stream` (a stream
    is asked for at /api/chat/stream), and `system` messages allowed."""

    messages: list[CurrentMessage]  # type: ignore[assignment]
    sessionState: Any = None

    @field_validator("stream")
    @classmethod
    def _no_stream_field(cls, value: bool) -> bool:
        if value:
            raise ValueError("is not part of the current protocol: POST to /api/chat/stream for a stream")
        return value

    @property
    def conversation(self) -> list[Message]:
        return [Message(role=m.role, content=m.content) for m in self.messages[:-1] if m.role != "system"]


def wants_event_stream(accept: str) -> bool:
    """Whether the `Accept` header asks for server-sent events."""
    for media_range in accept.split(","):
        media_type, *params = (part.strip().lower() for part in media_range.split(";"))
        if media_type == EVENT_STREAM and "q=0" not in params:
            return True
    return False
