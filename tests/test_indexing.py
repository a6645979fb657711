"""The indexing pipeline: per-recipe results, partial failures, idempotency, retries, deletion.

It runs on the real embedded store and index and the real embedder; faults are injected by
thin wrappers around them, so every step that does not fail is the real one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

import pytest

from app.indexing.pipeline import Indexer, IndexingOptions, InvalidItem, Item, read_items
from app.providers.errors import IndexIncompatibleError, UpstreamError
from app.providers.protocols import IndexDocument, IndexInfo
from app.providers.sqlite_catalog import SqliteDatabase, SqliteRecipeStore
from app.providers.sqlite_index import SqliteSearchIndex
from app.recipes import Recipe
from app.search.filters import NO_FILTERS
from app.search.recipe_facts import document_hash
from app.search.retrieval import Retriever


def raw(recipe_id: str, title: str = "", **fields) -> dict:
    return {
        "id": recipe_id,
        "title": title or recipe_id.title(),
        "ingredients": ["rice"],
        "steps": ["Cook."],
    } | fields


def recipe(recipe_id: str) -> Recipe:
    return Recipe.model_validate(raw(recipe_id))


class FlakyEmbedder:
    """The real embedder, failing as told: for texts holding a word, or for the next N calls."""

    def __init__(
        self, real, *, fail_on: str | None = None, busy_for: int = 0, retry_after: float | None = None
    ):
        self.real, self.model, self.dimensions = real, real.model, real.dimensions
        self.fail_on, self.busy_for, self.retry_after = fail_on, busy_for, retry_after
        self.calls = 0
        self.in_flight = self.most_in_flight = 0

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(0)  # let other batches start: concurrency shows up here
            if self.busy_for > 0:
                self.busy_for -= 1
                raise UpstreamError(
                    "The embedding service is busy.", retryable=True, retry_after=self.retry_after
                )
            if self.fail_on and any(self.fail_on in t for t in texts):
                raise UpstreamError("The embedding service failed. Please try again.")
            return await self.real.embed(texts)
        finally:
            self.in_flight -= 1


class BrokenIndex(SqliteSearchIndex):
    """The real index, except that writing documents fails."""

    async def upsert(self, documents: Sequence[IndexDocument]) -> dict[str, str]:
        raise UpstreamError("The search service failed. Please try again.")


class Sleeps(list):
    async def __call__(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def database(tmp_path: Path) -> SqliteDatabase:
    return SqliteDatabase(tmp_path / "t.sqlite3")


@pytest.fixture
def store(database) -> SqliteRecipeStore:
    return SqliteRecipeStore(database)


@pytest.fixture
def index(database) -> SqliteSearchIndex:
    return SqliteSearchIndex(database)


def items(*recipes: object) -> list[Item]:
    return [(f"item {n}", r) for n, r in enumerate(recipes, start=1)]


async def test_valid_recipes_are_indexed_and_bad_ones_reported_one_by_one(embedder, store, index):
    report = await Indexer(embedder, store, index).run(
        items(
            raw("soup"),
            {"id": "no-title", "ingredients": ["x"], "steps": ["y"]},
            "not an object",
            raw("stew"),
        )
    )

    assert (report.indexed, report.failed) == (2, 2)
    assert report.indexing_result["soup"].status == "indexed"
    assert report.indexing_result["no-title"].errors[0].model_dump() == {
        "message": "title: is required.",
        "type": "validation_error",
    }
    assert report.indexing_result["item 3"].errors[0].type == "validation_error"
    assert store.count() == index.count() == 2
    assert await index.index_info() == IndexInfo(embedder.model, embedder.dimensions)


async def test_a_failed_embedding_batch_fails_only_its_recipes_and_writes_none_of_them(
    embedder, store, index
):
    flaky = FlakyEmbedder(embedder, fail_on="Poison")
    catalog = [raw(f"good-{n}") for n in range(4)] + [raw("bad", "Poison pie")]

    report = await Indexer(flaky, store, index).run(items(*catalog), IndexingOptions(batch_size=2))

    # Batches: good-0 good-1 | good-2 good-3 | bad
    assert report.indexed == 4
    assert report.indexing_result["bad"].errors[0].type == "embedding_error"
    assert await store.get_many(["bad"]) == []
    assert await index.content_hashes(["bad"]) == {}


async def test_an_index_write_failing_after_the_store_write_is_reported_and_repaired_next_run(
    embedder, database, store
):
    broken = BrokenIndex(database)

    first = await Indexer(embedder, store, broken).run(items(raw("soup")))

    [problem] = first.indexing_result["soup"].errors
    assert problem.type == "index_error"
    assert "saved in the store but not in the search index" in problem.message
    assert store.count() == 1 and broken.count() == 0

    again = await Indexer(embedder, store, SqliteSearchIndex(database)).run(items(raw("soup")))

    assert again.indexing_result["soup"].status == "indexed"  # not skipped as unchanged
    assert SqliteSearchIndex(database).count() == 1


async def test_unchanged_recipes_are_skipped_unless_forced(embedder, store, index):
    catalog = items(raw("soup"), raw("stew"))
    await Indexer(embedder, store, index).run(catalog)
    counting = FlakyEmbedder(embedder)

    again = await Indexer(counting, store, index).run(catalog)
    edited = await Indexer(counting, store, index).run(items(raw("soup", "Better soup"), raw("stew")))
    forced = await Indexer(counting, store, index).run(catalog, IndexingOptions(force_indexing=True))

    assert (again.unchanged, again.indexed) == (2, 0)
    assert (edited.unchanged, edited.indexed) == (1, 1)
    assert (forced.unchanged, forced.indexed) == (0, 2)


async def test_allow_indexing_false_only_checks(embedder, store, index):
    await Indexer(embedder, store, index).run(items(raw("soup")))
    counting = FlakyEmbedder(embedder)

    report = await Indexer(counting, store, index).run(
        items(raw("soup"), raw("stew"), {"id": "x"}), IndexingOptions(allow_indexing=False)
    )

    assert {k: r.status for k, r in report.indexing_result.items()} == {
        "soup": "unchanged",
        "stew": "valid",
        "x": "failed",
    }
    assert counting.calls == 0
    assert store.count() == 1


async def test_throttling_is_retried_after_the_time_the_service_asks(embedder, store, index):
    busy = FlakyEmbedder(embedder, busy_for=2, retry_after=7.0)
    sleeps = Sleeps()

    report = await Indexer(busy, store, index, sleep=sleeps).run(items(raw("soup")))

    assert report.indexed == 1
    assert sleeps == [7.0, 7.0]


async def test_without_retry_after_the_backoff_doubles_and_then_gives_up(embedder, store, index):
    busy = FlakyEmbedder(embedder, busy_for=99)
    sleeps = Sleeps()
    indexer = Indexer(busy, store, index, sleep=sleeps)

    with pytest.raises(UpstreamError):
        await indexer.run(items(raw("soup")), IndexingOptions(attempts=4))

    assert sleeps == [1.0, 2.0, 4.0]


async def test_embedding_calls_are_batched_and_concurrency_bounded(embedder, store, index):
    counting = FlakyEmbedder(embedder)

    report = await Indexer(counting, store, index).run(
        items(*(raw(f"dish-{n}") for n in range(50))), IndexingOptions(batch_size=5, concurrency=3)
    )

    assert report.indexed == 50
    assert counting.calls == 1 + 10  # the dimensions probe, then 50 recipes in batches of 5
    assert counting.most_in_flight == 3


async def test_progress_counts_every_recipe_once(embedder, store, index):
    seen: list[int] = []
    await Indexer(embedder, store, index).run(items(raw("a"), raw("b")))

    await Indexer(embedder, store, index, progress=seen.append).run(items(raw("a"), raw("b"), raw("c")))

    assert sum(seen) == 3


async def test_a_deleted_recipe_leaves_both_the_store_and_the_index(embedder, store, index):
    await Indexer(embedder, store, index).run(items(raw("soup", "Mushroom soup"), raw("stew")))
    retriever = Retriever(embedder, index, store)

    report = await Indexer(embedder, store, index).delete(["soup"])

    assert report.indexing_result["soup"].status == "deleted"
    assert await store.get_many(["soup"]) == []
    assert await index.content_hashes(["soup"]) == {}
    assert [f.recipe.id for f in await retriever.retrieve("mushroom soup", 5)] == ["stew"]


async def test_an_index_built_by_another_model_is_refused_then_rebuilt_when_forced(embedder, store, index):
    await index.prepare(IndexInfo("another-model", 384))
    await index.upsert([IndexDocument(recipe("old"), "h", [1.0] * 384)])

    with pytest.raises(IndexIncompatibleError) as refused:
        await Indexer(embedder, store, index).run(items(raw("soup")))
    report = await Indexer(embedder, store, index).run(
        items(raw("soup")), IndexingOptions(force_indexing=True)
    )

    assert refused.value.code == "index_incompatible"
    assert refused.value.status == 409
    assert report.indexed == 1
    assert await index.index_info() == IndexInfo(embedder.model, embedder.dimensions)
    assert await index.content_hashes(["old", "soup"]) == {"soup": document_hash(recipe("soup"))}


async def test_searching_an_index_built_by_another_model_is_a_clear_error(embedder, store, index):
    await index.prepare(IndexInfo("another-model", 384))

    with pytest.raises(IndexIncompatibleError, match="built with another-model"):
        await Retriever(embedder, index, store).retrieve("soup", 3, filters=NO_FILTERS)


def test_json_lines_that_are_not_json_are_reported_not_dropped():
    found, options = read_items('{"id": "a"}\n\nnot json\n', json_lines=True)

    assert found[0] == ("line 1", {"id": "a"})
    assert found[1][0] == "line 3" and isinstance(found[1][1], InvalidItem)
    assert options == {}


def test_a_json_body_may_carry_the_options_beside_the_recipes():
    found, options = read_items('{"recipes": [{"id": "a"}], "force_indexing": true}', json_lines=False)

    assert found == [("item 1", {"id": "a"})]
    assert options == {"force_indexing": True}


async def test_a_repeated_id_is_reported_and_the_first_one_kept(embedder, store, index):
    report = await Indexer(embedder, store, index).run(items(raw("soup", "First"), raw("soup", "Second")))

    assert report.indexing_result["soup"].status == "indexed"
    assert report.indexing_result["soup (item 2)"].errors[0].type == "duplicate_id"
    assert [r.title for r in await store.get_many(["soup"])] == ["First"]


class SettlingIndex(SqliteSearchIndex):
    """The real index, which notes what it finds just before it is settled."""

    def __init__(self, database: SqliteDatabase) -> None:
        super().__init__(database)
        self.settled = 0
        self.before: dict[str, list[tuple[str, float]]] = {}

    async def settle(self) -> None:
        self.settled += 1
        self.before = {text: self.keyword_ranking(text) for text in QUERIES}
        await super().settle()


QUERIES = ("dish rice", "tag3 dish 42", "Dish 7", "beans")


async def test_a_bulk_load_settles_the_keyword_index_which_then_finds_the_same(embedder, store, database):
    from app.indexing.pipeline import SETTLE_AFTER

    index = SettlingIndex(database)
    recipes = [raw(f"dish-{n}", f"Dish {n} with rice", tags=[f"tag{n % 7}"]) for n in range(SETTLE_AFTER)]
    await Indexer(embedder, store, index).run(items(*recipes), IndexingOptions(batch_size=8))
    assert index.settled == 1
    # Merged, the index holds the same matches, in the same order, scored the same.
    assert {text: index.keyword_ranking(text) for text in QUERIES} == index.before
    assert index.keyword_ranking("dish rice")
    # An edit of a few recipes leaves the merging to the index.
    await Indexer(embedder, store, index).run(items(raw("dish-1", "Dish one, with beans")))
    assert index.settled == 1
    assert [i for i, _ in index.keyword_ranking("beans")] == ["dish-1"]
