"""The design's chat example on the embedded defaults, end to end over HTTP: this checkout
against a `--before` commit, side by side in one run.

Run: make bench-chat, or .venv/bin/python -m bench.embedded_chat [--runs 20] [--before 2484710]
[--before-runs 3] [--model-runs 10]

Each variant is the local host (`local_host.py`, the Functions routes) on the embedded
defaults (SQLite, WordLlama, SmolLM2-135M in process), with a fresh store of its own. After a
warm-up request, it measures:

- the design's dev-console chat (the app body), `--runs` times one after another: the time to
  the whole JSON answer, and (where the app body streams, `Accept: text/event-stream`) the time
  to the first piece of text;
- a protocol chat, "Any quick soups?", as a JSON-lines stream: the first piece of text and the end;
- the design's chat 4 times at once, three rounds: each request's time, and the slowest against
  the median of one alone.

It writes bench/embedded_chat.md with the figures, the command and the machine.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any

import httpx

from bench.processes import ROOT, free_port, machine, stop, wait_listening

CHAT = {
    "conversation": [
        {"role": "user", "content": "I’m looking for dinner ideas."},
        {"role": "assistant", "content": "What kind of cuisine are you interested in?"},
        {"role": "user", "content": "Vegetarian."},
        {"role": "assistant", "content": "Any ingredients you particularly like or want to avoid?"},
    ],
    "userMessage": "What vegetarian recipes with mushrooms are available?",
}
PROTOCOL = {"messages": [{"role": "user", "content": "Any quick soups?"}], "stream": True}
TIMEOUT = 120.0


@dataclass
class Variant:
    name: str
    tree: Path
    env: dict[str, str] = field(default_factory=dict)
    whole: list[float] = field(default_factory=list)
    first: list[float] = field(default_factory=list)
    protocol_first: list[float] = field(default_factory=list)
    protocol_whole: list[float] = field(default_factory=list)
    together: list[list[float]] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)
    sample: dict[str, Any] = field(default_factory=dict)
    protocol_sample: str = ""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def checkout(commit: str, into: Path) -> Path:
    """The files of `commit`, unpacked (the venv and node_modules are this checkout's)."""
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def start_host(tree: Path, db: Path, log: Path, more: dict[str, str]) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AZURE_", "OPENAI_", "LLM_", "LOCAL_"))}
    env |= {"LOCAL_DB_PATH": str(db), "PYTHONDONTWRITEBYTECODE": "1"} | more
    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "local_host.py", "--port", str(port)], cwd=tree, env=env, stdout=out, stderr=out
        )
    wait_listening(port, process)
    return process, f"http://127.0.0.1:{port}"


def chat_once(base: str) -> tuple[float, int, dict[str, Any]]:
    started = time.perf_counter()
    response = httpx.post(f"{base}/api/chat", json=CHAT, timeout=TIMEOUT)
    seconds = time.perf_counter() - started
    body = response.json() if response.headers.get("content-type", "").startswith("application/json") else {}
    return seconds, response.status_code, body


def first_text(base: str, body: dict[str, Any], accept: str) -> tuple[float | None, float, str]:
    """Seconds to the first piece of answer text and to the end of the stream, and the text."""
    started = time.perf_counter()
    first = None
    text = ""
    with httpx.stream(
        "POST", f"{base}/api/chat", json=body, headers={"accept": accept}, timeout=TIMEOUT
    ) as r:
        for line in r.iter_lines():
            line = line.removeprefix("data: ").strip()
            if not line:
                continue
            event = json.loads(line)
            piece = event.get("delta") if "delta" in event and isinstance(event["delta"], str) else None
            if piece is None and event.get("choices"):
                piece = (event["choices"][0].get("delta") or {}).get("content")
            if piece:
                text += piece
                if first is None:
                    first = time.perf_counter() - started
    return first, time.perf_counter() - started, text


