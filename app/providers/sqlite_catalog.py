"""The embedded recipe store and search index: one SQLite file.

Recipes are stored as JSON, keywords in an FTS5 table ranked by BM25, and vectors as float32
blobs searched exhaustively with NumPy (a few thousand recipes fit in a few MB, and a brute
force dot product over them takes well under a millisecond). The two rankings are fused with
RRF (k=60), as Azure AI Search fuses a hybrid query, so both back ends rank alike.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from app.providers import SearchHit
from app.ranking import reciprocal_rank_fusion
from app.recipes import Recipe
from app.text import content_words

# How many candidates each side contributes before fusion, as Azure AI Search does with 50.
CANDIDATES = 50

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS recipes (
    id TEXT PRIMARY KEY,
    doc TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    embedding BLOB NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS recipes_fts USING fts5(
    id UNINDEXED, title, description, ingredients, tags,
    tokenize = 'porter unicode61 remove_diacritics 2'
);
"""

# Column weights for bm25(): id, title, description, ingredients, tags.
BM25_WEIGHTS = "0.0, 6.0, 1.0, 2.0, 3.0"


def content_hash(recipe: Recipe) -> str:
    return hashlib.sha256(recipe.model_dump_json().encode()).hexdigest()


def keyword_query(text: str) -> str | None:
    """An FTS5 query that matches any meaningful word of `text`, each quoted as a literal."""
    return " OR ".join(f'"{w}"' for w in content_words(text)) or None


class SqliteCatalog:
    """Both the `RecipeStore` and the `SearchIndex` of the embedded default."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        # One connection, used only from the event loop's thread: every query is short.
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)
        self._ids: list[str] = []
        self._matrix: np.ndarray | None = None

    def close(self) -> None:
        self._db.close()

    # -- metadata -------------------------------------------------------------------------

    def get_meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def count(self) -> int:
        return self._db.execute("SELECT count(*) FROM recipes").fetchone()[0]

    # -- writing --------------------------------------------------------------------------

    def upsert(self, recipes: Iterable[tuple[Recipe, Sequence[float]]]) -> None:
        """Store recipes with their embeddings; the store and the index change together."""
        with self._transaction():
            for recipe, vector in recipes:
                unit = _unit(np.asarray(vector, dtype=np.float32))
                self._db.execute(
                    "INSERT OR REPLACE INTO recipes (id, doc, content_hash, embedding) VALUES (?, ?, ?, ?)",
                    (recipe.id, recipe.model_dump_json(), content_hash(recipe), unit.tobytes()),
                )
                self._db.execute("DELETE FROM recipes_fts WHERE id = ?", (recipe.id,))
                self._db.execute(
                    "INSERT INTO recipes_fts (id, title, description, ingredients, tags)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (
                        recipe.id,
                        recipe.title,
                        recipe.description,
                        "\n".join(recipe.ingredients),
                        " ".join([*recipe.tags, *recipe.diet_labels]),
                    ),
                )
        self._matrix = None

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # -- RecipeStore ----------------------------------------------------------------------

    async def get_many(self, ids: Sequence[str]) -> list[Recipe]:
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        rows = self._db.execute(f"SELECT id, doc FROM recipes WHERE id IN ({marks})", list(ids))
        found = {row[0]: Recipe.model_validate_json(row[1]) for row in rows}
        return [found[i] for i in ids if i in found]

    # -- SearchIndex ----------------------------------------------------------------------

    async def hybrid_search(self, text: str, vector: Sequence[float], top: int) -> list[SearchHit]:
        fused = reciprocal_rank_fusion([self.keyword_ranking(text), self.vector_ranking(vector)])
        return [SearchHit(id=i, score=score) for i, score in fused[:top]]

    def keyword_ranking(self, text: str, limit: int = CANDIDATES) -> list[str]:
        query = keyword_query(text)
        if query is None:
            return []
        rows = self._db.execute(
            f"SELECT id FROM recipes_fts WHERE recipes_fts MATCH ?"
            f" ORDER BY bm25(recipes_fts, {BM25_WEIGHTS}) LIMIT ?",
            (query, limit),
        )
        return [row[0] for row in rows]

    def vector_ranking(self, vector: Sequence[float], limit: int = CANDIDATES) -> list[str]:
        ids, matrix = self._vectors()
        if not ids:
            return []
        scores = matrix @ _unit(np.asarray(vector, dtype=np.float32))
        n = min(limit, len(ids))
        best = np.argpartition(-scores, n - 1)[:n]
        best = best[np.argsort(-scores[best], kind="stable")]
        return [ids[i] for i in best]

    def _vectors(self) -> tuple[list[str], np.ndarray]:
        if self._matrix is None:
            rows = self._db.execute("SELECT id, embedding FROM recipes ORDER BY id").fetchall()
            self._ids = [row[0] for row in rows]
            vectors = [np.frombuffer(row[1], dtype=np.float32) for row in rows]
            self._matrix = np.vstack(vectors) if vectors else np.zeros((0, 0), np.float32)
        return self._ids, self._matrix


def _unit(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else vector
