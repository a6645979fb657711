"""A bounded load test: many clients at once against the local host, with a fake upstream.

Starts bench/fake_openai.py and the app's local host on loopback, then sends `--requests`
requests from `--clients` concurrent clients, each client one keep-alive connection, over a
mix of every chat route and body (reformulate with and without history, the app's chat body,
the protocol's JSON completion and both stream framings), each request its own conversation.
It checks what a bad day under load would show: a failed request (a non-200, a transport
error, a stream that ends in `{"error"}` or without its finish, or any answer other than the
one the fake model gives to that very request's question), memory that keeps growing,
client connections left open, more connections to the upstream than requests in flight, and
upstream connections that a call never gave back.

Memory is the app process's resident set, sampled through the run; "growth in the second
half" compares the sample at half the requests with the last one, past the warm-up where
caches and pools fill. Connections are the app's own TCP sockets from /proc: those on its
port (its clients') and those to the fake (its upstream pool). The pool keeps its idle
connections, and drops the ones the fake has closed only when it is next used; so after the
run it waits for the fake's keep-alive to close them, sends one more chat, and then only the
connection that chat used may be left.

Run: `make load` (3,000 requests from 50 clients), or
`.venv/bin/python -m bench.load --requests 3000 --clients 50 --markdown bench/load.md`.
Exits non-zero if any check fails. tests/test_load.py runs a short form of it in CI.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import itertools
import json
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from app.chat.answers import strip_citations
from bench import conversations
from bench.fake_openai import answer_words
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

# Growth allowed in the second half of a run, past warm-up. Over the 1,500 requests of a full
# run's second half that is about 7 KB a request (34 KB over the short form's 300): a leak of
# a request's body or answer fails it, one of a few hundred bytes only shows in the figure.
# Without a leak the second half grew by under 0.1 MB in the runs here.
MEMORY_GROWTH_LIMIT_MB = 10.0
# How long the app may take to notice that its clients have closed their connections.
CLOSE_GRACE_S = 10.0
# How long the app keeps an idle client connection in the load test (its default is 5 s).
CLIENT_KEEP_ALIVE_S = 300
# The fake closes a connection idle this long (uvicorn's default, which it runs with).
UPSTREAM_KEEP_ALIVE_S = float(inspect.signature(uvicorn.Config).parameters["timeout_keep_alive"].default)
TCP_STATES = {"01": "ESTABLISHED", "06": "TIME_WAIT", "08": "CLOSE_WAIT", "0A": "LISTEN"}
TOKENS = 20  # in every answer of the fake model
# What the fake answers to any question, citing the first recipe of the prompt (the app body
# turns the citation into its one source; the protocol keeps it in the text).
ANSWER = answer_words(TOKENS)


@dataclass(frozen=True)
class Kind:
    """One kind of request in the mix."""

    name: str
    path: str
    protocol: bool = False  # the AI chat protocol's body, else the app's own
    stream: bool = False
    sse: bool = False
    first_turn: bool = False

    def turn(self, n: int) -> int:
        # Request n of the run has a conversation of its own (2 to 10 turns, so 9 different
        # questions per kind): an answer that went to another request shows as the wrong one.
        return 1 if self.first_turn else 2 + (n // len(MIX)) % 9

    def question(self, n: int) -> str:
        return conversations.conversation(self.turn(n))[-1]["content"]

    def request(self, n: int) -> tuple[dict[str, Any], dict[str, str]]:
        """The body and headers of request n."""
        turn = self.turn(n)
        if self.protocol:
            body = conversations.protocol_body(turn, stream=self.stream)
        else:
            body = conversations.app_body(turn)
        headers = {"x-request-id": f"load-{n}"}
        if self.sse:
            headers["accept"] = "text/event-stream"
        return body, headers


MIX = [
    Kind("reformulate, first turn", "/api/chat/reformulate", first_turn=True),
    Kind("reformulate", "/api/chat/reformulate"),
    Kind("chat, app body", "/api/chat"),
    Kind("chat, protocol", "/api/chat", protocol=True),
    Kind("chat, protocol stream (JSON lines)", "/api/chat", protocol=True, stream=True),
    Kind("chat, protocol stream (SSE)", "/api/chat", protocol=True, stream=True, sse=True),
]


@dataclass
class Sockets:
    """The app process's TCP sockets, by what they connect, and their states."""

    client_states: dict[str, int]  # on the app's own port, not listening: its clients'
    upstream_states: dict[str, int]  # to the fake model
    # The peer port of each established client connection: which of them are the load's own
    # clients (see own_client_ports), and not, say, a readiness probe the app has yet to close.
    client_peers: frozenset[int] = frozenset()

    @property
    def clients(self) -> int:
        return sum(self.client_states.values())

    @property
    def upstream(self) -> int:
        return sum(self.upstream_states.values())