def measure(variant: Variant, runs: int, work: Path) -> None:
    slug = re.sub(r"\W+", "-", variant.name)[:40]
    db = work / f"{slug}.sqlite3"
    process, base = start_host(variant.tree, db, work / f"{slug}.log", variant.env)
    try:
        chat_once(base)  # warm-up: loads the catalog and the model
        for n in range(runs):
            seconds, status, body = chat_once(base)
            variant.whole.append(seconds)
            variant.statuses.append(status)
            if n == 0:
                variant.sample = body | {"status": status}
            # The app body streams only where the page's SSE form exists (this checkout).
            first, _, _ = first_text(base, CHAT, "text/event-stream")
            if first is not None and not variant.name.startswith("before"):
                variant.first.append(first)
        for n in range(max(1, runs // 4)):
            first, whole, text = first_text(base, PROTOCOL, "application/json")
            if first is not None:
                variant.protocol_first.append(first)
            variant.protocol_whole.append(whole)
            if n == 0:
                variant.protocol_sample = text
        for _ in range(3):
            with concurrent.futures.ThreadPoolExecutor(4) as pool:
                results = list(pool.map(lambda _: chat_once(base), range(4)))
            variant.together.append([seconds for seconds, _, _ in results])
            variant.statuses += [status for _, status, _ in results]
    finally:
        stop(process)


def row(name: str, values: list[float]) -> str:
    if not values:
        return f"| {name} | – | – | – |"
    return f"| {name} | {len(values)} | {statistics.median(values):.2f} | {percentile(values, 0.95):.2f} |"


def report(variants: list[Variant], command: str) -> str:
    info = machine()
    lines = [
        "# The design's chat example on the embedded defaults",
        "",
        f"`{command}`",
        "",
        f"{info['date']} · {info['cpu']}, {info['cores']} cores · Python {info['python']} · "
        "the local host on the embedded defaults (SQLite, WordLlama, SmolLM2-135M in process), "
        "called over loopback; both variants in this one run, one after the other.",
        "",
    ]
    for variant in variants:
        singles = variant.whole
        together = [s for burst in variant.together for s in burst]
        slowest = max(together) if together else 0.0
        ratio = slowest / statistics.median(singles) if singles else 0.0
        failed = sum(1 for s in variant.statuses if s != 200)
        sample = json.dumps({k: v for k, v in variant.sample.items() if k != "status"}, ensure_ascii=False)
        lines += [
            f"## {variant.name}",
            "",
            "| measure (seconds) | n | median | p95 |",
            "|---|---|---|---|",
            row("design's chat, whole answer (app body, JSON)", singles),
            row("design's chat, first streamed text (app body, SSE)", variant.first),
            row('"Any quick soups?", first text (protocol, JSON lines)', variant.protocol_first),
            row('"Any quick soups?", whole stream', variant.protocol_whole),
            row("design's chat, 4 at once (each request)", together),
            "",
            f"4 at once: slowest {slowest:.2f} s = {ratio:.1f}× the median of one alone; "
            f"non-200 responses: {failed} of {len(variant.statuses)}.",
            "",
            f"Answer (status {variant.sample.get('status')}): `{sample[:700]}`",
            "",
            f'"Any quick soups?": `{variant.protocol_sample[:400]!r}`',
            "",
        ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--before", default="", help="a commit to measure side by side (e.g. 2484710)")
    parser.add_argument("--before-runs", type=int, default=3)
    parser.add_argument("--model-runs", type=int, default=10, help="runs with ANSWER_WRITER=model (0: none)")
    parser.add_argument("--markdown", type=Path, default=ROOT / "bench" / "embedded_chat.md")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="embedded-chat-"))
    try:
        variants = []
        if args.before:
            before = Variant(
                f"before: commit {args.before}", checkout(args.before, work / f"before-{args.before}")
            )
            measure(before, args.before_runs, work)
            variants.append(before)
        after = Variant("after: this checkout, the embedded default (the recipes' data answers)", ROOT)
        measure(after, args.runs, work)
        variants.insert(0, after)
        if args.model_runs:
            # The same checkout with the embedded model writing (guarded), for the record.
            model = Variant(
                "after, ANSWER_WRITER=model (SmolLM2 writes, guarded)", ROOT, {"ANSWER_WRITER": "model"}
            )
            measure(model, args.model_runs, work)
            variants.insert(1, model)
        arguments = " ".join(sys.argv[1:])
        command = f"python -m bench.embedded_chat {arguments}" if arguments else "make bench-chat"
        text = report(variants, command)
        args.markdown.write_text(text + "\n", encoding="utf-8")
        print(text)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
