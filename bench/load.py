"""A bounded load test: many clients at once against the local host, with a fake upstream.

Starts bench/fake_openai.py and the app's local host on loopback, then sends `--requests`
requests from `--clients` concurrent clients, each client one keep-alive connection, over a
mix of every chat route and body (reformulate with and without history, the app's chat body,
the protocol's JSON completion and both stream framings). It checks what a bad day under load
would show: a failed request (a non-200, a transport error, a stream that ends in
`{"error"}` or without its finish), memory that keeps growing, and connections left open.

Memory is the app process's resident set, sampled through the run; "growth in the second
half" compares the sample at half the requests with the last one, past the warm-up where
caches and pools fill. Connections are the app's own TCP sockets from /proc: those on its
port (its clients') and those to the fake (its upstream pool).

Run: `make load` (3,000 requests from 50 clients), or
`.venv/bin/python bench/load.py --requests 3000 --clients 50 --markdown bench/load.md`.
Exits non-zero if any check fails. tests/test_load.py runs a short form of it in CI.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import conversations
from bench.processes import (
    app_env,
    configure_fake,
    free_port,
    machine,
    memory_mb,
    start,
    stop,
    wait_listening,
)
from bench.stats import median, p95

# Growth allowed in the second half of a run, past warm-up: a leak of even 1 KB per request
# shows over a few thousand requests; allocator noise stays well under this.
MEMORY_GROWTH_LIMIT_MB = 10.0
# How long the app may take to notice that its clients have closed their connections.
CLOSE_GRACE_S = 10.0
TCP_STATES = {"01": "ESTABLISHED", "06": "TIME_WAIT", "08": "CLOSE_WAIT", "0A": "LISTEN"}


@dataclass(frozen=True)
class Kind:
    """One kind of request in the mix."""

    name: str
    path: str
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def streams(self) -> bool:
        return bool(self.body.get("stream"))


MIX = [
    Kind("reformulate, first turn", "/api/chat/reformulate", conversations.app_body(1)),
    Kind("reformulate", "/api/chat/reformulate", conversations.app_body(3)),
    Kind("chat, app body", "/api/chat", conversations.app_body(3)),
    Kind("chat, protocol", "/api/chat", conversations.protocol_body(3)),
    Kind("chat, protocol stream (JSON lines)", "/api/chat", conversations.protocol_body(3, stream=True)),
    Kind(
        "chat, protocol stream (SSE)",
        "/api/chat",
        conversations.protocol_body(3, stream=True),
        {"accept": "text/event-stream"},
    ),
]


@dataclass
class Sockets:
    """The app process's TCP sockets, by what they connect."""

    clients: int  # on the app's own port, not listening: a client's connection
    upstream: int  # to the fake model
    states: dict[str, int]


def app_sockets(pid: int, app_port: int, upstream_port: int) -> Sockets:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = fd.readlink().name
        except OSError:  # closed while we looked
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    clients = upstream = 0
    states: dict[str, int] = {}
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[9] not in inodes:
                continue
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            remote_port = int(fields[2].rsplit(":", 1)[1], 16)
            state = TCP_STATES.get(fields[3], fields[3])
            states[state] = states.get(state, 0) + 1
            if state == "LISTEN":
                continue
            if local_port == app_port:
                clients += 1
            elif remote_port == upstream_port:
                upstream += 1
    return Sockets(clients, upstream, states)


@dataclass
class Failure:
    kind: str
    reason: str


@dataclass
class LoadResult:
    requests: int
    clients: int
    call_ms: float
    before: Sockets
    after: Sockets
    seconds: float = 0.0
    latencies: dict[str, list[float]] = field(default_factory=lambda: {kind.name: [] for kind in MIX})
    failures: list[Failure] = field(default_factory=list)
    rss_mb: list[tuple[int, float]] = field(default_factory=list)  # (requests done, MB) through the run
    peak_clients: int = 0
    peak_upstream: int = 0

    @property
    def memory_growth_mb(self) -> float:
        """Resident memory at the end minus at half the requests (after warm-up)."""
        half = next(mb for done, mb in self.rss_mb if done >= self.requests // 2)
        return self.rss_mb[-1][1] - half

    def problems(self) -> list[str]:
        found = []
        if self.failures:
            found.append(f"{len(self.failures)} requests failed, first: {self.failures[0]}")
        if self.memory_growth_mb > MEMORY_GROWTH_LIMIT_MB:
            found.append(f"memory grew {self.memory_growth_mb:.1f} MB in the second half")
        if self.after.clients:
            found.append(f"{self.after.clients} client connections left open: {self.after.states}")
        return found


def check_response(kind: Kind, response: httpx.Response, text: str) -> str | None:
    """Why this response is a failure, or None."""
    if response.status_code != 200:
        return f"status {response.status_code}: {text[:200]}"
    if not kind.streams:
        body = json.loads(text)
        return (
            None if "answer" in body or "question" in body or "choices" in body else f"odd body {text[:200]}"
        )
    events = [json.loads(line.removeprefix("data: ")) for line in text.splitlines() if line.strip()]
    if not events:
        return "an empty stream"
    if "error" in events[-1]:
        return f"the stream ended in {events[-1]}"
    if events[-1]["choices"][0]["finish_reason"] != "stop":
        return "the stream ended without its finish"
    return None


async def one_client(
    base_url: str,
    turns: Iterator[int],
    result: LoadResult,
    done: list[int],
    all_connected: asyncio.Barrier,
    count_sockets: Callable[[], Sockets],
) -> None:
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=60) as client:
        for taken, n in enumerate(turns):
            kind = MIX[n % len(MIX)]
            started = time.perf_counter()
            try:
                response = await client.post(kind.path, json=kind.body, headers=kind.headers)
                reason = check_response(kind, response, response.text)
            except (httpx.HTTPError, ValueError, KeyError, IndexError) as error:
                reason = f"{type(error).__name__}: {error}"
            if reason is None:
                result.latencies[kind.name].append(time.perf_counter() - started)
            else:
                result.failures.append(Failure(kind.name, reason))
            done[0] += 1
            if taken == 0 and await all_connected.wait() == 0:
                # Every client is between requests on its open connection: the app holds
                # them all at once, whatever the sampling below happens to catch.
                result.peak_clients = max(result.peak_clients, count_sockets().clients)


