"""Where the app's own CPU goes in one request: a protocol chat at turn 3 (or another body)
against the bench's fake upstream, profiled in the app's process.

The fake runs in a process of its own (bench/fake_openai.py, answering at once); the app's
local host runs in this process under uvicorn, and a client process sends the requests, so
that neither the fake's nor the client's CPU is counted. It reports the app process's CPU
time per request with no profiler (the honest figure), then cProfile's attribution (CPU time,
`time.process_time`, so it includes the embedder's thread) by stage and the top functions.

Run: `.venv/bin/python -m bench.profile_chat [--requests 300] [--body protocol|protocol-stream|app]`
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import logging
import os
import pstats
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import FrameType

from bench.processes import PYTHON, ROOT, app_env, configure_fake, free_port, start, stop, wait_listening

OVERHEAD_TURN = 3

# Stages, by a function whose cumulative time is the stage's (first match in a qualified name
# `file:line(function)`); the rest of the request is what none of them covers.
STAGES: list[tuple[str, str, str | None]] = [
    ("the route, whole (local_host's endpoint)", "local_host.py", "call"),
    ("body: JSON parse, validation (pydantic), dialect", "app/http/chat_body.py", "read_chat_body"),
    ("understanding (rewrite and filters), whole", "app/chat/understanding.py", "understand"),
    ("  the rewrite task: history window, catalog resolver", "app/chat/rewrite.py", "rewrite_task"),
    ("  the rewrite's model call (alone or with the filters)", "app/providers/openai_clients.py", "complete"),
    ("  the rewrite guard", "app/chat/rewrite.py", "check"),
    ("retrieval: question reading, embedding, search, fetch", "app/search/retrieval.py", "retrieve_question"),
    ("answer prompt", "app/chat/answers.py", "answer_messages"),
    ("thoughts and data points", "app/chat/thoughts.py", "thoughts"),
    ("answer call: opening the stream", "app/providers/openai_clients.py", "_open_stream"),
    ("answer call: reading the chunks", "app/providers/openai_clients.py", "_read_stream"),
    ("answer guard", "app/chat/answer_guard.py", None),
    ("response shaping (protocol rendering)", "app/protocol/", None),
    ("the openai SDK and its transport (httpx2, aiohttp), all calls", "site-packages/openai/", None),
    ("  … and aiohttp under it", "site-packages/aiohttp/", None),
    ("pydantic (validation, dumps), anywhere", "site-packages/pydantic", None),
    ("logging (records that are written)", "logging/__init__.py", "handle"),
    ("catalog names (app/catalog/names.py), anywhere", "app/catalog/names.py", None),
]

CLIENT = """
import json, sys, time, httpx
url, body, n, stream = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
with httpx.Client(timeout=60) as client:
    for _ in range(n):
        if stream:
            with client.stream("POST", url, json=body) as r:
                for _ in r.iter_lines():
                    pass
        else:
            r = client.post(url, json=body)
        assert r.status_code == 200, r.status_code
