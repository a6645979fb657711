"""Helpers for the AI chat app protocol tests: a scripted LLM that can also stream, and
readers for the two stream framings."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncGenerator, Iterable, Sequence
from typing import Any

from app.providers import ChatStream, ChatTurn, Usage
from tests.conftest import ScriptedChatModel

# Only a guard against a test that hangs: a passing test opens the gate at once.
GATE_GUARD_SECONDS = 30

Script = Sequence[str | Usage | Exception] | Exception


class StreamingScriptedModel(ScriptedChatModel):
    """The scripted LLM of conftest, which can also stream.

    Each entry of `streams` scripts one answer: its pieces, in order (a `Usage` among them is
    reported as the provider's token counts, an exception is raised at that point of the
    stream), or one exception, raised when the answer is asked for, before any piece. With a
    `gate`, the stream waits for the test to open it before its first piece.
    """

    def __init__(self, *replies: Any) -> None:
        super().__init__(*replies)
        self.streams: list[Script] = []
        self.stream_calls: list[dict[str, Any]] = []
        self.gate: threading.Event | None = None
        self.pieces_written = 0

    async def stream(
        self, messages: Sequence[ChatTurn], *, max_tokens: int, temperature: float | None = None
    ) -> ChatStream:
        self.stream_calls.append(
            {"messages": list(messages), "max_tokens": max_tokens, "temperature": temperature}
        )
        if not self.streams:
            raise AssertionError("the LLM streamed more often than the test expected")
        script = self.streams.pop(0)
        if isinstance(script, Exception):
            raise script
        return ChatStream(self._write(script), "scripted-model")

    async def _write(self, script: Iterable[str | Usage | Exception]) -> AsyncGenerator[str | Usage, None]:
        if self.gate is not None and not await asyncio.to_thread(self.gate.wait, GATE_GUARD_SECONDS):
            raise AssertionError("the test never opened the gate")
        for item in script:
            if isinstance(item, Exception):
                raise item
            if isinstance(item, str):
                self.pieces_written += 1
            yield item


def json_lines(body: str) -> list[dict[str, Any]]:
    """Each line of an `application/json-lines` body is one JSON object."""
    assert body.endswith("\n")
    return [json.loads(line) for line in body.splitlines()]


def server_sent_events(body: str) -> list[dict[str, Any]]:
    """Each event of a `text/event-stream` body is one `data:` line, then a blank line."""
    events = body.split("\n\n")
    assert events[-1] == ""
    parsed = []
    for event in events[:-1]:
        assert event.startswith("data: ") and "\n" not in event
        parsed.append(json.loads(event.removeprefix("data: ")))
    return parsed


def answer_text(chunks: Sequence[dict[str, Any]]) -> str:
    return "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if "choices" in c)
