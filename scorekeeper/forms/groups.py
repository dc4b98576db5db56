"""Forms for groups: create one, sign in, change the passphrase, name the phone,
choose the time zone, the house setting for rounds filled in together."""

import functools
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from babel.dates import get_timezone_location
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from markupsafe import Markup
from wtforms import BooleanField, HiddenField, PasswordField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import (
    DataRequired,
    EqualTo,
    InputRequired,
    Length,
    ValidationError,
)
from wtforms.widgets import Select

from ..limits import DEVICE_MAX, GROUP_NAME_MAX, ID_MAX, NAME_MAX, PASSPHRASE_MIN, time_zones

PASSPHRASE_MAX = 200


def _device_field():
    return StringField(
        _l("This phone's name"), filters=[lambda text: (text or "").strip()], validators=[
            InputRequired(_l("Name this phone, so the history says who changed what.")),
            Length(max=DEVICE_MAX, message=_l("Use at most %(max)s characters.",
                                              max=DEVICE_MAX))])


def _passphrase_field(label):
    return PasswordField(label, validators=[
        InputRequired(_l("Type the passphrase.")),
        Length(min=PASSPHRASE_MIN, max=PASSPHRASE_MAX,
               message=_l("A passphrase has %(min)s to %(max)s characters.",
                          min=PASSPHRASE_MIN, max=PASSPHRASE_MAX))])


class CreateGroupForm(FlaskForm):
    name = StringField(_l("Group name"), validators=[
        InputRequired(_l("Name the group.")),
        Length(max=GROUP_NAME_MAX, message=_l("Use at most %(max)s characters.",
                                                      max=GROUP_NAME_MAX))])
    passphrase = _passphrase_field(_l("Passphrase"))
    confirm = PasswordField(_l("Passphrase again"), validators=[
        EqualTo("passphrase", message=_l("The two passphrases differ."))])
    device = _device_field()


class SignInForm(FlaskForm):
    name = StringField(_l(_l("Group name")), validators=[
        InputRequired(_l("Type the group's name.")),
        Length(max=GROUP_NAME_MAX, message=_l("Use at most %(max)s characters.",
                                              max=GROUP_NAME_MAX))])
    passphrase = PasswordField(_l(_l("Passphrase")), validators=[
        InputRequired(_l("Type the passphrase.")),
        Length(max=PASSPHRASE_MAX, message=_l("Use at most %(max)s characters.",
                                              max=PASSPHRASE_MAX))])
    device = _device_field()
    next = HiddenField()


class PassphraseForm(FlaskForm):
    current = PasswordField(_l("Current passphrase"), validators=[
        InputRequired(_l("Type the current passphrase.")), Length(max=PASSPHRASE_MAX)])
    passphrase = _passphrase_field(_l("New passphrase"))
    confirm = PasswordField(_l("New passphrase again"), validators=[
        EqualTo("passphrase", message=_l("The two passphrases differ."))])


class DeviceForm(FlaskForm):
    device = _device_field()


class AutosaveForm(FlaskForm):
    autosave = BooleanField(_l("Save the round as soon as the last player is in"))


NOBODY = "nobody"


class WhoForm(FlaskForm):
    """ "Which player are you?": a player's id, or nobody's (a shared phone).
    The view checks that the player is the group's."""

    player = StringField(filters=[lambda s: (s or "").strip()], validators=[
        InputRequired(_l("Choose a name, or Nobody's phone."))])

    def player_id(self) -> int | None:
        """The chosen id; None for nobody's. ValueError if it is neither."""
        text = self.player.data
        if text == NOBODY:
            return None
        if not (text.isascii() and text.isdigit() and len(text) <= 10) \
                or not 1 <= int(text) <= ID_MAX:
            raise ValueError(text)
        return int(text)


