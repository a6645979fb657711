"""The embedded search index: keywords and vectors in the store's SQLite file.

Keywords live in an FTS5 table ranked by BM25, vectors as float32 blobs searched exhaustively
with NumPy (ten thousand recipes fit in 15 MB, and a product over them takes well under a
millisecond). The two rankings are fused with RRF (k=60), the vector ranking weighed by
HYBRID_VECTOR_WEIGHT, as Azure AI Search fuses a hybrid query whose vector query has that
weight, so both back ends rank alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from app.providers.protocols import NO_SEMANTIC, IndexDocument, IndexInfo, SearchHit, SemanticOptions
from app.providers.sqlite_catalog import SqliteDatabase
from app.search.filters import DIET_FLAGS, NO_FILTERS, RecipeFilters
from app.search.ranking import reciprocal_rank_fusion
from app.search.recipe_facts import DOCUMENT_VERSION, facts
from app.search.text import content_words

# How many candidates each side contributes before fusion, as Azure AI Search does with 50.
CANDIDATES = 50

# BM25 with column weights (title, description, ingredients, tags, facts), lower is better. Called
# from SQL rather than set as the table's `rank`: FTS5 answers ORDER BY rank by preparing a
# statement of its own on every query, which made each keyword search a third slower, for the
# same scores in the same order.
BM25 = "bm25(recipes_fts, 6.0, 1.0, 2.0, 3.0, 3.0)"

DOC_COLUMNS = ("id", "content_hash", "embedding", *DIET_FLAGS, "total_minutes")
# An update keeps the row's rowid, which its keyword row shares.
UPSERT_DOC = (
    f"INSERT INTO search_docs ({', '.join(DOC_COLUMNS)}) VALUES ({', '.join('?' * len(DOC_COLUMNS))})"
    f" ON CONFLICT (id) DO UPDATE SET {', '.join(f'{c} = excluded.{c}' for c in DOC_COLUMNS[1:])}"
    " RETURNING rowid"
)


def keyword_query(text: str) -> str | None:
    """An FTS5 query that matches any meaningful word of `text`, each quoted as a literal."""
    return " OR ".join(f'"{w}"' for w in content_words(text)) or None


def exclusion_query(filters: RecipeFilters) -> str | None:
    """An FTS5 query matching recipes whose title, ingredients or facts hold an excluded phrase
    (the facts: "not a dessert" leaves out the pies that are one)."""
    if not filters.exclude:
        return None
    return "{title ingredients facts} : (" + " OR ".join(f'"{phrase}"' for phrase in filters.exclude) + ")"


def filter_condition(filters: RecipeFilters) -> tuple[str, list[object]]:
    """`filters` as a SQL condition on `search_docs` (aliased `d`), with its parameters."""
    clauses = [f"d.{flag} = ?" for flag in filters.diet()]
    params: list[object] = [int(wanted) for wanted in filters.diet().values()]
    if filters.max_total_minutes is not None:
        clauses.append("d.total_minutes <= ?")
        params.append(filters.max_total_minutes)
    if excluded := exclusion_query(filters):
        clauses.append("d.rowid NOT IN (SELECT rowid FROM recipes_fts WHERE recipes_fts MATCH ?)")
        params.append(excluded)
    return " AND ".join(clauses) or "1", params


@dataclass
class _VectorTable:
    """The index's vectors and filterable fields in memory, rebuilt after any write."""

    ids: list[str]
    rowids: np.ndarray
    matrix: np.ndarray
    diet: dict[str, np.ndarray]
    total_minutes: np.ndarray

    def mask(self, filters: RecipeFilters, excluded_rowids: Sequence[int]) -> np.ndarray:
        keep = ~np.isin(self.rowids, np.asarray(excluded_rowids, dtype=np.int64))
        for flag, wanted in filters.diet().items():
            keep &= self.diet[flag] == wanted
        if filters.max_total_minutes is not None:
            # NaN (time not given) compares false, so unknown times never pass a limit.
            keep &= self.total_minutes <= filters.max_total_minutes
        return keep


