"""Template filters for money (integer cents), for times, and for names.

Numbers, dates and times are written by Babel in the page's language
(web/locales.py: its separators, its names of days and months, its order),
money with the session's own currency before it as typed ("RM 1.50" in every
language). The app's English keeps its own look ("Sat 21 Nov 2026, 21:04").

Times are stored as UTC without a zone. The time filters are the one place that
turns them into a group's wall-clock time: the signed-in group's, or the zone
given as the filter's argument (a shared page, which no group is signed in to,
passes the zone of the shared session's group). A page of no group shows no times.
"""

import functools
import math
import re
import unicodedata
from datetime import datetime
from decimal import Decimal

from babel import Locale
from babel.dates import format_datetime, format_skeleton, get_timezone_location
from babel.lists import format_list
from babel.numbers import format_decimal
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup, escape
from wtforms.fields.choices import SelectChoice

from ..forms.groups import NEAR_ZONES
from ..forms.rounds import OUTCOME_HELP
from ..models import utcnow, wall_clock
from ..rules import HouseRules
from .access import current_group
from .locales import formatting
from .presenters.places import place_words

MINUS = "\u2212"


def money(cents: int, whole: bool = False) -> str:
    """12345 -> "123.45"; -50 -> "−0.50"; with ``whole`` (every amount of a
    table is whole), 1200 -> "12" rather than "12.00"."""
    sign = MINUS if cents < 0 else ""
    pattern = "#,##0" if whole and cents % 100 == 0 else "#,##0.00"
    return sign + format_decimal(Decimal(abs(cents)).scaleb(-2), format=pattern,
                                 locale=formatting())


def all_whole(amounts) -> bool:
    """Whether every amount (cents) is a whole unit, so that a table of them
    can do without ".00" (``money``'s ``whole``)."""
    return all(cents % 100 == 0 for cents in amounts)


def priced(cents: int, currency: str) -> str:
    """An amount with its currency: "RM 1.50"."""
    return f"{currency} {money(cents)}"


def signed_priced(cents: int, currency: str) -> str:
    """With its sign and currency, for plain text: "+RM 12.00", "−RM 4.00", "RM 0.00"."""
    sign = "+" if cents > 0 else MINUS if cents < 0 else ""
    return sign + priced(abs(cents), currency)


def money_scheme(rules: HouseRules, currency: str) -> str:
    """How a session with money counts it: "tiers 0·1·2·3 × RM 1.00", or
    "RM 0.10 a point"."""
    if rules.scheme == "tiered":
        # Translators: money paid by place (1st gets 0 units, 2nd 1…): "tiers 0·1·2·3 × RM 1.00".
        return _("tiers %(tiers)s × %(unit)s", tiers="·".join(map(str, rules.tiers)),
                 unit=priced(rules.unit_cents, currency))
    # Translators: money for each point of a hand: "RM 0.10 a point".
    return _("%(amount)s a point", amount=priced(rules.point_cents, currency))


def signed_money(cents: int, whole: bool = False) -> str:
    """Like money, with a plus sign for gains: "+9.00", "−1.00", "0.00"."""
    return ("+" if cents > 0 else "") + money(cents, whole)


def count(number: int) -> str:
    """A count with thousands separators: 152100 -> "152,100"."""
    return format_decimal(number, locale=formatting())


def amount(cents: int, whole: bool = False) -> Markup:
    """Signed money in a span whose class colours it as a gain, a loss or even
    (the currency goes in the column heading). A filter rather than a macro,
    and kept: a scoreboard shows a hundred of them, of a few amounts."""
    return _amount(cents, whole, formatting())


@functools.lru_cache(maxsize=4096)
def _amount(cents: int, whole: bool, locale: Locale) -> Markup:
    kind = "gain" if cents > 0 else "loss" if cents < 0 else "even"
    return Markup(f'<span class="sessions-{kind}">{signed_money(cents, whole)}</span>')


def local_time(moment: datetime, zone: str | None = None) -> datetime:
    """A stored (UTC) time as the clock reads in ``zone``, an IANA name; by
    default in the signed-in group's zone."""
    if zone is None:
        group = current_group()
        if group is None:
            raise LookupError("No group is signed in: pass the zone of the group "
                              "whose time this is.")
        zone = group.timezone
    return wall_clock(moment, zone)


# The app's English keeps its own patterns; other languages take CLDR's for
# these skeletons (a day with its weekday, with or without the year).
ENGLISH_DAYS = {"yMMMEd": "EEE d MMM y", "MMMEd": "EEE d MMM"}


def _day(local: datetime, skeleton: str = "yMMMEd") -> str:
    locale = formatting()
    if locale.language == "en":
        return format_datetime(local, ENGLISH_DAYS[skeleton], locale=locale)
    return format_skeleton(skeleton, local, locale=locale)


def _day_and_time(local: datetime, skeleton: str) -> str:
    """The day, then the time of day on a 24-hour clock, as the language joins them."""
    locale = formatting()
    return locale.datetime_formats["medium"].format(
        format_skeleton("Hm", local, locale=locale), _day(local, skeleton))


def long_date(moment: datetime, zone: str | None = None) -> str:
    """ "Sat 21 Nov 2026": the day it was where the group plays."""
    return _day(local_time(moment, zone))


