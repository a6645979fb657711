"""What the back end costs around the model: one command, every figure side by side.

Starts the fake upstream (bench/fake_openai.py), the app's local host and the LangChain
pipeline (bench/langchain_app.py) on loopback, measures overhead, concurrency, calls and
prompt tokens as a conversation grows, and cold start, and writes bench/results.md and
bench/latency_vs_turns.png. Run: `make bench` (about 6 minutes) or `make bench ARGS=--quick`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import httpx

from bench import conversations, report
from bench.measure import (
    Target,
    burst,
    heaviest_imports,
    import_seconds,
    interleaved,
    sample,
    timed,
)
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

HERE = Path(__file__).resolve().parent
OVERHEAD_TURN = 3  # two exchanges of history: every call of every pipeline happens


@dataclass(frozen=True)
class Sizes:
    overhead_rounds: int
    turns: list[int]
    turn_reps: int
    concurrency: int
    bursts: int
    cold_reps: int


FULL = Sizes(
    overhead_rounds=200, turns=list(range(1, 51)), turn_reps=3, concurrency=100, bursts=3, cold_reps=5
)
QUICK = Sizes(
    overhead_rounds=40,
    turns=[1, 2, 3, 4, 6, 10, 20, 35, 50],
    turn_reps=1,
    concurrency=100,
    bursts=1,
    cold_reps=3,
)


def page_chat_body(client: httpx.Client, ours: str, turn: int) -> dict:
    """What the page sends `/api/chat` at `turn`: the standalone question, with the searched text
    and filters `/api/chat/reformulate` read (asked once here; the fake answers alike each time)."""
    body = conversations.app_body(turn)
    got = client.post(f"{ours}/api/chat/reformulate", json=body)
    got.raise_for_status()
    rewrite = got.json()
    return body | {"userMessage": rewrite["question"]} | {k: rewrite[k] for k in ("searched", "filters")}


def overhead_targets(client: httpx.Client, ours: str, theirs: str) -> list[Target]:
    turn = OVERHEAD_TURN
    sse = {"accept": "text/event-stream"}
    return [
        Target("reformulate, first turn", f"{ours}/api/chat/reformulate", conversations.app_body(1)),
        Target("reformulate", f"{ours}/api/chat/reformulate", conversations.app_body(turn)),
        Target("chat, app body", f"{ours}/api/chat", page_chat_body(client, ours, turn)),
        Target("chat, protocol", f"{ours}/api/chat", conversations.protocol_body(turn)),
        Target(
            "chat, protocol stream (JSON lines)",
            f"{ours}/api/chat",
            conversations.protocol_body(turn, stream=True),
            stream=True,
        ),
        Target(
            "chat, protocol stream (SSE)",
            f"{ours}/api/chat",
            conversations.protocol_body(turn, stream=True),
            stream=True,
            headers=sse,
        ),
        Target("LangChain chain", f"{theirs}/chat", conversations.protocol_body(turn)),
    ]


def measure_overhead(client: httpx.Client, fake: str, ours: str, theirs: str, sizes: Sizes) -> dict:
    configure_fake(client, fake, call_ms=0, token_ms=0, prompt_token_ms=0, tokens=20)
    targets = overhead_targets(client, ours, theirs)
    interleaved(client, fake, targets, 3)  # warm every path first
    samples = interleaved(client, fake, targets, sizes.overhead_rounds)
    rows = {}
    for name, taken in samples.items():
        rows[name] = {
            "n": len(taken),
            "calls": median([s.calls for s in taken]),
            "latency": [s.latency_s for s in taken],
            "upstream": [s.upstream_s for s in taken],
            "overhead": [s.latency_s - s.upstream_s for s in taken],
        }
        if taken[0].first_line_s is not None:
            rows[name]["ttfb"] = [s.ttfb_s - s.upstream_first_line_s for s in taken]  # type: ignore[operator]
            rows[name]["first_line"] = [s.first_line_s - s.upstream_first_line_s for s in taken]  # type: ignore[operator]
    return rows


def measure_turns(client: httpx.Client, fake: str, ours: str, theirs: str, sizes: Sizes) -> list[dict]:
    # A model whose time grows with the prompt (about 200k prompt tokens/s of prefill) and
    # writes 20 tokens at 2 ms each, so that prompt growth shows in the latency.
    configure_fake(client, fake, call_ms=10, token_ms=2, prompt_token_ms=0.005, tokens=20)
    rows = []
    for turn in sizes.turns:
        targets = [
            Target("ours: protocol", f"{ours}/api/chat", conversations.protocol_body(turn)),
            Target("ours: page (reformulate)", f"{ours}/api/chat/reformulate", conversations.app_body(turn)),
            Target("ours: page (chat)", f"{ours}/api/chat", page_chat_body(client, ours, turn)),
            Target("LangChain", f"{theirs}/chat", conversations.protocol_body(turn)),
        ]
        samples = interleaved(client, fake, targets, sizes.turn_reps)
        row: dict = {"turn": turn}
        for name, taken in samples.items():
            row[name] = {
                "calls": taken[0].calls,
                "prompt_tokens": taken[0].prompt_tokens,
                "schema_tokens": taken[0].schema_tokens,
                "latency": median([s.latency_s for s in taken]),
                "overhead": median([s.latency_s - s.upstream_s for s in taken]),
            }
        rows.append(row)
    return rows


def measure_concurrency(client: httpx.Client, fake: str, ours: str, theirs: str, sizes: Sizes) -> dict:
    configure_fake(client, fake, call_ms=200, token_ms=0, prompt_token_ms=0, tokens=20)
    targets = [
        Target("chat, app body", f"{ours}/api/chat", page_chat_body(client, ours, OVERHEAD_TURN)),
        Target("chat, protocol", f"{ours}/api/chat", conversations.protocol_body(OVERHEAD_TURN)),
        Target("LangChain chain", f"{theirs}/chat", conversations.protocol_body(OVERHEAD_TURN)),
    ]
    results = {}
    for target in targets:
        alone = [sample(client, fake, target) for _ in range(5)]
        walls, latencies = [], []
        for _ in range(sizes.bursts):
            wall, each = asyncio.run(burst(target, sizes.concurrency))
            walls.append(wall)
            latencies.extend(each)
        client.get(f"{fake}/_bench/records", params={"clear": 1})
        single = median([s.latency_s for s in alone])
        results[target.name] = {
            "calls": alone[0].calls,
            "alone": single,
            "wall": median(walls),
            "ratio": median(walls) / single,
            "each_median": median(latencies),
            "each_p95": p95(latencies),
        }
    return results


def measure_cold_start(env: dict[str, str], logs: Path, sizes: Sizes) -> dict:
    import os

    full_env = os.environ | env
    imports = [import_seconds(full_env, "import function_app") for _ in range(sizes.cold_reps)]
    langchain = [
        import_seconds(
            full_env,
            "import langchain_classic.chains, langchain_classic.chains.combine_documents, langchain_openai",
        )
        for _ in range(sizes.cold_reps)
    ]
    starts = []
    for _ in range(max(1, sizes.cold_reps // 2)):
        port = free_port()
        begun = time.perf_counter()
        process = start(["local_host.py", "--port", str(port), "--no-warm-up"], env, logs / "cold_host.log")
        try:
            wait_listening(port, process)
            listening = time.perf_counter() - begun
            with httpx.Client(timeout=120) as client:
                first, response = timed(
                    lambda port=port, client=client: client.post(
                        f"http://127.0.0.1:{port}/api/chat", json=conversations.protocol_body(1)
                    )
                )
                response.raise_for_status()
                second, _ = timed(
                    lambda port=port, client=client: client.post(
                        f"http://127.0.0.1:{port}/api/chat", json=conversations.protocol_body(1)
                    )
                )
            rss, peak = memory_mb(process.pid)
            starts.append(
                {"listening": listening, "first": first, "second": second, "rss": rss, "peak": peak}
            )
        finally:
            stop(process)
    return {
        "import": imports,
        "langchain_import": langchain,
        "heaviest": heaviest_imports(full_env, "function_app"),
        "starts": starts,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes: a run of 1 to 2 minutes")
    parser.add_argument("--response-format", default="json_schema", choices=["json_schema", "json_object"])
    parser.add_argument("--out", type=Path, default=HERE, help="where results.md and the plot go")
    args = parser.parse_args()
    sizes = QUICK if args.quick else FULL
    begun = time.perf_counter()
    work = Path(tempfile.mkdtemp(prefix="recipe-bench-"))
    fake_port, app_port, lc_port = free_port(), free_port(), free_port()
    fake, ours, theirs = (f"http://127.0.0.1:{p}" for p in (fake_port, app_port, lc_port))
    env = app_env(fake, work / "recipes.sqlite3", args.response_format)
    processes = []
    results: dict = {"machine": machine(), "sizes": asdict(sizes), "response_format": args.response_format}
    try:
        fake_process = start(["bench/fake_openai.py", "--port", str(fake_port)], {}, work / "fake.log")
        processes.append(fake_process)
        host = start(["local_host.py", "--port", str(app_port), "--no-warm-up"], env, work / "host.log")
        processes.append(host)
        wait_listening(fake_port, fake_process)
        wait_listening(app_port, host)
        with httpx.Client(timeout=120) as client:
            # The first request fills the empty embedded store with the catalog.
            indexing, response = timed(
                lambda: client.post(f"{ours}/api/chat", json=conversations.protocol_body(1))
            )
            response.raise_for_status()
            results["first_run_indexing_s"] = indexing
            print(f"catalog indexed on the first request in {indexing:.1f} s", flush=True)
            langchain = start(["bench/langchain_app.py", "--port", str(lc_port)], env, work / "langchain.log")
            processes.append(langchain)
            wait_listening(lc_port, langchain)
            print("overhead…", flush=True)
            results["overhead"] = measure_overhead(client, fake, ours, theirs, sizes)
            print("conversation length…", flush=True)
            results["turns"] = measure_turns(client, fake, ours, theirs, sizes)
            print("concurrency…", flush=True)
            results["concurrency"] = measure_concurrency(client, fake, ours, theirs, sizes)
            results["memory"] = {"ours": memory_mb(host.pid), "langchain": memory_mb(langchain.pid)}
            # Cold start is timed against a model that answers at once.
            configure_fake(client, fake, call_ms=0, token_ms=0, prompt_token_ms=0, tokens=20)
        print("cold start…", flush=True)
        results["cold"] = measure_cold_start(env, work, sizes)
    finally:
        for process in reversed(processes):
            stop(process)
    results["runtime_s"] = time.perf_counter() - begun
    args.out.mkdir(parents=True, exist_ok=True)
    plotted = report.plot(results["turns"], args.out / "latency_vs_turns.png")
    markdown = report.markdown(results, plotted)
    (args.out / "results.md").write_text(markdown, encoding="utf-8")
    (work / "results.json").write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
    print(markdown)
    print(f"raw figures and the servers' logs: {work}")


if __name__ == "__main__":
    main()