class SqliteSearchIndex:
    supports_semantic = False

    def __init__(self, database: SqliteDatabase, vector_weight: float = 1.0) -> None:
        self._database = database
        self.vector_weight = vector_weight
        self._db = database.db
        self._table: _VectorTable | None = None
        self._table_version: tuple[int, int] | None = None
        self._writes = 0

    def count(self) -> int:
        return self._db.execute("SELECT count(*) FROM search_docs").fetchone()[0]

    # -- definition -----------------------------------------------------------------------

    async def index_info(self) -> IndexInfo | None:
        model = self._database.get_meta("embedding_model")
        dimensions = self._database.get_meta("embedding_dimensions")
        return IndexInfo(model, int(dimensions)) if model and dimensions else None

    def document_version(self) -> str | None:
        """What the indexed documents were made of (recipe_facts.DOCUMENT_VERSION), if known."""
        return self._database.get_meta("document_version")

    async def prepare(self, info: IndexInfo, *, rebuild: bool = False) -> None:
        with self._database.transaction() as db:
            if rebuild:
                db.execute("DELETE FROM search_docs")
                db.execute("DELETE FROM recipes_fts")
            self._database.set_meta("embedding_model", info.embedding_model)
            self._database.set_meta("embedding_dimensions", str(info.dimensions))
            self._database.set_meta("document_version", DOCUMENT_VERSION)
        self._writes += 1

    # -- writing --------------------------------------------------------------------------

    async def content_hashes(self, ids: Sequence[str]) -> dict[str, str]:
        return self._database.hashes("search_docs", ids)

    async def upsert(self, documents: Sequence[IndexDocument]) -> dict[str, str]:
        with self._database.transaction() as db:
            for doc in documents:
                recipe = doc.recipe
                unit = _unit(np.asarray(doc.vector, dtype=np.float32))
                values = (
                    recipe.id,
                    doc.content_hash,
                    unit.tobytes(),
                    *(getattr(recipe, flag) for flag in DIET_FLAGS),
                    recipe.total_minutes,
                )
                (rowid,) = db.execute(UPSERT_DOC, values).fetchone()
                db.execute("DELETE FROM recipes_fts WHERE rowid = ?", (rowid,))
                db.execute(
                    "INSERT INTO recipes_fts (rowid, title, description, ingredients, tags, facts)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        rowid,
                        recipe.title,
                        recipe.description,
                        "\n".join(recipe.ingredients),
                        " ".join([*recipe.tags, *recipe.diet_labels]),
                        " ".join(facts(recipe)),
                    ),
                )
        self._writes += 1
        return {}

    async def settle(self) -> None:
        """After a bulk load: the keyword index merged into one segment. Each batch written
        leaves segments of its own, which FTS5 merges only a few at a time, and every query
        reads them all: at the sample catalog's 410 recipes a chat's keyword ranking took a
        third of the time once merged (0.12 ms, from 0.38), with the same matches and scores.
        Merging rewrites the whole keyword index (9 ms for the sample catalog)."""
        with self._database.transaction() as db:
            db.execute("INSERT INTO recipes_fts (recipes_fts) VALUES ('optimize')")

    async def delete(self, ids: Sequence[str]) -> None:
        with self._database.transaction() as db:
            db.executemany(
                "DELETE FROM recipes_fts WHERE rowid = (SELECT rowid FROM search_docs WHERE id = ?)",
                [(i,) for i in ids],
            )
            db.executemany("DELETE FROM search_docs WHERE id = ?", [(i,) for i in ids])
        self._writes += 1

    # -- searching ------------------------------------------------------------------------

    async def search(
        self,
        text: str | None,
        vector: Sequence[float] | None,
        top: int,
        filters: RecipeFilters = NO_FILTERS,
        semantic: SemanticOptions = NO_SEMANTIC,
    ) -> list[SearchHit]:
        if text is not None and vector is not None:
            rankings = [self.keyword_ranking(text, filters), self.vector_ranking(vector, filters)]
            fused = reciprocal_rank_fusion(
                [[i for i, _ in ranking] for ranking in rankings], weights=(1.0, self.vector_weight)
            )
            return [SearchHit(i, score) for i, score in fused[:top]]
        if text is not None:
            return [SearchHit(i, score) for i, score in self.keyword_ranking(text, filters, top)]
        if vector is not None:
            return [SearchHit(i, score) for i, score in self.vector_ranking(vector, filters, top)]
        return []

    def keyword_ranking(
        self, text: str, filters: RecipeFilters = NO_FILTERS, limit: int = CANDIDATES
    ) -> list[tuple[str, float]]:
        """Ids and BM25 scores (higher is better) of the recipes matching any word of `text`."""
        query = keyword_query(text)
        if query is None:
            return []
        condition, params = filter_condition(filters)
        # The best matches are ranked first on the keyword table alone, and only those are
        # joined to the filterable columns: joining every match (tens of thousands at 100,000
        # recipes) doubled the time. If fewer than `limit` of them pass the filters while more
        # matched, the whole ranking is filtered instead, so the filters still apply before
        # the cut.
        shortlist = max(limit * 10, 500)
        rows = self._db.execute(
            f"SELECT d.id, s.score FROM (SELECT rowid, {BM25} AS score"
            " FROM recipes_fts WHERE recipes_fts MATCH ? ORDER BY score LIMIT ?) s"
            f" JOIN search_docs d ON d.rowid = s.rowid WHERE {condition} ORDER BY s.score LIMIT ?",
            [query, shortlist, *params, limit],
        ).fetchall()
        if len(rows) < limit and self._matches(query) > shortlist:
            rows = self._db.execute(
                f"SELECT d.id, {BM25} AS score FROM recipes_fts f JOIN search_docs d ON d.rowid = f.rowid"
                f" WHERE recipes_fts MATCH ? AND {condition} ORDER BY score LIMIT ?",
                [query, *params, limit],
            ).fetchall()
        return [(row[0], -row[1]) for row in rows]

    def _matches(self, query: str) -> int:
        return self._db.execute(
            "SELECT count(*) FROM recipes_fts WHERE recipes_fts MATCH ?", (query,)
        ).fetchone()[0]

    def vector_ranking(
        self, vector: Sequence[float], filters: RecipeFilters = NO_FILTERS, limit: int = CANDIDATES
    ) -> list[tuple[str, float]]:
        """Ids and cosine similarities of the nearest recipes that pass `filters`."""
        table = self._vectors()
        if not table.ids:
            return []
        # einsum, not `@`: BLAS splits a product this size over both cores, and when the other
        # core is busy (onnxruntime, another request, another process) it waits for it: 0.2 ms
        # became 1 to 9 ms at 10,000 recipes. einsum's own loop stays on this thread.
        scores = np.einsum("ij,j->i", table.matrix, _unit(np.asarray(vector, dtype=np.float32)))
        if not filters.is_empty():
            excluded = exclusion_query(filters)
            rowids = (
                [
                    row[0]
                    for row in self._db.execute(
                        "SELECT rowid FROM recipes_fts WHERE recipes_fts MATCH ?", (excluded,)
                    )
                ]
                if excluded
                else []
            )
            scores = np.where(table.mask(filters, rowids), scores, -np.inf)
        n = min(limit, int(np.isfinite(scores).sum()))
        if n == 0:
            return []
        best = np.argpartition(-scores, n - 1)[:n]
        best = best[np.argsort(-scores[best], kind="stable")]
        return [(table.ids[i], float(scores[i])) for i in best]

    def _vectors(self) -> _VectorTable:
        # data_version moves when another connection (the index command) commits.
        version = (self._writes, self._db.execute("PRAGMA data_version").fetchone()[0])
        if self._table is None or self._table_version != version:
            rows = self._db.execute(
                "SELECT id, embedding, vegetarian, vegan, gluten_free, dairy_free, total_minutes, rowid"
                " FROM search_docs ORDER BY id"
            ).fetchall()
            vectors = [np.frombuffer(row[1], dtype=np.float32) for row in rows]
            self._table = _VectorTable(
                ids=[row[0] for row in rows],
                rowids=np.array([row[7] for row in rows], dtype=np.int64),
                matrix=np.vstack(vectors) if vectors else np.zeros((0, 0), np.float32),
                diet={
                    flag: np.array([bool(row[2 + n]) for row in rows], dtype=bool)
                    for n, flag in enumerate(DIET_FLAGS)
                },
                total_minutes=np.array(
                    [np.nan if row[6] is None else row[6] for row in rows], dtype=np.float64
                ),
            )
            self._table_version = version
        return self._table


def _unit(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else vector
