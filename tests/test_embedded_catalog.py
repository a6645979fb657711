"""The embedded store and index: one SQLite file with FTS5, vectors and RRF fusion."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from app.providers.sqlite_catalog import SqliteCatalog, keyword_query
from app.ranking import reciprocal_rank_fusion
from app.recipes import Recipe
from app.services import open_local_catalog
from app.settings import Settings


def recipe(recipe_id: str, title: str, *ingredients: str) -> Recipe:
    return Recipe(id=recipe_id, title=title, ingredients=list(ingredients) or ["salt"], steps=["Cook."])


def test_rrf_scores_each_id_by_the_sum_of_one_over_k_plus_rank():
    fused = reciprocal_rank_fusion([["a", "b", "c"], ["c", "a"]], k=60)

    assert [item for item, _ in fused] == ["a", "c", "b"]
    assert fused[0][1] == pytest.approx(1 / 61 + 1 / 62)
    assert fused[1][1] == pytest.approx(1 / 63 + 1 / 61)
    assert fused[2][1] == pytest.approx(1 / 62)


def test_rrf_breaks_ties_by_first_appearance():
    assert [i for i, _ in reciprocal_rank_fusion([["x", "y"], ["y", "x"]])] == ["x", "y"]


def test_the_keyword_query_keeps_meaningful_words_quoted_and_ored():
    assert keyword_query("I want to make something with Oysters and leeks!") == '"oysters" OR "leeks"'


def test_a_keyword_query_of_only_filler_or_fts_syntax_is_safe():
    assert keyword_query("what do you have?") is None
    assert keyword_query('NEAR("a" OR) * -beef') == '"near" OR "beef"'


def test_the_first_run_loads_the_whole_shipped_catalog(catalog: SqliteCatalog, settings: Settings):
    shipped = sum(1 for line in settings.local_catalog_path.read_text(encoding="utf-8").splitlines() if line)

    assert catalog.count() == shipped
    assert catalog.get_meta("embedding_model") == "wordllama-l2_supercat-256"
    assert catalog.get_meta("embedding_dimensions") == "256"


def test_a_second_start_does_not_load_again(catalog: SqliteCatalog, settings: Settings, embedder):
    class CountingEmbedder:
        model, dimensions, calls = embedder.model, embedder.dimensions, 0

        async def embed(self, texts):
            CountingEmbedder.calls += 1
            return await embedder.embed(texts)

    again = asyncio.run(open_local_catalog(settings, CountingEmbedder()))

    assert again.count() == catalog.count()
    assert CountingEmbedder.calls == 0


async def test_hybrid_search_finds_mushroom_dishes(catalog: SqliteCatalog, embedder):
    question = "What vegetarian recipes with mushrooms are available?"
    [vector] = await embedder.embed([question])

    hits = await catalog.hybrid_search(question, vector, top=3)

    assert len(hits) == 3
    assert all("mushroom" in hit.id for hit in hits[:2])
    assert hits[0].score >= hits[1].score >= hits[2].score


async def test_hybrid_fuses_exactly_the_keyword_and_vector_rankings(catalog: SqliteCatalog, embedder):
    question = "oysters"
    [vector] = await embedder.embed([question])
    expected = reciprocal_rank_fusion([catalog.keyword_ranking(question), catalog.vector_ranking(vector)])

    hits = await catalog.hybrid_search(question, vector, top=5)

    assert [(h.id, h.score) for h in hits] == expected[:5]


async def test_recipes_come_back_in_the_order_asked_and_unknown_ids_are_left_out(catalog):
    recipes = await catalog.get_many(["mushroom-risotto", "no-such-recipe", "apple-pie"])

    assert [r.id for r in recipes] == ["mushroom-risotto", "apple-pie"]
    assert recipes[0].title == "Mushroom risotto"


async def test_an_upsert_replaces_the_recipe_in_the_store_and_both_indexes(tmp_path: Path, embedder):
    catalog = SqliteCatalog(tmp_path / "t.sqlite3")
    first = recipe("stew", "Beef stew", "beef")
    catalog.upsert([(first, (await embedder.embed([first.search_text()]))[0])])
    second = recipe("stew", "Lentil stew", "lentils")
    catalog.upsert([(second, (await embedder.embed([second.search_text()]))[0])])

    assert catalog.count() == 1
    assert catalog.keyword_ranking("beef") == []
    assert catalog.keyword_ranking("lentils") == ["stew"]
    assert [r.title for r in await catalog.get_many(["stew"])] == ["Lentil stew"]


def test_a_failed_upsert_changes_nothing(tmp_path: Path):
    catalog = SqliteCatalog(tmp_path / "t.sqlite3")

    def rows():
        yield recipe("ok", "Fine"), [1.0, 0.0]
        raise RuntimeError("the embedding of the second recipe failed")

    with pytest.raises(RuntimeError):
        catalog.upsert(rows())

    assert catalog.count() == 0
    assert catalog.keyword_ranking("fine") == []
