"""The embedded recipe store: one SQLite file, which the search index shares.

The store keeps each recipe as JSON; the index (app/providers/sqlite_index.py) keeps its own
tables in the same file. Store and index are separate tables written separately, like Cosmos
DB and AI Search, so that the indexing pipeline behaves the same on both.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from app.recipes import Recipe

log = logging.getLogger(__name__)

SCHEMA_VERSION = 4

# Recipes parsed from their stored JSON, kept by that text: a chat reads the same few recipes
# twice (its references, then its retrieval) and the next turns read them again; validating
# each anew took 20 us a recipe. Emptied when full.
PARSED_KEPT = 1024

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS recipes (id TEXT PRIMARY KEY, doc TEXT NOT NULL, content_hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS search_docs (
    id TEXT PRIMARY KEY,
    content_hash TEXT NOT NULL,
    embedding BLOB NOT NULL,
    vegetarian INTEGER NOT NULL,
    vegan INTEGER NOT NULL,
    gluten_free INTEGER NOT NULL,
    dairy_free INTEGER NOT NULL,
    total_minutes INTEGER
);
-- Each row's rowid is its search_docs row's: lookups and deletes by rowid are direct.
CREATE VIRTUAL TABLE IF NOT EXISTS recipes_fts USING fts5(
    title, description, ingredients, tags, facts,
    tokenize = 'porter unicode61 remove_diacritics 2'
);
"""


class SqliteDatabase:
    """The one connection that the store and the index share, and its metadata."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        # One connection, used only from the event loop's thread: every query is short.
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self._migrate(path)
        self.db.executescript(SCHEMA)
        self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _migrate(self, path: Path) -> None:
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        tables = self.db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
        if not tables or version == SCHEMA_VERSION:
            return
        # The index is derived data: it is dropped, and rebuilt from the store on start.
        log.warning("%s has an older index layout; the index will be rebuilt from the store", path)
        drop = "DROP TABLE IF EXISTS recipes_fts; DROP TABLE IF EXISTS search_docs;"
        drop += " CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        drop += " DELETE FROM meta WHERE key IN ('embedding_model', 'embedding_dimensions');"
        if version < 2:
            # The first layout kept vectors in the store table; it only ever held the shipped
            # catalog, which is loaded again.
            drop += " DROP TABLE IF EXISTS recipes;"
        self.db.executescript(drop)

    def close(self) -> None:
        self.db.close()

    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def hashes(self, table: str, ids: Sequence[str]) -> dict[str, str]:
        found: dict[str, str] = {}
        for start in range(0, len(ids), 500):  # SQLite caps the parameters of one statement
            chunk = list(ids[start : start + 500])
            marks = ",".join("?" * len(chunk))
            rows = self.db.execute(f"SELECT id, content_hash FROM {table} WHERE id IN ({marks})", chunk)
            found.update(dict(rows.fetchall()))
        return found


class SqliteRecipeStore:
    def __init__(self, database: SqliteDatabase) -> None:
        self._database = database
        self._db = database.db
        self._parsed: dict[str, Recipe] = {}

    def count(self) -> int:
        return self._db.execute("SELECT count(*) FROM recipes").fetchone()[0]

    def _parse(self, doc: str) -> Recipe:
        """The recipe stored as `doc`; the same (frozen) object for the same text, so that a
        recipe written anew is read anew."""
        if (recipe := self._parsed.get(doc)) is None:
            if len(self._parsed) >= PARSED_KEPT:
                self._parsed.clear()
            recipe = self._parsed[doc] = Recipe.model_validate_json(doc)
        return recipe

    def all(self) -> list[Recipe]:
        return [
            Recipe.model_validate_json(row[0])
            for row in self._db.execute("SELECT doc FROM recipes ORDER BY id")
        ]

    async def titles(self) -> dict[str, str]:
        rows = self._db.execute("SELECT id, json_extract(doc, '$.title') FROM recipes")
        return dict(rows.fetchall())

    async def ingredients_and_steps(self) -> dict[str, list[str]]:
        rows = self._db.execute(
            "SELECT id, json_extract(doc, '$.ingredients'), json_extract(doc, '$.steps') FROM recipes"
        )
        return {
            i: [*json.loads(lines or "[]"), *json.loads(steps or "[]")] for i, lines, steps in rows.fetchall()
        }

    async def get_many(self, ids: Sequence[str]) -> list[Recipe]:
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        rows = self._db.execute(f"SELECT id, doc FROM recipes WHERE id IN ({marks})", list(ids))
        found = {row[0]: self._parse(row[1]) for row in rows}
        return [found[i] for i in ids if i in found]

    async def content_hashes(self, ids: Sequence[str]) -> dict[str, str]:
        return self._database.hashes("recipes", ids)

    async def upsert(self, recipes: Sequence[tuple[Recipe, str]]) -> dict[str, str]:
        with self._database.transaction() as db:
            db.executemany(
                "INSERT OR REPLACE INTO recipes (id, doc, content_hash) VALUES (?, ?, ?)",
                [(recipe.id, recipe.model_dump_json(), digest) for recipe, digest in recipes],
            )
        return {}

    async def delete(self, ids: Sequence[str]) -> None:
        with self._database.transaction() as db:
            db.executemany("DELETE FROM recipes WHERE id = ?", [(i,) for i in ids])
