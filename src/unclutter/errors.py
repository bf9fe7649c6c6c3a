"""The exception tree, importable as ``unclutter.errors`` (defined in
:mod:`unclutter.core.errors`, where the tree is drawn)."""

from .core.errors import *  # noqa: F401,F403 - the public re-export is the point
from .core.errors import __all__  # noqa: F401
