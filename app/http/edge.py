"""What every JSON endpoint does around the core: read and check the body, map failures to
clean `{"error": ...}` responses, and tag each exchange with a request id.

The request and response types are Starlette's, which are the very types of
`azurefunctions-extensions-http-fastapi`: the same handlers run on Azure Functions, in the
local host and in tests, and can stream when they need to.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from app.http.bodies import describe_errors
from app.http.json_text import NotJson, parse_json
from app.providers.errors import ContentFilteredError, UpstreamError
from app.services import Services, get_services
from app.settings import Settings, get_settings

log = logging.getLogger("recipe_chat.http")

Body = TypeVar("Body", bound=BaseModel)

INTERNAL_ERROR = "The app encountered an error processing your request."
DEADLINE_PASSED = "The request took too long. Please try again."
BODY_TOO_SLOW = "The body took too long to arrive."
CLIENT_CLOSED = "The client closed the connection before the request was read."
NOTHING_HERE = "There is nothing at this path."
REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
# On every /api response: Static Web Apps adds its globalHeaders to the page, not to proxied
# API responses, and JSON must never be sniffed as HTML, framed or allowed to load anything.
API_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
}
# nginx's code for a client that closed its connection: logged, never seen by anyone.
CLIENT_CLOSED_STATUS = 499
ADMIN_HEADER = "x-functions-key"


class ApiError(Exception):
    """A request the app refuses, with a message meant for the caller."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


# The `code` of an error in the current AI chat protocol's shape, when the error has none of its own.
ERROR_CODES = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    408: "body_timeout",
    409: "conflict",
    413: "body_too_large",
    415: "unsupported_media_type",
    CLIENT_CLOSED_STATUS: "client_closed",
    500: "internal_error",
    502: "upstream_failed",
    503: "upstream_busy",
    504: "timeout",
}


@dataclass
class ErrorFormat:
    """How an exchange writes its errors: `{"error": "..."}` (the app's own, and the 2024-01-28
    protocol's), or, once the body has shown that it speaks the current AI chat protocol,
    `{"error": {"code", "message"}}`, which that protocol's client reads."""

    nested: bool = False

    def body(self, status: int, message: str, code: str | None = None) -> dict[str, Any]:
        if self.nested:
            return {"error": {"code": code or ERROR_CODES.get(status, "error"), "message": message}}
        return {"error": message} | ({"code": code} if code else {})


def error_response(
    status: int, message: str, code: str | None = None, errors: ErrorFormat | None = None
) -> JSONResponse:
    # An error is about this request only: no cache may keep it.
    return JSONResponse(
        (errors or ErrorFormat()).body(status, message, code),
        status_code=status,
        headers={"Cache-Control": "no-store"},
    )


def upstream_code(error: UpstreamError) -> str | None:
    return error.code or ("content_filter" if isinstance(error, ContentFilteredError) else None)


def with_api_headers(response: Response, request_id: str) -> Response:
    response.headers["x-request-id"] = request_id
    for name, value in API_HEADERS.items():
        # A response with a policy of its own keeps it (the citation page's allows its style).
        response.headers.setdefault(name, value)
    return response


def request_id_of(request: Request) -> str:
    incoming = request.headers.get("x-request-id", "")
    return incoming if REQUEST_ID.match(incoming) else uuid.uuid4().hex


def require_admin(request: Request, settings: Settings) -> None:
    """Refuse an admin call without the admin key, whatever path or proxy it came through."""
    if settings.admin_key is None or not settings.admin_key.get_secret_value():
        raise ApiError(
            403,
            "The admin routes are closed: ADMIN_KEY is not set. Load a catalog with "
            "`python -m app.index_recipes` instead.",
        )
    given = request.headers.get(ADMIN_HEADER, "")
    # Constant time, so that the answer's timing says nothing of how much of a guess was right.
    if not hmac.compare_digest(given.encode(), settings.admin_key.get_secret_value().encode()):
        message = f"This route needs the admin key, in the {ADMIN_HEADER} header."
        raise ApiError(401 if not given else 403, message)


def media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


