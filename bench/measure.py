"""The measurements: each request timed by the client, with the upstream's share read from the
fake's records for that request alone (requests are sequential wherever that matters)."""

from __future__ import annotations

import asyncio
import re
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from bench.processes import PYTHON, ROOT, fake_records


@dataclass
class Sample:
    latency_s: float  # client-side, request sent to last byte read
    upstream_s: float  # the fake's own time for every call the request made
    calls: int
    prompt_tokens: int  # the messages'
    # Streams only: headers received, the first line read, and the upstream's share before it.
    ttfb_s: float | None = None
    first_line_s: float | None = None
    upstream_first_line_s: float | None = None
    schema_tokens: int = 0  # structured-output schemas, which the model reads too


@dataclass
class Target:
    """One pipeline and body: what a row of the tables measures."""

    name: str
    url: str
    body: dict[str, Any]
    stream: bool = False
    headers: dict[str, str] = field(default_factory=dict)


def upstream_share(records: list[dict[str, Any]]) -> tuple[float, float]:
    """The upstream's whole time, and its time before a stream's first line could be sent: the
    calls made before the answer, plus the streamed call up to its headers."""
    total = sum(float(r["total_s"]) for r in records)
    before = sum(float(r["headers_s"] if r.get("stream") else r["total_s"]) for r in records)
    return total, before


def sample(client: httpx.Client, fake_url: str, target: Target) -> Sample:
    fake_records(client, fake_url)  # nothing left over from a previous request
    ttfb = first_line = None
    start = time.perf_counter()
    if target.stream:
        with client.stream("POST", target.url, json=target.body, headers=target.headers) as response:
            ttfb = time.perf_counter() - start
            for line in response.iter_lines():
                if first_line is None and line.strip():
                    first_line = time.perf_counter() - start
            status = response.status_code
    else:
        response = client.post(target.url, json=target.body, headers=target.headers)
        status = response.status_code
    latency = time.perf_counter() - start
    if status != 200:
        raise RuntimeError(f"{target.name}: HTTP {status}")
    records = fake_records(client, fake_url)
    total, before = upstream_share(records)
    tokens = sum(int(r.get("prompt_tokens", 0)) for r in records)
    schemas = sum(int(r.get("schema_tokens", 0)) for r in records)
    upstream_first = before if target.stream else None
    return Sample(latency, total, len(records), tokens, ttfb, first_line, upstream_first, schemas)


def interleaved(
    client: httpx.Client, fake_url: str, targets: list[Target], rounds: int
) -> dict[str, list[Sample]]:
    """Every target once per round, in turn, so that whatever else the machine is doing
    weighs on all of them alike."""
    samples: dict[str, list[Sample]] = {t.name: [] for t in targets}
    for _ in range(rounds):
        for target in targets:
            samples[target.name].append(sample(client, fake_url, target))
    return samples


async def burst(target: Target, concurrency: int) -> tuple[float, list[float]]:
    """`concurrency` requests at once: the time until the last is done, and each one's latency."""
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(limits=limits, timeout=120) as client:

        async def one() -> float:
            start = time.perf_counter()
            response = await client.post(target.url, json=target.body, headers=target.headers)
            if response.status_code != 200:
                raise RuntimeError(f"{target.name}: HTTP {response.status_code}")
            return time.perf_counter() - start

        await one()  # a connection and a warm path before the clock starts
        start = time.perf_counter()
        latencies = await asyncio.gather(*(one() for _ in range(concurrency)))
        return time.perf_counter() - start, list(latencies)


def import_seconds(env: dict[str, str], statement: str) -> float:
    """Wall time of one import in a fresh interpreter, measured inside it."""
    code = f"import time; t = time.perf_counter(); {statement}; print(time.perf_counter() - t)"
    out = subprocess.run([PYTHON, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


IMPORTTIME = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def heaviest_imports(env: dict[str, str], module: str, count: int = 6) -> list[tuple[str, float]]:
    """The packages that weigh most in importing `module` (cumulative ms, from -X importtime),
    counting each top-level package once: what to make lazy if the goal is missed."""
    out = subprocess.run(
        [PYTHON, "-X", "importtime", "-c", f"import {module}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    heaviest: dict[str, float] = {}
    for match in IMPORTTIME.finditer(out.stderr):
        name = match[4]
        top = name.split(".")[0]
        if top != module:
            heaviest[top] = max(heaviest.get(top, 0.0), int(match[2]) / 1000)
    return sorted(heaviest.items(), key=lambda item: -item[1])[:count]


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = call()
    return time.perf_counter() - start, result
