"""How often the rewrite guard sets the local model's rewrite aside, on a set of follow-ups.

Run: .venv/bin/python -m bench.rewrite_guard  (uses LOCAL_LLM_MODEL_PATH or the shipped SmolLM2)
Prints a Markdown table per follow-up and the totals.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from pathlib import Path

from app.chat.rewrite import reformulate
from app.http.bodies import Message
from app.services import chat_model
from app.settings import Settings


async def main() -> None:
    settings = Settings()
    llm = chat_model(settings)
    cases = json.loads((Path(__file__).parent / "followups.json").read_text(encoding="utf-8"))
    outcomes: Counter[str] = Counter()
    print("| follow-up | question sent to search | outcome | seconds |")
    print("|---|---|---|---|")
    for case in cases:
        history = [Message(role=role, content=content) for role, content in case["conversation"]]
        started = time.perf_counter()
        rewrite = await reformulate(llm, case["question"], history, settings)
        seconds = time.perf_counter() - started
        if rewrite.fallback:
            outcome = f"guard fired: {rewrite.fallback}"
        elif rewrite.question == case["question"]:
            outcome = "model returned the message as it was"
        else:
            outcome = "rewritten"
        outcomes[outcome] += 1
        print(f"| {case['question']} | {rewrite.question} | {outcome} | {seconds:.2f} |")
    fired = sum(n for outcome, n in outcomes.items() if outcome.startswith("guard"))
    print(f"\nThe guard fired on {fired} of {len(cases)} follow-ups.")
    for outcome, n in outcomes.most_common():
        print(f"- {outcome}: {n}")


if __name__ == "__main__":
    asyncio.run(main())
