"""Azure OpenAI or any OpenAI-compatible server, through the async `openai` SDK.

`app/services.py` creates one client per process and shares it between the chat model and
the embedder, so that every request reuses the same connection pool and credential.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncGenerator, Sequence
from typing import TYPE_CHECKING, Any

from app.providers.errors import ContentFilteredError, UpstreamError, retry_after_seconds
from app.providers.protocols import ChatStream, ChatTurn, Finish, Usage
from app.settings import Settings

if TYPE_CHECKING:
    import httpx
    import httpx2
    from openai import AsyncOpenAI, AsyncStream, RequestOptions

log = logging.getLogger(__name__)

# Azure OpenAI stops a streamed answer with finish_reason "content_filter" when the output is
# flagged; the text so far stays with the client, this says why the rest is missing.
ANSWER_FILTERED = "The answer was stopped by the content filter."


def create_client(
    settings: Settings, http_client: httpx.AsyncClient | httpx2.AsyncClient | None = None
) -> AsyncOpenAI:
    import openai

    common: dict[str, Any] = {
        "timeout": settings.llm_timeout_seconds,
        "max_retries": settings.llm_max_retries,
        "http_client": http_client or aiohttp_client(),
    }
    if settings.uses_azure_openai:
        if settings.azure_openai_api_key:
            auth: dict[str, Any] = {"api_key": settings.azure_openai_api_key.get_secret_value()}
        else:
            from azure.identity.aio import DefaultAzureCredential, get_bearer_token_provider

            auth = {
                "azure_ad_token_provider": get_bearer_token_provider(
                    DefaultAzureCredential(), "https://cognitiveservices.azure.com/.default"
                )
            }
        return openai.AsyncAzureOpenAI(
            azure_endpoint=settings.azure_openai_endpoint or "",
            api_version=settings.azure_openai_api_version,
            **auth,
            **common,
        )
    key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else "none"
    return openai.AsyncOpenAI(base_url=settings.openai_base_url, api_key=key, **common)


def aiohttp_client() -> httpx2.AsyncClient:
    """The SDK's own aiohttp transport (`openai.DefaultAioHttpClient`), whose failures are told
    apart as httpx2's are (app/providers/aiohttp_transport.py)."""
    from app.providers.aiohttp_transport import AiohttpClient

    return AiohttpClient()


def upstream_error(error: Exception, service: str) -> UpstreamError:
    """Turn an SDK failure into a safe public error; the details go to the log only."""
    import openai

    log.warning("%s call failed: %s: %s", service, type(error).__name__, error)
    if isinstance(error, openai.BadRequestError) and error.code == "content_filter":
        # Azure OpenAI flagged the input: the caller's message, not our service, is at fault.
        return ContentFilteredError()
    if isinstance(error, openai.RateLimitError):
        return UpstreamError(
            f"The {service} is busy. Please try again in a moment.",
            status=503,
            retryable=True,
            retry_after=retry_after_seconds(error.response.headers.get("retry-after")),
        )
    if isinstance(error, openai.APITimeoutError):
        return UpstreamError(f"The {service} took too long to answer.", status=504, retryable=True)
    transient = isinstance(error, openai.APIConnectionError | openai.InternalServerError)
    return UpstreamError(f"The {service} failed. Please try again.", retryable=transient)


def response_format(mode: str, schema: dict[str, Any]) -> dict[str, Any] | None:
    if mode == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema, "strict": True}}
    if mode == "json_object":
        return {"type": "json_object"}
    if mode == "json_object_schema":
        # llama.cpp's server extension: JSON mode held to the schema by a grammar.
        return {"type": "json_object", "schema": schema}
    return None


# The chat calls go through the SDK's client (its auth, Azure's deployment paths, retries,
# timeouts, error types and the stream's own error handling) but not through its typed
# `chat.completions.create`, which walks every request against its typed dicts and builds a
# pydantic object of every reply and of every streamed chunk (about 0.15 ms each, some 25 chunks
# to an answer): CPU on the event loop for fields never read. With `cast_to=object` the replies
# stay the JSON the server sent. The options are those `create` sends: API-key auth only.
CHAT_PATH = "/chat/completions"
CHAT_OPTIONS: RequestOptions = {"security": {"bearer_auth": True}}
# The body's keys in the order in which `create` writes them, so that the bytes sent are the same.
BODY_ORDER = ("model", "stream", "messages", "max_tokens", "response_format", "stream_options", "temperature")


def chat_body(request: dict[str, Any]) -> dict[str, Any]:
    return {key: request[key] for key in BODY_ORDER if key in request}


