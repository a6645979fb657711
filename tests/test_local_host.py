"""The local host serves exactly the routes that function_app registers."""

from __future__ import annotations

from starlette.routing import Route
from starlette.testclient import TestClient

import function_app
from app import services
from local_host import create_app, is_catch_all, registered_functions, route_prefix


def test_the_route_prefix_comes_from_host_json():
    assert route_prefix() == "/api"


def test_every_http_function_is_mounted_with_its_methods_and_nothing_else():
    registered = {
        (f"/api/{f.get_trigger().route}", tuple(m.value for m in f.get_trigger().methods))
        for f in registered_functions(function_app.app)
        if not is_catch_all(f.get_trigger().route)  # Azure's fallback; the router's own here
    }
    app = create_app(function_app.app)

    routes = [r for r in app.routes if isinstance(r, Route)]
    mounted = {(r.path, tuple(sorted((r.methods or set()) - {"HEAD"}))) for r in routes}

    assert mounted == registered
    assert ("/api/chat", ("POST",)) in mounted
    assert ("/api/chat/reformulate", ("POST",)) in mounted


def test_the_catch_all_for_azure_answers_json_404_with_a_request_id():
    """On Azure the catch-all function answers unknown paths; called as the host calls it."""
    import asyncio

    from starlette.requests import Request

    [catch_all] = [f for f in registered_functions(function_app.app) if is_catch_all(f.get_trigger().route)]
    assert {m.value for m in catch_all.get_trigger().methods} >= {"GET", "POST", "PUT", "DELETE"}
    scope = {"type": "http", "method": "GET", "path": "/api/nope", "headers": [], "query_string": b""}

    response = asyncio.run(catch_all.get_user_function()(Request(scope)))

    assert response.status_code == 404
    assert response.body == b'{"error":"There is nothing at this path."}'
    assert response.headers["x-request-id"]


def test_a_warmed_host_builds_the_providers_as_it_starts(monkeypatch):
    """`python local_host.py` starts building the providers (on a first run, indexing the shipped
    catalog) before any request, so that the first question does not begin that wait."""
    built = []

    async def build_services(settings):
        built.append(settings)
        return services.Services(None, None)  # type: ignore[arg-type]

    monkeypatch.setattr(services, "build_services", build_services)
    monkeypatch.setattr(services, "_services", None)

    with TestClient(create_app(function_app.app)):
        assert built == []
    with TestClient(create_app(function_app.app, warm_up=True)):
        pass
    assert built == [function_app.settings]


def test_a_host_whose_providers_fail_at_start_still_serves(monkeypatch, caplog):
    async def build_services(settings):
        raise RuntimeError("secret-key-123 refused")

    monkeypatch.setattr(services, "build_services", build_services)
    monkeypatch.setattr(services, "_services", None)

    with TestClient(create_app(function_app.app, warm_up=True)) as client:
        response = client.get("/api/nope")

    assert response.status_code == 404
    assert "could not be built at start" in caplog.text
    assert "secret-key-123" not in caplog.text
