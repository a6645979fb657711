"""The `openai` SDK's calls over aiohttp: `openai.DefaultAioHttpClient` (the SDK's own aiohttp
transport, the `openai[aiohttp]` extra) in place of its default httpx2 / httpcore2 / h11 one.

The calls are the SDK's as before (auth, Azure's paths, retries, timeouts, its errors); only
the bytes on the wire are read by aiohttp's compiled HTTP parser instead of h11 in Python,
which took about a third less of the event loop's CPU a call (a streamed answer's chunks
most). aiohttp is already in requirements.txt, for the async Azure SDKs.

The vendored transport maps aiohttp's failures to httpx2's loosely: a refused or dropped
connection becomes a *connect timeout* (the SDK's `APITimeoutError`: a 504 "took too long"
where httpx2 gives a retryable 502 "failed"), and a malformed response is not mapped at all,
so the SDK would not wrap it in its errors. `TransportFailures` maps them as httpx2's own
transport raises them; tests/test_openai_transport.py checks each against a real socket.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any, NoReturn

import aiohttp
import httpx2
import openai


def transport_error(error: Exception, request: httpx2.Request) -> Exception:
    """The error httpx2's transport raises for the failure behind `error`: a timeout only when
    something timed out; a refused connection a `ConnectError`; one dropped or answered with
    what is not HTTP a `RemoteProtocolError`; any other network failure a `ReadError`."""
    origin = error.__cause__ if isinstance(error, httpx2.TransportError) and error.__cause__ else error
    if isinstance(error, httpx2.TimeoutException) and isinstance(origin, TimeoutError):
        return error  # aiohttp's timeouts are asyncio's, which are TimeoutError
    if isinstance(origin, TimeoutError):
        return httpx2.ReadTimeout(str(origin), request=request)
    if isinstance(origin, aiohttp.ClientConnectorError):
        return httpx2.ConnectError(str(origin), request=request)
    if isinstance(origin, aiohttp.ServerDisconnectedError | aiohttp.ClientResponseError):
        return httpx2.RemoteProtocolError(str(origin), request=request)
    if isinstance(origin, aiohttp.ClientError | OSError):
        return httpx2.ReadError(str(origin), request=request)
    return error


def raise_as_transport(error: Exception, request: httpx2.Request) -> NoReturn:
    """Raise `transport_error`'s error for `error`: `error` itself where it is already right."""
    raised = transport_error(error, request)
    if raised is error:
        raise error
    raise raised from error.__cause__ or error


class TransportFailures(httpx2.AsyncBaseTransport):
    """A transport whose failures, in sending and in reading the body, are `transport_error`'s."""

    def __init__(self, inner: httpx2.AsyncBaseTransport) -> None:
        self._inner = inner

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        try:
            response = await self._inner.handle_async_request(request)
        except Exception as error:
            raise_as_transport(error, request)
        assert isinstance(response.stream, httpx2.AsyncByteStream)
        response.stream = Body(response.stream, request)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


class Body(httpx2.AsyncByteStream):
    """A response body whose failures are `transport_error`'s."""

    def __init__(self, inner: httpx2.AsyncByteStream, request: httpx2.Request) -> None:
        self._inner = inner
        self._request = request

    async def __aiter__(self) -> AsyncIterator[bytes]:
        chunks = aiter(self._inner)
        try:
            async for chunk in chunks:
                yield chunk
        except Exception as error:
            raise_as_transport(error, self._request)
        finally:
            # The SDK stops reading a stream at its `[DONE]`: the reader under this one is
            # closed with it, as httpx2's own streams do, not later through the event loop by
            # the garbage collector (a wake-up and a task of its own).
            if isinstance(chunks, AsyncGenerator):
                await chunks.aclose()

    async def aclose(self) -> None:
        await self._inner.aclose()


class AiohttpClient(openai.DefaultAioHttpClient):
    """The SDK's aiohttp client (its defaults: timeout, pool limits, redirects), every transport
    of it (a proxy's too) behind `TransportFailures`."""

    def _init_transport(self, *args: Any, **kwargs: Any) -> httpx2.AsyncBaseTransport:
        return TransportFailures(super()._init_transport(*args, **kwargs))

    def _init_proxy_transport(self, *args: Any, **kwargs: Any) -> httpx2.AsyncBaseTransport:
        return TransportFailures(super()._init_proxy_transport(*args, **kwargs))
