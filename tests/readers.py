"""Readers of what the app sends and returns, so that tests assert behaviour: the bodies of
/api/chat's streams (the protocol's JSON lines and server-sent events, the answer text of its
chunks), and what of a prompt reached the model, read without the prompt's words. The scripted
LLM is in tests/support.py."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from app.prompts import prompt


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


def appear_in_order(text: str, parts: Iterable[str]) -> bool:
    """Whether each of `parts` is in `text`, each after the one before: what reached a model,
    asserted without the words of its prompt."""
    at = 0
    for part in parts:
        found = text.find(part, at)
        if found < 0:
            return False
        at = found + len(part)
    return True


def recipe_ids_in_prompt(system: str) -> list[str]:
    """The recipe ids cited where the answer prompt file places its recipes, in order: which
    recipes reached the model."""
    before, after = prompt("answer_system").split("{recipes}")
    assert system.startswith(before)
    block = system[len(before) : system.rindex(after)]
    return list(dict.fromkeys(re.findall(r"\[([a-z0-9][a-z0-9-]*)\]", block)))
