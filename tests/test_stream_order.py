"""A streamed answer opens with its context before the model has written anything, over real
HTTP: from the local host's server, and through the Static Web Apps CLI in front of it.

The host runs in this process with a scripted model that waits for the test before its first
piece; the test lets it go on only once it has read the first line. A proxy that held the
stream back would leave the test waiting for that line, and the read would time out.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.search.retrieval import Retriever
from app.services import Services, use_services
from tests.readers import answer_text, json_lines, server_sent_events
from tests.support import GATE_GUARD_SECONDS, ScriptedChatModel, served

# Shorter than the model's own guard, so that a held-back stream fails here, clearly.
READ_TIMEOUT = GATE_GUARD_SECONDS - 10
QUESTION = "What recipes with mushrooms are available?"
ANSWER = ["Try the ", "Mushroom risotto ", "[mushroom-risotto]", "."]


@pytest.fixture(scope="module")
def model() -> ScriptedChatModel:
    return ScriptedChatModel()


@pytest.fixture(scope="module")
def api(model: ScriptedChatModel, retriever: Retriever) -> Iterator[str]:
    """The local host's app, served by uvicorn as `local_host.py` serves it."""
    from local_host import create_app

    use_services(Services(llm=model, retriever=retriever))
    with served(create_app()) as base:
        yield base
    use_services(None)


def read_in_order(base: str, model: ScriptedChatModel, accept: str | None) -> list[dict[str, Any]]:
    """The stream's events; the model is let go on only once the first has been read."""
    model.gate = threading.Event()
    model.pieces_written = 0
    model.streams.append(ANSWER)
    body = {"messages": [{"role": "user", "content": QUESTION}], "stream": True}
    headers = {"Content-Type": "application/json"} | ({"Accept": accept} if accept else {})
    parse = server_sent_events if accept == "text/event-stream" else json_lines
    separator = "\n\n" if accept == "text/event-stream" else "\n"
    with httpx.stream(
        "POST", f"{base}/api/chat", json=body, headers=headers, timeout=READ_TIMEOUT
    ) as response:
        assert response.status_code == 200
        received = ""
        chunks = response.iter_text()
        while separator not in received:
            received += next(chunks)
        first, _, received = received.partition(separator)
        [opening] = parse(first + separator)
        assert model.pieces_written == 0
        model.gate.set()
        received += "".join(chunks)
    return [opening, *parse(received)]


def assert_answer_after_context(events: list[dict[str, Any]]) -> None:
    first = events[0]["choices"][0]
    assert first["delta"] == {"role": "assistant"}
    assert len(first["context"]["data_points"]["text"]) == 3
    assert answer_text(events) == "Try the Mushroom risotto [mushroom-risotto]."
    assert events[-1]["choices"][0]["finish_reason"] == "stop"


def test_the_local_host_sends_the_context_line_before_the_model_writes(api, model):
    assert_answer_after_context(read_in_order(api, model, accept=None))


@pytest.mark.swa
def test_server_sent_events_pass_the_static_web_app_as_they_are_written(site, model):
    assert_answer_after_context(read_in_order(site, model, accept="text/event-stream"))


@pytest.mark.swa
def test_json_lines_pass_the_static_web_app_cli_as_they_are_written(site, model):
    # The local CLI passes JSON lines through; the Azure service is reported to buffer them,
    # which is why the event-stream framing exists (see the README).
    assert_answer_after_context(read_in_order(site, model, accept=None))