async def watch(pid: int, app_port: int, upstream_port: int, result: LoadResult, done: list[int]) -> None:
    """Samples memory and sockets until cancelled."""
    while True:
        result.rss_mb.append((done[0], memory_mb(pid)[0]))
        sockets = app_sockets(pid, app_port, upstream_port)
        result.peak_clients = max(result.peak_clients, sockets.clients)
        result.peak_upstream = max(result.peak_upstream, sockets.upstream)
        await asyncio.sleep(0.1)


async def drive(
    pid: int, app_port: int, upstream_port: int, requests: int, clients: int, call_ms: float
) -> LoadResult:
    if requests < clients:
        raise ValueError("send at least one request per client")

    def count_sockets() -> Sockets:
        return app_sockets(pid, app_port, upstream_port)

    before = count_sockets()
    result = LoadResult(requests, clients, call_ms, before=before, after=before)
    done = [0]
    turns = iter(range(requests))  # shared: each client takes the next request
    watcher = asyncio.create_task(watch(pid, app_port, upstream_port, result, done))
    begun = time.perf_counter()
    all_connected = asyncio.Barrier(clients)
    base_url = f"http://127.0.0.1:{app_port}"
    await asyncio.gather(
        *(one_client(base_url, turns, result, done, all_connected, count_sockets) for _ in range(clients))
    )
    result.seconds = time.perf_counter() - begun
    watcher.cancel()
    result.rss_mb.append((done[0], memory_mb(pid)[0]))
    # Every client has closed its connection; give the app a moment to see each close.
    deadline = time.monotonic() + CLOSE_GRACE_S
    while (after := count_sockets()).clients and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    result.after = after
    return result


def run_load(requests: int, clients: int, work: Path, *, call_ms: float = 5.0) -> LoadResult:
    """Start the fake and the local host in `work`, warm them, and drive the load."""
    fake_port, app_port = free_port(), free_port()
    fake_url = f"http://127.0.0.1:{fake_port}"
    processes = []
    try:
        fake = start(["bench/fake_openai.py", "--port", str(fake_port)], {}, work / "fake.log")
        processes.append(fake)
        env = app_env(fake_url, work / "recipes.sqlite3", "json_schema")
        host = start(["local_host.py", "--port", str(app_port)], env, work / "host.log")
        processes.append(host)
        wait_listening(fake_port, fake)
        wait_listening(app_port, host)
        with httpx.Client(timeout=120) as client:
            configure_fake(client, fake_url, call_ms=call_ms, token_ms=0, prompt_token_ms=0, tokens=20)
            # The first request fills the empty store; then one of each kind warms every path.
            for kind in MIX:
                client.post(f"http://127.0.0.1:{app_port}{kind.path}", json=kind.body).raise_for_status()
        return asyncio.run(drive(host.pid, app_port, fake_port, requests, clients, call_ms))
    finally:
        for process in reversed(processes):
            stop(process)


def markdown(result: LoadResult) -> str:
    every = list(itertools.chain.from_iterable(result.latencies.values()))
    start_mb, end_mb = result.rss_mb[0][1], result.rss_mb[-1][1]
    m = machine()
    lines = [
        f"{m['date']} · {m['cpu']}, {m['cores']} cores (shared with other jobs) · Python {m['python']} · "
        f"{result.requests} requests from {result.clients} concurrent clients in {result.seconds:.1f} s "
        f"({result.requests / result.seconds:.0f} requests/s), "
        f"the fake upstream taking {result.call_ms:g} ms per call.",
        "",
        "| request | n | median ms | p95 ms |",
        "|---|---|---|---|",
        *(
            f"| {name} | {len(taken)} | {median(taken) * 1000:.0f} | {p95(taken) * 1000:.0f} |"
            for name, taken in result.latencies.items()
            if taken
        ),
        f"| all | {len(every)} | {median(every) * 1000:.0f} | {p95(every) * 1000:.0f} |",
        "",
        "| check | figure |",
        "|---|---|",
        f"| failed requests | {len(result.failures)} |",
        f"| resident memory: after warm-up → at the end | {start_mb:.0f} MB → {end_mb:.0f} MB |",
        f"| growth over the second half (limit {MEMORY_GROWTH_LIMIT_MB:.0f} MB) | "
        f"{result.memory_growth_mb:+.1f} MB |",
        f"| client connections: before, peak, after the clients closed | "
        f"{result.before.clients}, {result.peak_clients}, {result.after.clients} |",
        f"| connections to the upstream: peak, after | {result.peak_upstream}, {result.after.upstream} |",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--markdown", type=Path, help="also write the tables here")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="recipe-load-"))
    result = run_load(args.requests, args.clients, work)
    table = markdown(result)
    print(table)
    if args.markdown:
        args.markdown.write_text(table, encoding="utf-8")
    problems = result.problems()
    for problem in problems:
        print(f"FAILED: {problem}", file=sys.stderr)
    print(f"the servers' logs: {work}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
