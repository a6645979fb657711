"""The local host serves exactly the routes that function_app registers."""

from __future__ import annotations

from starlette.routing import Route

import function_app
from local_host import create_app, registered_functions, route_prefix


def test_the_route_prefix_comes_from_host_json():
    assert route_prefix() == "/api"


def test_every_http_function_is_mounted_with_its_methods_and_nothing_else():
    registered = {
        (f"/api/{f.get_trigger().route}", tuple(m.value for m in f.get_trigger().methods))
        for f in registered_functions(function_app.app)
    }
    app = create_app(function_app.app)

    routes = [r for r in app.routes if isinstance(r, Route)]
    mounted = {(r.path, tuple(sorted((r.methods or set()) - {"HEAD"}))) for r in routes}

    assert mounted == registered
    assert ("/api/chat", ("POST",)) in mounted
    assert ("/api/chat/reformulate", ("POST",)) in mounted
