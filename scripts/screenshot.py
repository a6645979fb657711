"""The README's screenshot: the page as `make run` serves it on the embedded defaults.

Run: .venv/bin/python -m scripts.screenshot  (needs Debian's chromium and the SWA CLI)

It starts what `make run` starts, on free ports and a scratch copy of the embedded store: the
local host with no settings at all (SmolLM2-135M in process, WordLlama, SQLite), and the SWA
CLI in front of it. Then it has the page go through a conversation, as a user would type it,
and saves docs/screenshot.png. Nothing is scripted but what the user types.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from tests.support import ROOT, SWA, free_port, start, stop, wait_until_up

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run"]
TURNS = [
    "I'm looking for vegetarian dinner ideas with mushrooms.",
    "Which one is the quickest?",
    "What do I need for it?",
]


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="screenshot-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AZURE_", "OPENAI_", "LLM_", "LOCAL_"))}
    env["LOCAL_DB_PATH"] = str(work / "recipes.sqlite3")
    api_port, site_port = free_port(), free_port()
    host = start([sys.executable, "local_host.py", "--port", str(api_port)], work / "host.log", env)
    swa = None
    try:
        wait_until_up(f"http://127.0.0.1:{api_port}/api/chat", host, work / "host.log")
        command = [str(SWA), "start", "web", "--swa-config-location", str(ROOT), "--api-devserver-url"]
        swa = start(
            [*command, f"http://127.0.0.1:{api_port}", "--host", "127.0.0.1", "--port", str(site_port)],
            work / "swa.log",
        )
        wait_until_up(f"http://127.0.0.1:{site_port}/", swa, work / "swa.log")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1100, "height": 1150}, color_scheme="light")
            page.goto(f"http://localhost:{site_port}/")
            for n, typed in enumerate(TURNS, start=1):
                composer = page.get_by_label("Your message")
                composer.fill(typed)
                composer.press("Enter")
                expect(page.locator("#log .turn.assistant:not(.writing)")).to_have_count(n, timeout=120_000)
            page.locator("#log .turn.user").nth(1).get_by_text("Searched for").click()
            path = ROOT / "docs" / "screenshot.png"
            page.screenshot(path=path)
            browser.close()
            print(f"saved {path}")
    finally:
        if swa is not None:
            stop(swa)
        stop(host)


if __name__ == "__main__":
    main()