def socket_inodes(pid: int | str) -> set[str]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = fd.readlink().name
        except OSError:  # closed while we looked
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


def own_client_ports(app_port: int) -> set[int]:
    """The local ports of this process's open connections to the app: the load's clients."""
    inodes = socket_inodes("self")
    ports = set()
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/self/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[9] in inodes and int(fields[2].rsplit(":", 1)[1], 16) == app_port:
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def app_sockets(pid: int, app_port: int, upstream_port: int) -> Sockets:
    inodes = socket_inodes(pid)
    # /proc/net/tcp is no snapshot: the kernel writes it a page at a time while sockets come
    # and go, and under load it lists some sockets twice (seen here: 58 rows for 50) and may
    # skip some. So each socket counts once, by inode; callers re-read where a skip matters.
    found: dict[str, tuple[bool, str, int]] = {}  # inode: (a client's, state, peer port)
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            state = TCP_STATES.get(fields[3], fields[3])
            if fields[9] not in inodes or state == "LISTEN":
                continue
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            remote_port = int(fields[2].rsplit(":", 1)[1], 16)
            if local_port == app_port or remote_port == upstream_port:
                found[fields[9]] = (local_port == app_port, state, remote_port)
    clients: dict[str, int] = {}
    upstream: dict[str, int] = {}
    peers = set()
    for of_client, state, remote_port in found.values():
        group = clients if of_client else upstream
        group[state] = group.get(state, 0) + 1
        if of_client and state == "ESTABLISHED":
            peers.add(remote_port)
    return Sockets(clients, upstream, frozenset(peers))