def reply_content(completion: Any) -> str:
    """The first choice's text, read as the SDK's typed object is: a reply without `choices`, or
    a choice without `message`, fails the same way."""
    if isinstance(completion, str):
        # The SDK hands back text when the content type is not JSON; its typed path parses it.
        completion = json.loads(completion)
    choices = completion["choices"]
    if not choices:
        return ""
    return choices[0]["message"].get("content") or ""


class OpenAIChatModel:
    def __init__(
        self, client: AsyncOpenAI, model: str, *, response_format_mode: str, temperature: float
    ) -> None:
        self._client = client
        self._model = model
        self._response_format_mode = response_format_mode
        self._temperature = temperature
        # Usage in a stream needs `stream_options`, which older Azure API versions and some
        # OpenAI-compatible servers refuse; set to False the first time a server does.
        self._stream_usage = True

    async def complete(
        self,
        messages: Sequence[ChatTurn],
        *,
        json_schema: dict[str, Any] | None = None,
        max_tokens: int,
        temperature: float | None = None,
    ) -> str:
        import openai

        request: dict[str, Any] = {
            "model": self._model,
            "messages": list(messages),
            "max_tokens": max_tokens,
            "temperature": self._temperature if temperature is None else temperature,
        }
        fmt = None if json_schema is None else response_format(self._response_format_mode, json_schema)
        if fmt is not None:
            request["response_format"] = fmt
        try:
            completion = await self._client.post(
                CHAT_PATH, body=chat_body(request), cast_to=object, options=CHAT_OPTIONS
            )
        except openai.APIError as error:
            raise upstream_error(error, "language model") from error
        return reply_content(completion)

    async def stream(
        self,
        messages: Sequence[ChatTurn],
        *,
        max_tokens: int,
        temperature: float | None = None,
    ) -> ChatStream:
        import openai

        request: dict[str, Any] = {
            "model": self._model,
            "messages": list(messages),
            "max_tokens": max_tokens,
            "temperature": self._temperature if temperature is None else temperature,
            "stream": True,
        }
        try:
            response = await self._open_stream(request)
        except openai.APIError as error:
            raise upstream_error(error, "language model") from error
        return ChatStream(self._read_stream(response), self._model)

    async def _open_stream(self, request: dict[str, Any]) -> AsyncStream[Any]:
        import openai

        async def create(**more: Any) -> AsyncStream[Any]:
            return await self._client.post(
                CHAT_PATH,
                body=chat_body(request | more),
                cast_to=object,
                options=CHAT_OPTIONS,
                stream=True,
                stream_cls=openai.AsyncStream[object],
            )

        if not self._stream_usage:
            return await create()
        try:
            return await create(stream_options={"include_usage": True})
        except (openai.BadRequestError, openai.UnprocessableEntityError) as error:
            if error.code == "content_filter":
                raise
            refusal = error
        # Usage is a nicety: ask once more without it. If that works, the server did not take
        # `stream_options`, and it is not sent again; if it fails too, that is the error.
        response = await create()
        self._stream_usage = False
        log.info("the chat server refused stream_options (%s); streaming without usage", refusal.message)
        return response

    async def _read_stream(self, response: AsyncStream[Any]) -> AsyncGenerator[str | Usage | Finish, None]:
        try:
            # Each chunk is the JSON sent, read as the SDK's typed chunk would be: a missing
            # `choices`, `delta` or count fails as a bad chunk does, below.
            async for chunk in response:
                if (usage := chunk.get("usage")) is not None:
                    yield Usage(usage["prompt_tokens"], usage["completion_tokens"], usage["total_tokens"])
                # Azure's first chunk has no choices (only prompt filter results), nor has the
                # usage chunk at the end.
                for choice in (chunk["choices"] or [])[:1]:
                    delta = choice["delta"]
                    if delta is not None and delta.get("content"):
                        yield delta["content"]
                    if choice.get("finish_reason") == "content_filter":
                        raise ContentFilteredError(ANSWER_FILTERED)
                    if reason := choice.get("finish_reason"):
                        # "length" marks a reply cut at the token limit: the answer guard drops
                        # its unfinished sentence and the client is told so.
                        yield Finish(reason)
        except UpstreamError:
            raise
        except Exception as error:
            # The SDK's errors, and mid-stream also the transport's own, which it does not wrap.
            raise upstream_error(error, "language model") from error
        finally:
            await response.close()


class OpenAIEmbedder:
    def __init__(self, client: AsyncOpenAI, model: str, dimensions: int | None = None) -> None:
        self._client = client
        self.model = model
        self.dimensions = dimensions or 0

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        import openai

        try:
            response = await self._client.embeddings.create(model=self.model, input=list(texts))
        except openai.APIError as error:
            raise upstream_error(error, "embedding service") from error
        vectors = [item.embedding for item in sorted(response.data, key=lambda d: d.index)]
        self.dimensions = len(vectors[0]) if vectors else self.dimensions
        return vectors
