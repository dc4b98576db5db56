"""Forms of the sessions pages."""

import re
from decimal import Decimal

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import lazy_ngettext
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    FieldList,
    IntegerField,
    SelectField,
    StringField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, StopValidation, ValidationError

from ..limits import CURRENCY_MAX, ID_MAX, MAX_PLAYERS, MIN_PLAYERS, NAME_MAX, clean_name
from ..rules import PRESETS, HouseRules
from ..rules.house import MAX_TIERS, RULE_MONEY_MAX, RULE_RANGES, TIER_MAX
from .rounds import VersionForm

AMOUNT = re.compile(r"\d+(\.\d*)?|\.\d+")
# The presets' names (rules.PRESETS), the rule book's and the forms' alike.
PRESET_NAMES = {"penang": _l("Penang"), "rummi": _l("Rummi")}


def cents_from_text(text: str) -> int:
    """ "1.50" -> 150, exactly; refuses sub-cent, negative and unreadable amounts."""
    text = text.strip()
    if text.startswith(("-", "\u2212")):
        raise ValueError(_("The amount can't be negative."))
    if not AMOUNT.fullmatch(text):
        raise ValueError(_("Type an amount like 1.50."))
    cents = Decimal(text) * 100
    if cents != cents.to_integral_value():
        raise ValueError(_("Use at most two decimals: whole cents."))
    if cents > RULE_MONEY_MAX:
        raise ValueError(_("That amount is too large."))
    return int(cents)


def text_from_cents(cents: int) -> str:
    """150 -> "1.50", as an amount is typed (a rule's amounts are never negative)."""
    whole, part = divmod(abs(cents), 100)
    return f"{'-' if cents < 0 else ''}{whole}.{part:02d}"


class MoneyField(StringField):
    """An amount typed as "1.50", held as integer cents."""

    def process_data(self, value):
        self.data = value

    def process_formdata(self, valuelist):
        self.data = None
        if valuelist and valuelist[0].strip():
            self.data = cents_from_text(valuelist[0])

    def _value(self):
        if self.raw_data:
            return self.raw_data[0]
        return "" if self.data is None else text_from_cents(self.data)


class TiersField(StringField):
    """Units paid by place, typed "0 1 2 3" (spaces or commas), held as a tuple."""

    def process_data(self, value):
        self.data = value

    def process_formdata(self, valuelist):
        self.data = None
        if valuelist and valuelist[0].strip():
            words = valuelist[0].replace(",", " ").split()
            if not all(w.isdigit() for w in words):
                raise ValueError(_("Type whole numbers of units, e.g. 0 1 2 3 4 5."))
            if len(words) > MAX_TIERS:
                raise ValueError(_("Type at most %(most)s numbers, one per place.", most=MAX_TIERS))
            if any(int(w) > TIER_MAX for w in words):
                raise ValueError(_("A place pays at most %(most)s units.", most=TIER_MAX))
            self.data = tuple(int(w) for w in words)

    def _value(self):
        if self.raw_data:
            return self.raw_data[0]
        return "" if self.data is None else " ".join(map(str, self.data))


def required(message):
    """Like InputRequired, but also refuses blanks; an unreadable value has its own message."""

    def check(form, field):
        if field.data is None and not field.errors:
            raise StopValidation(message)

    return check


def _choices(*pairs):
    return [SelectChoice(value, label) for value, label in pairs]


def _number(label, rule, description=""):
    """A whole-number house rule, within RULE_RANGES[rule]; the input carries
    the range as its min and max."""
    low, high = RULE_RANGES[rule]
    message = _l("Type a number from %(low)s to %(high)s.", low=low, high=high)

    def in_range(form, field):
        if field.data is not None and not low <= field.data <= high:  # None: not a number, said
            raise ValidationError(message)

    in_range.field_flags = {"min": low, "max": high}  # type: ignore[attr-defined]
    return IntegerField(label, validators=[InputRequired(message), in_range],
                        invalid_value_message=message, description=description)


def _rule_numbers(rule) -> range:
    low, high = RULE_RANGES[rule]
    return range(low, high + 1)


def _money(label, **kwargs):
    return MoneyField(label, validators=[required(_l("Type an amount, e.g. 1.50."))],
                      render_kw={"inputmode": "decimal", "autocomplete": "off"}, **kwargs)


# The house rules fields carry HouseRules' own names, so a form reads and fills them directly.
RULE_FIELDS = ("packs", "extra_pack_players", "jokers", "joker_points", "hand_size",
               "hand_size_three", "passport", "direction", "dealer_rule", "no_passport_last",
               "scheme", "tiers", "unit_cents", "hu_cents", "tien_hu_cents", "joker_ace_cents",
               "point_cents")
NEVER = "never"


