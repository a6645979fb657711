"""The local embedders side by side: WordLlama (the default) against all-MiniLM-L6-v2 on onnxruntime.

Run: .venv/bin/python -m bench.embedders
Each embedder is measured in a fresh process of its own, so that load time counts its imports
and memory is not shared with the other one:
- load: import, construct and embed one word (MiniLM loads lazily, on its first call);
- query latency: one short query per call, as retrieval embeds it, after a warm-up;
- throughput: the 410 shipped recipes' search texts, in batches of 32 as the indexer sends them;
- memory: resident set (VmRSS) added by loading, and the peak (VmHWM) after indexing.
If eval/queries.jsonl exists, vector-only retrieval quality is measured on its single-turn
queries with an exhaustive cosine over the recipe vectors: hit@3 and MRR@10.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from app.recipes import read_catalog

ROOT = Path(__file__).resolve().parent.parent

EMBEDDERS = {
    "WordLlama": ("app.providers.wordllama_embedder", "WordLlamaEmbedder"),
    "MiniLM": ("app.providers.minilm_embedder", "MiniLMEmbedder"),
}
QUERIES = [
    "something warm with oysters",
    "a quick pasta for tonight",
    "beef but not stew",
    "Which soup is the quickest to cook?",
    "gluten free dessert with apples",
    "chickpeas",
    "What can I make ahead for a party?",
    "a vegetarian main I can make ahead",
]
LATENCY_CALLS = 200
BATCH = 32
EVAL_FILE = ROOT / "eval" / "queries.jsonl"


def memory_kib(field: str) -> int:
    # psutil is not a dependency; Linux reports the same figures here.
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status")


def single_turn_queries() -> list[dict[str, Any]]:
    if not EVAL_FILE.exists():
        return []
    cases = [json.loads(line) for line in EVAL_FILE.read_text(encoding="utf-8").splitlines() if line.strip()]
    # Multi-turn cases carry a conversation; only the standalone ones are searched as they are.
    return [
        c
        for c in cases
        if c.get("query") and c.get("relevant") and not c.get("conversation") and not c.get("turns")
    ]


async def measure(name: str) -> dict[str, Any]:
    """Runs in the child process: one embedder, every figure."""
    texts = [r.search_text() for r in read_catalog(ROOT / "data" / "recipes.jsonl")]
    ids = [r.id for r in read_catalog(ROOT / "data" / "recipes.jsonl")]
    baseline = memory_kib("VmRSS")

    started = time.perf_counter()
    module, cls = EMBEDDERS[name]
    embedder = getattr(__import__(module, fromlist=[cls]), cls)()
    await embedder.embed(["warm-up"])
    load_s = time.perf_counter() - started
    loaded = memory_kib("VmRSS")

    for query in QUERIES:
        await embedder.embed([query])
    latencies = []
    for n in range(LATENCY_CALLS):
        started = time.perf_counter()
        await embedder.embed([QUERIES[n % len(QUERIES)]])
        latencies.append((time.perf_counter() - started) * 1000)
    latencies.sort()

    started = time.perf_counter()
    vectors: list[list[float]] = []
    for i in range(0, len(texts), BATCH):
        vectors.extend(await embedder.embed(texts[i : i + BATCH]))
    batch_s = time.perf_counter() - started

    result = {
        "model": embedder.model,
        "dimensions": embedder.dimensions,
        "load_s": load_s,
        "query_p50_ms": statistics.median(latencies),
        "query_p95_ms": latencies[int(len(latencies) * 0.95) - 1],
        "texts_per_s": len(texts) / batch_s,
        "rss_loaded_mib": (loaded - baseline) / 1024,
        "rss_peak_mib": (memory_kib("VmHWM") - baseline) / 1024,
    }
    cases = single_turn_queries()
    if cases:
        result["quality"] = await quality(embedder, np.array(vectors), ids, cases)
    return result


async def quality(embedder: Any, recipes: np.ndarray, ids: list[str], cases: list[dict[str, Any]]) -> dict:
    queries = np.array(await embedder.embed([c["query"] for c in cases]))
    # Both embedders return unit vectors: the dot product is the cosine.
    ranked = np.argsort(-(queries @ recipes.T), axis=1)[:, :10]
    per_category: dict[str, list[tuple[float, float]]] = {}
    hits: list[str] = []
    for case, row in zip(cases, ranked, strict=True):
        top = [ids[i] for i in row]
        relevant = set(case["relevant"])
        hit3 = float(any(r in relevant for r in top[:3]))
        mrr = next((1 / (rank + 1) for rank, r in enumerate(top) if r in relevant), 0.0)
        if hit3:
            hits.append(case.get("id", case["query"]))
        for key in ("all", case.get("category", "?")):
            per_category.setdefault(key, []).append((hit3, mrr))
    return {"hits": hits} | {
        key: {
            "n": len(v),
            "hit@3": statistics.mean(h for h, _ in v),
            "mrr@10": statistics.mean(m for _, m in v),
        }
        for key, v in per_category.items()
    }


def ratio(r: float) -> str:
    return f"{r:.0f}×" if r >= 10 else f"{r:.2g}×"


def run_child(name: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--one", name], capture_output=True, text=True, check=False, cwd=ROOT
    )
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    # Other work on the machine skews every figure: the load average says how busy it was.
    load_before = os.getloadavg()[0]
    results = {name: run_child(name) for name in EMBEDDERS}
    w, m = results["WordLlama"], results["MiniLM"]
    for name, r in results.items():
        if "error" in r:
            sys.exit(f"{name}: {r['error']}")
    print(f"{os.cpu_count()} cores, load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after\n")
    print(
        f"| | WordLlama (`{w['model']}`, {w['dimensions']}-d) | MiniLM (`{m['model']}`, "
        f"{m['dimensions']}-d) | MiniLM / WordLlama |"
    )
    print("|---|---:|---:|---:|")
    rows = [
        ("load (import + first call), s", "load_s", "{:.2f}"),
        ("query latency p50, ms", "query_p50_ms", "{:.2f}"),
        ("query latency p95, ms", "query_p95_ms", "{:.2f}"),
        ("indexing throughput, recipes/s", "texts_per_s", "{:.0f}"),
        ("resident memory added by loading, MiB", "rss_loaded_mib", "{:.0f}"),
        ("peak resident memory added, MiB", "rss_peak_mib", "{:.0f}"),
    ]
    for label, key, fmt in rows:
        print(f"| {label} | {fmt.format(w[key])} | {fmt.format(m[key])} | {ratio(m[key] / w[key])} |")

    if "quality" not in w:
        print(f"\nNo {EVAL_FILE.relative_to(ROOT)} (or no single-turn queries in it): quality not measured.")
        return
    print("\nVector-only retrieval, exhaustive cosine, single-turn queries:\n")
    print("| category | n | WordLlama hit@3 | MiniLM hit@3 | WordLlama MRR@10 | MiniLM MRR@10 |")
    print("|---|---:|---:|---:|---:|---:|")
    categories = ["all", *sorted(k for k in w["quality"] if k not in ("all", "hits"))]
    for c in categories:
        wq, mq = w["quality"][c], m["quality"][c]
        print(
            f"| {c} | {wq['n']} | {wq['hit@3']:.3f} | {mq['hit@3']:.3f} | "
            f"{wq['mrr@10']:.3f} | {mq['mrr@10']:.3f} |"
        )
    # Paired: the queries only one of the two gets into the top 3 are what the difference is made of.
    only_w = sorted(set(w["quality"]["hits"]) - set(m["quality"]["hits"]))
    only_m = sorted(set(m["quality"]["hits"]) - set(w["quality"]["hits"]))
    print(f"\nIn the top 3 for WordLlama only: {len(only_w)} ({', '.join(only_w)})")
    print(f"In the top 3 for MiniLM only: {len(only_m)} ({', '.join(only_m)})")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--one":
        print(json.dumps(asyncio.run(measure(sys.argv[2]))))
    else:
        main()
