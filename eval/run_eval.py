"""Retrieval and grounding quality on the labelled queries of eval/queries.jsonl.

Run: make eval   (or .venv/bin/python eval/run_eval.py [--no-llm])
Prints Markdown tables: hit@1, hit@3 and MRR@10 per retrieval mode and category, for our
retrieval and, in the same run on the same index, a naive baseline (FTS5 over the query's raw
words OR-ed with plain BM25, the same embedder, RRF k=60, no filters read); for multi-turn
cases, hybrid retrieval with the raw follow-up, with our rewrite and with the gold rewrite;
and grounding checks of the answers. It uses the configured providers (the embedded ones by
default) and a scratch copy of the embedded index, so the app's own file is left alone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.answerer import answer
from app.api_models import Message
from app.query_rewriter import reformulate
from app.ranking import reciprocal_rank_fusion
from app.retrieval import Retriever
from app.services import build_retriever, chat_model, load_sample_catalog
from app.settings import Settings

QUERIES = Path(__file__).with_name("queries.jsonl")
MODES = ("text", "vectors", "hybrid")
HARD = ("commonsense", "negated", "time_limited", "analogical", "dietary")
DEPTH = 10
DONT_KNOW = re.compile(
    r"\b(don't know|do not know|no recipe|none of|not (?:find|have|see)|couldn't|can't find)", re.I
)

Ranker = Callable[[str], Awaitable[list[str]]]


@dataclass
class Scores:
    """hit@1, hit@3 and MRR@10 summed over cases, for averaging."""

    cases: int = 0
    hit1: float = 0.0
    hit3: float = 0.0
    mrr: float = 0.0
    misses: list[str] = field(default_factory=list)

    def add(self, case_id: str, ranked: Sequence[str], relevant: set[str]) -> None:
        ranks = [n for n, recipe_id in enumerate(ranked[:DEPTH], start=1) if recipe_id in relevant]
        first = ranks[0] if ranks else None
        self.cases += 1
        self.hit1 += first == 1
        self.hit3 += first is not None and first <= 3
        self.mrr += 1 / first if first else 0.0
        if first is None or first > 3:
            self.misses.append(case_id)

    def row(self) -> str:
        n = self.cases or 1
        return f"{self.hit1 / n:.2f} | {self.hit3 / n:.2f} | {self.mrr / n:.2f}"

    def merge(self, other: Scores) -> None:
        self.cases += other.cases
        self.hit1 += other.hit1
        self.hit3 += other.hit3
        self.mrr += other.mrr


def load_cases() -> list[dict]:
    return [json.loads(line) for line in QUERIES.read_text(encoding="utf-8").splitlines() if line.strip()]


def ours(retriever: Retriever, mode: str) -> Ranker:
    async def rank(query: str) -> list[str]:
        retrieval = await retriever.retrieve_question(query, DEPTH, mode=mode)  # type: ignore[arg-type]
        return [found.recipe.id for found in retrieval.found]

    return rank


def naive(retriever: Retriever, mode: str) -> Ranker:
    """The pipeline a first attempt would build: every raw word OR-ed, plain BM25, no filters."""
    index = retriever.index
    database = index._db  # the eval reads the embedded index directly, as a baseline has no seam

    def keyword(query: str) -> list[str]:
        words = re.findall(r"\w+", query.lower())
        if not words:
            return []
        rows = database.execute(
            "SELECT d.id FROM recipes_fts f JOIN search_docs d ON d.rowid = f.rowid"
            " WHERE recipes_fts MATCH ? ORDER BY bm25(recipes_fts) LIMIT 50",
            (" OR ".join(f'"{w}"' for w in words),),
        )
        return [row[0] for row in rows]

    async def vector(query: str) -> list[str]:
        [embedded] = await retriever.embedder.embed([query])
        return [recipe_id for recipe_id, _ in index.vector_ranking(embedded)]

    async def rank(query: str) -> list[str]:
        if mode == "text":
            return keyword(query)[:DEPTH]
        if mode == "vectors":
            return (await vector(query))[:DEPTH]
        return [i for i, _ in reciprocal_rank_fusion([keyword(query), await vector(query)])][:DEPTH]

    return rank


async def score(cases: list[dict], ranker: Ranker, query_of: Callable[[dict], str]) -> dict[str, Scores]:
    by_category: dict[str, Scores] = defaultdict(Scores)
    for case in cases:
        by_category[case["category"]].add(case["id"], await ranker(query_of(case)), set(case["relevant"]))
    return by_category


def total(scores: dict[str, Scores], categories: Sequence[str]) -> Scores:
    summed = Scores()
    for category in categories:
        if category in scores:
            summed.merge(scores[category])
    return summed


async def main(use_llm: bool) -> None:
    cases = load_cases()
    single = [c for c in cases if c["category"] not in ("multi_turn", "no_answer")]
    multi = [c for c in cases if c["category"] == "multi_turn"]
    categories = sorted({c["category"] for c in single})
    with tempfile.TemporaryDirectory() as scratch:
        settings = Settings(local_db_path=Path(scratch) / "eval.sqlite3")
        retriever = build_retriever(settings)
        await load_sample_catalog(settings, retriever)

        print(f"## Retrieval: {len(single)} single-turn queries, top {DEPTH}\n")
        print("| mode | category | cases | ours hit@1 | hit@3 | MRR@10 | naive hit@1 | hit@3 | MRR@10 |")
        print("|---|---|---|---|---|---|---|---|---|")
        results = {}
        for mode in MODES:
            ours_scores = await score(single, ours(retriever, mode), lambda c: c["query"])
            naive_scores = await score(single, naive(retriever, mode), lambda c: c["query"])
            results[mode] = (ours_scores, naive_scores)
            for category in [*categories, "hard (all but specific)", "all"]:
                picked = (
                    HARD if category.startswith("hard") else categories if category == "all" else [category]
                )
                ours_total, naive_total = total(ours_scores, picked), total(naive_scores, picked)
                print(
                    f"| {mode} | {category} | {ours_total.cases} | {ours_total.row()} | {naive_total.row()} |"
                )

        hybrid_ours, hybrid_naive = (total(s, HARD) for s in results["hybrid"])
        ratio = hybrid_ours.hit3 / hybrid_naive.hit3 if hybrid_naive.hit3 else float("inf")
        verdict = "met" if ratio >= 2 else "missed"
        print(
            f"\nHybrid hit@3 on the hard categories: ours {hybrid_ours.hit3 / hybrid_ours.cases:.2f}, "
            f"naive {hybrid_naive.hit3 / hybrid_naive.cases:.2f}: {ratio:.2f}× (goal ≥ 2×: {verdict})."
        )
        print("\nHybrid misses (no relevant recipe in our top 3), by category:")
        for category in categories:
            scores = results["hybrid"][0][category]
            print(f"- {category}: {len(scores.misses)} of {scores.cases}: {', '.join(scores.misses) or '–'}")

        if multi:
            await multi_turn(multi, retriever, settings, use_llm)
        if use_llm:
            await grounding(cases, retriever, settings)


async def multi_turn(cases: list[dict], retriever: Retriever, settings: Settings, use_llm: bool) -> None:
    hybrid = ours(retriever, "hybrid")
    rows = [
        ("the raw follow-up", lambda c: c["query"]),
        ("the gold standalone question", lambda c: c["standalone"]),
    ]
    rewrites: dict[str, str] = {}
    if use_llm:
        llm = chat_model(settings)
        started = time.perf_counter()
        for case in cases:
            history = [Message.model_validate(m) for m in case["conversation"]]
            rewrite = await reformulate(llm, case["query"], history, settings, retriever.catalog)
            rewrites[case["id"]] = rewrite.question
        seconds = (time.perf_counter() - started) / len(cases)
        rows.insert(1, (f"our rewrite ({seconds:.1f} s each)", lambda c: rewrites[c["id"]]))
    print(f"\n## Multi-turn: {len(cases)} follow-ups, hybrid retrieval\n")
    print("| searched with | hit@1 | hit@3 | MRR@10 |")
    print("|---|---|---|---|")
    for label, query_of in rows:
        print(f"| {label} | {total(await score(cases, hybrid, query_of), ['multi_turn']).row()} |")
    unchanged = sum(rewrites.get(c["id"]) == c["query"] for c in cases)
    if rewrites:
        print(f"\nThe rewrite returned {unchanged} of {len(cases)} follow-ups unchanged.")


async def grounding(cases: list[dict], retriever: Retriever, settings: Settings) -> None:
    """Answers cite only retrieved recipes, and say they don't know when none fits."""
    llm = chat_model(settings)
    no_answer = [c for c in cases if c["category"] == "no_answer"]
    answerable = [c for c in cases if c["category"] in HARD][:: max(1, len(cases) // 8)][:8]
    cited_outside = said_dont_know = 0
    for case in no_answer + answerable:
        retrieval = await retriever.retrieve_question(case["query"], settings.search_top)
        retrieved = {f.recipe.id for f in retrieval.found}
        reply = await answer(llm, retriever, case["query"], [], settings)
        cited_outside += any(s.id not in retrieved for s in reply.sources)
        if case in no_answer:
            said_dont_know += bool(DONT_KNOW.search(reply.answer)) and not reply.sources
    print(f"\n## Grounding: {len(no_answer) + len(answerable)} answers from the configured LLM\n")
    print(f"- answers citing a recipe that was not retrieved: {cited_outside}")
    fits = f"{said_dont_know} of {len(no_answer)}"
    print(f'- questions no recipe fits, answered "don\'t know" with no sources: {fits}')


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--no-llm", action="store_true", help="retrieval only: skip the rewrite and answer runs"
    )
    asyncio.run(main(use_llm=not parser.parse_args().no_llm))
