"""A model that answers anything at once, for tests that drive many requests through the
routes: a valid JSON answer when JSON is asked for, a rewrite otherwise, and a short cited
stream with a follow-up question. It keeps no record, so it serves any number of requests."""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Sequence
from typing import Any

from app.providers import ChatStream, ChatTurn


class AnswersAnything:
    async def complete(
        self,
        messages: Sequence[ChatTurn],
        *,
        json_schema: dict[str, Any] | None = None,
        max_tokens: int,
        temperature: float | None = None,
    ) -> str:
        if json_schema is not None:
            return json.dumps({"answer": "Try the soup.", "sources": [{"id": "chicken-soup", "title": "x"}]})
        return "Which soup is the quickest to cook?"

    async def stream(
        self, messages: Sequence[ChatTurn], *, max_tokens: int, temperature: float | None = None
    ) -> ChatStream:
        async def pieces() -> AsyncGenerator[str, None]:
            for piece in ("Try the ", "[chicken-", "soup].\n<<Is it quick?>>"):
                yield piece

        return ChatStream(pieces(), "answers-anything")
