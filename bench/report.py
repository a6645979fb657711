"""bench/results.md and bench/latency_vs_turns.png from one run's figures."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.stats import median, p95

OVERHEAD_GOAL_MS = 3.0
CONCURRENCY_GOAL = 2.0
IMPORT_GOAL_MS = 500.0
FIRST_REQUEST_GOAL_MS = 1000.0
SHOWN_TURNS = (1, 2, 3, 4, 6, 10, 20, 35, 50)
PAGE = ("ours: page (reformulate)", "ours: page (chat)")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def verdict(met: bool) -> str:
    return "met" if met else "**missed**"


def overhead_table(rows: dict[str, Any]) -> list[str]:
    lines = [
        "| request | LLM calls | end to end, median ms | upstream, median ms | overhead, median ms "
        f"| overhead, p95 ms | goal < {OVERHEAD_GOAL_MS:g} ms |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, row in rows.items():
        measured = [("", row["overhead"])]
        if "first_line" in row:
            measured = [
                (": first byte", row["ttfb"]),
                (": first line (context)", row["first_line"]),
                (": whole stream", row["overhead"]),
            ]
        for suffix, overhead in measured:
            ours = not name.startswith("LangChain")
            goal = verdict(median(overhead) * 1000 < OVERHEAD_GOAL_MS) if ours else "–"
            lines.append(
                f"| {name}{suffix} | {row['calls']:g} | {ms(median(row['latency']))} "
                f"| {ms(median(row['upstream']))} | {ms(median(overhead))} | {ms(p95(overhead))} | {goal} |"
            )
    return lines


def concurrency_table(rows: dict[str, Any], concurrency: int) -> list[str]:
    lines = [
        f"| pipeline | LLM calls | one alone, ms | {concurrency} at once: all done, ms | ratio "
        f"| each, median ms | each, p95 ms | goal ≤ {CONCURRENCY_GOAL:g}× |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, row in rows.items():
        goal = verdict(row["ratio"] <= CONCURRENCY_GOAL) if not name.startswith("LangChain") else "–"
        lines.append(
            f"| {name} | {row['calls']} | {ms(row['alone'])} | {ms(row['wall'])} | {row['ratio']:.2f}× "
            f"| {ms(row['each_median'])} | {ms(row['each_p95'])} | {goal} |"
        )
    return lines


def sent(calls: dict[str, Any]) -> int:
    """The prompt tokens a pipeline's calls sent, with their structured-output schemas."""
    return int(calls["prompt_tokens"]) + int(calls.get("schema_tokens", 0))


