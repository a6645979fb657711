"""GET /api/content/{citation}: one recipe as a readable HTML page, for the chat-component's
citation preview, which frames `<api>/content/<citation>` (an answer cites a recipe by its id
in square brackets, and the component takes the bracket's text for the citation).

The page is safe to frame: every text in it is escaped; its Content-Security-Policy allows
nothing but its own style (by hash: no script, image, font, form or plugin, and `sandbox`, so
that not even a parser bug could run script with the API's origin), and lets it be framed by
pages of its own origin only, as the component is when Static Web Apps serves both."""

from __future__ import annotations

import base64
import hashlib
import html
import re

from starlette.responses import HTMLResponse

from app.chat.data_phrasing import facts
from app.http.edge import ApiError
from app.recipes import RECIPE_ID_PATTERN, Recipe
from app.services import Services

STYLE = (
    "body{font:16px/1.5 system-ui,sans-serif;max-width:40em;margin:1em auto;padding:0 1em;color:#222}"
    "h1{font-size:1.5em;margin:0 0 .25em}.facts{color:#555;margin:0 0 1em}"
)
STYLE_HASH = base64.b64encode(hashlib.sha256(STYLE.encode()).digest()).decode()
POLICY = (
    f"default-src 'none'; style-src 'sha256-{STYLE_HASH}'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'self'; sandbox"
)


def page(recipe: Recipe) -> str:
    e = html.escape
    about = facts(recipe)
    items = "".join(f"<li>{e(line)}</li>" for line in recipe.ingredients)
    steps = "".join(f"<li>{e(line)}</li>" for line in recipe.steps)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{e(recipe.title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{e(recipe.title)}</h1>"
        + (f'<p class="facts">{e(about)}</p>' if about else "")
        + (f"<p>{e(recipe.description)}</p>" if recipe.description else "")
        + f"<h2>Ingredients</h2><ul>{items}</ul><h2>Steps</h2><ol>{steps}</ol></body></html>"
    )


async def citation_page(services: Services, citation: str) -> HTMLResponse:
    missing = ApiError(404, "There is no recipe with that citation.")
    if not re.fullmatch(RECIPE_ID_PATTERN, citation):
        raise missing
    found = await services.retriever.store.get_many([citation])
    if not found:
        raise missing
    return HTMLResponse(page(found[0]), headers={"Content-Security-Policy": POLICY})
