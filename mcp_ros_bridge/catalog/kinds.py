"""What the catalog needs to know about a capability kind, as an injected registry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class KindShape(Protocol):
    """The parts of a capability kind that shape its published tool."""

    @property
    def name(self) -> str:
        """Return the kind's name as written in ``tools.yaml``."""

    @property
    def parameters(self) -> frozenset[str]:
        """Return the input parameters the kind reads (``'*'`` means any)."""

    @property
    def annotations(self) -> Mapping[str, bool]:
        """Return the kind's default MCP tool annotations."""

    @property
    def output_schema(self) -> dict[str, Any]:
        """Return the schema of the kind's ``structuredContent``."""


KindRegistry = Mapping[str, KindShape]