def turns_table(turns: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| turn | ours, protocol: calls | prompt tokens | + schemas "
        "| ours, page (reformulate + chat): calls | prompt tokens | + schemas "
        "| LangChain: calls | prompt tokens | ours / LangChain, tokens (protocol) | … with schemas "
        "| goal ≤ 1 |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in turns:
        if row["turn"] not in SHOWN_TURNS:
            continue
        ours, theirs = row["ours: protocol"], row["LangChain"]
        page_calls = sum(row[p]["calls"] for p in PAGE)
        page_tokens = sum(row[p]["prompt_tokens"] for p in PAGE)
        page_schemas = sum(row[p].get("schema_tokens", 0) for p in PAGE)
        schemas = ours.get("schema_tokens", 0)
        ratio = ours["prompt_tokens"] / theirs["prompt_tokens"]
        with_schemas = (ours["prompt_tokens"] + schemas) / theirs["prompt_tokens"]
        lines.append(
            f"| {row['turn']} | {ours['calls']} | {ours['prompt_tokens']} | {schemas} | {page_calls} "
            f"| {page_tokens} | {page_schemas} | {theirs['calls']} | {theirs['prompt_tokens']} "
            f"| {ratio:.2f} | {with_schemas:.2f} | {verdict(with_schemas <= 1)} |"
        )
    # The schema is read by the model and billed as input: the goal counts it.
    over = [r["turn"] for r in turns if sent(r["ours: protocol"]) > r["LangChain"]["prompt_tokens"]]
    page_over = [r["turn"] for r in turns if sum(sent(r[p]) for p in PAGE) > r["LangChain"]["prompt_tokens"]]
    lines += [
        "",
        f"Turns (of {len(turns)} measured, 1 to {turns[-1]['turn']}) where ours sent more prompt tokens than "
        f"LangChain's, schemas counted: protocol {', '.join(map(str, over)) or 'none'}; "
        f"page {', '.join(map(str, page_over)) or 'none'}.",
    ]
    return lines


def cold_table(cold: dict[str, Any], memory: dict[str, Any]) -> list[str]:
    imports = [s * 1000 for s in cold["import"]]
    theirs = [s * 1000 for s in cold["langchain_import"]]
    starts = cold["starts"]
    first = [s["first"] * 1000 for s in starts]
    lines = [
        "| what | median | p95 | goal |",
        "|---|---|---|---|",
        f"| `import function_app`, fresh process, ms | {median(imports):.0f} | {p95(imports):.0f} "
        f"| < {IMPORT_GOAL_MS:g} ms: {verdict(median(imports) < IMPORT_GOAL_MS)} |",
        f"| LangChain's imports (`langchain_classic.chains`, `langchain_openai`), ms | {median(theirs):.0f} "
        f"| {p95(theirs):.0f} | – |",
        f"| local host started → listening, ms | {median([s['listening'] * 1000 for s in starts]):.0f} "
        f"| {p95([s['listening'] * 1000 for s in starts]):.0f} | – |",
        f"| first request (builds the providers, loads WordLlama), ms | {median(first):.0f} "
        f"| {p95(first):.0f} "
        f"| < {FIRST_REQUEST_GOAL_MS:g} ms: {verdict(median(first) < FIRST_REQUEST_GOAL_MS)} |",
        f"| second request, ms | {median([s['second'] * 1000 for s in starts]):.1f} "
        f"| {p95([s['second'] * 1000 for s in starts]):.1f} | – |",
        f"| resident memory after the first request, MB | {median([s['rss'] for s in starts]):.0f} "
        f"| {p95([s['rss'] for s in starts]):.0f} | – |",
        f"| resident memory after the whole run (peak), MB: ours | {memory['ours'][0]:.0f} "
        f"({memory['ours'][1]:.0f}) | | – |",
        f"| … LangChain's server | {memory['langchain'][0]:.0f} ({memory['langchain'][1]:.0f}) | | – |",
    ]
    heaviest = ", ".join(f"`{name}` {cum:.0f} ms" for name, cum in cold["heaviest"])
    lines += ["", f"Heaviest imports under `function_app` (cumulative, `-X importtime`): {heaviest}."]
    return lines


def comparison(results: dict[str, Any]) -> list[str]:
    overhead = results["overhead"]
    ours = median(overhead["chat, protocol"]["overhead"])
    theirs = median(overhead["LangChain chain"]["overhead"])
    lines = [
        "| figure | ours | LangChain | ours / LangChain |",
        "|---|---|---|---|",
        f"| overhead per chat, median ms (protocol body, turn 3) | {ms(ours)} | {ms(theirs)} "
        f"| {ours / theirs:.2f} |",
    ]
    for row in results["turns"]:
        if row["turn"] in (3, 10, 50):
            a, b = row["ours: protocol"]["prompt_tokens"], row["LangChain"]["prompt_tokens"]
            lines.append(f"| prompt tokens per turn, turn {row['turn']} | {a} | {b} | {a / b:.2f} |")
            a, b = row["ours: protocol"]["overhead"], row["LangChain"]["overhead"]
            lines.append(f"| overhead, turn {row['turn']}, ms | {ms(a)} | {ms(b)} | {a / b:.2f} |")
    conc = results["concurrency"]
    lines.append(
        f"| {results['sizes']['concurrency']} at once / one alone | {conc['chat, protocol']['ratio']:.2f}× "
        f"| {conc['LangChain chain']['ratio']:.2f}× | "
        f"{conc['chat, protocol']['ratio'] / conc['LangChain chain']['ratio']:.2f} |"
    )
    return lines


def markdown(results: dict[str, Any], plotted: str | None) -> str:
    m = results["machine"]
    sizes = results["sizes"]
    lines = [
        "# Benchmark results",
        "",
        f"{m['date']} · {m['cpu']}, {m['cores']} cores (shared with other jobs) · Python {m['python']} · "
        f"{m['os']} · `LLM_RESPONSE_FORMAT={results['response_format']}` · "
        f"{sizes['overhead_rounds']} rounds per overhead row · run took {results['runtime_s']:.0f} s "
        f"(`{'make bench ARGS=--quick' if sizes['turn_reps'] == 1 else 'make bench'}`).",
        "",
        "Overhead = the client's end-to-end time minus the fake upstream's own time for every call the "
        "request made (`bench/fake_openai.py` times each call from its first byte in to its last byte "
        "out). Prompt tokens are estimated by the fake (4 characters a token + 4 per message), the same "
        "way for both pipelines; a structured-output schema, which the model reads too, is "
        "counted apart (`+ schemas`, its compact JSON by the same rule; LangChain's chain sends none). "
        "The first catalog load on an empty store took "
        f"{results['first_run_indexing_s']:.1f} s (not in any figure below).",
        "",
        "## 1. Overhead per request (upstream answers at once, 20 tokens)",
        "",
        *overhead_table(results["overhead"]),
        "",
        f"## 2. Concurrency: {sizes['concurrency']} chats at once, 200 ms per upstream call",
        "",
        *concurrency_table(results["concurrency"], sizes["concurrency"]),
        "",
        "## 3. LLM calls and prompt tokens per turn as the conversation grows",
        "",
        *turns_table(results["turns"]),
        "",
        "## 4. Cold start",
        "",
        *cold_table(results["cold"], results["memory"]),
        "",
        "## 5. Against LangChain (`create_history_aware_retriever` + `create_retrieval_chain`)",
        "",
        *comparison(results),
        "",
    ]
    if plotted:
        lines += [f"![Latency against conversation length]({plotted})", ""]
    else:
        lines += ["(No plot: matplotlib is not installed.)", ""]
    return "\n".join(lines)


def plot(turns: list[dict[str, Any]], path: Path) -> str | None:
    """Latency and prompt tokens against turns; None when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    x = [row["turn"] for row in turns]
    figure, (latency, tokens) = plt.subplots(1, 2, figsize=(11, 4.2))
    series = {
        "ours: protocol chat": lambda r, key: r["ours: protocol"][key],
        "ours: page (reformulate + chat)": lambda r, key: sum(r[p][key] for p in PAGE),
        "LangChain chain": lambda r, key: r["LangChain"][key],
    }
    for label, value in series.items():
        latency.plot(x, [value(r, "latency") * 1000 for r in turns], marker=".", label=label)
        tokens.plot(x, [value(r, "prompt_tokens") for r in turns], marker=".", label=label)
    latency.set(xlabel="turn", ylabel="end-to-end latency, median ms", title="Latency (fake model)")
    tokens.set(xlabel="turn", ylabel="prompt tokens per turn (all calls)", title="Prompt size")
    for axes in (latency, tokens):
        axes.grid(alpha=0.3)
        axes.legend(fontsize=8)
    figure.text(
        0.01,
        0.01,
        "fake model: 10 ms per call + 5 µs per prompt token + 20 tokens × 2 ms",
        fontsize=7,
        color="gray",
    )
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path.name
