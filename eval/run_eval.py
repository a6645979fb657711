"""Retrieval and grounding quality on the labelled queries (eval/retrieval_eval.py says which).

Run: make eval   (or .venv/bin/python -m eval.run_eval [--no-llm])
Prints Markdown tables: hit@3, MRR@10 and hit@1 per category and for the hard categories
together, for each retrieval mode of ours (text, vectors, hybrid) beside the same modes of a
naive baseline (FTS5 over the query's raw words OR-ed with plain BM25, the same embedder, plain
RRF k=60, no filters read), computed in the same run on the same index; the held-out cases'
totals of the held-out sets (eval/queries_holdout*.jsonl); for multi-turn cases, hybrid retrieval with
the raw follow-up, with our rewrite and with the gold rewrite; and the answers of both chat
bodies: sources when a gold recipe was retrieved, recipes named outside the retrieved set, cut
or looping answers, and their times, for the recipes' data (the embedded default) and the
embedded model (`--model-answers` cases). It uses the configured providers (the embedded ones
by default; LOCAL_EMBEDDER=wordllama for the other embedder) and a scratch copy of the
embedded index, so the app's own file is left alone."""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from app.catalog.names import RecipeNames
from app.chat import answers
from app.chat.answer_guard import Named, loops, names_outside
from app.chat.references.catalog import Catalog
from app.chat.rewrite import reformulate
from app.http.bodies import Message
from app.protocol.chat_protocol import ChatProtocolRequest
from app.providers.protocols import ChatModel
from app.recipes import Recipe, read_catalog
from app.search.retrieval import Retriever
from app.services import build_retriever, chat_model, load_sample_catalog
from app.settings import Settings
from eval.retrieval_eval import (
    DEVELOPMENT,
    HELD_OUT,
    measure,
    ours,
    read_cases,
    report,
    report_totals,
    score,
    single_turn,
    total,
)

DONT_KNOW = re.compile(
    r"\b(don't know|do not know|no recipe|none of|not (?:find|have|see)|couldn't|can't find)", re.I
)


async def main(use_llm: bool, sample: int) -> None:
    cases = [case for path in DEVELOPMENT for case in read_cases(path)]
    single = single_turn(cases)
    held_out = {name: single_turn(read_cases(path)) for name, path in HELD_OUT.items() if path.exists()}
    multi = [c for c in cases if c["category"] == "multi_turn"]
    with tempfile.TemporaryDirectory() as scratch:
        settings = Settings(local_db_path=Path(scratch) / "eval.sqlite3")
        retriever = build_retriever(settings)
        await load_sample_catalog(settings, retriever)

        print(f"Embedder: {retriever.embedder.model}.\n")
        print("\n".join(report(await measure(retriever, single), single, "Retrieval, development")))
        for name, held in held_out.items():
            results = await measure(retriever, held)
            print("\n" + "\n".join(report_totals(results, held, f"Retrieval, {name}")))

        if multi:
            await multi_turn(multi, retriever, settings, use_llm)
        if use_llm:
            await answer_checks(cases, retriever, settings, sample)


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
            rewrite = await reformulate(
                llm, case["query"], history, settings, Catalog(retriever.store, retriever.names)
            )
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


@dataclass
class AnswerTally:
    """The answer checks of one body and one writer."""

    cases: int = 0
    gold_found: int = 0  # a gold recipe was among the recipes retrieved
    gold_found_with_source: int = 0  # ... and the answer had at least one source
    outside: list[str] = field(default_factory=list)  # named a catalog recipe not retrieved
    cut_or_looping: list[str] = field(default_factory=list)
    model_kept: int = 0  # the model's own reply reached the user (not replaced by the data)
    seconds: list[float] = field(default_factory=list)

    def row(self, label: str) -> str:
        ordered = sorted(self.seconds)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        kept = f"{self.model_kept} of {self.cases}" if "model" in label else "–"
        return (
            f"| {label} | {self.cases} | {self.gold_found_with_source} of {self.gold_found} | "
            f"{len(self.outside)} | {len(self.cut_or_looping)} | {kept} | "
            f"{statistics.median(ordered):.2f} | {p95:.2f} |"
        )


