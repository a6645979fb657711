"""How well follow-ups are rewritten: eval/followups.jsonl (development) and
eval/followups_holdout.jsonl (held out: written by someone else before the resolver, never
tuned against).

Run: make eval   (or .venv/bin/python -m eval.followups [--rewriter embedded|echo|gold|all])

For each case and each rewriter it measures:
- carry-over: the rewrite names every recipe the follow-up refers to (`carry`), spelled as
  the catalog spells its title, and holds every word that carries a constraint (`keep`);
  it names no recipe the follow-up set aside (`forbid`);
- topic switches: the rewrite inherits nothing (`forbid`: earlier recipes and constraints);
- gold in the top 3: hybrid retrieval, as `/api/chat` searches, with the raw follow-up,
  the rewrite and the hand-written gold rewrite;
- the rewrite's time.

Rewriters: `embedded`, the default configuration (the catalog resolver, no model call);
`echo` and `gold`, the model path with a scripted model that returns the user's message
unchanged (what SmolLM2 mostly does) or the hand-written gold rewrite (a model that gets it
right), so that the checks around the model are measured, not the model.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import tempfile
import time
import unicodedata
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.chat.references.catalog import Catalog
from app.chat.rewrite import reformulate
from app.chat.understanding import understand
from app.http.bodies import Message
from app.search.question_reader import ModelReader
from app.search.retrieval import Retriever
from app.services import build_retriever, chat_model, load_sample_catalog
from app.settings import Settings

HERE = Path(__file__).resolve().parent
SETS = {
    "development": HERE / "followups.jsonl",
    "development, round 2": HERE / "followups_more.jsonl",
    "development, round 3": HERE / "followups_third.jsonl",
    # Written by someone who saw no code, during the sixth round; measured once, then studied.
    "development, round 4": HERE / "followups_fourth.jsonl",
    # Written by someone who saw no code, at the end of the sixth round; measured once, then studied.
    "development, round 5": HERE / "followups_fifth.jsonl",
    # Written by someone who saw no code, before the seventh round; measured once, then studied.
    "development, round 6": HERE / "followups_sixth.jsonl",
    # Written by someone who saw no code, during the seventh round; measured once (a2d9d1f),
    # then studied.
    "development, round 7": HERE / "followups_seventh.jsonl",
    # Written by someone who saw no code, late in the seventh round; measured once (841c792),
    # then studied.
    "development, round 8": HERE / "followups_eighth.jsonl",
    # Written by someone who saw no code, before the eighth round; measured once (a1b9d51),
    # then studied.
    "development, round 9": HERE / "followups_ninth.jsonl",
    # Written by someone who saw no code, before the eighth round; measured once (a1b9d51),
    # then studied.
    "development, round 10": HERE / "followups_tenth.jsonl",
    # Written by someone who saw no code, during the eighth round; measured once (2e905e9),
    # then studied.
    "development, round 11": HERE / "followups_eleventh.jsonl",
    # Written by someone who saw no code, during the eighth round; measured once (2e905e9),
    # then studied.
    "development, round 12": HERE / "followups_twelfth.jsonl",
    # Written by someone who saw no code, late in the eighth round; measured once (51a55be),
    # then studied.
    "development, round 13": HERE / "followups_thirteenth.jsonl",
    # Written by someone who saw no code, late in the eighth round; measured once (51a55be),
    # then studied.
    "development, round 14": HERE / "followups_fourteenth.jsonl",
    # Written by someone who saw no code, late in the eighth round; measured once (528b5ee),
    # then studied.
    "development, round 15": HERE / "followups_fifteenth.jsonl",
    # Written by someone who saw no code, late in the eighth round; measured once (528b5ee),
    # then studied.
    "development, round 16": HERE / "followups_sixteenth.jsonl",
    # Written by someone who saw no code, before the ninth round; measured once (acd49fe),
    # then studied.
    "development, round 17": HERE / "followups_seventeenth.jsonl",
    # Written by someone who saw no code, before the ninth round; measured once (acd49fe),
    # then studied.
    "development, round 18": HERE / "followups_eighteenth.jsonl",
    # Written by someone who saw no code, during the ninth round; measured once (51e588a),
    # then studied.
    "development, round 19": HERE / "followups_nineteenth.jsonl",
    # Written by someone who saw no code, during the ninth round; measured once (51e588a),
    # then studied.
    "development, round 20": HERE / "followups_twentieth.jsonl",
    # Written by someone who saw no code, during the ninth round; measured once (4b71b8c),
    # then studied.
    "development, round 21": HERE / "followups_twentyfirst.jsonl",
    # Written by someone who saw no code, during the ninth round, to stress topic switches
    # against follow-ups that keep the earlier constraints; measured once (54e14bf), then studied.
    "development, round 22": HERE / "followups_twentysecond.jsonl",
    # Written by someone who saw no code, late in the ninth round; measured once (f84746c),
    # then studied.
    "development, round 23": HERE / "followups_twentythird.jsonl",
    # Written by someone who saw no code, late in the ninth round; measured once (6bd2b25),
    # then studied.
    "development, round 24": HERE / "followups_twentyfourth.jsonl",
    # Written by someone who saw no code, late in the ninth round; measured once (6bd2b25),
    # then studied.
    "development, round 25": HERE / "followups_twentyfifth.jsonl",
    # Written by someone who saw no code, before the tenth round, to stress topic switches;
    # measured once (d404388), then studied.
    "development, round 26": HERE / "followups_twentysixth.jsonl",
    # Written by someone who saw no code, before the tenth round; measured once (d404388),
    # then studied.
    "development, round 27": HERE / "followups_twentyseventh.jsonl",
    # Written by someone who saw no code, before the tenth round, to stress topic switches;
    # measured once (d404388), then studied.
    # Written by someone who saw no code, during the tenth round; measured once (118b68b),
    # then studied.
    "development, round 28": HERE / "followups_twentyeighth.jsonl",
    "development, round 29": HERE / "followups_twentyninth.jsonl",
    # Written by someone who saw no code, during the tenth round, to stress topic switches;
    # measured once (118b68b), then studied.
    "development, round 30": HERE / "followups_thirtieth.jsonl",
    # Written by someone who saw no code, late in the tenth round; measured once (6f57498),
    # then studied.
    "development, round 31": HERE / "followups_thirtyfirst.jsonl",
    # Written by someone who saw no code, late in the tenth round; measured once (6f57498),
    # then studied.
    "development, round 32": HERE / "followups_thirtysecond.jsonl",
    # Written by someone who saw no code, late in the tenth round, to stress topic switches;
    # measured once (6f57498), then studied.
    "development, round 33": HERE / "followups_thirtythird.jsonl",
    # Written by someone who saw no code, at the end of the tenth round, to stress topic
    # switches; measured once (f00766a), then studied.
    "development, round 34": HERE / "followups_thirtyfourth.jsonl",
    # Written by someone who saw no code, at the end of the tenth round; measured once
    # (f00766a), then studied.
    "development, round 35": HERE / "followups_thirtyfifth.jsonl",
    # Written by someone who saw no code, at the end of the tenth round; measured once
    # (f00766a), then studied.
    "development, round 36": HERE / "followups_thirtysixth.jsonl",
    # Written by someone who saw no code, before the eleventh round; measured once (d02209a),
    # then studied.
    "development, round 37": HERE / "followups_thirtyseventh.jsonl",
    "development, round 38": HERE / "followups_thirtyeighth.jsonl",
    # Written by someone who saw no code, before the eleventh round, to stress topic switches;
    # measured once (d02209a), then studied.
    "development, round 39": HERE / "followups_thirtyninth.jsonl",
    # Written by someone who saw no code, before the eleventh round; measured once (d02209a),
    # then studied.
    "development, round 40": HERE / "followups_fortieth.jsonl",
    # Written by someone who saw no code, before the eleventh round, to stress topic switches;
    # measured once (d02209a), then studied.
    "development, round 41": HERE / "followups_fortyfirst.jsonl",
    # Written by someone who saw no code, before the eleventh round; measured once (d02209a),
    # then studied.
    "development, round 42": HERE / "followups_fortysecond.jsonl",
    # Written by someone who saw no code, during the eleventh round; measured once (5b6b861), then
    # studied.
    "development, round 43": HERE / "followups_fortythird.jsonl",
    "development, round 45": HERE / "followups_fortyfifth.jsonl",
    # Written by someone who saw no code, during the eleventh round, to stress topic switches;
    # measured once (84d6807), then studied.
    "development, round 44": HERE / "followups_fortyfourth.jsonl",
    "development, round 46": HERE / "followups_fortysixth.jsonl",
    # Written by someone who saw no code, during the twelfth round; measured once (c25ffd1), then
    # studied.
    "development, round 47": HERE / "followups_fortyseventh.jsonl",
    "development, round 48": HERE / "followups_fortyeighth.jsonl",
    "development, round 49": HERE / "followups_fortyninth.jsonl",
    "development, round 50": HERE / "followups_fiftieth.jsonl",
    # Written by someone who saw no code, during the twelfth round; measured once (b931bbb), then
    # studied.
    "development, round 51": HERE / "followups_fiftyfirst.jsonl",
    "development, round 52": HERE / "followups_fiftysecond.jsonl",
    # Written by someone who saw no code, at the start of the thirteenth round (53 and 54 to
    # stress topic switches); measured once (53 on ec5d45f, 54 and 55 on 4074ead), then studied.
    "development, round 53": HERE / "followups_fiftythird.jsonl",
    "development, round 54": HERE / "followups_fiftyfourth.jsonl",
    "development, round 55": HERE / "followups_fiftyfifth.jsonl",
    # Written by someone who saw no code, mid-way through the thirteenth round (56 to stress topic
    # switches); measured once (454ce7e), then studied.
    "development, round 56": HERE / "followups_fiftysixth.jsonl",
    "development, round 57": HERE / "followups_fiftyseventh.jsonl",
    # Written by someone who saw no code, at the start of the fourteenth round (58 and 59 to
    # stress topic switches); measured once on the round's start (ed62d5f), then studied.
    "development, round 58": HERE / "followups_fiftyeighth.jsonl",
    "development, round 59": HERE / "followups_fiftyninth.jsonl",
    "development, round 60": HERE / "followups_sixtieth.jsonl",
    # Written by someone who saw no code, at the start of the fifteenth round (61 to the switch
    # brief, 62 to the hard brief); measured once (f00ea93), then studied.
    "development, round 61": HERE / "followups_sixtyfirst.jsonl",
    "development, round 62": HERE / "followups_sixtysecond.jsonl",
    # Written by someone who saw no code, at the start of the seventeenth round (63 to the switch
    # brief, 64 to the hard brief); measured once (63 after the round's first rule), then studied.
    "development, round 63": HERE / "followups_sixtythird.jsonl",
    "development, round 64": HERE / "followups_sixtyfourth.jsonl",
    # Written blind at the start of the eighteenth round (65 to the switch brief, 66 to the
    # hard brief), measured once on its start (01d77ee), then studied.
    "development, round 65": HERE / "followups_sixtyfifth.jsonl",
    "development, round 66": HERE / "followups_sixtysixth.jsonl",
    "held out": HERE / "followups_holdout.jsonl",
    # Written by someone who saw no code, after the resolver's third round; measured once.
    "held out, round 2": HERE / "followups_holdout_2.jsonl",
    # Written by someone who saw no code, after the resolver's fourth round; measured once at
    # 19bc286, then studied in the fifth round.
    "held out, round 3": HERE / "followups_holdout_3.jsonl",
    # Written by someone who saw no code, before the resolver's fifth round; measured once at
    # 4b4b1ca, then studied.
    "held out, round 4": HERE / "followups_holdout_4.jsonl",
    # Written by someone who saw no code, during the fifth round; measured once at its end
    # (7551bb9), then studied in the sixth round.
    "held out, round 5": HERE / "followups_holdout_5.jsonl",
    # Written by someone who saw no code, before the sixth round; measured before it (7cb348f)
    # and after it, then studied in the seventh round.
    "held out, round 6": HERE / "followups_holdout_6.jsonl",
    # Written by someone who saw no code, before the seventh round; measured before it
    # (5146306) and after it, then studied in the eighth round.
    "held out, round 7": HERE / "followups_holdout_7.jsonl",
    # Written by someone who saw no code, at the end of the seventh round; measured once on
    # its final code, never studied.
    "held out, round 8": HERE / "followups_holdout_8.jsonl",
    # Written by someone who saw no code, before the eighth round; measured before it
    # (a1b9d51) and after it, never studied.
    "held out, round 9": HERE / "followups_holdout_9.jsonl",
    # Written by someone who saw no code, during the eighth round; measured when it came in
    # (2e905e9) and at the round's end, never studied.
    "held out, round 10": HERE / "followups_holdout_10.jsonl",
    # Written by someone who saw no code, late in the eighth round; measured once, on its final
    # code, never studied.
    "held out, round 11": HERE / "followups_holdout_11.jsonl",
    # Written by someone who saw no code, before the ninth round; measured before it (acd49fe)
    # and after it, never studied.
    "held out, round 12": HERE / "followups_holdout_12.jsonl",
    # Written by someone who saw no code, before the ninth round; measured before it (acd49fe)
    # and after it, never studied.
    "held out, round 13": HERE / "followups_holdout_13.jsonl",
    # Written by someone who saw no code, during the ninth round; measured when it came in
    # (acd49fe, 51e588a) and at the round's end, never studied.
    "held out, round 14": HERE / "followups_holdout_14.jsonl",
    # Written by someone who saw no code, during the ninth round; measured when it came in
    # (acd49fe, 4b71b8c) and at the round's end, never studied.
    "held out, round 15": HERE / "followups_holdout_15.jsonl",
    # Written by someone who saw no code, late in the ninth round; measured once, on the
    # round's final code, never studied.
    "held out, round 16": HERE / "followups_holdout_16.jsonl",
    # Written by someone who saw no code, before the tenth round; measured before it (ba62bd3)
    # and after it, never studied.
    "held out, round 17": HERE / "followups_holdout_17.jsonl",
    # Written by someone who saw no code, before the tenth round, to stress topic switches;
    # measured before it (ba62bd3) and after it, never studied.
    "held out, round 18": HERE / "followups_holdout_18.jsonl",
    # Written by someone who saw no code, early in the tenth round; measured only on its start
    # (ba62bd3) and on its final code, never studied.
    "held out, round 19": HERE / "followups_holdout_19.jsonl",
    # Written by someone who saw no code, before the eleventh round; measured only on its start
    # (d02209a) and on its final code, never studied.
    "held out, round 20": HERE / "followups_holdout_20.jsonl",
    # Written by someone who saw no code, before the eleventh round, to stress topic switches;
    # measured only on its start (d02209a) and on its final code, never studied.
    "held out, round 21": HERE / "followups_holdout_21.jsonl",
    # Written by someone who saw no code, before the twelfth round; measured only on its start
    # (c25ffd1) and on its final code, never studied.
    "held out, round 22": HERE / "followups_holdout_22.jsonl",
    "held out, round 23": HERE / "followups_holdout_23.jsonl",
    # Written by someone who saw no code, during the twelfth round; measured once, on its final
    # code, never studied.
    "held out, round 24": HERE / "followups_holdout_24.jsonl",
    "held out, round 25": HERE / "followups_holdout_25.jsonl",
    # Written by someone who saw no code, at the start of the thirteenth round (27 to stress
    # topic switches); measured only on its start (4074ead) and on its final code, never studied.
    "held out, round 26": HERE / "followups_holdout_26.jsonl",
    "held out, round 27": HERE / "followups_holdout_27.jsonl",
    # Written by someone who saw no code, mid-way through the thirteenth round (28 to stress
    # topic switches); measured only on the round's start (4074ead) and its final code, never
    # studied.
    "held out, round 28": HERE / "followups_holdout_28.jsonl",
    "held out, round 29": HERE / "followups_holdout_29.jsonl",
    # Written by someone who saw no code, at the start of the fourteenth round, both to stress
    # topic switches; measured only on the round's start (ed62d5f) and its final code, never
    # studied.
    "held out, round 30": HERE / "followups_holdout_30.jsonl",
    "held out, round 31": HERE / "followups_holdout_31.jsonl",
    # Written by someone who saw no code, at the start of the fifteenth round (32 to the switch
    # brief, 33 to the hard brief); measured only on the round's start (f00ea93) and its final
    # code, never studied.
    "held out, round 32": HERE / "followups_holdout_32.jsonl",
    "held out, round 33": HERE / "followups_holdout_33.jsonl",
    "held out, round 34": HERE / "followups_holdout_34.jsonl",
    "held out, round 35": HERE / "followups_holdout_35.jsonl",
    # Written blind at the start of the seventeenth round (36 to the switch brief, 37 to the
    # hard brief); measured only on the round's start (2d3ed27) and its final code.
    "held out, round 36": HERE / "followups_holdout_36.jsonl",
    "held out, round 37": HERE / "followups_holdout_37.jsonl",
    # Written blind at the start of the eighteenth round (38 to the switch brief, 39 to the
    # hard brief); measured only on the round's start (01d77ee) and its final code.
    "held out, round 38": HERE / "followups_holdout_38.jsonl",
    "held out, round 39": HERE / "followups_holdout_39.jsonl",
}
# Sets whose cases are never printed: they measure, they are not studied.
MEASURED_ONCE = frozenset(
    {
        "held out, round 8",
        "held out, round 9",
        "held out, round 10",
        "held out, round 11",
        "held out, round 12",
        "held out, round 13",
        "held out, round 14",
        "held out, round 15",
        "held out, round 16",
        "held out, round 17",
        "held out, round 18",
        "held out, round 19",
        "held out, round 20",
        "held out, round 21",
        "held out, round 22",
        "held out, round 23",
        "held out, round 24",
        "held out, round 25",
        "held out, round 26",
        "held out, round 27",
        "held out, round 28",
        "held out, round 29",
        "held out, round 30",
        "held out, round 31",
        "held out, round 32",
        "held out, round 33",
        "held out, round 34",
        "held out, round 35",
        "held out, round 36",
        "held out, round 37",
        "held out, round 38",
        "held out, round 39",
    }
)
CATALOG = HERE.parent / "data" / "recipes.jsonl"
CARRYING = ("set", "ordinal", "description", "focus", "exclusion", "constraint")

Rewrite = Callable[[dict[str, Any]], Awaitable[str]]


def folded(text: str) -> str:
    """Lower case, accents and punctuation gone: how a title is looked for in a rewrite."""
    text = unicodedata.normalize("NFKD", text.lower())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(re.findall(r"[a-z0-9]+", text))


def title_forms(title: str) -> list[str]:
    """The catalog title, and the title without its parenthesis ("Rösti", "Bolo do Caco")."""
    bare = re.sub(r"\s*\([^)]*\)", "", title).strip()
    return [folded(t) for t in dict.fromkeys([title, bare]) if t]


def names(rewrite: str, recipe_id: str, titles: dict[str, str]) -> bool:
    text = f" {folded(rewrite)} "
    return any(f" {form} " in text for form in title_forms(titles[recipe_id]))


def holds(rewrite: str, word: str) -> bool:
    return folded(word).rstrip("s") in folded(rewrite)


@dataclass
class Tally:
    carried: int = 0
    carry_cases: int = 0
    clean_switches: int = 0
    switches: int = 0
    top3: dict[str, int] = field(default_factory=lambda: {"raw": 0, "rewrite": 0, "gold": 0})
    ranked: int = 0
    seconds: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    # Cases whose rewrite found no relevant recipe in the top 3.
    missed: list[str] = field(default_factory=list)


def carries(case: dict[str, Any], rewrite: str, titles: dict[str, str]) -> bool:
    # A title set aside may be part of a carried one ("Shepherd's Pie" in "Pâté Chinois
    # (Quebec Style Shepherd's Pie)"): the carried titles are taken out before that check.
    rest = f" {folded(rewrite)} "
    for i in case["carry"]:
        for form in title_forms(titles[i]):
            rest = rest.replace(f" {form} ", " ")
    return (
        all(names(rewrite, i, titles) for i in case["carry"])
        and all(holds(rewrite, w) for w in case["keep"])
        and not any(names(rest, i, titles) for i in case["forbid"] if i in titles)
    )


def inherits_nothing(case: dict[str, Any], rewrite: str, titles: dict[str, str]) -> bool:
    """Nothing set aside comes back, unless the user's own follow-up says it ("forget the
    chicken, I'd rather do fish")."""

    def inherited(item: str) -> bool:
        if item in titles:
            return names(rewrite, item, titles) and not names(case["query"], item, titles)
        return holds(rewrite, item) and not holds(case["query"], item)

    return not any(inherited(item) for item in case["forbid"])


