"""The official JS client of the AI chat protocol (`@microsoft/ai-chat-protocol`, a dev
dependency) drives the local host: tests/node/official_client.test.mjs, run by `node --test`
against the local host served here by uvicorn, as `local_host.py` serves it.

Skipped only where Node.js is absent; without the package (`make setup` runs `npm ci`) it fails.
The answers are the recipes' data's, as on the embedded default: no model is called."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator

import pytest

from app.chat.answer_guard import Named
from app.search.retrieval import Retriever
from app.services import Services, use_services
from tests.support import ROOT, ScriptedChatModel, served

NODE = shutil.which("node")
TEST = ROOT / "tests" / "node" / "official_client.test.mjs"
PACKAGE = ROOT / "node_modules" / "@microsoft" / "ai-chat-protocol" / "package.json"

pytestmark = [
    pytest.mark.node,
    pytest.mark.skipif(NODE is None, reason="Node.js is not installed"),
]


@pytest.fixture
def api(data_writes: None, retriever: Retriever, named: Named) -> Iterator[str]:
    """The local host, answering from the recipes' data; its model must never be called."""
    from local_host import create_app

    model = ScriptedChatModel()
    use_services(Services(llm=model, retriever=retriever, named=named))
    with served(create_app()) as base:
        yield f"{base}/api/chat"
    use_services(None)
    assert model.calls == [] and model.stream_calls == []


def test_the_official_client_drives_both_operations(api: str):
    assert PACKAGE.exists(), "@microsoft/ai-chat-protocol is not installed: run `make setup` (npm ci)"
    assert NODE is not None
    run = subprocess.run(
        [NODE, "--test", str(TEST)],
        cwd=ROOT,
        env=os.environ | {"RECIPE_CHAT_API": api},
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    assert "# fail 0" in run.stdout
