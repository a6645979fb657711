"""The dev-console snippets, end to end, with a real model served over HTTP.

llama-cpp-python's own OpenAI-compatible server runs the shipped SmolLM2 model; the local
host runs the function app against it through the `openai` SDK; the Static Web Apps CLI
serves the page and proxies /api to the host, as `make run` does.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator

import httpx
import pytest

from app.providers.llama_cpp_llm import bundled_model_path
from tests.support import DINNER_HISTORY, free_port, start, stop, wait_until_up

# Every test here talks to the shipped model, served by llama.cpp.
pytestmark = pytest.mark.model

SNIPPET_HEADERS = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port, log = free_port(), tmp_path_factory.mktemp("llama") / "server.log"
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(bundled_model_path())]
    command += ["--model_alias", "smollm2", "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "8192"]
    server = start(command, log)
    wait_until_up(f"http://127.0.0.1:{port}/v1/models", server, log)
    yield f"http://127.0.0.1:{port}/v1"
    stop(server)


@pytest.fixture(scope="module")
def api(llama_server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("host")
    port, log = free_port(), tmp / "host.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AZURE_", "OPENAI_", "LLM_", "LOCAL_"))}
    env |= {
        "OPENAI_BASE_URL": llama_server,
        "OPENAI_CHAT_MODEL": "smollm2",
        "LLM_RESPONSE_FORMAT": "json_object_schema",
        "LOCAL_DB_PATH": str(tmp / "recipes.sqlite3"),
    }
    host = start([sys.executable, "local_host.py", "--port", str(port)], log, env)
    wait_until_up(f"http://127.0.0.1:{port}/api/chat", host, log)
    yield f"http://127.0.0.1:{port}"
    stop(host)


def reformulate_snippet(base: str) -> httpx.Response:
    body = {"conversation": DINNER_HISTORY, "userMessage": "What about ones with mushrooms?"}
    return httpx.post(f"{base}/api/chat/reformulate", json=body, headers=SNIPPET_HEADERS, timeout=120)


def chat_snippet(base: str) -> httpx.Response:
    body = {
        "conversation": DINNER_HISTORY,
        "userMessage": "What vegetarian recipes with mushrooms are available?",
    }
    return httpx.post(f"{base}/api/chat", json=body, headers=SNIPPET_HEADERS, timeout=120)


def assert_standalone_question(response: httpx.Response) -> None:
    assert response.status_code == 200, response.text
    # The design's snippet: the earlier "Vegetarian." is carried into the follow-up.
    rewritten = response.json()["question"].lower()
    assert "mushroom" in rewritten and "vegetarian" in rewritten


def assert_grounded_answer(response: httpx.Response) -> None:
    assert response.status_code == 200, response.text
    body = response.json()
    assert list(body) == ["answer", "sources"]
    assert body["answer"].strip()
    for source in body["sources"]:
        assert set(source) == {"id", "title"}


def test_reformulate_through_the_local_host(api: str):
    assert_standalone_question(reformulate_snippet(api))


def test_chat_through_the_local_host(api: str):
    assert_grounded_answer(chat_snippet(api))


@pytest.mark.swa
def test_reformulate_through_the_static_web_app(site: str):
    assert_standalone_question(reformulate_snippet(site))


@pytest.mark.swa
def test_chat_through_the_static_web_app(site: str):
    assert_grounded_answer(chat_snippet(site))


@pytest.mark.swa
def test_the_static_web_app_serves_the_page(site: str):
    page = httpx.get(f"{site}/", timeout=30)

    assert page.status_code == 200
    assert '<script type="module" src="/app.js"></script>' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]


# The AI chat app protocol, streamed, with the real model behind the OpenAI SDK's streaming.
# The order of the lines against the model's writing is proven in tests/test_stream_order.py.


def protocol_stream(base: str, accept: str | None = None) -> tuple[str, list[dict]]:
    """POST a protocol request asking for a stream; its content type and its events."""
    messages = [*DINNER_HISTORY, {"role": "user", "content": "What about ones with mushrooms?"}]
    body = {"messages": messages, "stream": True}
    headers = SNIPPET_HEADERS | ({"Accept": accept} if accept else {})
    with httpx.stream("POST", f"{base}/api/chat", json=body, headers=headers, timeout=180) as response:
        assert response.status_code == 200, response.read()
        lines = [line for line in response.iter_lines() if line]
        content_type = response.headers["content-type"]
    if accept == "text/event-stream":
        assert all(line.startswith("data: ") for line in lines)
        lines = [line.removeprefix("data: ") for line in lines]
    return content_type, [json.loads(line) for line in lines]


def assert_protocol_stream(chunks: list[dict]) -> None:
    assert all("error" not in chunk for chunk in chunks), chunks[-1]
    first = chunks[0]["choices"][0]
    assert first["delta"] == {"role": "assistant"}
    assert first["context"]["data_points"]["text"]
    assert [t["title"] for t in first["context"]["thoughts"]][:2] == [
        "Original user query",
        "Generated search query",
    ]
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks[1:])
    assert text.strip()
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop"


def test_a_protocol_stream_through_the_local_host(api: str):
    content_type, chunks = protocol_stream(api)

    assert content_type == "application/json-lines"
    assert_protocol_stream(chunks)


@pytest.mark.swa
def test_a_protocol_stream_through_the_static_web_app_as_server_sent_events(site: str):
    content_type, chunks = protocol_stream(site, accept="text/event-stream")

    assert content_type.startswith("text/event-stream")
    assert_protocol_stream(chunks)
