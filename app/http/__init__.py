"""The HTTP edge: request and response bodies, errors, reading bodies, streaming, the OpenAPI document."""
