"""Azure OpenAI or any OpenAI-compatible server, through the async `openai` SDK.

One client per process, created on first use and shared by the chat model and the
embedder, so that every request reuses the same connection pool.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, Sequence
from typing import TYPE_CHECKING, Any

from app.providers import (
    ChatStream,
    ChatTurn,
    ContentFilteredError,
    UpstreamError,
    Usage,
    retry_after_seconds,
)
from app.settings import Settings

if TYPE_CHECKING:
    import httpx
    from openai import AsyncOpenAI, AsyncStream
    from openai.types.chat import ChatCompletionChunk

log = logging.getLogger(__name__)

# Azure OpenAI stops a streamed answer with finish_reason "content_filter" when the output is
# flagged; the text so far stays with the client, this says why the rest is missing.
ANSWER_FILTERED = "The answer was stopped by the content filter."


def create_client(settings: Settings, http_client: httpx.AsyncClient | None = None) -> AsyncOpenAI:
    import openai

    common: dict[str, Any] = {
        "timeout": settings.llm_timeout_seconds,
        "max_retries": settings.llm_max_retries,
        "http_client": http_client,
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


def untransformed(request: dict[str, Any]) -> dict[str, Any]:
    """`request` with its bulk sent as `extra_body`, which the SDK merges into the JSON body as
    it is. Otherwise the SDK walks the messages and the schema against its typed-dict unions
    before every call, a few milliseconds of CPU on the event loop that change nothing here:
    these are plain JSON already. `messages=[]` stays for the SDK's check of required
    arguments, and keeps the key's place in the body."""
    bulk = {key: request[key] for key in ("messages", "response_format") if key in request}
    return request | {"messages": [], "extra_body": bulk}


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
            completion = await self._client.chat.completions.create(**untransformed(request))
        except openai.APIError as error:
            raise upstream_error(error, "language model") from error
        if not completion.choices:
            return ""
        return completion.choices[0].message.content or ""

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

    async def _open_stream(self, request: dict[str, Any]) -> AsyncStream[ChatCompletionChunk]:
        import openai

        create = self._client.chat.completions.create
        request = untransformed(request)
        if not self._stream_usage:
            return await create(**request)
        try:
            return await create(**request, stream_options={"include_usage": True})
        except (openai.BadRequestError, openai.UnprocessableEntityError) as error:
            if error.code == "content_filter":
                raise
            refusal = error
        # Usage is a nicety: ask once more without it. If that works, the server did not take
        # `stream_options`, and it is not sent again; if it fails too, that is the error.
        response = await create(**request)
        self._stream_usage = False
        log.info("the chat server refused stream_options (%s); streaming without usage", refusal.message)
        return response

    async def _read_stream(
        self, response: AsyncStream[ChatCompletionChunk]
    ) -> AsyncGenerator[str | Usage, None]:
        try:
            async for chunk in response:
                if chunk.usage is not None:
                    usage = chunk.usage
                    yield Usage(usage.prompt_tokens, usage.completion_tokens, usage.total_tokens)
                # Azure's first chunk has no choices (only prompt filter results), nor has the
                # usage chunk at the end.
                for choice in (chunk.choices or [])[:1]:
                    if choice.delta is not None and choice.delta.content:
                        yield choice.delta.content
                    if choice.finish_reason == "content_filter":
                        raise ContentFilteredError(ANSWER_FILTERED)
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
