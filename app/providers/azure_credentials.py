"""The credential for an Azure data service: its key when one is set, else Entra ID."""

from __future__ import annotations

from typing import Any

from pydantic import SecretStr


def entra_credential() -> Any:
    """Managed identity on Azure; `az login` or environment variables on a laptop."""
    from azure.identity.aio import DefaultAzureCredential

    return DefaultAzureCredential()


def azure_credential(key: SecretStr | None) -> Any:
    if key:
        from azure.core.credentials import AzureKeyCredential

        return AzureKeyCredential(key.get_secret_value())
    return entra_credential()