class HouseRulesForm(FlaskForm):
    """The currency and every house rule, as a new session sets them and as
    they can be corrected later."""

    currency = StringField(_l("Currency"), default="RM", filters=[lambda s: (s or "").strip()],
                           validators=[Length(1, CURRENCY_MAX, _l(
                               "Type 1 to %(most)s characters, e.g. RM.", most=CURRENCY_MAX))])

    # Each rule's description is its one-line explanation: under the field,
    # and on the rules page (home/rules.html).
    packs = _number(_l("Packs"), "packs", _l("52-card packs shuffled together."))
    extra_pack_players = SelectField(_l("Extra pack from"), choices=_choices(
        (NEVER, _l("Never")), *((str(n), lazy_ngettext("%(num)s player", "%(num)s players", n))
                               for n in _rule_numbers("extra_pack_players"))),
        description=_l("At a table this large, one more pack goes in."))
    jokers = _number(_l("Jokers"), "jokers", _l("In the whole deck."))
    joker_points = _number(_l("Joker points"), "joker_points",
                           _l("A joker left in hand counts this."))
    hand_size = _number(_l("Cards dealt"), "hand_size", _l("To each player."))
    hand_size_three = _number(_l("Dealt to three"), "hand_size_three",
                              _l("To each, when three play."))
    passport = SelectField(_l("Passport"), choices=_choices(
        ("any", _l("Any meld")), ("run", _l("Run only"))),
        description=_l("A player's first meld of a game, which opens their play."))
    direction = SelectField(_l("Play goes"), choices=_choices(
        ("clockwise", _l("Clockwise")), ("anticlockwise", _l("Anticlockwise"))),
        description=_l("Play starts next to the dealer, going this way."))
    dealer_rule = SelectField(_l("Next dealer"), choices=_choices(
        ("winner", _l("The winner")), ("loser", _l("The biggest loser")),
        ("rotate", _l("The next seat"))),
        description=_l("Who deals the next round: first place, the most points, or the next seat."))
    no_passport_last = BooleanField(
        _l("No passport ranks last"),
        description=_l("A player who made no passport places below the others, "
                       "whatever the points."))
    scheme = SelectField(_l("Scheme"), choices=_choices(
        ("tiered", _l("By place (1-2-3)")), ("per_point", _l("Per point")),
        ("none", _l("Points only"))),
        description=_l("How a round nobody went out of pays: by place, by the difference "
                       "in points, or not at all."))
    tiers = TiersField(_l("Units by place"),
                       validators=[required(_l("Type the units, e.g. 0 1 2 3."))],
                       render_kw={"inputmode": "numeric", "autocomplete": "off"},
                       description=_l("Units each place pays the winner, 1st place first; "
                                      "places past the list pay the last."))
    unit_cents = _money(_l("One unit"), description=_l("What one unit of the places is worth."))
    hu_cents = _money(_l("Hu"),
                      description=_l("Each other player pays this to the one who went out."))
    tien_hu_cents = _money(_l("Tien Hu"),
                           description=_l("Each other player pays this for a dealt hand that "
                                          "melds whole."))
    joker_ace_cents = _money(_l("Joker / ace"),
                             description=_l("Per joker or ace held (twin aces 2 each), settled "
                                            "between players; 0 turns it off."))
    point_cents = _money(_l("Per point"),
                         description=_l("Per point scheme: each pair settles the difference "
                                        "in points at this rate."))

    def house_rules(self) -> HouseRules:
        values = {name: self[name].data for name in RULE_FIELDS}
        extra = values["extra_pack_players"]
        values["extra_pack_players"] = None if extra == NEVER else int(extra)
        return HouseRules(**values)


LAST = "last"  # the preset "as last time": the group's last session's rules and currency


