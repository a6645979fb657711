"""The indexing pipeline: recipes in, validated, embedded, stored and indexed, per recipe.

Modelled on the DIAL RAG API's indexing step. Each recipe gets its own result, so one bad
recipe never stops the others. The store is written before the index; a recipe whose index
write fails is reported as such, and since its index entry then lacks the new content hash,
the next run indexes it again rather than skipping it as unchanged.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, get_args

from pydantic import BaseModel, ValidationError

from app.http.bodies import describe_errors
from app.http.json_text import NotJson, parse_json
from app.providers.errors import IndexIncompatibleError, UpstreamError
from app.providers.protocols import Embedder, IndexDocument, IndexInfo, RecipeStore, SearchIndex
from app.providers.retry import Sleep, with_retries
from app.recipes import Recipe
from app.search.recipe_facts import document_hash, embedded_text

log = logging.getLogger(__name__)

T = TypeVar("T")

# About 2,000 tokens: within every embedding model's input (OpenAI's take 8,191 tokens), and
# past what a recipe's title, description and ingredients usually need (the sample's longest
# search text is 1,124 characters).
MAX_EMBEDDED_CHARS = 8_000
# A run that wrote this many recipes (a catalog load, not an edit) ends by settling an index
# that can (the embedded index merges its keyword segments: SqliteSearchIndex.settle); what a
# few edits leave, the index folds in as it goes.
SETTLE_AFTER = 100

Status = Literal["indexed", "unchanged", "valid", "deleted", "failed"]


class IndexingError(BaseModel):
    message: str
    type: str


class RecipeResult(BaseModel):
    status: Status
    errors: list[IndexingError] = []


class IndexingReport(BaseModel):
    indexing_result: dict[str, RecipeResult] = {}
    indexed: int = 0
    unchanged: int = 0
    valid: int = 0
    deleted: int = 0
    failed: int = 0

    def record(self, key: str, status: Status, error: IndexingError | None = None) -> None:
        self.indexing_result[key] = RecipeResult(status=status, errors=[error] if error else [])

    def tally(self) -> IndexingReport:
        """Set the counts from the per-recipe results."""
        statuses = Counter(result.status for result in self.indexing_result.values())
        for status in get_args(Status):
            setattr(self, status, statuses[status])
        return self


@dataclass(frozen=True)
class IndexingOptions:
    # Index even recipes whose content hash is unchanged.
    force_indexing: bool = False
    # False only validates and compares: nothing is embedded or written. With
    # `force_indexing`, an index built by another embedding model is rebuilt.
    allow_indexing: bool = True
    batch_size: int = 32
    concurrency: int = 4
    attempts: int = 5


@dataclass(frozen=True)
class InvalidItem:
    """An input line that is not JSON: reported, never silently dropped."""

    message: str


Item = tuple[str, Any]  # a label for the report ("line 3") and the parsed JSON or an InvalidItem


def read_items(text: str, *, json_lines: bool) -> tuple[list[Item], dict[str, Any]]:
    """Recipes from JSON (a recipe, a list, or `{"recipes": [...], <options>}`) or from JSON
    Lines (one recipe per line), and the options given beside `recipes`."""
    if json_lines:
        items: list[Item] = []
        for n, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                # Recipe by recipe: a line nested too deeply, or with a number JSON cannot
                # carry, fails that line only.
                try:
                    items.append((f"line {n}", parse_json(line)))
                except NotJson as failure:
                    items.append((f"line {n}", InvalidItem(f"not valid JSON: {failure}")))
        return items, {}
    data = parse_json(text)
    options: dict[str, Any] = {}
    if isinstance(data, dict) and "recipes" in data:
        options = {k: v for k, v in data.items() if k != "recipes"}
        data = data["recipes"]
    elif isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise ValueError('expected a recipe, a list of recipes or {"recipes": [...]}')
    return [(f"item {n}", item) for n, item in enumerate(data, start=1)], options


def error(message: str, kind: str) -> IndexingError:
    return IndexingError(message=message, type=kind)


def upstream_message(failure: Exception) -> str:
    if isinstance(failure, UpstreamError):
        return failure.public_message
    log.error("indexing step failed", exc_info=failure)
    return "An unexpected failure; the details are in the log."


@dataclass
class Indexer:
    embedder: Embedder
    store: RecipeStore
    index: SearchIndex
    sleep: Sleep = asyncio.sleep
    progress: Callable[[int], None] = field(default=lambda n: None)
    # Told when recipes were written or deleted: what the app knows of its titles is stale.
    changed: Callable[[], None] = field(default=lambda: None)

    async def run(
        self, items: Iterable[Item], options: IndexingOptions = IndexingOptions()
    ) -> IndexingReport:
        report = IndexingReport()
        # Validating thousands of recipes takes a while: off the event loop.
        recipes = await asyncio.to_thread(self._validate, items, report)
        if not recipes:
            return report.tally()
        changed = await self._changed(recipes, options, report)
        if not options.allow_indexing:
            for recipe in changed:
                report.record(recipe.id, "valid")
        elif changed:
            await self._prepare(options)
            batches = [
                changed[i : i + options.batch_size] for i in range(0, len(changed), options.batch_size)
            ]
            limit = asyncio.Semaphore(options.concurrency)

            async def run_batch(batch: list[Recipe]) -> None:
                async with limit:
                    await self._index_batch(batch, options, report)
                self.progress(len(batch))

            await asyncio.gather(*(run_batch(batch) for batch in batches))
            if len(changed) >= SETTLE_AFTER and (settle := getattr(self.index, "settle", None)):
                await settle()
            self.changed()
        return report.tally()

    async def delete(self, ids: Sequence[str]) -> IndexingReport:
        """Remove recipes from the index first, so that search stops finding them, then the store."""
        report = IndexingReport()
        try:
            await self._retrying(lambda: self.index.delete(ids), IndexingOptions())
            await self._retrying(lambda: self.store.delete(ids), IndexingOptions())
        except UpstreamError as failure:
            for recipe_id in ids:
                report.record(recipe_id, "failed", error(upstream_message(failure), "delete_error"))
        else:
            for recipe_id in ids:
                report.record(recipe_id, "deleted")
            self.changed()
        return report.tally()

    async def _retrying(self, call: Callable[[], Awaitable[T]], options: IndexingOptions) -> T:
        return await with_retries(call, attempts=options.attempts, sleep=self.sleep)

    def _validate(self, items: Iterable[Item], report: IndexingReport) -> list[Recipe]:
        recipes: dict[str, Recipe] = {}
        for label, data in items:
            if isinstance(data, InvalidItem):
                report.record(label, "failed", error(data.message, "invalid_json"))
                continue
            key = found if isinstance(data, dict) and isinstance(found := data.get("id"), str) else label
            try:
                # Strict, as at every edge: "yes" is no boolean, "30" no number of minutes.
                recipe = Recipe.model_validate(data, strict=True)
            except ValidationError as failure:
                report.record(key, "failed", error(describe_errors(failure), "validation_error"))
                continue
            if recipe.id in recipes:
                report.record(
                    f"{recipe.id} ({label})", "failed", error("the same id came earlier", "duplicate_id")
                )
                continue
            recipes[recipe.id] = recipe
        return list(recipes.values())

    async def _changed(
        self, recipes: list[Recipe], options: IndexingOptions, report: IndexingReport
    ) -> list[Recipe]:
        """The recipes to index; the others are recorded as unchanged."""
        if options.force_indexing:
            return recipes
        ids = [r.id for r in recipes]
        stored = await self._retrying(lambda: self.store.content_hashes(ids), options)
        indexed = await self._retrying(lambda: self.index.content_hashes(ids), options)
        # Hashing a large catalog takes a while: off the event loop.
        digests = await asyncio.to_thread(lambda: [document_hash(recipe) for recipe in recipes])
        changed = []
        for recipe, digest in zip(recipes, digests, strict=True):
            if stored.get(recipe.id) == digest == indexed.get(recipe.id):
                report.record(recipe.id, "unchanged")
            else:
                changed.append(recipe)
        self.progress(len(recipes) - len(changed))
        return changed

    async def _prepare(self, options: IndexingOptions) -> None:
        """Create or update the index for the configured embedding model. An index built by
        another model is never mixed with new vectors: it is refused, or rebuilt when forced."""
        [probe] = await self._retrying(lambda: self.embedder.embed(["dimensions probe"]), options)
        configured = IndexInfo(self.embedder.model, len(probe))
        built = await self.index.index_info()
        rebuild = built is not None and built != configured
        if built is not None and rebuild:
            if not options.force_indexing:
                raise IndexIncompatibleError(built, configured)
            log.warning("rebuilding the search index, built with %s, for %s", built, configured)
        await self.index.prepare(configured, rebuild=rebuild)

    async def _index_batch(
        self, batch: list[Recipe], options: IndexingOptions, report: IndexingReport
    ) -> None:
        try:
            # Bounded: embedding models read a few thousand tokens at most, and WordLlama's
            # memory grows with the longest text of a batch (a batch of recipes at every
            # field's bound once took 16 GB). The keyword index still gets the whole text.
            texts = [embedded_text(r)[:MAX_EMBEDDED_CHARS] for r in batch]
            vectors = await self._retrying(lambda: self.embedder.embed(texts), options)
        except Exception as failure:
            for recipe in batch:
                report.record(recipe.id, "failed", error(upstream_message(failure), "embedding_error"))
            return
        pairs = [(recipe, document_hash(recipe)) for recipe in batch]
        try:
            store_errors = await self._retrying(lambda: self.store.upsert(pairs), options)
        except Exception as failure:
            store_errors = {recipe.id: upstream_message(failure) for recipe in batch}
        documents = [
            IndexDocument(recipe, digest, vector)
            for (recipe, digest), vector in zip(pairs, vectors, strict=True)
            if recipe.id not in store_errors
        ]
        try:
            index_errors = (
                await self._retrying(lambda: self.index.upsert(documents), options) if documents else {}
            )
        except Exception as failure:
            index_errors = {doc.recipe.id: upstream_message(failure) for doc in documents}
        for recipe in batch:
            if recipe.id in store_errors:
                report.record(recipe.id, "failed", error(store_errors[recipe.id], "store_error"))
            elif recipe.id in index_errors:
                message = (
                    f"{index_errors[recipe.id]} The recipe is saved in the store but not in the search "
                    "index yet; index it again to repair this."
                )
                report.record(recipe.id, "failed", error(message, "index_error"))
            else:
                report.record(recipe.id, "indexed")
