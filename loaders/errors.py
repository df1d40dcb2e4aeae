"""The path ``evalhouse.loaders.errors`` documented before the restructure: InputError now
lives in :mod:`evalhouse.errors` with the library's other errors."""

from evalhouse.errors import InputError

__all__ = ["InputError"]
