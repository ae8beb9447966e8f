"""The error of a robot description the simulation cannot build."""


class Unsupported(Exception):
    """A description the simulation cannot build: a message id and its fields."""

    def __init__(self, key: str, **fields: str) -> None:
        """Keep the message id (``messages/``) and its placeholders."""
        super().__init__(key)
        self.key, self.fields = key, fields
