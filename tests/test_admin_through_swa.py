"""The admin routes through the SWA CLI, as an attacker reached them (issue 15, item 1).

Anonymous, these once returned 200 and indexed or deleted recipes: the SWA rule matched only
the literal path, and the app never checked. Now every spelling is refused, by the SWA's
wildcard rules or by the app's own key check, and the catalog is unchanged. The local host
and the SWA CLI run on free ports (never make run's), with ADMIN_KEY set, on a scratch store.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator

import httpx
import pytest

from tests.support import SWA, free_port, start, stop, wait_until_up

pytestmark = pytest.mark.swa

KEY = "swa-test-admin-key"
RECIPE = {"id": "intruder-toast", "title": "Toast", "ingredients": ["bread"], "steps": ["Toast."]}


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    if not SWA.exists():
        pytest.skip("the SWA CLI is not installed: run `make setup` (npm ci)")
    tmp = tmp_path_factory.mktemp("admin")
    api_port, site_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AZURE_", "OPENAI_", "LLM_", "LOCAL_"))}
    env |= {"LOCAL_DB_PATH": str(tmp / "recipes.sqlite3"), "ADMIN_KEY": KEY}
    host = start([sys.executable, "local_host.py", "--port", str(api_port)], tmp / "host.log", env)
    api = f"http://127.0.0.1:{api_port}"
    wait_until_up(f"{api}/api/openapi.json", host, tmp / "host.log")
    command = [str(SWA), "start", "web", "--swa-config-location", ".", "--api-devserver-url", api]
    swa = start([*command, "--host", "127.0.0.1", "--port", str(site_port)], tmp / "swa.log")
    site = f"http://127.0.0.1:{site_port}"
    wait_until_up(f"{site}/", swa, tmp / "swa.log")
    yield site, api
    stop(swa)
    stop(host)


def raw(base: str, method: str, path: str, body: bytes = b"") -> httpx.Response:
    """A request whose path is sent exactly as written (httpx would normalise `//`)."""
    headers = {"content-type": "application/json"}
    with httpx.Client(timeout=60) as client:
        request = client.build_request(method, base, content=body, headers=headers)
        request.url = request.url.copy_with(raw_path=path.encode())
        return client.send(request)


INDEX_SPELLINGS = [
    "/api/recipes/index",
    "/api//recipes/index",
    "/api/recipes//index",
    "/api/recipes/%69ndex",
    "/api/recipes%2findex",
    "/api/recipes%2Findex",
    "/api/./recipes/index",
    "/API/recipes/index",
    "/api/recipes/index?x=1",
]
DELETE_SPELLINGS = [
    "/api/recipes/chicken-soup",
    "/api//recipes/chicken-soup",
    "/api/recipes%2fchicken-soup",
    "/api/recipes//chicken-soup",
    "/api/%72ecipes/chicken-soup",
]


@pytest.mark.parametrize("path", INDEX_SPELLINGS)
def test_no_spelling_of_the_index_route_loads_a_recipe_anonymously(stack: tuple[str, str], path: str):
    site, api = stack

    for base in (site, api):
        response = raw(base, "POST", path, json.dumps([RECIPE]).encode())
        assert response.status_code != 200 and response.status_code < 500, (base, response.text[:300])

    assert httpx.get(f"{api}/api/recipes/intruder-toast", timeout=30).status_code == 404


@pytest.mark.parametrize("path", DELETE_SPELLINGS)
def test_no_spelling_of_the_delete_route_deletes_anonymously(stack: tuple[str, str], path: str):
    site, api = stack

    for base in (site, api):
        response = raw(base, "DELETE", path)
        assert response.status_code != 200 and response.status_code < 500, (base, response.text[:300])

    assert httpx.get(f"{api}/api/recipes/chicken-soup", timeout=30).status_code == 200


def test_the_key_opens_the_admin_route_on_the_host(stack: tuple[str, str]):
    _, api = stack
    headers = {"x-functions-key": KEY}

    loaded = httpx.post(f"{api}/api/recipes/index", json=[RECIPE], headers=headers, timeout=60)
    deleted = httpx.delete(f"{api}/api/recipes/intruder-toast", headers=headers, timeout=60)

    assert loaded.status_code == 200 and loaded.json()["indexed"] == 1, loaded.text
    assert deleted.status_code == 200 and deleted.json()["deleted"] == 1, deleted.text