def result_name(started_at: datetime, zone: str) -> str:
    """A session's picture's file name, by the day it started where the group
    plays, as its title says it: "rummy-2026-11-28.png"."""
    return f"rummy-{local_time(started_at, zone):%Y-%m-%d}.png"


def day_time(moment: datetime, zone: str | None = None) -> str:
    """ "Sat 21 Nov, 21:04" """
    return _day_and_time(local_time(moment, zone), "MMMEd")


def date_time(moment: datetime, zone: str | None = None) -> str:
    """ "Sat 21 Nov 2026, 21:04" """
    return _day_and_time(local_time(moment, zone), "yMMMEd")


def iso_time(moment: datetime, zone: str | None = None) -> str:
    """ "2026-11-21T21:04+08:00", for a <time datetime> attribute."""
    return local_time(moment, zone).isoformat(timespec="minutes")


def zone_name(zone: str) -> str:
    """A time zone as a person reads it, in the page's language: the label of
    the zones near the table ("Penang, Malaysia"), else CLDR's name of its
    city ("Buenos Aires", "布宜诺斯艾利斯"); a zone CLDR does not know, as named."""
    near = dict(NEAR_ZONES)
    if zone in near:
        return str(near[zone])
    try:
        return get_timezone_location(zone, locale=formatting(), return_city=True)
    except LookupError:
        return zone


def seconds_until(moment: datetime) -> int:
    """How many seconds until ``moment`` (UTC), rounded up; 0 if it is past."""
    return max(0, math.ceil((moment - utcnow()).total_seconds()))


def ago(moment: datetime, now: datetime | None = None) -> str:
    """How long ago ``moment`` (UTC) was, as a table says it: "just now",
    "5 min ago", "2 h ago", "3 days ago"."""
    minutes = int(((now or utcnow()) - moment).total_seconds() // 60)
    if minutes < 1:
        return _("just now")
    if minutes < 60:
        # Translators: short, as beside a hand entered: "Entered on Ben's phone, 5 min ago".
        return _("%(minutes)s min ago", minutes=count(minutes))
    if minutes < 48 * 60:
        return _("%(hours)s h ago", hours=count(minutes // 60))
    days = minutes // (24 * 60)
    return ngettext("%(days)s day ago", "%(days)s days ago", days, days=count(days))


# Names


# Bidirectional classes of characters that can change the order of the text
# around them: right-to-left letters and numbers, and the explicit embeddings,
# overrides (U+202E) and isolates, and paragraph and segment separators.
REORDERING = frozenset({"R", "AL", "AN", "LRE", "LRO", "RLE", "RLO", "PDF",
                        "LRI", "RLI", "FSI", "PDI", "B", "S"})
FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE = "\u2068", "\u2069"
# Isolates a name opens or closes itself could close the one it is put in early,
# or keep it open: they are left out of an isolated name.
OWN_ISOLATES = dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069"))


@functools.lru_cache(maxsize=4096)
def _reorders(text: str) -> bool:
    return any(unicodedata.bidirectional(c) in REORDERING for c in text)


def isolate(name: str) -> Markup:
    """A name (player, group, phone) as HTML that cannot reorder the text
    around it: in <bdi> when it holds right-to-left text or a directional
    control such as U+202E RIGHT-TO-LEFT OVERRIDE; as it is otherwise (it
    cannot, and the page's markup stays plain)."""
    if _reorders(name):
        return Markup("<bdi>%s</bdi>") % name.translate(OWN_ISOLATES)
    return escape(name)


def isolated(name: str) -> str:
    """The same for plain text (a chat message, a page's title): between
    U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE."""
    if _reorders(name):
        return f"{FIRST_STRONG_ISOLATE}{name.translate(OWN_ISOLATES)}{POP_DIRECTIONAL_ISOLATE}"
    return name


def player_choices(players, first: str) -> list[SelectChoice]:
    """A select's choices: ``first`` (no player chosen), then each player by
    id, the name isolated (an <option> holds text only, no <bdi>)."""
    return [SelectChoice("", first)] + [SelectChoice(str(p.id), isolated(p.name))
                                        for p in players]


def listed(items) -> Markup:
    """Names (or other HTML: a name in <strong>) as the page's language lists
    them: "Ann and Ben", "Ann, Ben, and Cyd"; "Ann dan Ben"; "Ann、Ben和Cyd"
    (CLDR's patterns, by Babel). Each item goes in as HTML, the words around
    them escaped."""
    items = [escape(item) for item in items]
    slots = [f"\x00{i}\x00" for i in range(len(items))]
    words = str(escape(format_list(slots, locale=formatting()))) if items else ""
    return Markup(re.sub(r"\x00(\d+)\x00", lambda slot: items[int(slot[1])], words))


def register(app) -> None:
    # The round form's helper line for each outcome (rounds/_form.html).
    app.add_template_global(OUTCOME_HELP, "outcome_help")
    app.add_template_global(place_words)  # a place at a session: "1st", "joint 2nd"
    app.add_template_global(result_name)
    for fn in (money, priced, signed_money, count, amount, all_whole, long_date, day_time,
               date_time, iso_time, ago, seconds_until, isolate, isolated, zone_name, listed):
        app.add_template_filter(fn)