async def in_top3(retriever: Retriever, query: str, relevant: Sequence[str], top: int) -> bool:
    retrieval = await retriever.retrieve_question(query, top)
    return bool({f.recipe.id for f in retrieval.found[:3]} & set(relevant))


async def evaluate(
    cases: list[dict[str, Any]], rewrite: Rewrite, retriever: Retriever, titles: dict[str, str], top: int
) -> tuple[Tally, dict[str, str]]:
    tally, rewrites = Tally(), {}
    for case in cases:
        started = time.perf_counter()
        text = await rewrite(case)
        tally.seconds.append(time.perf_counter() - started)
        rewrites[case["id"]] = text
        if case["kind"] in CARRYING:
            tally.carry_cases += 1
            ok = carries(case, text, titles)
            tally.carried += ok
            if not ok:
                tally.failures.append(case["id"])
        if case["kind"] == "switch":
            tally.switches += 1
            ok = inherits_nothing(case, text, titles)
            tally.clean_switches += ok
            if not ok:
                tally.failures.append(case["id"])
        if case["relevant"]:
            tally.ranked += 1
            for label, query in (("raw", case["query"]), ("rewrite", text), ("gold", case["gold"])):
                hit = await in_top3(retriever, query, case["relevant"], top)
                tally.top3[label] += hit
                if label == "rewrite" and not hit:
                    tally.missed.append(case["id"])
    return tally, rewrites


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}% ({part}/{whole})" if whole else "–"


