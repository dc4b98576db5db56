"""Table limits and small policy helpers that every layer may use: how long
names are, how many play, the ranges of house rules the app takes, how names
are tidied, which time zones exist. Nothing here reads or writes rows."""

import functools
import zoneinfo

ID_MAX = 2**31 - 1  # the largest id an integer column holds on PostgreSQL
NAME_MAX = 30
GROUP_NAME_MAX = 40
DEVICE_MAX = 30
DEFAULT_TIMEZONE = "Asia/Kuala_Lumpur"  # Penang's
FOLDED = 3  # case folding makes a name at most three times as long ("ΐ": three)

MIN_PLAYERS = 2
MAX_PLAYERS = 6
PASSPHRASE_MIN = 8

# The house rules the app takes, typed in the new-session form or read from a backup.
RULE_RANGES = {"packs": (1, 4), "jokers": (0, 16), "joker_points": (0, 100),
               "hand_size": (1, 40), "hand_size_three": (1, 40)}
RULE_MONEY_MAX = 10_000_000  # cents in one amount (100,000.00): more is surely a slip
MAX_TIERS = 6  # places paid
TIER_MAX = 100  # units one place pays


def clean_name(name: str) -> str:
    return " ".join(name.split())


@functools.cache
def time_zones() -> frozenset[str]:
    """The IANA time zone names a group may choose ("Asia/Kuala_Lumpur", "UTC" …):
    those this server knows, less the placeholders that name no place."""
    return frozenset(zoneinfo.available_timezones() - {"Factory", "localtime", "posixrules"})