"""


def body_for(kind: str) -> tuple[dict, bool]:
    from bench import conversations

    if kind == "app":
        return conversations.app_body(OVERHEAD_TURN), False
    stream = kind == "protocol-stream"
    return conversations.protocol_body(OVERHEAD_TURN, stream=stream), stream


def run_client(url: str, body: dict, n: int, stream: bool) -> subprocess.Popen[bytes]:
    return subprocess.Popen([PYTHON, "-c", CLIENT, url, json.dumps(body), str(n), "1" if stream else "0"])


async def serve(port: int, requests: int, body: dict, stream: bool, top: int) -> str:
    import uvicorn

    import local_host

    config = uvicorn.Config(
        local_host.create_app(), host="127.0.0.1", port=port, log_level="warning", access_log=False
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    url = f"http://127.0.0.1:{port}/api/chat"

    async def client_done(n: int) -> None:
        process = run_client(url, body, n, stream)
        while process.poll() is None:
            await asyncio.sleep(0.005)
        if process.returncode:
            raise RuntimeError("the client failed")

    await client_done(20)  # the catalog load, imports, the pool: not what is measured
    began = time.process_time()
    await client_done(requests)
    plain_ms = (time.process_time() - began) * 1000 / requests
    sampler = Sampler()
    sampler.start()
    await client_done(requests)
    sampler.stop()
    sampler.cpu_ms = plain_ms
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    await client_done(requests)
    profiler.disable()
    server.should_exit = True
    await task
    return sampler.report() + "\n\n" + report(profiler, requests, plain_ms, top)


SELECTORS = selectors.__file__
# Layers by the path of a frame: the innermost frame that belongs to one names it, so that h11
# under httpcore2 is the SDK's transport and h11 under uvicorn the HTTP server.
LAYERS = [
    ("site-packages/openai/", "openai SDK"),
    ("site-packages/httpx2/", "openai SDK's requests and responses (httpx2)"),
    ("site-packages/httpcore2/", "openai SDK's transport (httpcore2, h11, aiohttp)"),
    ("site-packages/aiohttp/", "openai SDK's transport (httpcore2, h11, aiohttp)"),
    ("app/providers/aiohttp_transport.py", "openai SDK's transport (httpcore2, h11, aiohttp)"),
    ("site-packages/uvicorn/", "HTTP server (uvicorn, h11)"),
    ("site-packages/starlette/", "Starlette"),
    ("site-packages/pydantic", "pydantic"),
    ("site-packages/wordllama/", "WordLlama embedding"),
    ("site-packages/numpy/", "numpy"),
    ("/logging/", "logging"),
    ("/app/", "app: "),
    ("local_host.py", "local host"),
    ("function_app.py", "function_app.py"),
]


def layer(stack: list[tuple[str, str]]) -> str:
    for file, _ in stack:
        for path, name in LAYERS:
            if path in file:
                return name + file.split("/app/", 1)[1] if name == "app: " else name
    return "event loop, other"


class Sampler:
    """A statistical profile of the app's CPU: the main thread's stack at every 0.5 ms of the
    process's CPU time (`ITIMER_PROF`, the way statistical profilers do it), so that small
    Python functions are not inflated as under cProfile. A sample taken while the event loop
    waits in `select` is another thread's CPU (the embedder's), counted apart."""

    def __init__(self, interval: float = 0.0005) -> None:
        self._interval = interval
        self.stacks: list[list[tuple[str, str]]] = []
        self.cpu_ms = 0.0  # the process's CPU per request, set by the caller

    def start(self) -> None:
        signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, self._interval, self._interval)

    def stop(self) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, signal.SIG_DFL)

    def _sample(self, _signum: int, frame: FrameType | None) -> None:
        stack = []
        while frame is not None:
            stack.append((frame.f_code.co_filename, frame.f_code.co_name))
            frame = frame.f_back
        self.stacks.append(stack)

    def report(self) -> str:
        busy = [s for s in self.stacks if s and s[0] != (SELECTORS, "select")]
        lines = [
            f"sampled: {len(self.stacks)} samples of 0.5 ms of CPU, {len(self.stacks) - len(busy)} of them"
            " while the loop waited in select (another thread's CPU)",
            "",
            "| stage | share of the busy samples |",
            "|---|---:|",
        ]
        for label, path, function in STAGES:
            hits = sum(1 for s in busy if any(path in f and function in (None, n) for f, n in s))
            lines.append(f"| {label} | {hits / max(1, len(busy)):.0%} |")
        by_layer: dict[str, int] = {}
        for stack in busy:
            where = layer(stack)
            by_layer[where] = by_layer.get(where, 0) + 1
        lines += [
            "",
            "| where the CPU goes (the innermost frame of a known layer) | share | ms per request |",
            "|---|---:|---:|",
        ]
        for where, hits in sorted(by_layer.items(), key=lambda item: -item[1])[:25]:
            share = hits / max(1, len(busy))
            lines.append(f"| {where} | {share:.1%} | {share * self.cpu_ms:.2f} |")
        inclusive: dict[str, int] = {}
        for stack in busy:
            # Each function once per sample, however deep it recurses.
            named = {f"{file.split('/app/', 1)[1]}:{name}" for file, name in stack if "/app/" in file}
            for function in named:
                inclusive[function] = inclusive.get(function, 0) + 1
        lines += ["", "| the app's functions, inclusive (top 25) | share | ms per request |"]
        lines += ["|---|---:|---:|"]
        for function, hits in sorted(inclusive.items(), key=lambda item: -item[1])[:25]:
            share = hits / max(1, len(busy))
            lines.append(f"| `{function}` | {share:.1%} | {share * self.cpu_ms:.2f} |")
        return "\n".join(lines)


def report(profiler: cProfile.Profile, requests: int, plain_ms: float, top: int) -> str:
    stats = pstats.Stats(profiler)
    raw = stats.stats  # type: ignore[attr-defined]
    total = max((ct for (_, _, name), (_, _, _, ct, _) in raw.items() if name == "call"), default=0.0)
    lines = [
        f"app process CPU per request, no profiler: {plain_ms:.2f} ms",
        f"under cProfile (inflated by the profiler; shares are what count): {total * 1000 / requests:.2f} ms"
        " in the route",
        "",
        "| stage | ms per request (profiled) | share of the route |",
        "|---|---:|---:|",
    ]
    for label, path, function in STAGES:
        if function is None:
            continue  # a cumulative time per package would count nested calls twice
        cumulative = sum(
            ct for (file, _, name), (_, _, _, ct, _) in raw.items() if name == function and path in file
        )
        share = cumulative / total if total else 0.0
        lines.append(f"| {label} | {cumulative * 1000 / requests:.2f} | {share:.0%} |")
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    if os.environ.get("PROFILE_DUMP"):
        profiler.dump_stats(os.environ["PROFILE_DUMP"])
    if os.environ.get("PROFILE_CALLERS"):
        pstats.Stats(profiler, stream=out).print_callers(os.environ["PROFILE_CALLERS"])
    lines += ["", "Top functions by own time:", out.getvalue()]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--body", default="protocol", choices=["protocol", "protocol-stream", "app"])
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="recipe-profile-"))
    fake_port, app_port = free_port(), free_port()
    fake = f"http://127.0.0.1:{fake_port}"
    os.environ.update(app_env(fake, work / "recipes.sqlite3", "json_schema"))
    # As the local host logs (local_host.main), into a file as the bench's host does.
    logging.basicConfig(
        filename=work / "host.log",
        level=logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    sys.path.insert(0, str(ROOT))
    fake_process = start(["bench/fake_openai.py", "--port", str(fake_port)], {}, work / "fake.log")
    try:
        wait_listening(fake_port, fake_process)
        import httpx

        with httpx.Client() as client:
            configure_fake(client, fake, call_ms=0, token_ms=0, prompt_token_ms=0, tokens=20)
        body, stream = body_for(args.body)
        print(asyncio.run(serve(app_port, args.requests, body, stream, args.top)))
        print(f"the app's log: {work / 'host.log'}")
    finally:
        stop(fake_process)


if __name__ == "__main__":
    main()
