"""The chat page in headless Chromium, through the SWA CLI on port 4280 and the local host.

The LLM is scripted but reached over HTTP, as an OpenAI-compatible server, so the page, the
SWA proxy, the local host, the `openai` SDK, the embedded search and the store all run for
real. Chromium is Debian's (`/usr/bin/chromium`), driven by Playwright's Python package.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from tests.test_end_to_end import ROOT, SWA, free_port, start, stop, wait_until_up

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SITE_PORT = 4280
SCREENSHOT = ROOT / "docs" / "screenshot.png"

FIRST = "What can I cook with mushrooms?"
FOLLOW_UP = "From those, which is the quickest to cook?"
REWRITTEN = "Which of the mushroom recipes is the quickest to cook?"
THIRD = "Which one is the cheapest?"

pytest.importorskip("playwright", reason="playwright is in requirements-dev.txt")
if not Path(CHROMIUM).exists():
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)

from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402


class ScriptedLLM:
    """An OpenAI-compatible chat server with scripted replies: rewrites from a table, answers
    that cite the first two recipes of the prompt, one failure on demand, and a gate that holds
    the first answer until the test opens it."""

    def __init__(self) -> None:
        self.answer_calls: list[str] = []
        self.gate = threading.Event()
        self.fail_next_cheapest = False

    async def completions(self, request: Request) -> JSONResponse:
        body = await request.json()
        system, last = body["messages"][0]["content"], body["messages"][-1]["content"]
        if "<<<RECIPES" not in system:  # the rewrite call: the transcript ends with the question
            latest = re.search(r"^Latest question: (.+)$", last, re.M)
            question = latest.group(1) if latest else last
            return self.reply({FOLLOW_UP: REWRITTEN}.get(question, question))
        self.answer_calls.append(last)
        if len(self.answer_calls) == 1:
            await asyncio.to_thread(self.gate.wait, 60)
        if "cheapest" in last and self.fail_next_cheapest:
            self.fail_next_cheapest = False
            return JSONResponse({"error": {"message": "overloaded"}}, status_code=500)
        ids = re.findall(r"^\[id: ([a-z0-9-]+)\]$", system, re.M)
        titles = re.findall(r"^Title: (.+)$", system, re.M)
        answer = f"You could make the {titles[0]} or the {titles[1]}."
        return self.reply(
            json.dumps({"answer": answer, "sources": [{"id": i, "title": "?"} for i in ids[:2]]})
        )

    @staticmethod
    def reply(content: str) -> JSONResponse:
        choice = {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}
        return JSONResponse(
            {"id": "c", "object": "chat.completion", "created": 0, "model": "scripted", "choices": [choice]}
        )


@pytest.fixture(scope="module")
def llm() -> Iterator[tuple[ScriptedLLM, str]]:
    import uvicorn

    scripted = ScriptedLLM()
    app = Starlette(routes=[Route("/v1/chat/completions", scripted.completions, methods=["POST"])])
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield scripted, f"http://127.0.0.1:{port}/v1"
    scripted.gate.set()
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def site(llm: tuple[ScriptedLLM, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not SWA.exists():
        pytest.skip("the SWA CLI is not installed: run `make setup` (npm ci)")
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", SITE_PORT)) == 0:
            pytest.fail(f"port {SITE_PORT} is taken: stop whatever serves it (make run?) and test again")
    tmp = tmp_path_factory.mktemp("page")
    api_port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AZURE_", "OPENAI_", "LLM_", "LOCAL_"))}
    env |= {
        "OPENAI_BASE_URL": llm[1],
        "OPENAI_CHAT_MODEL": "scripted",
        "LLM_RESPONSE_FORMAT": "json_object",
        # One try per call, so that the scripted failure reaches the page.
        "LLM_MAX_RETRIES": "0",
        "LOCAL_DB_PATH": str(tmp / "recipes.sqlite3"),
    }
    host = start([sys.executable, "local_host.py", "--port", str(api_port)], tmp / "host.log", env)
    wait_until_up(f"http://127.0.0.1:{api_port}/api/chat", host, tmp / "host.log")
    command = [str(SWA), "start", "web", "--swa-config-location", ".", "--api-devserver-url"]
    swa = start(
        [*command, f"http://127.0.0.1:{api_port}", "--host", "127.0.0.1", "--port", str(SITE_PORT)],
        tmp / "swa.log",
    )
    wait_until_up(f"http://127.0.0.1:{SITE_PORT}/", swa, tmp / "swa.log")
    yield f"http://localhost:{SITE_PORT}/"
    stop(swa)
    stop(host)


@pytest.fixture(scope="module")
def page(site: str) -> Iterator[Page]:
    args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]
    args += ["--disable-background-networking", "--disable-component-update", "--disable-sync"]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        tab = browser.new_page(viewport={"width": 1100, "height": 800})
        tab.goto(site)
        yield tab
        browser.close()


def histories(page: Page) -> tuple[list[str], list[str]]:
    """The user turns of the API history and of the history on screen."""
    saved = page.evaluate("() => JSON.parse(sessionStorage.getItem('recipe-chat.v1'))")
    return (
        [m["content"] for m in saved["api"] if m["role"] == "user"],
        [m["text"] for m in saved["shown"] if m["role"] == "user"],
    )


def user_turns(page: Page):
    return page.locator("#log .turn.user .text")


def test_a_three_turn_conversation_keeps_two_histories(page: Page, llm):
    scripted, _ = llm
    composer = page.get_by_label("Your message")

    # Shift+Enter starts a new line and sends nothing.
    composer.fill("What can I cook")
    composer.press("Shift+Enter")
    expect(composer).to_have_value("What can I cook\n")
    composer.fill(FIRST)
    composer.press("Enter")

    # The first answer is held by the scripted model: the page shows progress and cannot send twice.
    expect(page.get_by_role("button", name="Send")).to_be_disabled()
    expect(page.get_by_role("status")).to_contain_text("Looking through the recipes")
    composer.press("Enter")
    scripted.gate.set()
    expect(page.locator("#log .turn.assistant")).to_have_count(1)
    assert scripted.answer_calls == [FIRST]
    expect(composer).to_have_value("")
    expect(page.locator("#announce")).to_contain_text("You could make the")

    composer.fill(FOLLOW_UP)
    composer.press("Enter")
    expect(page.locator("#log .turn.assistant")).to_have_count(2)

    # On screen: the user's own words; for the API: the standalone question that was searched.
    expect(user_turns(page)).to_have_text([FIRST, FOLLOW_UP])
    assert histories(page) == ([FIRST, REWRITTEN], [FIRST, FOLLOW_UP])
    searched = page.locator("#log .turn.user").nth(1).locator("details.searched")
    expect(searched.locator("p")).not_to_be_visible()
    searched.locator("summary").click()
    expect(searched.locator("p")).to_have_text(REWRITTEN)

    composer.fill(THIRD)
    composer.press("Enter")
    expect(page.locator("#log .turn.assistant")).to_have_count(3)
    assert histories(page)[1] == [FIRST, FOLLOW_UP, THIRD]
    page.locator("#log .turn.user").nth(1).locator("summary").click()
    SCREENSHOT.parent.mkdir(exist_ok=True)
    page.screenshot(path=SCREENSHOT)


def test_a_source_button_opens_the_recipe_and_gives_focus_back(page: Page):
    button = page.locator("#log .turn.assistant").first.locator("button.source").first
    title = button.inner_text()

    button.click()

    panel = page.get_by_role("dialog")
    expect(panel.get_by_role("heading", level=2)).to_have_text(title)
    expect(panel.locator("#recipe-ingredients li").first).to_be_visible()
    expect(panel.locator("#recipe-steps li").first).to_be_visible()
    panel.get_by_role("button", name="Close").click()
    expect(panel).to_be_hidden()
    expect(button).to_be_focused()


def test_an_error_shows_the_servers_message_and_keeps_the_text_to_retry(page: Page, llm):
    scripted, _ = llm
    scripted.fail_next_cheapest = True
    composer = page.get_by_label("Your message")

    composer.fill("And the cheapest of them?")
    composer.press("Enter")

    expect(page.get_by_role("alert")).to_contain_text("The language model failed. Please try again.")
    expect(composer).to_have_value("And the cheapest of them?")
    assert len(histories(page)[1]) == 3  # nothing half-done entered either history

    page.get_by_role("button", name="Try again").click()

    expect(page.locator("#log .turn.assistant")).to_have_count(4)
    expect(page.get_by_role("alert")).to_be_hidden()
    expect(composer).to_have_value("")


def test_a_reload_keeps_the_conversation_and_new_chat_clears_it(page: Page):
    before = histories(page)

    page.reload()

    expect(page.locator("#log .turn.user")).to_have_count(4)
    assert histories(page) == before
    page.get_by_role("button", name="New chat").click()
    expect(page.locator("#log .turn")).to_have_count(0)
    assert page.evaluate("() => sessionStorage.getItem('recipe-chat.v1')") is None


def test_the_page_fits_a_phone_and_keeps_its_content_security_policy(page: Page, site: str):
    messages: list[str] = []
    page.on("console", lambda message: messages.append(message.text))
    page.set_viewport_size({"width": 375, "height": 700})
    page.goto(site)

    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    expect(page.get_by_label("Your message")).to_be_visible()
    assert not [m for m in messages if "Content Security Policy" in m]
