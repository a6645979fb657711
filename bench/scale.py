"""Retrieval at 10,000 and 100,000 recipes on the embedded index: time and memory.

Run: .venv/bin/python -m bench.scale [--sizes 10000 100000] [--rounds 3]
Each size runs in a fresh process of its own, so that its memory is its own. Its catalog is
made from the shipped recipes as bench/local_index.py makes it (each copy with its own id,
and a title and ingredients mixed from another recipe). Embedding 100,000 recipes with MiniLM
would take 20 minutes, so each copy's vector is its shipped recipe's, embedded by the
configured embedder, moved by a little Gaussian noise (standard deviation 0.02 per dimension, then
normalised); the keyword index gets the copy's own text. Recipes are written through the
store's and the index's own upserts, as the indexing pipeline writes them.

Then the development questions of eval/ (the first 100, `--rounds` times each) are retrieved:
- `retrieve_question`, hybrid: what /api/retrieve and /api/chat do (read the question, embed
  it, search both sides, fuse, fetch the recipes), top 3;
- the index's search alone, each mode, with the question's vector embedded beforehand.
Memory: resident set (VmRSS) once the catalog is written and the process restarted on it, after
the first search (the vector table loaded), and the peak (VmHWM).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from app.providers.protocols import IndexDocument
from app.recipes import read_catalog
from app.search.retrieval import Retriever
from app.services import embedder as configured_embedder
from app.settings import Settings
from bench.embedders import memory_kib
from bench.local_index import synthetic_catalog
from bench.stats import median, p95
from eval.retrieval_eval import DEVELOPMENT, read_cases, single_turn

BATCH = 2_000
NOISE = 0.02
QUESTIONS = 100


async def build(size: int, path: Path) -> dict[str, float]:
    """Write a catalog of `size` recipes to a new SQLite file."""
    from app.providers.sqlite_catalog import SqliteDatabase, SqliteRecipeStore
    from app.providers.sqlite_index import SqliteSearchIndex

    settings = Settings()
    shipped = list(read_catalog(settings.local_catalog_path))
    embedder = configured_embedder(settings)
    base = {
        recipe.id: np.asarray(vector, dtype=np.float32)
        for recipe, vector in zip(
            shipped, await embedder.embed([r.search_text() for r in shipped]), strict=True
        )
    }
    rng = np.random.default_rng(size)
    database = SqliteDatabase(path)
    store, index = SqliteRecipeStore(database), SqliteSearchIndex(database)
    [probe] = await embedder.embed(["dimensions probe"])
    from app.providers.protocols import IndexInfo

    await index.prepare(IndexInfo(embedder.model, len(probe)))
    started = time.perf_counter()
    catalog = synthetic_catalog(shipped, size)
    for start in range(0, size, BATCH):
        batch = catalog[start : start + BATCH]
        documents = []
        for recipe in batch:
            vector = base[recipe.id.rsplit("-", 1)[0]] + rng.normal(0, NOISE, len(probe)).astype(np.float32)
            documents.append(IndexDocument(recipe, "synthetic", (vector / np.linalg.norm(vector)).tolist()))
        await store.upsert([(recipe, "synthetic") for recipe in batch])
        await index.upsert(documents)
    seconds = time.perf_counter() - started
    database.close()
    return {"write_s": seconds, "db_mib": path.stat().st_size / 2**20}


async def measure(path: Path, rounds: int) -> dict[str, Any]:
    """In a fresh process: retrieval times and memory on the catalog at `path`."""
    from app.services import build_retriever

    before = memory_kib("VmRSS")
    settings = Settings(local_db_path=path)
    retriever: Retriever = build_retriever(settings)
    questions = [c["query"] for c in single_turn([c for p in DEVELOPMENT for c in read_cases(p)])][:QUESTIONS]
    await retriever.retrieve_question(questions[0], 3)  # loads the model, the vectors, the names
    loaded = memory_kib("VmRSS")
    results: dict[str, Any] = {"rss_loaded_mib": (loaded - before) / 1024}

    timings: list[float] = []
    for _ in range(rounds):
        for question in questions:
            began = time.perf_counter()
            await retriever.retrieve_question(question, 3)
            timings.append((time.perf_counter() - began) * 1000)
    results["retrieve_question hybrid"] = (median(timings), p95(timings))

    embedded = []
    embedding: list[float] = []
    for question in questions:
        read = await retriever.reader.read(question)
        began = time.perf_counter()
        [vector] = await retriever.embedder.embed([read.text])
        embedding.append((time.perf_counter() - began) * 1000)
        embedded.append((read, vector))
    results["embed the question"] = (median(embedding), p95(embedding))
    for mode in ("hybrid", "text", "vectors"):
        timings = []
        for _ in range(rounds):
            for read, vector in embedded:
                text = read.text if mode != "vectors" else None
                began = time.perf_counter()
                await retriever.index.search(text, vector if mode != "text" else None, 3, read.filters)
                timings.append((time.perf_counter() - began) * 1000)
        results[f"index search, {mode}"] = (median(timings), p95(timings))
    results["rss_peak_mib"] = (memory_kib("VmHWM") - before) / 1024
    return results


def run_child(size: int, rounds: int, folder: Path) -> dict[str, Any]:
    path = folder / f"scale-{size}.sqlite3"
    written = asyncio.run(build(size, path))
    done = subprocess.run(
        [sys.executable, "-m", "bench.scale", "--measure", str(path), "--rounds", str(rounds)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        sys.exit(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed")
    return written | json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.measure:
        print(json.dumps(asyncio.run(measure(arguments.measure, arguments.rounds))))
        return
    with tempfile.TemporaryDirectory() as folder:
        results = {size: run_child(size, arguments.rounds, Path(folder)) for size in arguments.sizes}
    sizes = arguments.sizes
    print(f"Embedder: {configured_embedder(Settings()).model}; {QUESTIONS} questions × {arguments.rounds}.\n")
    print("| | " + " | ".join(f"{s:,} recipes" for s in sizes) + " |")
    print("|---|" + "---:|" * len(sizes))
    first = results[sizes[0]]
    for key in first:
        if isinstance(first[key], list):
            cells = " | ".join(f"{results[s][key][0]:.2f} / {results[s][key][1]:.2f}" for s in sizes)
            print(f"| {key}, ms median / p95 | {cells} |")
    for key, label in (
        ("write_s", "writing the catalog (store and index), s"),
        ("db_mib", "SQLite file, MiB"),
        ("rss_loaded_mib", "resident memory once loaded (model, vectors, names), MiB"),
        ("rss_peak_mib", "peak resident memory, MiB"),
    ):
        print(f"| {label} | " + " | ".join(f"{results[s][key]:.0f}" for s in sizes) + " |")
    goals = {10_000: 10.0, 100_000: 50.0}
    for size in sizes:
        if size in goals:
            got = results[size]["retrieve_question hybrid"][0]
            verdict = "met" if got < goals[size] else "missed"
            goal = f"goal < {goals[size]:.0f} ms: {verdict}"
            print(f"\nHybrid retrieval at {size:,} recipes: {got:.2f} ms median ({goal}).")


if __name__ == "__main__":
    main()