def history_of(case: dict[str, Any]) -> list[Message]:
    return [Message.model_validate(m) for m in case["conversation"]]


def rewriters(settings: Settings, retriever: Retriever) -> dict[str, Rewrite]:
    """The rewrite of `/api/chat/reformulate` under each configuration."""

    # The scripted model stands for a cloud one: an endpoint is set (never called), so that the
    # checks are those a capable model's rewrite meets.
    model_settings = settings.model_copy(
        update={"rewriter": "model", "openai_base_url": "http://scripted.invalid/v1"}
    )
    # As on a cloud model with structured output: one call returns the rewrite and the filters.
    model = ScriptedModel("")
    model_reads = Retriever(retriever.embedder, retriever.index, retriever.store, ModelReader(model))

    def scripted(reply: Callable[[dict[str, Any]], str]) -> Rewrite:
        async def run(case: dict[str, Any]) -> str:
            model.reply = reply(case)
            understood = await understand(model, case["query"], history_of(case), model_settings, model_reads)
            return understood.rewrite.question

        return run

    async def embedded(case: dict[str, Any]) -> str:
        rewrite = await reformulate(local_llm, case["query"], history_of(case), settings, catalog)
        return rewrite.question

    catalog = Catalog(retriever.store, retriever.names)
    local_llm = chat_model(settings)

    async def as_written(case: dict[str, Any]) -> str:
        return str(case["gold"])

    return {
        "gold as written": as_written,
        "embedded": embedded,
        "echo": scripted(lambda case: case["query"]),
        "gold": scripted(lambda case: case["gold"]),
    }


