"""The shapes of the HTTP API, validated with pydantic."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    model_validator,
)

from app.recipes import Recipe
from app.search.filters import NO_FILTERS, RecipeFilters, RetrievalMode


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # Only the two conversational roles: a client must never be able to inject a system turn.
    role: Literal["user", "assistant"]
    content: str


def not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty")
    return value


NonBlank = Annotated[str, AfterValidator(not_blank)]


def limits(info: ValidationInfo) -> Any:
    """The settings whose size limits apply, passed in the validation context (None in tests
    that build models directly)."""
    return (info.context or {}).get("limits")


def check_lengths(texts: Iterable[tuple[str, str]], info: ValidationInfo) -> None:
    """Refuse, by name, the first text over the configured limit: never cut it silently."""
    settings = limits(info)
    for where, text in texts if settings is not None else ():
        if len(text) > settings.max_message_chars:
            raise ValueError(
                f"{where} is {len(text)} characters long; the limit is {settings.max_message_chars}"
            )


class ReformulateRequest(BaseModel):
    """The body of `/api/chat/reformulate`, and of `/api/chat` with two more fields."""

    # Unknown fields are refused rather than ignored, so that a misspelt `conversation`
    # cannot silently drop the history.
    model_config = ConfigDict(extra="forbid")

    userMessage: NonBlank
    conversation: list[Message] = []

    @model_validator(mode="after")
    def _within_limits(self, info: ValidationInfo) -> ReformulateRequest:
        settings = limits(info)
        if settings is not None and len(self.conversation) > settings.max_conversation_messages:
            raise ValueError(
                f"conversation has {len(self.conversation)} messages; "
                f"the limit is {settings.max_conversation_messages}"
            )
        texts = [("userMessage", self.userMessage)]
        texts += [(f"conversation[{i}].content", m.content) for i, m in enumerate(self.conversation)]
        check_lengths(texts, info)
        return self


class ChatRequest(ReformulateRequest):
    """The app's own body of `/api/chat`: the standalone question, and, when the client has
    them from `/api/chat/reformulate`, the text to search and the filters read from it, so that
    they are not read again (no second model call)."""

    searched: NonBlank | None = Field(
        default=None, description="the text to search, as /api/chat/reformulate gave it"
    )
    filters: RecipeFilters | None = Field(
        default=None,
        description="the filters /api/chat/reformulate read; given, the question's are not read again",
    )

    @model_validator(mode="after")
    def _searched_within_limits(self, info: ValidationInfo) -> ChatRequest:
        check_lengths([("searched", self.searched or "")], info)
        return self


class Source(BaseModel):
    id: str
    title: str


class ReformulateResponse(BaseModel):
    """The standalone question; beside it, what it was grounded in (clients may ignore it)."""

    question: str
    # The catalog recipes the question names, titled as the catalog titles them.
    recipes: list[Source] = []
    # The user's earlier requests it carries ("vegetarian", "Italian").
    carried: list[str] = []
    # Who wrote it: "unchanged", "catalog" (resolved against the catalog) or "model".
    rewritten_by: str = "unchanged"
    # What /api/chat searches for this question, and with which filters: a client sends both
    # back with the question, and /api/chat does not read them again.
    searched: str = ""
    filters: RecipeFilters = NO_FILTERS


class ChatResponse(BaseModel):
    answer: str
    sources: list[Source] = []


class ChatDelta(BaseModel):
    """A piece of the app body's answer, as it is written: an event of its stream, which a
    client asks for with `Accept: text/event-stream`."""

    model_config = ConfigDict(extra="forbid")

    delta: str


class ChatAnswerEnd(ChatResponse):
    """The last event of the app body's stream: the whole answer, its sources, and why the
    answer ended (`length`: the model was cut at its token limit)."""

    model_config = ConfigDict(extra="forbid")

    finish_reason: Literal["stop", "length"]


class ModelSource(BaseModel):
    """A source as the model names it: the title is the model's and is never shown."""

    id: str
    title: str = ""


class ModelAnswer(BaseModel):
    """What the answering LLM must reply with; anything else is treated as a failed reply."""

    answer: str = Field(min_length=1)
    sources: list[ModelSource] = []


class RetrieveRequest(BaseModel):
    """The body of `/api/retrieve`: a search with no LLM call."""

    model_config = ConfigDict(extra="forbid")

    query: NonBlank
    top: int | None = Field(default=None, ge=1, le=50)
    retrieval_mode: RetrievalMode = "hybrid"
    filters: RecipeFilters = NO_FILTERS
    # Read diets, a time limit and exclusions from the query itself, as /api/chat does.
    read_filters: bool = True

    @model_validator(mode="after")
    def _within_limits(self, info: ValidationInfo) -> RetrieveRequest:
        check_lengths([("query", self.query)], info)
        return self


class RetrievedRecipe(BaseModel):
    score: float
    recipe: Recipe


class RetrieveResponse(BaseModel):
    searched: str = Field(description="the text that was searched: the query without its exclusions")
    filters: RecipeFilters = Field(
        description="the filters applied: those given, and those read from the query"
    )
    results: list[RetrievedRecipe]


def describe_errors(error: ValidationError) -> str:
    """Pydantic's errors as one readable line: where each problem is, and what it is."""
    parts = []
    for item in error.errors()[:3]:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in item["loc"]).lstrip(".")
        message = item["msg"].removeprefix("Value error, ")
        if item["type"] == "missing":
            message = "is required"
        elif item["type"] == "extra_forbidden":
            message = "is not a known field"
        elif item["type"] in ("model_type", "model_attributes_type", "dict_type", "dataclass_type"):
            # Pydantic's message names the Python class ("instance of RecipeFilters").
            message = "must be a JSON object"
        parts.append(f"{where}: {message}" if where else message)
    more = len(error.errors()) - 3
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "") + "."


# The errors, as the OpenAPI document describes them (app/http/edge.py writes them).


class ProtocolError(BaseModel):
    """An error as the current AI chat protocol writes it."""

    model_config = ConfigDict(extra="forbid")

    code: str
    message: str


class ErrorBody(BaseModel):
    """Every error: a message meant for the caller, and nothing internal. `error` is the message
    itself, except on /api/chat/stream and for /api/chat bodies of the current protocol (with
    `sessionState`, or only `messages`), where it is `{"code", "message"}`."""

    model_config = ConfigDict(extra="forbid")

    error: str | ProtocolError
    code: str | None = None


class StreamError(BaseModel):
    """The last line (or event) of a stream that failed after it began: `{"error": "..."}`, or
    `{"error": {"code", "message"}}` at /api/chat/stream; to the chat-component, with the
    message and the status again as `message` and `statusCode`, where it reads them."""

    model_config = ConfigDict(extra="forbid")

    error: str | ProtocolError
    message: str | None = None
    statusCode: int | None = None
