"""What names the players, for the rules engine's generic types."""

from collections.abc import Hashable
from typing import TypeVar

P = TypeVar("P", bound=Hashable)  # whatever names the players: a name, a row
