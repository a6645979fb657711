"""Load a recipe catalog into the configured store and search index.

    python -m app.index_recipes CATALOG.jsonl [--force] [--check] [--json]
    python -m app.index_recipes --delete ID [ID ...]

The same settings as the app choose where recipes go: the embedded SQLite file by default,
Cosmos DB and Azure AI Search when their endpoints are set. `.json` files hold a list of
recipes (or `{"recipes": [...]}`); anything else is read as JSON Lines; `-` reads stdin.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

from app.indexing.pipeline import Indexer, IndexingOptions, IndexingReport, read_items
from app.providers.errors import UpstreamError
from app.services import build_retriever
from app.settings import get_settings


def summary(report: IndexingReport) -> str:
    lines = [
        f"{report.indexed} indexed, {report.unchanged} unchanged, {report.valid} valid (not written), "
        f"{report.deleted} deleted, {report.failed} failed"
    ]
    for key, result in report.indexing_result.items():
        lines += [f"  {key}: {e.type}: {e.message}" for e in result.errors]
    return "\n".join(lines)


async def run(args: argparse.Namespace) -> IndexingReport:
    from tqdm import tqdm

    retriever = build_retriever(get_settings())
    indexer = Indexer(retriever.embedder, retriever.store, retriever.index)
    if args.delete:
        return await indexer.delete(args.delete)
    path: str = args.catalog
    text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    items, given = read_items(text, json_lines=not path.endswith(".json"))
    options = IndexingOptions(
        force_indexing=args.force or bool(given.get("force_indexing")),
        allow_indexing=not args.check,
    )
    with tqdm(total=len(items), unit="recipe", disable=args.quiet) as bar:
        indexer.progress = bar.update
        return await indexer.run(items, options)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("catalog", nargs="?", help="a .json or .jsonl file, or - for stdin")
    parser.add_argument(
        "--force",
        action="store_true",
        help="index unchanged recipes too; rebuild an index made by another embedding model",
    )
    parser.add_argument("--check", action="store_true", help="only validate and compare: write nothing")
    parser.add_argument(
        "--delete", nargs="+", metavar="ID", help="delete these recipes from the store and the index"
    )
    parser.add_argument("--json", action="store_true", help="print the full report as JSON on stdout")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if bool(args.catalog) == bool(args.delete):
        parser.error("give a catalog file, or --delete with ids")
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        report = asyncio.run(run(args))
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except UpstreamError as error:
        print(f"error: {error.public_message}", file=sys.stderr)
        return 1
    if args.json:
        print(report.model_dump_json(indent=2))
    print(summary(report), file=sys.stderr)
    return 1 if report.failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
