"""The packages depend one way: the chat pipeline reads the catalog and searches; the catalog
and the search never reach back into the chat pipeline, and no modules import each other."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

APP = Path(__file__).parent.parent / "app"


def module_imports() -> dict[str, set[str]]:
    """Each app module's imports of other app modules, at module level (what runs on import)."""
    graph: dict[str, set[str]] = {}
    for path in APP.rglob("*.py"):
        parts = path.relative_to(APP.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        imported = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("app"):
                # "from app.search import servings" imports the module app.search.servings.
                package = APP.parent.joinpath(*node.module.split("."))
                modules = {a.name for a in node.names if (package / f"{a.name}.py").exists()}
                imported |= {f"{node.module}.{m}" for m in modules} or {node.module}
            elif isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names if alias.name.startswith("app")}
        graph[name] = imported
    return graph


def test_the_catalog_and_the_search_never_import_the_chat_pipeline() -> None:
    below_chat = {
        name: sorted(i for i in imported if i.startswith("app.chat"))
        for name, imported in module_imports().items()
        if name.startswith(("app.catalog", "app.search"))
    }
    assert {name: chat for name, chat in below_chat.items() if chat} == {}


def test_no_two_modules_import_each_other_on_import() -> None:
    try:
        tuple(TopologicalSorter(module_imports()).static_order())
    except CycleError as cycle:  # pragma: no cover - shown only when it fails
        raise AssertionError(f"import cycle: {cycle.args[1]}") from None
