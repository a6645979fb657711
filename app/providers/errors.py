"""The providers' error taxonomy: what a failing upstream raises, and what of it may be shown.

Every provider turns its SDK's faults into these, so that the HTTP edge answers one way
(a clean status and `public_message`, never the cause) whichever provider failed.
"""

from __future__ import annotations

from app.providers.protocols import IndexInfo


class UpstreamError(Exception):
    """A provider failed. `public_message` is safe to show; the cause is only logged.

    `retryable` marks throttling and transient faults, worth another try after `retry_after`
    seconds when the service said how long to wait."""

    code: str | None = None

    def __init__(
        self,
        public_message: str,
        *,
        status: int = 502,
        retryable: bool = False,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(public_message)
        self.public_message = public_message
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after


CONTENT_FILTERED = "Your message contains content that was flagged by the content filter."


class ContentFilteredError(UpstreamError):
    """The provider's content filter refused the text (Azure OpenAI answers 400 with the code
    `content_filter`). The caller's input caused it, so it is a 400, not a 502."""

    def __init__(self, public_message: str = CONTENT_FILTERED) -> None:
        super().__init__(public_message, status=400)


class ModelBusyError(UpstreamError):
    """The embedded model was busy with other requests for longer than a chat may wait for it.
    Raised before the reply's first piece; the answer then comes from the recipes' data."""

    def __init__(self) -> None:
        super().__init__("The local language model is busy.", status=503, retryable=True)


def retry_after_seconds(header: str | None) -> float | None:
    """A `Retry-After` header's delay in seconds (services here send seconds, not dates)."""
    try:
        return max(0.0, float(header)) if header else None
    except ValueError:
        return None


class IndexIncompatibleError(UpstreamError):
    """The index was built by another embedding model than the one configured."""

    code = "index_incompatible"

    def __init__(self, built: IndexInfo, configured: IndexInfo) -> None:
        super().__init__(
            f"The search index was built with {built.embedding_model} ({built.dimensions} dimensions) "
            f"but the app embeds with {configured.embedding_model} ({configured.dimensions} dimensions). "
            "Rebuild the index with the configured model (index command with --force).",
            status=409,
        )
