"""The embedded store and index: one SQLite file with FTS5, vectors, filters and RRF fusion."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest
from pydantic import ValidationError

from app.indexing.pipeline import Indexer
from app.providers.protocols import IndexDocument, IndexInfo
from app.providers.sqlite_catalog import SqliteDatabase, SqliteRecipeStore
from app.providers.sqlite_index import SqliteSearchIndex, keyword_query
from app.recipes import Recipe, read_catalog
from app.search.filters import RecipeFilters
from app.search.ranking import reciprocal_rank_fusion
from app.search.retrieval import Retriever
from app.services import load_sample_catalog
from app.settings import Settings


def recipe(recipe_id: str, title: str, *ingredients: str, **fields) -> Recipe:
    return Recipe(
        id=recipe_id, title=title, ingredients=list(ingredients) or ["salt"], steps=["Cook."], **fields
    )


@pytest.fixture
def local(tmp_path: Path) -> tuple[SqliteRecipeStore, SqliteSearchIndex]:
    database = SqliteDatabase(tmp_path / "t.sqlite3")
    return SqliteRecipeStore(database), SqliteSearchIndex(database)


def embedded(retriever: Retriever) -> tuple[SqliteRecipeStore, SqliteSearchIndex]:
    """The embedded store and index behind a retriever, for what only they can tell (counts,
    each ranking alone)."""
    assert isinstance(retriever.store, SqliteRecipeStore)
    assert isinstance(retriever.index, SqliteSearchIndex)
    return retriever.store, retriever.index


async def put(index: SqliteSearchIndex, embedder, *recipes: Recipe) -> None:
    vectors = await embedder.embed([r.search_text() for r in recipes])
    await index.upsert([IndexDocument(r, r.content_hash(), v) for r, v in zip(recipes, vectors, strict=True)])


def test_rrf_scores_each_id_by_the_sum_of_one_over_k_plus_rank():
    fused = reciprocal_rank_fusion([["a", "b", "c"], ["c", "a"]], k=60)

    assert [item for item, _ in fused] == ["a", "c", "b"]
    assert fused[0][1] == pytest.approx(1 / 61 + 1 / 62)
    assert fused[1][1] == pytest.approx(1 / 63 + 1 / 61)
    assert fused[2][1] == pytest.approx(1 / 62)


def test_weighted_rrf_multiplies_each_rankings_share_by_its_weight():
    fused = reciprocal_rank_fusion([["a", "b"], ["b", "a"]], k=60, weights=(1.0, 1.5))

    assert fused == [("b", pytest.approx(1 / 62 + 1.5 / 61)), ("a", pytest.approx(1 / 61 + 1.5 / 62))]


def test_rrf_breaks_ties_by_first_appearance():
    assert [i for i, _ in reciprocal_rank_fusion([["x", "y"], ["y", "x"]])] == ["x", "y"]


def test_the_keyword_query_keeps_meaningful_words_quoted_and_ored():
    assert keyword_query("I want to make something with Oysters and leeks!") == '"oysters" OR "leeks"'


def test_a_keyword_query_of_only_filler_or_fts_syntax_is_safe():
    assert keyword_query("what do you have?") is None
    assert keyword_query('NEAR("a" OR) * -beef') == '"near" OR "beef"'


async def test_the_first_run_loads_the_whole_shipped_catalog(retriever: Retriever, settings: Settings):
    shipped = list(read_catalog(settings.local_catalog_path))

    store, index = embedded(retriever)
    assert store.count() == index.count() == len(shipped)
    assert await retriever.index.index_info() == IndexInfo("wordllama-l2_supercat-256", 256)


async def test_a_second_start_does_not_load_again(retriever: Retriever, settings: Settings, embedder):
    class CountingEmbedder:
        model, dimensions, calls = embedder.model, embedder.dimensions, 0

        async def embed(self, texts):
            CountingEmbedder.calls += 1
            return await embedder.embed(texts)

    await load_sample_catalog(settings, Retriever(CountingEmbedder(), retriever.index, retriever.store))

    assert CountingEmbedder.calls == 0


async def test_hybrid_search_finds_mushroom_dishes(retriever: Retriever):
    found = await retriever.retrieve("What vegetarian recipes with mushrooms are available?", 3)

    assert len(found) == 3
    assert all("mushroom" in f.recipe.id for f in found[:2])
    assert found[0].score >= found[1].score >= found[2].score


async def test_hybrid_fuses_exactly_the_keyword_and_vector_rankings(retriever: Retriever, embedder):
    question = "oysters"
    [vector] = await embedder.embed([question])
    _, index = embedded(retriever)
    rankings = [index.keyword_ranking(question), index.vector_ranking(vector)]
    # The app's index weighs its vector ranking by HYBRID_VECTOR_WEIGHT.
    assert index.vector_weight == Settings().hybrid_vector_weight
    expected = reciprocal_rank_fusion(
        [[i for i, _ in ranking] for ranking in rankings], weights=(1.0, index.vector_weight)
    )

    hits = await index.search(question, vector, top=5)

    assert [(h.id, h.score) for h in hits] == expected[:5]


async def test_the_embedded_index_weighs_its_vector_ranking_as_set(retriever: Retriever, embedder):
    question = "something warm with oysters"
    [vector] = await embedder.embed([question])
    _, index = embedded(retriever)
    keywords, vectors = index.keyword_ranking(question), index.vector_ranking(vector)
    weighted = SqliteSearchIndex(index._database, vector_weight=3.0)
    expected = reciprocal_rank_fusion([[i for i, _ in keywords], [i for i, _ in vectors]], weights=(1.0, 3.0))

    hits = await weighted.search(question, vector, top=5)

    assert [(h.id, h.score) for h in hits] == expected[:5]


async def test_each_retrieval_mode_searches_its_own_way(retriever: Retriever, embedder):
    question = "something warm with oysters"
    [vector] = await embedder.embed([question])

    text = await retriever.retrieve(question, 3, mode="text")
    vectors = await retriever.retrieve(question, 3, mode="vectors")

    _, index = embedded(retriever)
    assert [(f.recipe.id, f.score) for f in text] == index.keyword_ranking(question, limit=3)
    nearest = index.vector_ranking(vector, limit=3)
    assert [f.recipe.id for f in vectors] == [i for i, _ in nearest]
    assert [f.score for f in vectors] == pytest.approx([score for _, score in nearest])
    assert all("oyster" in " ".join(f.recipe.ingredients).lower() for f in text)


@pytest.mark.parametrize("mode", ["hybrid", "vectors", "text"])
async def test_filters_apply_inside_the_search_not_after_the_cut(retriever: Retriever, mode):
    wanted = RecipeFilters(vegetarian=True)
    unfiltered = await retriever.retrieve("chicken soup", 5, mode=mode)
    assert not all(wanted.admits(f.recipe) for f in unfiltered)

    found = await retriever.retrieve("chicken soup", 5, mode=mode, filters=wanted)

    # Filtering after the cut would have left fewer than 5.
    assert len(found) == 5
    assert all(f.recipe.vegetarian for f in found)


@pytest.mark.parametrize("mode", ["hybrid", "vectors", "text"])
async def test_beef_but_not_stew_never_returns_a_stew(retriever: Retriever, mode):
    unfiltered = await retriever.retrieve("beef stew", 10, mode=mode)
    assert any("stew" in f.recipe.title.lower() for f in unfiltered)

    found = await retriever.retrieve("beef", 10, mode=mode, filters=RecipeFilters(exclude=("stew",)))

    assert len(found) == 10
    assert not any("stew" in (f.recipe.title + " ".join(f.recipe.ingredients)).lower() for f in found)


async def test_a_time_limit_never_admits_a_recipe_whose_time_is_unknown(local, embedder):
    _, index = local
    await put(index, embedder, recipe("quick", "Quick soup", total_minutes=10), recipe("unknown", "Soup"))

    for text, vector in [("soup", None), (None, (await embedder.embed(["soup"]))[0])]:
        hits = await index.search(text, vector, 5, RecipeFilters(max_total_minutes=60))

        assert [h.id for h in hits] == ["quick"]


async def test_recipes_come_back_in_the_order_asked_and_unknown_ids_are_left_out(retriever: Retriever):
    recipes = await retriever.store.get_many(["mushroom-risotto", "no-such-recipe", "apple-pie"])

    assert [r.id for r in recipes] == ["mushroom-risotto", "apple-pie"]
    assert recipes[0].title == "Mushroom risotto"


async def test_a_recipe_read_again_is_parsed_once_and_read_anew_once_rewritten(local):
    store, _ = local
    await store.upsert([(recipe("stew", "Beef stew", "beef"), "h1")])
    [first] = await store.get_many(["stew"])
    [again] = await store.get_many(["stew"])

    assert again is first  # shared between requests, so it cannot be changed
    with pytest.raises(ValidationError):
        first.title = "Changed"

    await store.upsert([(recipe("stew", "Lentil stew", "lentils"), "h2")])
    [rewritten] = await store.get_many(["stew"])
    assert (rewritten.title, first.title) == ("Lentil stew", "Beef stew")


async def test_an_upsert_replaces_the_recipe_in_the_index(local, embedder):
    _, index = local
    await put(index, embedder, recipe("stew", "Beef stew", "beef"))
    await put(index, embedder, recipe("stew", "Lentil stew", "lentils"))

    assert index.count() == 1
    assert index.keyword_ranking("beef") == []
    assert [i for i, _ in index.keyword_ranking("lentils")] == ["stew"]


async def test_a_search_sees_what_another_process_indexed(tmp_path: Path, embedder):
    # The index command runs beside the app: the app's cached vectors must not go stale.
    app_index = SqliteSearchIndex(SqliteDatabase(tmp_path / "t.sqlite3"))
    assert await app_index.search(None, [1.0] * 256, 5) == []

    await put(SqliteSearchIndex(SqliteDatabase(tmp_path / "t.sqlite3")), embedder, recipe("new", "New soup"))

    assert [h.id for h in await app_index.search(None, (await embedder.embed(["soup"]))[0], 5)] == ["new"]


async def test_a_failed_write_changes_nothing(local):
    _, index = local
    # A vector that is not numbers, as a buggy embedder might give: it fails after the first insert.
    broken = IndexDocument(recipe("bad", "Bad"), "h", cast(list[float], ["not a number"]))

    with pytest.raises(ValueError):
        await index.upsert([IndexDocument(recipe("ok", "Fine"), "h", [1.0, 0.0]), broken])

    assert index.count() == 0
    assert index.keyword_ranking("fine") == []


def test_the_first_layout_which_held_only_the_shipped_catalog_is_recreated(tmp_path: Path):
    import sqlite3

    path = tmp_path / "old.sqlite3"
    sqlite3.connect(path).executescript(
        "CREATE TABLE recipes (id TEXT, doc TEXT, content_hash TEXT, embedding BLOB)"
    )

    store = SqliteRecipeStore(SqliteDatabase(path))

    assert store.count() == 0


async def test_an_older_index_layout_is_rebuilt_from_the_store_losing_no_recipe(
    tmp_path: Path, embedder, settings
):
    import sqlite3

    path = tmp_path / "v2.sqlite3"
    mine = recipe("my-own-soup", "My own soup", "nettles")
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE recipes (id TEXT PRIMARY KEY, doc TEXT NOT NULL, content_hash TEXT NOT NULL);"
        "CREATE TABLE search_docs (id TEXT PRIMARY KEY, old_layout BLOB); PRAGMA user_version = 2;"
    )
    old.execute("INSERT INTO recipes VALUES (?, ?, ?)", (mine.id, mine.model_dump_json(), "h"))
    old.commit()
    old.close()

    database = SqliteDatabase(path)
    store, index = SqliteRecipeStore(database), SqliteSearchIndex(database)
    retriever = Retriever(embedder, index, store)
    await load_sample_catalog(settings.model_copy(update={"local_db_path": path}), retriever)

    assert store.count() == index.count() == 1
    assert [f.recipe.id for f in await retriever.retrieve("nettles", 3, mode="text")] == ["my-own-soup"]


async def test_a_change_of_embedding_model_rebuilds_the_index_from_the_store_losing_nothing(
    tmp_path: Path, embedder, settings
):
    class ReversedEmbedder:
        """Another model: other vectors, another name (as LOCAL_EMBEDDER=minilm after wordllama)."""

        model, dimensions = "reversed-wordllama", embedder.dimensions

        async def embed(self, texts):
            return [vector[::-1] for vector in await embedder.embed(texts)]

    path = tmp_path / "switch.sqlite3"
    scratch = settings.model_copy(update={"local_db_path": path})
    database = SqliteDatabase(path)
    first = Retriever(embedder, SqliteSearchIndex(database), SqliteRecipeStore(database))
    await load_sample_catalog(scratch, first)
    # A recipe loaded after the shipped catalog, which only the store holds besides the index.
    await Indexer(embedder, first.store, first.index).run(
        [("mine", recipe("my-own-soup", "My soup", "nettles").model_dump())]
    )
    shipped = embedded(first)[0].count()

    switched = Retriever(ReversedEmbedder(), first.index, first.store)
    await load_sample_catalog(scratch, switched)
    store, index = embedded(switched)

    assert await index.index_info() == IndexInfo("reversed-wordllama", embedder.dimensions)
    assert store.count() == index.count() == shipped
    [vector] = await ReversedEmbedder().embed(["nettles My soup"])
    assert index.vector_ranking(vector)[0][0] == "my-own-soup"
    found = await switched.retrieve("nettles", 3, mode="hybrid")
    assert found[0].recipe.id == "my-own-soup"


async def test_filters_apply_before_the_cut_even_past_the_keyword_shortlist(local):
    _, index = local
    await index.prepare(IndexInfo("test", 2))
    # 520 soups; the two vegetarian ones say "soup" least, so they rank below the first 500.
    soups = [recipe(f"soup-{n}", "Soup soup soup", "beef") for n in range(518)]
    soups += [
        recipe(f"green-{n}", "Green broth", "leeks", description="a soup", vegetarian=True) for n in (1, 2)
    ]
    await index.upsert([IndexDocument(r, "h", [1.0, 0.0]) for r in soups])

    found = index.keyword_ranking("soup", RecipeFilters(vegetarian=True), limit=3)

    assert sorted(i for i, _ in found) == ["green-1", "green-2"]
    assert all(i.startswith("soup-") for i, _ in index.keyword_ranking("soup", limit=3))