async def settled(count: Callable[[], Sockets], busy: Callable[[Sockets], bool], within: float) -> Sockets:
    """The sockets once `busy` is false on three reads in a row (one read may have skipped a
    socket), or as they are after `within` seconds."""
    deadline = time.monotonic() + within
    quiet = 0
    while True:
        sockets = count()
        quiet = 0 if busy(sockets) else quiet + 1
        if quiet == 3 or time.monotonic() > deadline:
            return sockets
        await asyncio.sleep(0.05)


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
    # The most of the load's own client connections the app held at once. Only those count: a
    # stray socket (wait_listening's probe, which the app may not have closed yet) once made
    # this 51 for 50 clients.
    peak_clients: int = 0
    peak_upstream: int = 0
    # The app's upstream sockets once the fake has closed the idle ones, then after one more
    # request: the pool drops closed connections only when it is next used.
    upstream_idle: Sockets | None = None
    upstream_reused: Sockets | None = None

    def _half(self) -> tuple[int, float]:
        return next((done, mb) for done, mb in self.rss_mb if done >= self.requests // 2)

    @property
    def memory_growth_mb(self) -> float:
        """Resident memory at the end minus at half the requests (after warm-up)."""
        return self.rss_mb[-1][1] - self._half()[1]

    @property
    def memory_growth_kb_per_request(self) -> float:
        return self.memory_growth_mb * 1024 / max(1, self.requests - self._half()[0])

    def problems(self) -> list[str]:
        found = []
        if self.failures:
            found.append(f"{len(self.failures)} requests failed, first: {self.failures[0]}")
        if self.memory_growth_mb > MEMORY_GROWTH_LIMIT_MB:
            found.append(f"memory grew {self.memory_growth_mb:.1f} MB in the second half")
        if self.after.clients:
            found.append(f"{self.after.clients} client connections left open: {self.after.client_states}")
        if self.upstream_reused is not None and self.upstream_reused.upstream > 1:
            # Anything but the one connection that last request used was never given back.
            found.append(
                f"{self.upstream_reused.upstream} connections to the upstream held after it had "
                f"closed its idle ones and one more request: {self.upstream_reused.upstream_states}"
            )
        if self.peak_upstream > self.clients:
            # A request makes its model calls one after another, so each holds at most one
            # upstream connection: more means some call's connection never went back.
            found.append(
                f"{self.peak_upstream} connections to the upstream at once, for at most "
                f"{self.clients} requests in flight"
            )
        return found


def asked(context: dict[str, Any]) -> str | None:
    """The user's question as the protocol's context reports it."""
    return next((t["description"] for t in context["thoughts"] if t["title"] == "Original user query"), None)


def check_response(kind: Kind, n: int, response: httpx.Response) -> str | None:
    """Why this response to request n is a failure, or None."""
    text = response.text
    if response.status_code != 200:
        return f"status {response.status_code}: {text[:200]}"
    if (request_id := response.headers.get("x-request-id")) != f"load-{n}":
        return f"the response carries the request id {request_id!r}"
    question = kind.question(n)
    if kind.stream:
        return check_stream(kind, question, response.headers.get("content-type", ""), text)
    body = json.loads(text)
    if kind.path.endswith("/reformulate"):
        # The rewrite may name the recipes a follow-up refers to, before its words ("Considering
        # the …, which is the quickest to cook?") or after them (a model's "… to cook (the A;
        # the B)?"), and holds its last words: it is this request's, not another's.
        said = " ".join(re.findall(r"\w+", body.get("question", "").lower()))
        return None if " ".join(tail(question)) in said else f"the rewrite of {question!r}: {text[:200]}"
    if not kind.protocol:
        good = body["answer"] == ANSWER and len(body["sources"]) == 1
        return None if good else f"not the model's answer: {text[:200]}"
    choice = body["choices"][0]
    if (got := asked(choice["context"])) != question:
        return f"the answer to {got!r}, asked {question!r}"
    if strip_citations(choice["message"]["content"]) != ANSWER or choice["finish_reason"] != "stop":
        return f"not the model's answer: {choice['message']}, {choice['finish_reason']}"
    return None


def tail(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())[-4:]


def check_stream(kind: Kind, question: str, content_type: str, text: str) -> str | None:
    expected_type = "text/event-stream" if kind.sse else "application/json-lines"
    if not content_type.startswith(expected_type):
        return f"a stream sent as {content_type!r}"
    events = [json.loads(line.removeprefix("data: ")) for line in text.splitlines() if line.strip()]
    if not events:
        return "an empty stream"
    if errors := [event for event in events if "error" in event]:
        return f"the stream carried {errors[0]}"
    if (got := asked(events[0]["choices"][0]["context"])) != question:
        return f"the stream answers {got!r}, asked {question!r}"
    if events[-1]["choices"][0].get("finish_reason") != "stop":
        return "the stream ended without its finish"
    said = "".join(event["choices"][0]["delta"].get("content") or "" for event in events[:-1])
    return None if strip_citations(said).strip() == ANSWER else f"the stream said {said[:200]!r}"


async def one_client(
    base_url: str,
    numbers: Iterator[int],
    result: LoadResult,
    done: list[int],
    all_connected: asyncio.Barrier,
    count_sockets: Callable[[], Sockets],
) -> None:
    # One connection per client, kept alive between its requests, as a browser tab would.
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=60) as client:
        for taken, n in enumerate(numbers):
            kind = MIX[n % len(MIX)]
            body, headers = kind.request(n)
            started = time.perf_counter()
            try:
                response = await client.post(kind.path, json=body, headers=headers)
                reason = check_response(kind, n, response)
            # A body of the wrong shape is the app's failure too, not the load test's crash.
            except (httpx.HTTPError, ValueError, LookupError, TypeError, AttributeError) as error:
                reason = f"{type(error).__name__}: {error}"
            if reason is None:
                result.latencies[kind.name].append(time.perf_counter() - started)
            else:
                result.failures.append(Failure(kind.name, reason))
            done[0] += 1
            if taken == 0 and await all_connected.wait() == 0:
                # Every client is between requests on its open connection: the app holds
                # them all at once, whatever the sampling below happens to catch.
                ours = own_client_ports(int(base_url.rsplit(":", 1)[1]))
                held = len(count_sockets().client_peers & ours)
                result.peak_clients = max(result.peak_clients, held)


async def watch(pid: int, app_port: int, upstream_port: int, result: LoadResult, done: list[int]) -> None:
    """Samples memory and sockets until cancelled."""
    while True:
        result.rss_mb.append((done[0], memory_mb(pid)[0]))
        ours = own_client_ports(app_port)
        sockets = app_sockets(pid, app_port, upstream_port)
        result.peak_clients = max(result.peak_clients, len(sockets.client_peers & ours))
        result.peak_upstream = max(result.peak_upstream, sockets.upstream)
        await asyncio.sleep(0.1)


async def drive(
    pid: int, app_port: int, upstream_port: int, requests: int, clients: int, call_ms: float
) -> LoadResult:
    if requests < clients:
        raise ValueError("send at least one request per client")

    def count_sockets() -> Sockets:
        return app_sockets(pid, app_port, upstream_port)

    # The warm-up's connection may still be closing on the app's side.
    before = await settled(count_sockets, lambda sockets: sockets.clients > 0, CLOSE_GRACE_S)
    result = LoadResult(requests, clients, call_ms, before=before, after=before)
    done = [0]
    numbers = iter(range(requests))  # shared: each client takes the next request
    watcher = asyncio.create_task(watch(pid, app_port, upstream_port, result, done))
    begun = time.perf_counter()
    all_connected = asyncio.Barrier(clients)
    base_url = f"http://127.0.0.1:{app_port}"
    await asyncio.gather(
        *(one_client(base_url, numbers, result, done, all_connected, count_sockets) for _ in range(clients))
    )
    result.seconds = time.perf_counter() - begun
    watcher.cancel()
    result.rss_mb.append((done[0], memory_mb(pid)[0]))
    # Every client has closed its connection; give the app a moment to see each close.
    result.after = await settled(count_sockets, lambda sockets: sockets.clients > 0, CLOSE_GRACE_S)
    await reuse_upstream(base_url, requests, result, count_sockets)
    return result


