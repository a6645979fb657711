"""Indexing throughput and retrieval latency of the embedded store, at 1,000 and 10,000 recipes.

Run: .venv/bin/python -m bench.local_index
Catalogs of that size are made from the shipped recipes: each copy gets a new id and a title
and ingredient list mixed from other recipes, so that no two documents are the same. Each
size is indexed into a fresh SQLite file through the real pipeline (WordLlama embeddings
included), then every query below is retrieved in each mode, many times. Goal: hybrid
retrieval under 5 ms median at 10,000 recipes.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from app.indexing.pipeline import Indexer
from app.providers.sqlite_catalog import SqliteDatabase, SqliteRecipeStore
from app.providers.sqlite_index import SqliteSearchIndex
from app.providers.wordllama_embedder import WordLlamaEmbedder
from app.recipes import Recipe, read_catalog
from app.search.filters import RecipeFilters
from app.search.retrieval import Retriever
from app.settings import Settings

SIZES = (1_000, 10_000)
ROUNDS = 20
QUERIES = [
    "What vegetarian recipes with mushrooms are available?",
    "something warm with oysters",
    "a quick pasta for tonight",
    "beef but not stew",
    "Which soup is the quickest to cook?",
    "gluten free dessert with apples",
    "chickpeas",
    "What can I make ahead for a party?",
]


def synthetic_catalog(shipped: list[Recipe], size: int) -> list[Recipe]:
    rng = random.Random(size)
    recipes = []
    for n in range(size):
        base = shipped[n % len(shipped)]
        other = rng.choice(shipped)
        recipes.append(
            base.model_copy(
                update={
                    "id": f"{base.id}-{n}",
                    "title": f"{base.title} with {other.title.lower()}",
                    "ingredients": base.ingredients
                    + rng.sample(other.ingredients, min(3, len(other.ingredients))),
                }
            )
        )
    return recipes


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


async def measure(
    size: int, shipped: list[Recipe], embedder: WordLlamaEmbedder, folder: Path
) -> dict[str, float]:
    database = SqliteDatabase(folder / f"bench-{size}.sqlite3")
    store, index = SqliteRecipeStore(database), SqliteSearchIndex(database)
    catalog = [(r.id, r.model_dump()) for r in synthetic_catalog(shipped, size)]

    started = time.perf_counter()
    report = await Indexer(embedder, store, index).run(catalog)
    indexing_seconds = time.perf_counter() - started
    assert report.indexed == size, report.failed

    retriever = Retriever(embedder, index, store)
    results: dict[str, float] = {"recipes_per_second": size / indexing_seconds}
    cases = [
        ("hybrid", None),
        ("text", None),
        ("vectors", None),
        ("hybrid", RecipeFilters(vegetarian=True, max_total_minutes=45)),
    ]
    for mode, filters in cases:
        await retriever.retrieve(QUERIES[0], 3, mode=mode)  # warm the vector table
        timings = []
        for _ in range(ROUNDS):
            for query in QUERIES:
                began = time.perf_counter()
                await retriever.retrieve(query, 3, mode=mode, filters=filters or RecipeFilters())
                timings.append((time.perf_counter() - began) * 1000)
        label = mode + (" + filters" if filters else "")
        results[f"{label} median"] = statistics.median(timings)
        results[f"{label} p95"] = percentile(timings, 0.95)
    database.close()
    return results


async def main() -> None:
    shipped = list(read_catalog(Settings().local_catalog_path))
    embedder = WordLlamaEmbedder()
    with tempfile.TemporaryDirectory() as folder:
        measured = {size: await measure(size, shipped, embedder, Path(folder)) for size in SIZES}
    small, large = measured[SIZES[0]], measured[SIZES[1]]
    print(f"| measure | {SIZES[0]:,} recipes | {SIZES[1]:,} recipes | ratio |")
    print("|---|---|---|---|")
    for key in small:
        unit = "recipes/s" if key == "recipes_per_second" else "ms"
        name = "indexing throughput" if key == "recipes_per_second" else f"retrieval, {key}"
        print(f"| {name} ({unit}) | {small[key]:.2f} | {large[key]:.2f} | {large[key] / small[key]:.2f}× |")
    goal = large["hybrid median"] < 5.0
    verdict = "met" if goal else "missed"
    print(
        f"\nHybrid median at {SIZES[1]:,} recipes: {large['hybrid median']:.2f} ms (goal < 5 ms: {verdict})."
    )


if __name__ == "__main__":
    asyncio.run(main())
