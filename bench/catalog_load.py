"""What loading a catalog costs the app meanwhile: the longest the event loop went without
running (a bound on how long any other request waited) and the peak memory above idle.

In process, through the routes the local host mounts, on a scratch embedded store with
WordLlama. A ticker coroutine sleeps 1 ms at a time during the load and records its largest
gap. Peak memory is VmHWM (reset before each case through /proc/self/clear_refs).

Run: `.venv/bin/python -m bench.catalog_load` (about 30 s); figures in bench/catalog_load.md.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import httpx
from pydantic import SecretStr

import function_app
from app.providers.wordllama_embedder import WordLlamaEmbedder
from app.recipes import MAX_DESCRIPTION_CHARS, MAX_LINE_CHARS, MAX_LINES, MAX_TITLE_CHARS
from app.search.retrieval import Retriever
from app.services import Services, open_local_database, recipe_store, search_index, use_services
from app.settings import Settings
from bench.processes import memory_mb
from local_host import create_app

KEY = "bench"


def small(n: int) -> dict[str, object]:
    return {
        "id": f"r-{n}",
        "title": f"Leek soup {n}",
        "description": "A soup of leeks and potatoes.",
        "ingredients": ["3 leeks", "2 potatoes", "1 l stock"],
        "steps": ["Chop.", "Boil.", "Blend."],
    }


def largest(n: int) -> dict[str, object]:
    """A recipe at every bound."""
    return {
        "id": f"big-{n}",
        "title": "t" * MAX_TITLE_CHARS,
        "description": "soup " * (MAX_DESCRIPTION_CHARS // 5),
        "ingredients": ["leek " * (MAX_LINE_CHARS // 5)] * MAX_LINES,
        "steps": ["stir " * (MAX_LINE_CHARS // 5)] * MAX_LINES,
    }


def reset_peak() -> None:
    Path("/proc/self/clear_refs").write_text("5")


async def one_case(name: str, body: bytes, work: Path) -> str:
    scratch = Settings(local_db_path=work / f"{name[:8]}.sqlite3")
    database = open_local_database(scratch)
    retriever = Retriever(EMBEDDER, search_index(scratch, database), recipe_store(scratch, database))
    use_services(Services(llm=None, retriever=retriever))  # type: ignore[arg-type]
    transport = httpx.ASGITransport(app=create_app())
    gaps: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        last = time.perf_counter()
        while not done.is_set():
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    reset_peak()
    idle = memory_mb(os.getpid())[0]
    async with httpx.AsyncClient(transport=transport, base_url="http://app", timeout=600) as client:
        tick = asyncio.create_task(ticker())
        started = time.perf_counter()
        response = await client.post(
            "/api/recipes/index",
            content=body,
            headers={"x-functions-key": KEY, "content-type": "application/jsonl"},
        )
        seconds = time.perf_counter() - started
        done.set()
        await tick
    peak = memory_mb(os.getpid())[1]
    report = response.json()
    result = f"{response.status_code}: {report.get('indexed')} indexed, {report.get('failed')} failed"
    stall_ms = max(gaps) * 1000
    cells = [name, f"{len(body) / 1e6:.1f} MB", result, f"{seconds:.1f} s", f"{stall_ms:.0f} ms"]
    return "| " + " | ".join([*cells, f"{peak - idle:.0f} MB"]) + " |"


async def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="catalog-load-"))
    function_app.settings.admin_key = SecretStr(KEY)
    lines = lambda recipes: "\n".join(json.dumps(r) for r in recipes).encode()  # noqa: E731
    cases = [
        ("3,000 ordinary recipes", lines(small(n) for n in range(3000))),
        (
            "one recipe with a 20 MB description (refused)",
            lines([small(0) | {"description": "x" * 20_000_000}]),
        ),
        ("recipes at every bound, up to the 50 MB body limit", lines(largest(n) for n in range(120))),
        ("20,000 ordinary recipes (MAX_INDEX_RECIPES)", lines(small(n) for n in range(20_000))),
        (
            "ordinary recipes up to the 50 MB body limit (refused: over MAX_INDEX_RECIPES)",
            lines(small(n) for n in range(240_000)),
        ),
    ]
    print("| catalog | body | result | load time | longest event-loop stall | peak memory above idle |")
    print("|---|---|---|---|---|---|")
    for name, body in cases[int(sys.argv[1]) if len(sys.argv) > 1 else 0 :]:
        print(await one_case(name, body, work), flush=True)


if __name__ == "__main__":
    EMBEDDER = WordLlamaEmbedder()
    asyncio.run(main())
