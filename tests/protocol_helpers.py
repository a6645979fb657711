"""Readers for the bodies of /api/chat's streams: the protocol's two framings (JSON lines and
server-sent events) and the answer text of its chunks. The scripted LLM is in tests/support.py."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any


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
