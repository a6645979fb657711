"""A small local stand-in for the Functions host, for machines without Core Tools.

It imports `function_app.app`, reads the HTTP functions that app registers (route, methods,
binding name) and mounts exactly those under the route prefix from host.json, so there is
no second routing table to drift. Run: `python local_host.py [--port 7071]`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import cache
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from app.http.edge import NOTHING_HERE, error_response, request_id_of, with_api_headers

HERE = Path(__file__).resolve().parent
log = logging.getLogger("recipe_chat.host")


def route_prefix() -> str:
    host = json.loads((HERE / "host.json").read_text(encoding="utf-8"))
    prefix = host.get("extensions", {}).get("http", {}).get("routePrefix", "api")
    return f"/{prefix.strip('/')}" if prefix.strip("/") else ""


def endpoint(handler: Callable[..., Any], binding: str) -> Callable[[Request], Any]:
    async def call(request: Request) -> Response:
        # The Functions host passes the request under the trigger's binding name.
        return await handler(**{binding: request})

    return call


@cache
def registered_functions(function_app: Any) -> list[Any]:
    # The SDK lets an app list its functions only once: a second call raises.
    return function_app.get_functions()


def is_catch_all(route: str | None) -> bool:
    return bool(route) and str(route).startswith("{*")


def create_app(function_app: Any = None, *, warm_up: bool = False) -> Starlette:
    """The app's routes under Starlette. With `warm_up`, the providers are built as the host
    starts rather than on the first request."""
    if function_app is None:
        from function_app import app as function_app

    routes = []
    for function in registered_functions(function_app):
        trigger = function.get_trigger()
        if trigger is None or not hasattr(trigger, "route"):
            continue
        if is_catch_all(trigger.route):
            continue  # Azure's fallback for unknown paths: here routing_error answers them.
        methods = [str(getattr(m, "value", m)) for m in trigger.methods or ["GET", "POST"]]
        path = f"{route_prefix()}/{trigger.route or function.get_function_name()}"
        routes.append(Route(path, endpoint(function.get_user_function(), trigger.name), methods=methods))
    app = Starlette(routes=routes, exception_handlers={HTTPException: routing_error}, lifespan=lifespan)
    # A trailing slash gets a 404, not a 307 to the same path built from the Host header,
    # which a client controls.
    app.router.redirect_slashes = False
    app.state.warm_up = warm_up
    return app


@asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    # On a first run the embedded store indexes the shipped catalog (about 10 s on 2 cores):
    # begun while the host starts, it is done or nearly so when the first question comes, which
    # waits for the same build instead of starting it.
    warming = asyncio.create_task(build_providers()) if app.state.warm_up else None
    yield
    if warming is not None:
        warming.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await warming
    # The model's client holds an aiohttp session, which says so when left open at exit.
    from app.services import close_services

    await close_services()


async def build_providers() -> None:
    from app.services import get_services
    from function_app import settings

    try:
        await get_services(settings)
    except Exception as error:
        # The first request builds them again, and answers a clean error if that fails too.
        log.warning(
            "the providers could not be built at start (%s); the first request tries again",
            type(error).__name__,
        )


async def routing_error(request: Request, error: Exception) -> Response:
    """Unknown routes and methods, answered like every other error: JSON, with a request id
    and the API's headers (Starlette's own are plain text)."""
    assert isinstance(error, HTTPException)
    messages = {404: NOTHING_HERE, 405: "This path does not take that method."}
    response = error_response(error.status_code, messages.get(error.status_code, str(error.detail)))
    if error.headers and "Allow" in error.headers:
        response.headers["Allow"] = error.headers["Allow"]
    return with_api_headers(response, request_id_of(request))


def main() -> None:
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=7071)
    # How long an idle client connection stays open (uvicorn's default unless set). The load
    # test raises it so that no client's connection closes while it waits for the others.
    parser.add_argument("--timeout-keep-alive", type=float, default=None)
    # The Functions host has no such start: the bench's cold start measures the first request
    # building the providers, as on Azure.
    parser.add_argument(
        "--no-warm-up", action="store_true", help="build the providers on the first request, not at start"
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    keep_alive = {} if args.timeout_keep_alive is None else {"timeout_keep_alive": args.timeout_keep_alive}
    uvicorn.run(
        create_app(warm_up=not args.no_warm_up),
        host=args.host,
        port=args.port,
        log_level="warning",
        **keep_alive,
    )


if __name__ == "__main__":
    main()
