"""House rules: every setting a table can change (docs/RULES.md §3–§10)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

from .cards import Card
from .codes import Code
from .problems import Problem

PASSPORTS = ("any", "run")
DIRECTIONS = ("clockwise", "anticlockwise")
DEALER_RULES = ("winner", "loser", "rotate")
SCHEMES = ("tiered", "per_point", "none")

ACE_POINTS = 15
FACE_POINTS = 10

# The players a table seats, and so every table size a deal is for.
MIN_PLAYERS = 2
MAX_PLAYERS = 6
TABLE_SIZES = range(MIN_PLAYERS, MAX_PLAYERS + 1)

# The house rules the app takes, wherever they come from (the new-session form,
# a backup, the services): the range of each whole-number rule, the places paid
# and the units one place pays. HouseRules.check_limits holds rules to them.
RULE_MONEY_MAX = 10_000_000  # cents in one amount (100,000.00): more is surely a slip
MAX_TIERS = 6  # places paid
TIER_MAX = 100  # units one place pays
_AMOUNTS = ("unit_cents", "hu_cents", "tien_hu_cents", "joker_ace_cents", "point_cents")
RULE_RANGES = {
    "packs": (1, 4), "jokers": (0, 16), "joker_points": (0, 100),
    "hand_size": (1, 40), "hand_size_three": (1, 40),
    # the players the extra pack comes in at (None: never): a table's size
    "extra_pack_players": (MIN_PLAYERS, MAX_PLAYERS),
    **dict.fromkeys(_AMOUNTS, (0, RULE_MONEY_MAX)),
}


# The rules that are one of a few words, and the words each may be.
_CHOICES = {"passport": PASSPORTS, "direction": DIRECTIONS, "dealer_rule": DEALER_RULES,
            "scheme": SCHEMES}


class RulesError(ValueError):
    """House rules that can't be: a value of the wrong kind, a key that is no
    rule, a setting the rules refuse, or one past the limits the app takes;
    ``problems`` names each."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(map(str, self.problems)))


def _problem(code: Code, **values: object) -> Problem:
    return Problem(code, values)


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
        problems = [_problem(Code.RULE_NOT_A_CHOICE, rule=key, value=getattr(self, key),
                             choices=choices)
                    for key, choices in _CHOICES.items() if getattr(self, key) not in choices]
        problems += [_problem(Code.RULE_BELOW_ONE, rule=key, value=getattr(self, key))
                     for key in ("packs", "hand_size", "hand_size_three")
                     if getattr(self, key) < 1]
        problems += [_problem(Code.RULE_NEGATIVE, rule=key, value=getattr(self, key))
                     for key in ("jokers", "joker_points", *_AMOUNTS) if getattr(self, key) < 0]
        if not self.tiers or any(t < 0 for t in self.tiers):
            problems.append(_problem(Code.TIERS_REFUSED, value=self.tiers))
        if problems:
            raise RulesError(problems)

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

    def to_json(self) -> dict:
        """The rules as JSON holds them (a session's row, a backup, the audit
        trail): every field by name, in order, the tiers a list."""
        data = {name: getattr(self, name) for name in FIELDS}
        data["tiers"] = list(self.tiers)
        return data

    @classmethod
    def from_json(cls, data: dict) -> HouseRules:
        """Rules as to_json writes them. A key missing (a row from before its
        rule) takes the default; RulesError for a key that is no rule, a value
        of the wrong kind, or a setting the rules refuse. The app's limits are
        not applied: check_limits does that for rules coming in."""
        if not isinstance(data, dict):
            raise RulesError([_problem(Code.RULES_NOT_AN_OBJECT, value=data)])
        unknown = sorted(map(str, set(data) - set(FIELDS)))
        if unknown:
            raise RulesError([_problem(Code.NOT_A_RULE, keys=tuple(unknown))])
        problems = [p for p in (_kind_problem(k, v) for k, v in data.items()) if p]
        if problems:
            raise RulesError(problems)
        return cls(**data)

    def check_limits(self) -> None:
        """RulesError, naming each one, unless every rule is within the limits
        the app takes (RULE_RANGES, MAX_TIERS, TIER_MAX)."""
        problems = []
        for key, (low, high) in RULE_RANGES.items():
            value = getattr(self, key)
            if value is not None and not low <= value <= high:
                problems.append(_problem(Code.RULE_OUT_OF_RANGE, rule=key, low=low, high=high,
                                         value=value))
        if not 1 <= len(self.tiers) <= MAX_TIERS:
            problems.append(_problem(Code.TIER_COUNT_OUT_OF_RANGE, most=MAX_TIERS,
                                     count=len(self.tiers)))
        if any(not 0 <= t <= TIER_MAX for t in self.tiers):
            problems.append(_problem(Code.TIER_OUT_OF_RANGE, most=TIER_MAX))
        if problems:
            raise RulesError(problems)

    def cards_dealt(self, n_players: int) -> int:
        return self.hand_size_three if n_players == 3 else self.hand_size

    def packs_for(self, n_players: int) -> int:
        extra = self.extra_pack_players is not None and n_players >= self.extra_pack_players
        return self.packs + int(extra)

    def most_packs(self) -> int:
        """The packs of the largest table: with the extra pack, if it comes in
        at a table size (TABLE_SIZES)."""
        return self.packs_for(max(TABLE_SIZES))

    def largest_hand(self) -> int:
        """The most cards a player ever holds, at any table size (TABLE_SIZES):
        a full dealt hand (no one draws)."""
        return max(self.cards_dealt(n) for n in TABLE_SIZES)

    def points(self, card: Card) -> int:
        if card.is_joker:
            return self.joker_points
        if card.rank == 1:
            return ACE_POINTS
        return min(card.rank, FACE_POINTS)

    def tier(self, position: int) -> int:
        """Units paid by 1-based ``position``; places past the list pay the last tier."""
        return self.tiers[min(position, len(self.tiers)) - 1]


FIELDS = tuple(f.name for f in fields(HouseRules))  # in order, as to_json writes them


def shown(value: object, limit: int = 40) -> str:
    """A value as a message quotes it (repr), cut short."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _whole(value) -> bool:
    return type(value) is int  # not bool, not float


def _kind_problem(key: str, value) -> Problem | None:
    """What is wrong with the kind of ``value`` for the rule ``key``, if anything."""
    if key == "tiers":
        if not isinstance(value, (list, tuple)) or not all(map(_whole, value)):
            return _problem(Code.TIERS_NOT_WHOLE, value=value)
    elif key == "extra_pack_players":
        if value is not None and not _whole(value):
            return _problem(Code.RULE_NOT_WHOLE_OR_NULL, rule=key, value=value)
    elif key == "no_passport_last":
        if not isinstance(value, bool):
            return _problem(Code.RULE_NOT_TRUE_OR_FALSE, rule=key, value=value)
    elif key in _CHOICES:
        if not isinstance(value, str):
            return _problem(Code.RULE_NOT_TEXT, rule=key, value=value)
    elif not _whole(value):
        return _problem(Code.RULE_NOT_WHOLE, rule=key, value=value)
    return None


# The named sets of rules a table starts from, by key (their names are the web layer's).
PRESETS = {"penang": HouseRules.penang, "rummi": HouseRules.rummi}


def preset_of(rules: HouseRules) -> str | None:
    """The key of the preset these rules are, or None (a table's own rules)."""
    return next((key for key, make in PRESETS.items() if rules == make()), None)