class NewSessionForm(HouseRulesForm):
    seats = FieldList(StringField(_l("Seat"), filters=[lambda s: clean_name(s or "")]),
                      min_entries=MAX_PLAYERS, max_entries=MAX_PLAYERS)
    first_dealer = SelectField(_l("First dealer"), default="random")
    preset = SelectField(_l("Rules"), default="penang",
                         choices=_choices(*PRESET_NAMES.items()))
    # "Start another anyway": the open sessions, by id ("3 7"), that the
    # table chose to play beside; sent by that button alone.
    alongside = StringField(filters=[lambda s: (s or "").strip()])

    def __init__(self, *args, last: tuple[HouseRules, str] | None = None, **kwargs):
        """``last``: the group's last session's rules and currency, offered
        first as the preset "As last time"."""
        super().__init__(*args, **kwargs)
        self.last_time = last
        if last is not None:
            self.preset.choices = [SelectChoice(LAST, _("As last time")), *self.preset.choices]
        self.table_errors: list[str] = []  # about the table as a whole, not one seat
        for i, seat in enumerate(self.seats):
            seat.label.text = _("Seat %(seat)s", seat=i + 1)
        self.first_dealer.choices = _choices(("random", _("Draw at random")), *(
            (str(i), _("Seat %(seat)s: %(name)s", seat=i + 1, name=seat.data) if seat.data
             else _("Seat %(seat)s", seat=i + 1))
            for i, seat in enumerate(self.seats)))

    @classmethod
    def first(cls, last: tuple[HouseRules, str] | None, seats: list[str]) -> "NewSessionForm":
        """The form as the page opens: as last time if the group has played
        before (``seats`` the table as it ended), else Penang."""
        if last is None:
            return cls(data=rule_data(HouseRules.penang()), last=None)
        rules, currency = last
        return cls(data={**rule_data(rules), "currency": currency, "preset": LAST,
                         "seats": seats}, last=last)

    @classmethod
    def with_preset(cls, kept: "NewSessionForm") -> "NewSessionForm":
        """A fresh form with the chosen preset's rules (and last time's
        currency, as last time) and everything else as typed."""
        data = {"seats": kept.seats.data, "currency": kept.currency.data,
                "first_dealer": kept.first_dealer.data}
        if kept.preset.data == LAST and kept.last_time is not None:
            rules, data["currency"] = kept.last_time
            data["preset"] = LAST
        else:
            data["preset"] = kept.preset.data if kept.preset.data in PRESETS else "penang"
            rules = PRESETS[data["preset"]]()
        return cls(formdata=None, data={**data, **rule_data(rules)}, last=kept.last_time)

    def names(self) -> list[str]:
        return [name for name in self.seats.data if name]

    def alongside_ids(self) -> frozenset[int]:
        """The sessions "Start another anyway" named; none if unreadable (the
        page then asks again)."""
        words = self.alongside.data.split()
        if not all(w.isascii() and w.isdigit() and len(w) <= 10 for w in words):
            return frozenset()
        return frozenset(map(int, words))

    def dealer_name(self) -> str | None:
        if self.first_dealer.data == "random":
            return None
        return self.seats.data[int(self.first_dealer.data)]

    def validate(self, extra_validators=None):
        valid = super().validate(extra_validators)
        seen: dict[str, str] = {}  # a folded name: the seat that has it
        for i, seat in enumerate(self.seats):
            name = seat.data
            if not name or seat.errors:
                continue
            if len(name) > NAME_MAX:
                seat.errors.append(_("Use at most %(max)s characters.", max=NAME_MAX))
            elif name.casefold() in seen:
                seat.errors.append(_("%(seat)s has this name already.", seat=seen[name.casefold()]))
            else:
                seen[name.casefold()] = _("Seat %(seat)s", seat=i + 1)
        if any(seat.errors for seat in self.seats):  # as FieldList.validate keeps them
            self.seats.errors = [seat.errors for seat in self.seats]
        if len(self.names()) < MIN_PLAYERS:
            self.table_errors.append(_("Type the names of %(least)s to %(most)s players.",
                                       least=MIN_PLAYERS, most=MAX_PLAYERS))
        dealer = self.first_dealer.data
        if not self.first_dealer.errors and dealer != "random" and not self.seats.data[int(dealer)]:
            self.first_dealer.errors.append(_("Seat %(seat)s is empty.", seat=int(dealer) + 1))
        return valid and not self.table_errors and not any(s.errors for s in self.seats) \
            and not self.first_dealer.errors


def rule_data(rules: HouseRules) -> dict:
    """Field data for a set of house rules."""
    data = {name: getattr(rules, name) for name in RULE_FIELDS}
    extra = rules.extra_pack_players
    data["extra_pack_players"] = NEVER if extra is None else str(extra)
    return data


def rule_texts(rules: HouseRules) -> dict:
    """The house rules as the form's inputs show them, for the preset script."""
    texts = {}
    for name, value in rule_data(rules).items():
        if name.endswith("_cents"):
            value = text_from_cents(value)
        elif name == "tiers":
            value = " ".join(map(str, value))
        elif not isinstance(value, bool):
            value = str(value)
        texts[name] = value
    return texts


class JoinForm(FlaskForm):
    name = StringField(_l("Name"), filters=[lambda s: clean_name(s or "")], validators=[
        Length(1, NAME_MAX, _l("Type a name of 1 to %(most)s characters.", most=NAME_MAX))])
    position = SelectField(_l("Sits"), coerce=int)


class PhoneForm(FlaskForm):
    """Whose phone this is: a player's id, or nobody's (empty). The view
    checks that the player has a seat at the session."""

    player = StringField(filters=[lambda s: (s or "").strip()])

    def player_id(self) -> int | None:
        """The chosen id; None for nobody's. ValueError if it is no id."""
        text = self.player.data
        if not text:
            return None
        if not (text.isascii() and text.isdigit() and len(text) <= 10) \
                or not 1 <= int(text) <= ID_MAX:
            raise ValueError(text)
        return int(text)


class EditRulesForm(HouseRulesForm, VersionForm):
    """The house rules of a running session, as of the session's version."""
