"""The load test's short form (bench/load.py, `make load` for the full one): 50 clients at once
against the local host, served over loopback with a fake upstream model, lose nothing, keep
memory flat and leave no connection open."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Any

import httpx
import pytest

from bench.load import (
    ANSWER,
    MEMORY_GROWTH_LIMIT_MB,
    MIX,
    Kind,
    app_sockets,
    check_response,
    own_client_ports,
    run_load,
)


@pytest.mark.slow
def test_fifty_clients_at_once_lose_no_request_and_leave_no_connection_open(tmp_path: Path):
    result = run_load(requests=600, clients=50, work=tmp_path)

    assert result.failures == []
    assert all(len(result.latencies[kind.name]) == 600 // len(MIX) for kind in MIX)
    assert result.peak_clients == 50  # the clients really were at it together
    assert result.after.clients == 0, result.after.client_states
    assert result.memory_growth_mb <= MEMORY_GROWTH_LIMIT_MB, result.rss_mb
    assert 0 < result.peak_upstream <= 50
    assert result.upstream_reused is not None
    assert result.upstream_reused.upstream <= 1, result.upstream_reused.upstream_states
    assert result.problems() == []


def test_the_peak_counts_the_load_clients_only_not_a_leftover_probe():
    """A readiness probe that connected and left, while the app still holds its end, once made
    the peak 51 for 50 clients. Here this process plays the app (its listening socket), one
    client that stays, and a probe that has hung up."""
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]
        client = socket.create_connection(("127.0.0.1", port))
        probe = socket.create_connection(("127.0.0.1", port))
        held = [listener.accept()[0], listener.accept()[0]]
        probe.close()  # the app's end of it stays open until the app reads the hang-up
        try:
            sockets = app_sockets(os.getpid(), port, upstream_port=0)
            assert sockets.clients == 2  # the app holds both ends...
            assert own_client_ports(port) == {client.getsockname()[1]}
            assert len(sockets.client_peers & own_client_ports(port)) == 1  # ...one is a client's
        finally:
            client.close()
            for end in held:
                end.close()


# The checks above are only as good as the one that reads each response: it must call a
# degraded 200 a failure, not just a 5xx.


def kind_named(name: str) -> Kind:
    return next(kind for kind in MIX if kind.name == name)


def response(body: str, *, status: int = 200, content_type: str = "application/json", n: int = 9):
    return httpx.Response(
        status, content=body.encode(), headers={"content-type": content_type, "x-request-id": f"load-{n}"}
    )


def context(kind: Kind, n: int) -> dict[str, Any]:
    return {"thoughts": [{"title": "Original user query", "description": kind.question(n)}]}


def completion(kind: Kind, n: int, content: str) -> str:
    choice = {"context": context(kind, n), "message": {"content": content}, "finish_reason": "stop"}
    return json.dumps({"choices": [choice]})


def sse(kind: Kind, n: int, *events: dict[str, Any]) -> str:
    first = {"choices": [{"delta": {"role": "assistant"}, "context": context(kind, n)}]}
    return "".join(f"data: {json.dumps(event)}\n\n" for event in (first, *events))


PROTOCOL = kind_named("chat, protocol")
SSE = kind_named("chat, protocol stream (SSE)")
DELTA = {"choices": [{"delta": {"content": ANSWER}}]}
FINISH = {"choices": [{"delta": {}, "finish_reason": "stop"}]}


def test_the_expected_answers_pass_the_check():
    assert check_response(PROTOCOL, 9, response(completion(PROTOCOL, 9, ANSWER))) is None
    sent = response(sse(SSE, 9, DELTA, FINISH), content_type="text/event-stream")
    assert check_response(SSE, 9, sent) is None


@pytest.mark.parametrize(
    ("kind", "sent"),
    [
        (PROTOCOL, response('{"error": "The language model failed."}', status=502)),
        (PROTOCOL, response(completion(PROTOCOL, 9, ANSWER), n=10)),  # another request's id
        (PROTOCOL, response(completion(PROTOCOL, 15, ANSWER))),  # another request's question
        (PROTOCOL, response(completion(PROTOCOL, 9, "Sorry, I couldn't put an answer together"))),
        (kind_named("reformulate"), response('{"question": "Something else?"}')),
        (kind_named("chat, app body"), response(json.dumps({"answer": ANSWER, "sources": []}))),
        (
            SSE,
            response(
                sse(SSE, 9, DELTA, {"error": "The request took too long."}), content_type="text/event-stream"
            ),
        ),
        (SSE, response(sse(SSE, 9, DELTA), content_type="text/event-stream")),  # no finish
        (SSE, response(sse(SSE, 9, FINISH), content_type="text/event-stream")),  # no answer
        (SSE, response(sse(SSE, 9, DELTA, FINISH), content_type="application/json-lines")),
    ],
)
def test_a_degraded_answer_is_a_failure(kind: Kind, sent: httpx.Response):
    assert check_response(kind, 9, sent) is not None