async def read_bytes(request: Request, limit: int, seconds: float) -> bytes:
    """The raw body, refused with 413 as soon as it passes `limit`, however it is sent, and
    with 408 if it has not all arrived within `seconds`."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise ApiError(413, f"The body is larger than the limit of {limit} bytes.")
    raw = bytearray()
    try:
        async with asyncio.timeout(seconds):
            async for chunk in request.stream():
                raw += chunk
                if len(raw) > limit:
                    raise ApiError(413, f"The body is larger than the limit of {limit} bytes.")
    except TimeoutError:
        # Only this timeout's own expiry ends up here: the request's deadline, around it,
        # cancels through it and is told apart by api_endpoint.
        raise ApiError(408, BODY_TOO_SLOW) from None
    return bytes(raw)


class TimedStream(StreamingResponse):
    """A stream that the request's deadline still bounds once it has begun. api_endpoint sets
    `deadline_at` (on the event loop's clock) before the body is sent; the stream ends itself,
    in its own framing, when that passes."""

    deadline_at: float | None = None


def check_unicode(data: object) -> None:
    """Refuse text no UTF-8 can hold: JSON's escapes let a valid UTF-8 body carry a lone
    surrogate ("\\ud800"), which would fail deep inside (hashing, SQLite, the SDKs) as a 500."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(400, "The body holds a lone surrogate escape, which is not valid Unicode.") from None
    except RecursionError:
        raise ApiError(400, "The body is nested too deeply.") from None


def validated(model: type[Body], data: dict[str, Any], settings: Settings) -> Body:
    """`data` as `model`, strictly: "yes" is no boolean, `true` no number, "3" no integer. Strict
    on JSON, not on Python objects, so that an array is still a tuple where one is asked."""
    try:
        return model.model_validate_json(json.dumps(data), strict=True, context={"limits": settings})
    except ValidationError as error:
        raise ApiError(400, describe_errors(error)) from None


async def read_body(request: Request, model: type[Body], settings: Settings) -> Body:
    return validated(model, await read_json_object(request, settings), settings)


async def read_json_object(request: Request, settings: Settings) -> dict[str, Any]:
    """The body as a JSON object, checked as every body is (content type, size, encoding,
    syntax, Unicode), before it is validated as the shape it has."""
    if media_type(request) != "application/json":
        raise ApiError(415, "Send the body as JSON, with the header Content-Type: application/json.")
    raw = await read_bytes(request, settings.max_body_bytes, settings.body_read_seconds)
    try:
        data = parse_json(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ApiError(400, "The body is not valid UTF-8.") from None
    except NotJson as error:
        raise ApiError(400, f"The body is not valid JSON: {error}.") from None
    check_unicode(data)
    if not isinstance(data, dict):
        raise ApiError(400, "The body must be a JSON object.")
    return data


async def api_endpoint(
    request: Request,
    handle: Callable[[], Awaitable[BaseModel | Response]],
    *,
    timed: bool = True,
    errors: ErrorFormat | None = None,
) -> Response:
    """Run `handle` and shape whatever happens as JSON, with a request id on the response
    and on the log line; errors as `errors` says once `handle` has read the body.

    When `timed`, `handle` must have its response ready within REQUEST_DEADLINE_SECONDS, or
    the caller gets a clean 504: each SDK bounds its own calls,
    but retries times timeouts, over several calls, would outlast the 45 s after which Static
    Web Apps gives up on its API. A TimedStream that is still going at the deadline ends
    with an error event instead.
    """
    started = time.perf_counter()
    request_id = request_id_of(request)
    deadline_seconds = get_settings().request_deadline_seconds if timed else None
    deadline = asyncio.timeout(deadline_seconds)
    try:
        async with deadline:
            result = await handle()
        response = result if isinstance(result, Response) else JSONResponse(result.model_dump(mode="json"))
        if isinstance(response, TimedStream):
            response.deadline_at = deadline.when()
    except TimeoutError:
        log.warning(
            "request %s: timed out (deadline of %s s passed: %s)",
            request_id,
            deadline_seconds,
            deadline.expired(),
        )
        response = error_response(504, DEADLINE_PASSED, errors=errors)
    except ApiError as error:
        response = error_response(error.status, error.message, errors=errors)
    except ClientDisconnect:
        # Nobody is left to answer: not the app's failure, and no traceback for it.
        log.info("request %s: the client closed the connection before its body was read", request_id)
        response = error_response(CLIENT_CLOSED_STATUS, CLIENT_CLOSED, errors=errors)
    except UpstreamError as error:
        log.warning("request %s: upstream failure: %r", request_id, error.__cause__)
        # The content filter has a code of its own only in the nested shape, which always has one.
        code = upstream_code(error) if errors and errors.nested else error.code
        response = error_response(error.status, error.public_message, code, errors)
    except Exception:
        log.exception("request %s failed", request_id)
        response = error_response(500, INTERNAL_ERROR, errors=errors)
    with_api_headers(response, request_id)
    log.info(
        "%s %s -> %d in %.0f ms [request %s]",
        request.method,
        request.url.path,
        response.status_code,
        (time.perf_counter() - started) * 1000,
        request_id,
    )
    return response


async def json_endpoint(
    request: Request,
    model: type[Body],
    settings: Settings,
    handle: Callable[[Body, Services], Awaitable[BaseModel | Response]],
) -> Response:
    """Parse `model` from the JSON body, then run `handle` with the process's providers."""

    async def run() -> BaseModel | Response:
        body = await read_body(request, model, settings)
        return await handle(body, await get_services(settings))

    return await api_endpoint(request, run)
