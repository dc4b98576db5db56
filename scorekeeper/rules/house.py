"""House rules: every setting a table can change (RULES.md §3–§10)."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card

PASSPORTS = ("any", "run")
DIRECTIONS = ("clockwise", "anticlockwise")
DEALER_RULES = ("winner", "loser", "rotate")
SCHEMES = ("tiered", "per_point", "none")

ACE_POINTS = 15
FACE_POINTS = 10


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The rules a session is played by. Money is in cents."""

    packs: int = 2
    extra_pack_players: int | None = 5
    jokers: int = 6
    joker_points: int = 20
    passport: str = "any"
    direction: str = "clockwise"
    dealer_rule: str = "winner"
    scheme: str = "tiered"
    tiers: tuple[int, ...] = (0, 1, 2, 3, 4, 5)
    unit_cents: int = 100
    hu_cents: int = 300
    tien_hu_cents: int = 600
    joker_ace_cents: int = 0
    point_cents: int = 10
    no_passport_last: bool = False
    hand_size: int = 20
    hand_size_three: int = 25

    def __post_init__(self) -> None:
        # Tiers may arrive as a list (forms, JSON); keep the dataclass hashable.
        object.__setattr__(self, "tiers", tuple(self.tiers))
        problems = []
        if self.passport not in PASSPORTS:
            problems.append(f"passport must be one of {PASSPORTS}")
        if self.direction not in DIRECTIONS:
            problems.append(f"direction must be one of {DIRECTIONS}")
        if self.dealer_rule not in DEALER_RULES:
            problems.append(f"dealer_rule must be one of {DEALER_RULES}")
        if self.scheme not in SCHEMES:
            problems.append(f"scheme must be one of {SCHEMES}")
        if self.packs < 1:
            problems.append("packs must be at least 1")
        if self.jokers < 0 or self.joker_points < 0:
            problems.append("jokers and joker_points can't be negative")
        if not self.tiers or any(t < 0 for t in self.tiers):
            problems.append("tiers must be one or more units, none negative")
        if min(self.unit_cents, self.hu_cents, self.tien_hu_cents,
               self.joker_ace_cents, self.point_cents) < 0:
            problems.append("amounts can't be negative")
        if self.hand_size < 1 or self.hand_size_three < 1:
            problems.append("hand sizes must be at least 1")
        if problems:
            raise ValueError("; ".join(problems))

    @classmethod
    def penang(cls) -> HouseRules:
        return cls()

    @classmethod
    def rummi(cls) -> HouseRules:
        return cls(
            extra_pack_players=None,
            jokers=8,
            passport="run",
            direction="anticlockwise",
            joker_ace_cents=50,
            no_passport_last=True,
            hand_size_three=20,
        )

    def cards_dealt(self, n_players: int) -> int:
        return self.hand_size_three if n_players == 3 else self.hand_size

    def packs_for(self, n_players: int) -> int:
        extra = self.extra_pack_players is not None and n_players >= self.extra_pack_players
        return self.packs + int(extra)

    def most_packs(self) -> int:
        """The packs of the largest table: with the extra pack, if there is one."""
        return self.packs + int(self.extra_pack_players is not None)

    def largest_hand(self) -> int:
        """The most cards a player ever holds: a full dealt hand (no one draws)."""
        return max(self.hand_size, self.hand_size_three)

    def points(self, card: Card) -> int:
        if card.is_joker:
            return self.joker_points
        if card.rank == 1:
            return ACE_POINTS
        return min(card.rank, FACE_POINTS)

    def tier(self, position: int) -> int:
        """Units paid by 1-based ``position``; places past the list pay the last tier."""
        return self.tiers[min(position, len(self.tiers)) - 1]


# The named sets of rules a table starts from: key -> (name, rules).
PRESETS = {"penang": ("Penang", HouseRules.penang), "rummi": ("Rummi", HouseRules.rummi)}


def preset_name(rules: HouseRules) -> str:
    """The preset these rules are, or "Own rules"."""
    return next((name for name, make in PRESETS.values() if rules == make()), "Own rules")
