"""The recipe endpoints: show one recipe, load a catalog, delete a recipe."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from starlette.requests import Request

from app.http.edge import ApiError, check_unicode, media_type, read_bytes
from app.indexing.pipeline import IndexingOptions, IndexingReport, InvalidItem, Item, read_items
from app.recipes import RECIPE_ID_PATTERN, Recipe
from app.services import Services
from app.settings import Settings

JSON_LINES_TYPES = {
    "application/jsonl",
    "application/x-ndjson",
    "application/json-lines",
    "application/x-jsonlines",
}


def checked_id(recipe_id: str) -> str:
    if not re.fullmatch(RECIPE_ID_PATTERN, recipe_id):
        raise ApiError(400, "A recipe id has only lower-case letters, digits and dashes.")
    return recipe_id


async def get_recipe(services: Services, recipe_id: str) -> Recipe:
    found = await services.retriever.store.get_many([checked_id(recipe_id)])
    if not found:
        raise ApiError(404, f"There is no recipe with the id {recipe_id!r}.")
    return found[0]


def flag(request: Request, given: dict[str, Any], name: str, default: bool) -> bool:
    """An indexing option, from the query string or beside `recipes` in a JSON object."""
    value: object = request.query_params.get(name, given.get(name))
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    if str(value).lower() in ("true", "1"):
        return True
    if str(value).lower() in ("false", "0"):
        return False
    raise ApiError(400, f"{name} must be true or false.")


def read_checked_items(raw: bytes, json_lines: bool) -> tuple[list[Item], dict[str, Any]]:
    items, given = read_items(raw.decode("utf-8"), json_lines=json_lines)
    check_unicode([[data for _, data in items if not isinstance(data, InvalidItem)], given])
    return items, given


async def index_catalog(request: Request, services: Services, settings: Settings) -> IndexingReport:
    kind = media_type(request)
    if kind != "application/json" and kind not in JSON_LINES_TYPES:
        raise ApiError(415, "Send recipes as JSON (application/json) or JSON Lines (application/jsonl).")
    raw = await read_bytes(request, settings.max_index_body_bytes, settings.body_read_seconds)
    try:
        # Up to MAX_INDEX_BODY_BYTES of JSON: seconds of parsing, off the event loop.
        items, given = await asyncio.to_thread(read_checked_items, raw, kind in JSON_LINES_TYPES)
    except UnicodeDecodeError:
        raise ApiError(400, "The body is not valid UTF-8.") from None
    except ValueError as error:  # NotJson, or a JSON of the wrong shape: both in words for the caller
        raise ApiError(400, f"The body is not valid JSON: {error}.") from None
    del raw  # the parsed items are all that is needed from here: memory stays one copy
    if len(items) > settings.max_index_recipes:
        raise ApiError(
            413,
            f"The body holds {len(items)} recipes; the limit is {settings.max_index_recipes} a load. "
            "Split the catalog, or load it with `python -m app.index_recipes`.",
        )
    options = IndexingOptions(
        force_indexing=flag(request, given, "force_indexing", False),
        allow_indexing=flag(request, given, "allow_indexing", True),
    )
    return await services.indexer().run(items, options)


async def delete_recipe(services: Services, recipe_id: str) -> IndexingReport:
    existed = await services.retriever.store.get_many([checked_id(recipe_id)])
    # Delete even when the store lacks it: an index entry may have outlived its recipe.
    report = await services.indexer().delete([recipe_id])
    if not existed:
        raise ApiError(404, f"There is no recipe with the id {recipe_id!r}.")
    return report