def looping(text: str) -> bool:
    """A line said twice, or one that loops (the answer guard's own test)."""
    lines = [" ".join(line.split()).lower() for line in text.splitlines() if len(line.strip()) > 12]
    return len(set(lines)) < len(lines) or any(loops(line) for line in text.splitlines())


async def one_answer(
    body: str, case: dict, llm: ChatModel, retriever: Retriever, named: Named, settings: Settings
) -> tuple[str, list[str], str, str, list[Recipe]]:
    """(answer text, source ids, finish reason, writer, recipes retrieved) of one case, one body."""
    if body == "app":
        question = case.get("standalone") or case["query"]
        started = await answers.start_app_answer(llm, retriever, named, question, [], settings)
        response = await answers.chat_response(started)
        text, sources = response.answer, [s.id for s in response.sources]
    else:
        history = [Message.model_validate(m) for m in case.get("conversation", [])]
        request = ChatProtocolRequest.model_validate(
            {"messages": [*(m.model_dump() for m in history), {"role": "user", "content": case["query"]}]}
        )
        started = await answers.start_protocol_answer(llm, retriever, named, request, settings)
        text = "".join([piece async for piece in started.reply])
        sources = [s.id for s in started.reply.sources()]
    return text, sources, started.reply.finish_reason, started.reply.writer, started.reply.recipes


async def answer_checks(cases: list[dict], retriever: Retriever, settings: Settings, sample: int) -> None:
    """Both bodies' answers on the eval set: sources when a gold recipe was retrieved, no recipe
    named outside the retrieved set, no cut or looping answer, and the time each took; for the
    recipes' data (the embedded default) on every case, and the embedded model on a sample."""
    llm = chat_model(settings)
    catalog = list(read_catalog(settings.local_catalog_path))
    named: Named = RecipeNames.of(catalog).in_prose
    writers = [("data", cases)]
    if sample:
        writers.append(("model", cases[:: max(1, len(cases) // sample)][:sample]))
    print("\n## Answers, both bodies\n")
    print(
        "| body · writer | cases | with a source, when a gold recipe was retrieved | named a recipe "
        "not retrieved | cut or looping | the model's reply kept | median s | p95 s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    notes = []
    for writer, picked in writers:
        configured = settings.model_copy(update={"answer_writer": writer})
        for body in ("app", "protocol"):
            tally = AnswerTally()
            for case in picked:
                started = time.perf_counter()
                text, sources, finish, used, recipes = await one_answer(
                    body, case, llm, retriever, named, configured
                )
                tally.seconds.append(time.perf_counter() - started)
                retrieved = {r.id for r in recipes}
                tally.cases += 1
                tally.model_kept += used == "model"
                if set(case.get("relevant", [])) & retrieved:
                    tally.gold_found += 1
                    tally.gold_found_with_source += bool(sources)
                if names_outside(text, recipes, named) or set(sources) - retrieved:
                    tally.outside.append(case["id"])
                if finish == "length" or looping(text):
                    tally.cut_or_looping.append(case["id"])
            print(tally.row(f"{body} · {writer}"))
            if tally.outside or tally.cut_or_looping:
                notes.append(
                    f"- {body} · {writer}: outside {tally.outside}, cut or looping {tally.cut_or_looping}"
                )
    print("\n" + "\n".join(notes) if notes else "")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--no-llm", action="store_true", help="retrieval only: skip the rewrite and answer runs"
    )
    parser.add_argument(
        "--model-answers", type=int, default=40, help="cases answered by the embedded model (0: none)"
    )
    arguments = parser.parse_args()
    asyncio.run(main(use_llm=not arguments.no_llm, sample=arguments.model_answers))
