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

    @property
    def binding(self) -> str:
        """Return the form of the kind's ``binding:`` (a key of ``BINDING_SCHEMAS``)."""

    @property
    def optional(self) -> frozenset[str]:
        """Return the parameters a call may leave out (the kind does not read them)."""


KindRegistry = Mapping[str, KindShape]


def unfilled(schema: Mapping[str, Any], kind: KindShape) -> list[tuple[str, ...]]:
    """
    Return the paths of what ``kind`` reads that a valid call may leave absent.

    Defaults live only in the schema: each parameter the kind reads (and each
    field of an object parameter) must be required or have a ``default``, which
    the contract layer fills in before the kind runs; an optional object without
    one is filled from its fields' defaults, so each of them needs one.
    """
    if '*' in kind.parameters:
        return []
    out: list[tuple[str, ...]] = []

    def walk(node: Mapping[str, Any], names: list[str], path: tuple[str, ...]) -> None:
        props, required = node.get('properties', {}), set(node.get('required', ()))
        for name in names:
            sub = props.get(name)
            if not isinstance(sub, Mapping):
                out.append(path + (name,))
            elif name in required or 'default' in sub:
                if isinstance(sub.get('properties'), Mapping):
                    walk(sub, sorted(sub['properties']), path + (name,))
            elif isinstance(sub.get('properties'), Mapping) and sub['properties'] \
                    and not sub.get('required'):
                walk(sub, sorted(sub['properties']), path + (name,))  # filled as {}: each field
            else:
                out.append(path + (name,))

    walk(schema, sorted(kind.parameters - kind.optional), ())
    return out
