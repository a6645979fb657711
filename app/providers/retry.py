"""Retries with exponential backoff for throttled and transient provider failures."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from app.providers.errors import UpstreamError

log = logging.getLogger(__name__)

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]


async def with_retries(
    call: Callable[[], Awaitable[T]],
    *,
    attempts: int = 5,
    base_delay: float = 1.0,
    max_delay: float = 60.0,
    sleep: Sleep = asyncio.sleep,
) -> T:
    """`call()`, tried again on a retryable `UpstreamError`: after the service's `Retry-After`
    when it sent one, else after 1, 2, 4... seconds."""
    for attempt in range(1, attempts + 1):
        try:
            return await call()
        except UpstreamError as error:
            if not error.retryable or attempt == attempts:
                raise
            delay = error.retry_after if error.retry_after is not None else base_delay * 2 ** (attempt - 1)
            delay = min(delay, max_delay)
            log.info("attempt %d failed (%s); retrying in %.1f s", attempt, error.public_message, delay)
            await sleep(delay)
    raise AssertionError("unreachable")