class ScriptedModel:
    """A chat model that always says `reply`."""

    model = "scripted"

    def __init__(self, reply: str) -> None:
        self.reply = reply

    async def complete(self, messages: Any, **options: Any) -> str:
        if options.get("json_schema"):
            # The rewrite, with no filters read: only the rewrite is measured here.
            nothing = dict.fromkeys(["vegetarian", "vegan", "gluten_free", "dairy_free", "max_total_minutes"])
            return json.dumps({"question": self.reply, "search_text": self.reply, **nothing, "exclude": []})
        return self.reply

    async def stream(self, messages: Any, **options: Any) -> Any:
        raise NotImplementedError


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


async def main(names_wanted: Sequence[str], verbose: bool) -> None:
    titles = {r["id"]: r["title"] for r in load(CATALOG)}
    with tempfile.TemporaryDirectory() as scratch:
        settings = Settings(local_db_path=Path(scratch) / "eval.sqlite3")
        retriever = build_retriever(settings)
        await load_sample_catalog(settings, retriever)
        available = rewriters(settings, retriever)
        print("## Follow-ups: the rewrite of /api/chat/reformulate\n")
        print(
            "| set | rewriter | carry-over | topic switches inherit nothing"
            " | gold in top 3: raw | rewrite | gold rewrite | rewrite ms median | p95 |"
        )
        print("|---|---|---|---|---|---|---|---|---|")
        for set_name, path in SETS.items():
            cases = load(path)
            for name in names_wanted:
                tally, rewrites = await evaluate(
                    cases, available[name], retriever, titles, settings.search_top
                )
                ms = sorted(1000 * s for s in tally.seconds)
                p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
                print(
                    f"| {set_name} ({len(cases)}) | {name} | {percent(tally.carried, tally.carry_cases)}"
                    f" | {percent(tally.clean_switches, tally.switches)}"
                    f" | {percent(tally.top3['raw'], tally.ranked)}"
                    f" | {percent(tally.top3['rewrite'], tally.ranked)}"
                    f" | {percent(tally.top3['gold'], tally.ranked)}"
                    f" | {statistics.median(ms):.1f} | {p95:.1f} |"
                )
                # The held-out cases stay unread: only their figures are shown.
                if verbose and set_name not in MEASURED_ONCE:
                    for case in cases:
                        mark = "✗" if case["id"] in tally.failures else " "
                        mark += "·" if case["id"] in tally.missed else " "
                        said, rewrite = case["query"], rewrites[case["id"]]
                        print(f"  {mark} {case['id']} {case['kind']:<11} {said!r} -> {rewrite!r}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--rewriter", choices=["gold as written", "embedded", "echo", "gold", "all"], default="all"
    )
    parser.add_argument("--verbose", action="store_true", help="print the rewrites (not of MEASURED_ONCE)")
    args = parser.parse_args()
    chosen = ["gold as written", "embedded", "echo", "gold"] if args.rewriter == "all" else [args.rewriter]
    asyncio.run(main(chosen, args.verbose))
