"""Whether a cloud model's answer prompt holds the steps an answer needs.

The answer prompt gives the steps only of the recipes a question is about
(`app/chat/answers.py`, `asked_about`). This measures what that costs: for every question of
the eval's query sets and every gold standalone question of the studied follow-up sets, the
recipes are retrieved as `/api/chat` retrieves them, and the data answer is composed; where
that answer reads a recipe's steps (how to make it, how it keeps, its kit, its effort), the
question counts as served when every recipe it cites is one whose steps the prompt holds.

Run: .venv/bin/python -m eval.prompt_steps [-v]   (-v lists the questions not served)
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

from app.chat.answers import asked_about
from app.chat.data_answers import compose
from app.services import build_retriever, load_sample_catalog
from app.settings import Settings
from eval.followups import MEASURED_ONCE, SETS, load

HERE = Path(__file__).parent
# The data answers that read a recipe's steps.
STEP_KINDS = frozenset({"method", "step", "keeping", "kit", "effort"})
CITED = re.compile(r"\[([a-z0-9][a-z0-9-]*)\]")


def questions() -> list[str]:
    asked = [
        json.loads(line)["query"]
        for name in ("queries.jsonl", "queries_second.jsonl")
        for line in (HERE / name).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    return asked + [c["gold"] for name, path in SETS.items() if name not in MEASURED_ONCE for c in load(path)]


async def main(verbose: bool) -> None:
    served: Counter[str] = Counter()
    reading: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as scratch:
        settings = Settings(local_db_path=Path(scratch) / "eval.sqlite3")
        retriever = build_retriever(settings)
        await load_sample_catalog(settings, retriever)
        for question in questions():
            retrieval = await retriever.retrieve_question(question, settings.search_top)
            answer = compose(question, [f.recipe for f in retrieval.found])
            if answer.kind not in STEP_KINDS:
                continue
            missing = set(CITED.findall(answer.text)) - asked_about(retrieval, question)
            reading[answer.kind] += 1
            served[answer.kind] += not missing
            if missing and verbose:
                print(f"not served ({answer.kind}): {question!r}: {sorted(missing)}")
    total, ok = sum(reading.values()), sum(served.values())
    print(
        f"questions whose data answer reads steps: {total}; steps of every recipe cited in the prompt: {ok}"
    )
    for kind, count in reading.most_common():
        print(f"  {kind}: {served[kind]} of {count}")


if __name__ == "__main__":
    asyncio.run(main("-v" in sys.argv[1:]))
