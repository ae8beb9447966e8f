"""The form of one message table entry."""


def both(en: str, zh: str) -> tuple[str, str]:
    """Return one entry: the English and the Chinese text, with the same placeholders."""
    return en, zh