class NewPlayerForm(FlaskForm):
    """ "Someone new": the name of a player the group does not know yet."""

    name = StringField(_l("Someone new"), filters=[lambda s: " ".join((s or "").split())],
                       validators=[DataRequired(_l("Type your name.")),
                                   Length(max=NAME_MAX,
                                          message=_l("Use at most %(max)s characters.",
                                                     max=NAME_MAX))])


class ButtonForm(FlaskForm):
    """A POST that is only a button (sign out, revoke): the CSRF token and nothing else."""


MINUS = "\u2212"

# Where the groups that use this app play first, then every other zone.
NEAR_ZONES = (
    ("Asia/Kuala_Lumpur", _l("Penang, Malaysia")),
    ("Asia/Singapore", _l("Singapore")),
    ("Asia/Jakarta", _l("Jakarta")),
    ("Asia/Bangkok", _l("Bangkok")),
    ("Asia/Hong_Kong", _l("Hong Kong")),
    ("Australia/Perth", _l("Perth")),
    ("Europe/London", _l("London")),
    ("UTC", "UTC"),
)


def utc_offset(zone: str, now: datetime) -> str:
    """ "UTC+8", "UTC+5:30", "UTC−3", "UTC+0": the zone's offset at ``now`` (aware)."""
    offset = now.astimezone(ZoneInfo(zone)).utcoffset()
    minutes = int(offset.total_seconds()) // 60 if offset is not None else 0
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{MINUS if minutes < 0 else '+'}{hours}" + (f":{rest:02d}" if rest else "")


class ZoneSelect(Select):
    """A select whose options are written short, without the (optional) end
    tag, and an option shown as its value without the value attribute: the
    list of every time zone, named in the page's language, stays near 20 KB,
    in a page of at most 60 KB."""

    @classmethod
    def render_option(cls, choice, **kwargs):
        if choice.render_kw or kwargs:
            return super().render_option(choice, **kwargs)
        selected = Markup(" selected") if choice.selected else ""
        if choice.label == choice.value:
            return Markup("<option{}>{}").format(selected, choice.value)
        return Markup('<option{} value="{}">{}').format(selected, choice.value, choice.label)


def _known_zone(form, field):
    if field.data not in time_zones():
        raise ValidationError(_l("Choose a time zone from the list."))


class TimeZoneForm(FlaskForm):
    timezone = SelectField(_l("The group's time zone"), widget=ZoneSelect(), validate_choice=False,
                           validators=[_known_zone])

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The zones near the table first, with today's offset from UTC; then the rest.
        now = datetime.now(UTC)
        near = [SelectChoice(name, label if name == "UTC" else f"{label} ({utc_offset(name, now)})",
                             optgroup=str(_l("Common")))
                for name, label in NEAR_ZONES]
        others = str(_l("Every other time zone"))
        shown = set(listed_zones()) | ({self.timezone.data} & time_zones())
        rest = [SelectChoice(name, label, optgroup=others)
                for name, label in zone_labels(shown - {name for name, _ in NEAR_ZONES})]
        self.timezone.choices = near + rest


@functools.cache
def listed_zones() -> tuple[str, ...]:
    """The zones the list offers: one of each place CLDR names, the zone
    named after it (Asia/Kolkata, not its old name Asia/Calcutta, nor
    US/Eastern for America/New_York). The others are still taken."""
    places: dict[str, list[str]] = {}
    for zone in sorted(time_zones()):
        places.setdefault(get_timezone_location(zone, locale="en", return_city=True),
                          []).append(zone)
    return tuple(sorted(next((zone for zone in zones
                              if zone.rsplit("/", 1)[-1] == city.replace(" ", "_")), zones[0])
                        for city, zones in places.items()))


def zone_labels(zones) -> list[tuple[str, str]]:
    """Each zone with its name in the page's language, from CLDR through Babel
    (its city: "Paris", "巴黎"), in the order of the zones' IANA names (by
    region). A zone CLDR names no city of is shown as its IANA name."""
    locale = get_locale() or "en"
    return [(zone, get_timezone_location(zone, locale=locale, return_city=True))
            for zone in sorted(zones)]
