"""Table limits and small policy helpers that every layer may use: how long
names are, how many play, the ranges of house rules the app takes, how names
are tidied, which time zones exist. Nothing here reads or writes rows."""

import functools
import zoneinfo
from datetime import timedelta

from .phrases import N_

# The ranges of house rules the app takes are the rules engine's, one table
# beside HouseRules (HouseRules.check_limits holds rules to it), named here too;
# so are the players a table seats (the engine's TABLE_SIZES).
from .rules.house import (  # noqa: F401
    MAX_PLAYERS,
    MAX_TIERS,
    MIN_PLAYERS,
    RULE_MONEY_MAX,
    RULE_RANGES,
    TIER_MAX,
)

ID_MAX = 2**31 - 1  # the largest id an integer column holds on PostgreSQL
NAME_MAX = 30
GROUP_NAME_MAX = 40
DEVICE_MAX = 30
# A player's payment details (payto): a DuitNow ID, a PayNow proxy, or the
# text of their bank's QR (EMVCo payloads run to a few hundred characters).
PAYTO_KIND_MAX = 20
PAYTO_MAX = 512
# Column sizes that the forms and the backup check hold text to as well.
CURRENCY_MAX = 8
OUTCOME_MAX = 12  # "no_passport"
ACTION_MAX = 24
SUBJECT_MAX = 80
ZONE_MAX = 64  # Group.timezone
KEY_MAX = 64  # ChangeKey.key: a change's key, as a phone sends it
TOKEN_HASH_LENGTH = 64  # SignIn.token_hash: a SHA-256 in hex
# What names a phone's sign-in to its pages and worker, and on a session the
# phone whose change it was last (GameSession.changed_by): the start of its
# token's hash (128 bits), never the token.
PHONE_ID_LENGTH = 32
# A change's key is taken for this long after its form was made (web/once.py),
# longer than any phone keeps a round offline; a change sent later is refused.
KEY_DAYS = 30
KEY_LIFE = timedelta(days=KEY_DAYS)
# How far the clocks of two app servers may differ: a key made later than this
# from now is not one, and a key's row outlives its refusal by as much.
CLOCK_SLACK = timedelta(hours=1)
# A hand of a round filled in together sent as it is typed (its field not yet
# left) is not in while it is typed: but a phone that went quiet (put away,
# broken, out of the room) stops keeping it so this long after its last change.
TYPING_MINUTES = 2
TYPING_LAPSE = timedelta(minutes=TYPING_MINUTES)
DEFAULT_TIMEZONE = "Asia/Kuala_Lumpur"  # Penang's
FOLDED = 3  # case folding makes a name at most three times as long ("ΐ": three)

PASSPHRASE_MIN = 8

# An invite link (services/invites.py) signs in this many phones at most,
# for this long after it is made: one QR code for a whole table, its evening.
INVITE_PHONES = 8
INVITE_HOURS = 2
INVITE_LIFE = timedelta(hours=INVITE_HOURS)


def clean_name(name: str) -> str:
    return " ".join(name.split())


@functools.cache
def time_zones() -> frozenset[str]:
    """The IANA time zone names a group may choose ("Asia/Kuala_Lumpur", "UTC" …):
    those this server knows, less the placeholders that name no place."""
    return frozenset(zoneinfo.available_timezones() - {"Factory", "localtime", "posixrules"})


def unstorable(text: str) -> str | None:
    """What in ``text`` no database can store, in words ("a NUL character
    (\\u0000)", marked N_: the web layer words it), or None: PostgreSQL takes
    no NUL in text, and no database takes half of a surrogate pair, which is
    no character."""
    if "\x00" in text:
        return N_("a NUL character (\\u0000)")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return N_("half of a surrogate pair (such as \\ud800)")
    return None