async def reuse_upstream(
    base_url: str, n: int, result: LoadResult, count_sockets: Callable[[], Sockets]
) -> None:
    """Wait for the fake to close the app's idle connections, then send one more chat: the
    app's pool must drop every closed one. A connection that a call never gave back is not in
    the pool's care, and stays."""
    result.upstream_idle = await settled(
        count_sockets,
        lambda sockets: "ESTABLISHED" in sockets.upstream_states,
        UPSTREAM_KEEP_ALIVE_S + CLOSE_GRACE_S,
    )
    kind = next(kind for kind in MIX if kind.name == "chat, app body")  # two model calls
    body, headers = kind.request(n)
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
        try:
            response = await client.post(kind.path, json=body, headers=headers)
            reason = check_response(kind, n, response)
        except (httpx.HTTPError, ValueError, LookupError, TypeError, AttributeError) as error:
            reason = f"{type(error).__name__}: {error}"
    if reason is not None:
        result.failures.append(Failure(f"{kind.name}, after the run", reason))
    result.upstream_reused = max((count_sockets() for _ in range(3)), key=lambda sockets: sockets.upstream)


def run_load(requests: int, clients: int, work: Path, *, call_ms: float = 5.0) -> LoadResult:
    """Start the fake and the local host in `work`, warm them, and drive the load."""
    fake_port, app_port = free_port(), free_port()
    fake_url = f"http://127.0.0.1:{fake_port}"
    processes = []
    try:
        fake = start(["bench/fake_openai.py", "--port", str(fake_port)], {}, work / "fake.log")
        processes.append(fake)
        env = app_env(fake_url, work / "recipes.sqlite3", "json_schema")
        # Each client's connection must outlast the wait for every other client's first answer
        # (a 5 s keep-alive could close one on a busy machine): the peak must not hang on timing.
        command = ["local_host.py", "--port", str(app_port), "--timeout-keep-alive", str(CLIENT_KEEP_ALIVE_S)]
        host = start(command, env, work / "host.log")
        processes.append(host)
        wait_listening(fake_port, fake)
        wait_listening(app_port, host)
        with httpx.Client(timeout=120) as client:
            configure_fake(client, fake_url, call_ms=call_ms, token_ms=0, prompt_token_ms=0, tokens=TOKENS)
            # The first request fills the empty store; then one of each kind warms every path.
            for n, kind in enumerate(MIX):
                body, headers = kind.request(n)
                response = client.post(f"http://127.0.0.1:{app_port}{kind.path}", json=body, headers=headers)
                if reason := check_response(kind, n, response):
                    raise RuntimeError(f"the warm-up's {kind.name} failed: {reason}")
        return asyncio.run(drive(host.pid, app_port, fake_port, requests, clients, call_ms))
    finally:
        for process in reversed(processes):
            stop(process)


def states(counts: dict[str, int]) -> str:
    return "(" + ", ".join(f"{n} {state}" for state, n in sorted(counts.items())) + ")" if counts else ""


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
        f"{result.memory_growth_mb:+.1f} MB ({result.memory_growth_kb_per_request:+.1f} KB a request) |",
        f"| client connections: before, peak, after the clients closed | "
        f"{result.before.clients}, {result.peak_clients}, {result.after.clients} |",
        f"| connections to the upstream: peak (limit {result.clients}, one per request in flight) | "
        f"{result.peak_upstream} |",
        f"| … after the clients closed | {result.after.upstream} {states(result.after.upstream_states)} |",
        *(
            [
                f"| … once the upstream had closed the idle ones ({UPSTREAM_KEEP_ALIVE_S:g} s) | "
                f"{result.upstream_idle.upstream} {states(result.upstream_idle.upstream_states)} |",
                f"| … after one more chat (limit 1) | "
                f"{result.upstream_reused.upstream} {states(result.upstream_reused.upstream_states)} |",
            ]
            if result.upstream_idle and result.upstream_reused
            else []
        ),
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--call-ms", type=float, default=5.0, help="the fake model's time per call")
    parser.add_argument("--markdown", type=Path, help="also write the tables here")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="recipe-load-"))
    result = run_load(args.requests, args.clients, work, call_ms=args.call_ms)
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
